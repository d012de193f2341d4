internal import COpenSSL
internal import COpenSSLShims
import OSecLocks

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

    private let lock = PosixMutex()
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
    package func seal(
        nonce: Data, plaintext: Data, aad: Data, tagLength: Int = 16
    ) throws(CryptoError) -> (ciphertext: Data, tag: Data) {
        guard AESGCM.tagLengths.contains(tagLength) else {
            throw CryptoError(.invalidParameter, "GCM tag length must be 12...16 bytes")
        }
        try AESGCMKey.checkSizes(nonce: nonce.count, input: plaintext.count, aad: aad.count)
        var tag = Data(count: tagLength)
        let ciphertext = try Data.filling(capacity: plaintext.count) { (out) throws(CryptoError) in
            lock.lock()
            defer { lock.unlock() }
            let rc = tag.withUnsafeMutableBytes { t in
                nonce.withUnsafeBytes { n in
                    aad.withUnsafeBytes { a in
                        plaintext.withUnsafeBytes { p in
                            osec_aes_gcm_prepared(
                                UnsafeMutableRawPointer(encryptor.raw), 1, n.baseAddress, n.count,
                                a.baseAddress, a.count, p.baseAddress, p.count, out, t.baseAddress, t.count)
                        }
                    }
                }
            }
            try AESGCMKey.check(rc)
            return plaintext.count
        }
        return (ciphertext, tag)
    }

    /// Checks the tag (constant time, inside OpenSSL) and decrypts. A wrong tag throws `.authenticationFailed`.
    package func open(nonce: Data, ciphertext: Data, tag: Data, aad: Data) throws(CryptoError) -> Data {
        try AESGCMKey.checkSizes(nonce: nonce.count, input: ciphertext.count, aad: aad.count)
        return try open(combined: nonce + ciphertext + tag, from: 0, tagLength: tag.count, aad: aad)
    }

    /// ``open(nonce:ciphertext:tag:aad:)`` for a box laid out as `nonce (12) ‖ ciphertext ‖ tag` from byte
    /// `offset` of `box` to its end (the layout a store keeps), without slicing it into three values.
    package func open(combined box: Data, from offset: Int, tagLength: Int, aad: Data) throws(CryptoError) -> Data {
        guard AESGCM.tagLengths.contains(tagLength) else {
            throw CryptoError(.invalidParameter, "GCM tag length must be 12...16 bytes")
        }
        guard offset >= 0, box.count >= offset + AESGCMKey.nonceLength + tagLength else {
            throw CryptoError(.invalidParameter, "sealed box too short")
        }
        let ciphertextCount = box.count - offset - AESGCMKey.nonceLength - tagLength
        try AESGCMKey.checkSizes(nonce: AESGCMKey.nonceLength, input: ciphertextCount, aad: aad.count)
        return try Data.filling(capacity: ciphertextCount) { (out) throws(CryptoError) in
            lock.lock()
            defer { lock.unlock() }
            let rc = box.withUnsafeBytes { b in
                aad.withUnsafeBytes { a in
                    let nonce = b.baseAddress.map { $0 + offset }
                    let ciphertext = nonce.map { $0 + AESGCMKey.nonceLength }
                    // OpenSSL only reads the expected tag when decrypting.
                    let tag = ciphertext.map { UnsafeMutableRawPointer(mutating: $0 + ciphertextCount) }
                    return osec_aes_gcm_prepared(
                        UnsafeMutableRawPointer(decryptor.raw), 0, nonce, AESGCMKey.nonceLength,
                        a.baseAddress, a.count, ciphertext, ciphertextCount, out, tag, tagLength)
                }
            }
            try AESGCMKey.check(rc)
            return ciphertextCount
        }
    }

    private static func checkSizes(nonce: Int, input: Int, aad: Int) throws(CryptoError) {
        guard nonce == nonceLength else {
            throw CryptoError(.invalidParameter, "GCM nonce must be \(nonceLength) bytes here")
        }
        guard input <= CipherContext.maximumInput, aad <= CipherContext.maximumInput else {
            throw CryptoError(.resourceLimit, "input too large")
        }
    }

    private static func check(_ rc: Int32) throws(CryptoError) {
        guard rc == 1 else {
            if rc == 0 { throw CryptoError(.authenticationFailed, "GCM authentication tag mismatch") }
            throw CryptoError.openSSL(.internalError, "AES-GCM with a prepared key failed")
        }
    }
}
