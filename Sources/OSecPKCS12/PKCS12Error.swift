/// The one error type thrown by `OSecPKCS12`.
///
/// Errors compare equal when their ``Code`` matches; ``reason`` is a diagnostic and never contains
/// passwords, keys or decrypted bytes.
package struct PKCS12Error: Error, Sendable, CustomStringConvertible {
    /// An open set of error codes (a struct, so codes can be added without breaking callers).
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// Wrong password: the MAC does not verify, or (for files without a MAC) decryption fails
        /// or the plaintext does not decode (→ errSecAuthFailed).
        package static let authenticationFailed = Code("authenticationFailed")
        /// The file is not a well-formed PKCS#12 PFX (→ errSecDecode).
        package static let malformed = Code("malformed")
        /// The file uses an algorithm or structure we do not implement; the reason names its OID
        /// (→ errSecDecode).
        package static let unsupportedAlgorithm = Code("unsupportedAlgorithm")
        /// The file exceeds one of the ``PKCS12Limits`` (→ errSecDecode).
        package static let resourceLimit = Code("resourceLimit")
        /// A caller-supplied parameter is invalid (export only; → errSecParam).
        package static let invalidParameter = Code("invalidParameter")
        /// The crypto layer failed unexpectedly (→ errSecInternal).
        package static let internalError = Code("internalError")

        package var description: String { name }
    }

    /// What went wrong.
    package let code: Code
    /// Human-readable detail for diagnostics.
    package let reason: String
    /// The dotted OID of the unsupported algorithm, for ``Code/unsupportedAlgorithm``.
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

extension PKCS12Error: Equatable {
    package static func == (lhs: PKCS12Error, rhs: PKCS12Error) -> Bool { lhs.code == rhs.code }
}
