/// The one error type thrown by OSecCrypto.
///
/// Equality compares only ``code``; ``reason`` and ``openSSLErrors`` are diagnostics. Neither ever
/// contains secret bytes (keys, passphrases, plaintext).
package struct CryptoError: Error, Sendable, CustomStringConvertible {
    /// An open set of error codes (a struct so codes can be added without breaking callers).
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// Bad size, bad length or unsupported parameter combination (→ errSecParam).
        package static let invalidParameter = Code("invalidParameter")
        /// Key bytes do not decode or fail the sanity checks.
        package static let invalidKey = Code("invalidKey")
        /// GCM tag mismatch, or wrong passphrase on encrypted PEM / PKCS#8 (→ errSecAuthFailed).
        package static let authenticationFailed = Code("authenticationFailed")
        /// RSA padding or symmetric padding failure on decryption.
        package static let decryptionFailed = Code("decryptionFailed")
        /// The algorithm is not available (e.g. OpenSSL's legacy provider cannot be loaded).
        package static let unsupportedAlgorithm = Code("unsupportedAlgorithm")
        /// Iteration, memory or size caps exceeded.
        package static let resourceLimit = Code("resourceLimit")
        /// OpenSSL failed unexpectedly (→ errSecInternal).
        package static let internalError = Code("internalError")

        /// The code's name, e.g. `invalidKey`.
        package var description: String { name }
    }

    /// What went wrong, as a code callers can switch on.
    package let code: Code
    /// Human-readable explanation; never contains secret bytes.
    package let reason: String
    /// The OpenSSL error queue at the time of failure (`ERR_error_string_n` of each entry, oldest first).
    package let openSSLErrors: [String]

    /// Creates an error. Prefer the static helpers, which also drain the OpenSSL error queue.
    package init(_ code: Code, _ reason: String, openSSLErrors: [String] = []) {
        self.code = code
        self.reason = reason
        self.openSSLErrors = openSSLErrors
    }

    /// `code: reason [openssl errors]`.
    package var description: String {
        openSSLErrors.isEmpty
            ? "\(code): \(reason)"
            : "\(code): \(reason) [\(openSSLErrors.joined(separator: "; "))]"
    }
}

extension CryptoError: Equatable {
    /// Errors are equal when their codes are equal.
    package static func == (lhs: CryptoError, rhs: CryptoError) -> Bool { lhs.code == rhs.code }
}
