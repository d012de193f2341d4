internal import COpenSSL
import Foundation

/// Owns one EVP_PKEY_CTX for one operation (contexts are not shareable between threads).
final class PKeyContext {
    let raw: OpaquePointer

    /// A context for an operation with `key` (the key is lent for the context's lifetime by the caller).
    init(key: OpaquePointer) throws(CryptoError) {
        raw = try ossl(EVP_PKEY_CTX_new_from_pkey(nil, key, nil), "EVP_PKEY_CTX_new_from_pkey")
    }

    /// A context for key generation by algorithm name.
    init(algorithmName: String) throws(CryptoError) {
        raw = try ossl(EVP_PKEY_CTX_new_from_name(nil, algorithmName, nil), "EVP_PKEY_CTX_new_from_name")
    }

    deinit { EVP_PKEY_CTX_free(raw) }

    /// Runs EVP_PKEY_generate and wraps the result.
    func generate() throws(CryptoError) -> AsymmetricKey {
        var pkey: OpaquePointer?
        try ossl(EVP_PKEY_generate(raw, &pkey), "EVP_PKEY_generate")
        let key = try ossl(pkey, "EVP_PKEY_generate")
        return try AsymmetricKey(takingOwnershipOf: key, isPrivate: true)
    }

    /// Sets the RSA padding mode.
    func setRSAPadding(_ mode: Int32) throws(CryptoError) {
        try ossl(EVP_PKEY_CTX_set_rsa_padding(raw, mode), "EVP_PKEY_CTX_set_rsa_padding")
    }

    /// Sets the signature digest (PKCS#1 DigestInfo / PSS hash).
    func setSignatureDigest(_ digest: DigestAlgorithm) throws(CryptoError) {
        try ossl(EVP_PKEY_CTX_set_signature_md(raw, try digest.fetched()), "EVP_PKEY_CTX_set_signature_md")
    }
}
