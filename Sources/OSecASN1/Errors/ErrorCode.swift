/// A named condition of one error type: the open set of codes every layer's error type switches on.
///
/// `Domain` only tells the sets apart (a code of `ASN1Error` is not a code of `X509Error`, and overloads on
/// them stay distinct); it is never stored. Each error type declares its codes in an extension constrained to its
/// domain, so codes can be added without breaking callers:
///
/// ```swift
/// extension ErrorCode where Domain == ASN1Error {
///     package static var invalidLength: Self { Self("invalidLength") }
/// }
/// ```
///
/// Codes compare by name; the name is also the code's `description`.
package struct ErrorCode<Domain>: Hashable, Sendable, CustomStringConvertible {
    /// A stable name, e.g. `"invalidLength"`.
    package let name: String

    /// The code called `name`. Only an error type's own code list should create codes.
    @inlinable
    package init(_ name: String) { self.name = name }

    /// The code's name.
    package var description: String { name }
}

/// An error type whose identity is its ``ErrorCode``: two errors are equal when their codes are, whatever their
/// reasons, underlying errors or source locations (those are diagnostics only).
package protocol CodedError: Error, Equatable {
    /// The error type's set of codes (usually the error type itself).
    associatedtype Domain
    /// What went wrong.
    var code: ErrorCode<Domain> { get }
}

extension CodedError {
    /// Errors are equal when their codes are equal.
    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    /// Runs `body`: an error of this type passes through unchanged, any other error is turned into one by
    /// `convert` (how a layer wraps what the layers below it throw). Inlined, so a caller on a hot path pays
    /// nothing for it beyond `body` itself.
    @inlinable @inline(__always)
    package static func converting<R>(
        _ body: () throws -> R, otherwise convert: (any Error) -> Self
    ) throws(Self) -> R {
        do {
            return try body()
        } catch let error as Self {
            throw error
        } catch {
            throw convert(error)
        }
    }
}

/// The name and code set of a ``DomainError``.
package protocol ErrorDomain: Sendable {
    /// The error type's name as it appears in descriptions, e.g. `"KeychainStoreError"`.
    static var typeName: String { get }
}

/// The error type of a layer whose errors are a code, a reason for people and the lower-layer error that caused
/// them (the keychain store's and the sync engine's errors are two of its domains).
///
/// Its description is `TypeName.code: reason [underlying]`; ``reason`` never contains secret bytes.
package struct DomainError<Domain: ErrorDomain>: CodedError, Sendable, CustomStringConvertible {
    /// The domain's codes.
    package typealias Code = ErrorCode<Domain>

    /// The condition.
    package let code: Code
    /// Human-readable detail for logs (never secret bytes).
    package let reason: String
    /// The lower-layer error that caused this one, if any.
    package let underlying: (any Error & Sendable)?

    /// An error of `code` with a reason and, optionally, the error it wraps.
    package init(_ code: Code, _ reason: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.reason = reason
        self.underlying = underlying
    }

    /// `TypeName.code: reason [underlying]`.
    package var description: String {
        var text = "\(Domain.typeName).\(code.name): \(reason)"
        if let underlying { text += " [\(underlying)]" }
        return text
    }
}
