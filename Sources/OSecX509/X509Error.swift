/// The single error type thrown by `OSecX509`.
///
/// Errors compare equal when their ``Code`` matches; `reason`, `underlying`, file and line are diagnostics.
/// ASN.1 and crypto failures are wrapped: their original error is kept in ``underlying``.
package struct X509Error: Error, Sendable {
    /// An open set of error conditions.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The code's name.
        package var description: String { name }

        /// The bytes are not a well-formed structure of the expected kind (wraps an `ASN1Error` when one was thrown).
        package static let malformed = Code("malformed")
        /// The same extension OID appears twice in one extension list (RFC 5280 §4.2).
        package static let duplicateExtension = Code("duplicateExtension")
        /// A signature or key algorithm we do not implement (or whose parameters we reject).
        package static let unsupportedAlgorithm = Code("unsupportedAlgorithm")
        /// A value is outside what we accept (version, serial length, ...).
        package static let invalidValue = Code("invalidValue")
        /// A PEM bundle is malformed or has the wrong label.
        package static let invalidPEM = Code("invalidPEM")
        /// A key could not be used (wrong type, missing private half, mismatched pair).
        package static let invalidKey = Code("invalidKey")
        /// Signing or another crypto operation failed.
        package static let cryptoFailure = Code("cryptoFailure")
    }

    /// What kind of failure.
    package let code: Code
    /// What exactly failed, for messages.
    package let reason: String
    /// The lower-layer error, if any (DER, crypto).
    package let underlying: (any Error & Sendable)?
    /// Where the error was made (`#fileID`).
    package let file: String
    /// The line where the error was made.
    package let line: UInt

    /// An error of `code` with a reason and, optionally, the error it wraps.
    package init(
        _ code: Code, _ reason: String, underlying: (any Error & Sendable)? = nil,
        file: String = #fileID, line: UInt = #line
    ) {
        self.code = code
        self.reason = reason
        self.underlying = underlying
        self.file = file
        self.line = line
    }
}

extension X509Error: Equatable {
    /// Errors are equal when their codes are.
    package static func == (lhs: X509Error, rhs: X509Error) -> Bool { lhs.code == rhs.code }
}

extension X509Error: CustomStringConvertible {
    /// `X509Error.code: reason`, the underlying error, and where the error was made.
    package var description: String {
        var text = "X509Error.\(code): \(reason)"
        if let underlying { text += " [\(underlying)]" }
        return text + " (\(file):\(line))"
    }
}

extension X509Error {
    /// Runs `body`, converting any non-X509 error into ``Code/malformed`` (ASN.1) with the original as underlying.
    @inline(__always)
    static func wrapping<T>(_ what: @autoclosure () -> String, _ body: () throws -> T) throws(X509Error) -> T {
        do {
            return try body()
        } catch let error as X509Error {
            throw error
        } catch {
            throw X509Error(.malformed, what(), underlying: error)
        }
    }
}
