internal import COpenSSL

/// Owns one fetched, immutable OpenSSL algorithm object (EVP_MD, EVP_CIPHER, EVP_KDF).
///
/// `@unchecked Sendable`: fetched algorithm objects are reference counted, never mutated after the fetch,
/// and OpenSSL documents them as safe to share between threads. Instances live in `static let`s and are
/// never freed (process lifetime), so no deinit is needed.
final class FetchedAlgorithm: @unchecked Sendable {
    let raw: OpaquePointer?
    let name: String

    init(name: String, raw: OpaquePointer?) {
        self.name = name
        self.raw = raw
        if raw == nil { OpenSSLErrorQueue.clear() }
    }

    /// The object, or `.unsupportedAlgorithm` naming it when the fetch failed.
    func get() throws(CryptoError) -> OpaquePointer {
        guard let raw else { throw CryptoError(.unsupportedAlgorithm, "\(name) is not available in OpenSSL") }
        return raw
    }
}

/// Owns one OpenSSL library context holding the "legacy" and "default" providers.
///
/// Legacy ciphers (RC2, RC4, single DES) are only reachable through OpenSSL's legacy provider. Loading
/// it into the global default context would change behaviour for every other user of libcrypto in the
/// process, so we keep it in a private context. `@unchecked Sendable`: the context is configured once in
/// `init` and only read afterwards; OSSL_LIB_CTX is thread-safe for fetches.
final class LegacyLibraryContext: @unchecked Sendable {
    private let context: OpaquePointer?
    private let failure: CryptoError?

    /// The shared instance (created on first use, thread-safely).
    static let shared = LegacyLibraryContext()

    private init() {
        guard let context = OSSL_LIB_CTX_new() else {
            self.context = nil
            self.failure = CryptoError.openSSL(.unsupportedAlgorithm, "cannot create an OpenSSL library context")
            return
        }
        guard OSSL_PROVIDER_load(context, "legacy") != nil else {
            OSSL_LIB_CTX_free(context)
            self.context = nil
            self.failure = CryptoError.openSSL(.unsupportedAlgorithm, "OpenSSL legacy provider cannot be loaded")
            return
        }
        guard OSSL_PROVIDER_load(context, "default") != nil else {
            OSSL_LIB_CTX_free(context)
            self.context = nil
            self.failure = CryptoError.openSSL(.unsupportedAlgorithm, "OpenSSL default provider cannot be loaded")
            return
        }
        self.context = context
        self.failure = nil
    }

    /// The context, or the `.unsupportedAlgorithm` error explaining why it could not be set up.
    func get() throws(CryptoError) -> OpaquePointer {
        if let context { return context }
        throw failure ?? CryptoError(.unsupportedAlgorithm, "OpenSSL legacy provider unavailable")
    }

    /// Fetches a cipher from the legacy context.
    func fetchCipher(_ name: String) -> FetchedAlgorithm {
        guard let context else { return FetchedAlgorithm(name: name, raw: nil) }
        return FetchedAlgorithm(name: name, raw: EVP_CIPHER_fetch(context, name, nil))
    }

    /// Fetches a digest from the legacy context.
    func fetchDigest(_ name: String) -> FetchedAlgorithm {
        guard let context else { return FetchedAlgorithm(name: name, raw: nil) }
        return FetchedAlgorithm(name: name, raw: EVP_MD_fetch(context, name, nil))
    }
}
