import OSecASN1

/// The single error type thrown by `OSecX509`.
///
/// Errors compare equal when their ``Code`` matches; `reason`, `underlying`, file and line are diagnostics.
/// ASN.1 and crypto failures are wrapped: their original error is kept in ``underlying``.
package struct X509Error: CodedError, Sendable {
    /// An open set of error conditions.
    package typealias Code = ErrorCode<X509Error>

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

/// The codes of ``X509Error``.
extension ErrorCode where Domain == X509Error {
    /// The bytes are not a well-formed structure of the expected kind (wraps an `ASN1Error` when one was thrown).
    package static var malformed: Self { Self("malformed") }
    /// The same extension OID appears twice in one extension list (RFC 5280 §4.2).
    package static var duplicateExtension: Self { Self("duplicateExtension") }
    /// A signature or key algorithm we do not implement (or whose parameters we reject).
    package static var unsupportedAlgorithm: Self { Self("unsupportedAlgorithm") }
    /// A value is outside what we accept (version, serial length, ...).
    package static var invalidValue: Self { Self("invalidValue") }
    /// A PEM bundle is malformed or has the wrong label.
    package static var invalidPEM: Self { Self("invalidPEM") }
    /// A key could not be used (wrong type, missing private half, mismatched pair).
    package static var invalidKey: Self { Self("invalidKey") }
    /// Signing or another crypto operation failed.
    package static var cryptoFailure: Self { Self("cryptoFailure") }
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
    /// Runs `body`, converting any non-X509 error into `X509Error.Code.malformed` (ASN.1) with the original as
    /// underlying.
    @inline(__always)
    static func wrapping<T>(_ what: @autoclosure () -> String, _ body: () throws -> T) throws(X509Error) -> T {
        try converting(body) { error in X509Error(.malformed, what(), underlying: error) }
    }
}
