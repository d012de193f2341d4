import Foundation
internal import COpenSSL

/// One AES-GCM key kept ready for many operations: the key schedule is expanded once into an encrypting and
/// a decrypting OpenSSL context, and each operation only sets its nonce. For callers that open or seal many
/// small messages under one key (a keychain reading item secrets), where creating a context and expanding
/// the key on every call costs as much as the cipher work itself.
///
/// Nonces are 12 bytes (GCM's recommended size); use ``AESGCM`` for other lengths. Thread-safe: operations
/// are serialized on the key. The expanded key lives in OpenSSL memory, which `EVP_CIPHER_CTX_free`
/// cleanses when the key is released.
package final class AESGCMKey: @unchecked Sendable {  // sendable: the contexts are only used under `lock`
    package static let nonceLength = 12

    private let lock = NSLock()
    private let encryptor: CipherContext
    private let decryptor: CipherContext

    /// - Throws: `.invalidParameter` unless `key` is 16, 24 or 32 bytes.
    package init(key: Data) throws(CryptoError) {
        let cipher = try AESGCM.cipher(forKeyLength: key.count)
        encryptor = try CipherContext()
        decryptor = try CipherContext()
        try key.withBytes { (keyBytes, _) throws(CryptoError) in
            let k = keyBytes.assumingMemoryBound(to: UInt8.self)
            try ossl(EVP_CipherInit_ex2(encryptor.raw, cipher, k, nil, 1, nil), "EVP_CipherInit_ex2")
            try ossl(EVP_CipherInit_ex2(decryptor.raw, cipher, k, nil, 0, nil), "EVP_CipherInit_ex2")
        }
    }

    /// Encrypts and authenticates `plaintext` with a 12-byte `nonce` that must never repeat under this key.
    package func seal(nonce: Data, plaintext: Data, aad: Data, tagLength: Int = 16) throws(CryptoError) -> (ciphertext: Data, tag: Data) {
        guard AESGCM.tagLengths.contains(tagLength) else {
            throw CryptoError(.invalidParameter, "GCM tag length must be 12...16 bytes")
        }
        lock.lock()
        defer { lock.unlock() }
        try restart(encryptor, nonce: nonce, encrypt: true)
        return try AESGCM.finishSeal(encryptor, plaintext: plaintext, aad: aad, tagLength: tagLength)
    }

    /// Checks the tag (constant time, inside OpenSSL) and decrypts. A wrong tag throws `.authenticationFailed`.
    package func open(nonce: Data, ciphertext: Data, tag: Data, aad: Data) throws(CryptoError) -> Data {
        guard AESGCM.tagLengths.contains(tag.count) else {
            throw CryptoError(.invalidParameter, "GCM tag length must be 12...16 bytes")
        }
        lock.lock()
        defer { lock.unlock() }
        try restart(decryptor, nonce: nonce, encrypt: false)
        return try AESGCM.finishOpen(decryptor, ciphertext: ciphertext, tag: tag, aad: aad)
    }

    /// Starts a new message on `context`: same key, new nonce (OpenSSL keeps the key schedule).
    private func restart(_ context: CipherContext, nonce: Data, encrypt: Bool) throws(CryptoError) {
        guard nonce.count == AESGCMKey.nonceLength else {
            throw CryptoError(.invalidParameter, "GCM nonce must be \(AESGCMKey.nonceLength) bytes here")
        }
        try nonce.withBytes { (nonceBytes, _) throws(CryptoError) in
            try ossl(EVP_CipherInit_ex2(context.raw, nil, nil, nonceBytes.assumingMemoryBound(to: UInt8.self),
                                        encrypt ? 1 : 0, nil), "EVP_CipherInit_ex2")
        }
    }
}
