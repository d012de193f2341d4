import OSecASN1

/// The one error type thrown by `OSecPKCS12`.
///
/// Errors compare equal when their ``Code`` matches; ``reason`` is a diagnostic and never contains
/// passwords, keys or decrypted bytes.
package struct PKCS12Error: CodedError, Sendable, CustomStringConvertible {
    /// An open set of error codes (codes can be added without breaking callers).
    package typealias Code = ErrorCode<PKCS12Error>

    /// What went wrong.
    package let code: Code
    /// Human-readable detail for diagnostics.
    package let reason: String
    /// The dotted OID of the unsupported algorithm, for `PKCS12Error.Code.unsupportedAlgorithm`.
    package let algorithmOID: String?

    package init(_ code: Code, _ reason: String, algorithmOID: String? = nil) {
        self.code = code
        self.reason = reason
        self.algorithmOID = algorithmOID
    }

    package var description: String { "PKCS12Error.\(code): \(reason)" }

    static func malformed(_ reason: String) -> PKCS12Error { PKCS12Error(.malformed, reason) }

    static func unsupported(_ what: String, oid: String) -> PKCS12Error {
        PKCS12Error(.unsupportedAlgorithm, "unsupported \(what) algorithm \(oid)", algorithmOID: oid)
    }
}

/// The codes of ``PKCS12Error``.
extension ErrorCode where Domain == PKCS12Error {
    /// Wrong password: the MAC does not verify, or (for files without a MAC) decryption fails
    /// or the plaintext does not decode (→ errSecAuthFailed).
    package static var authenticationFailed: Self { Self("authenticationFailed") }
    /// The file is not a well-formed PKCS#12 PFX (→ errSecDecode).
    package static var malformed: Self { Self("malformed") }
    /// The file uses an algorithm or structure we do not implement; the reason names its OID
    /// (→ errSecDecode).
    package static var unsupportedAlgorithm: Self { Self("unsupportedAlgorithm") }
    /// The file exceeds one of the ``PKCS12Limits`` (→ errSecDecode).
    package static var resourceLimit: Self { Self("resourceLimit") }
    /// A caller-supplied parameter is invalid (export only; → errSecParam).
    package static var invalidParameter: Self { Self("invalidParameter") }
    /// The crypto layer failed unexpectedly (→ errSecInternal).
    package static var internalError: Self { Self("internalError") }
}
