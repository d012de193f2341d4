internal import COpenSSLShims
import Foundation

/// AES-GCM on caller-owned C buffers, for facades whose Apple signatures hand them pointers (CommonCrypto's
/// `CCCryptorGCMOneshotEncrypt`/`Decrypt`): the message goes straight to OpenSSL, nothing is copied, and the
/// output may be the input (in place).
extension AESGCM {
    /// Tag lengths these entry points take: 8...16 bytes, what Apple's CommonCrypto accepts (SP 800-38D
    /// Appendix C allows 8-byte tags for constrained uses). The `Data` API keeps to ``tagLengths``.
    package static let bufferTagLengths = 8...16
    /// Longest message GCM may process under one key and IV (SP 800-38D §5.2.1.1: 2^39 − 256 bits).
    package static let maximumMessageLength = (1 << 36) - 32

    /// Encrypts `count` bytes at `plaintext` into `ciphertext` (the same length; it may be `plaintext`) and
    /// writes a `tagCount`-byte tag to `tag`. `key` is 16, 24 or 32 bytes; `nonce` any length from 1 byte (12
    /// is GCM's recommended size); `aad` and the message buffers may be nil when their counts are 0.
    /// - Throws: `.invalidParameter` for a bad key, nonce, tag or message length or a missing buffer.
    package static func seal(
        key: UnsafeRawPointer, keyCount: Int, nonce: UnsafeRawPointer, nonceCount: Int, aad: UnsafeRawPointer?,
        aadCount: Int, plaintext: UnsafeRawPointer?, count: Int, into ciphertext: UnsafeMutableRawPointer?,
        tag: UnsafeMutableRawPointer, tagCount: Int
    ) throws(CryptoError) {
        let cipher = try checkedCipher(
            keyCount: keyCount, nonceCount: nonceCount, aad: aad, aadCount: aadCount, input: plaintext,
            count: count, output: ciphertext, tagCount: tagCount)
        let rc = osec_aes_gcm_oneshot(
            UnsafeRawPointer(cipher), 1, key, keyCount, nonce, nonceCount, aad, aadCount, plaintext, count,
            ciphertext, tag, nil, tagCount)
        guard rc == 1 else { throw CryptoError.failed("AES-GCM seal") }
    }

    /// Checks the `tagCount`-byte tag at `tag` (constant time, inside OpenSSL) and decrypts `count` bytes at
    /// `ciphertext` into `plaintext` (it may be `ciphertext`). On any failure the output is cleansed.
    /// - Throws: `.authenticationFailed` when the tag does not match (wrong key, nonce, data or tag);
    ///   `.invalidParameter` as the seal does.
    package static func open(
        key: UnsafeRawPointer, keyCount: Int, nonce: UnsafeRawPointer, nonceCount: Int, aad: UnsafeRawPointer?,
        aadCount: Int, ciphertext: UnsafeRawPointer?, count: Int, into plaintext: UnsafeMutableRawPointer?,
        tag: UnsafeRawPointer, tagCount: Int
    ) throws(CryptoError) {
        let cipher = try checkedCipher(
            keyCount: keyCount, nonceCount: nonceCount, aad: aad, aadCount: aadCount, input: ciphertext,
            count: count, output: plaintext, tagCount: tagCount)
        let rc = osec_aes_gcm_oneshot(
            UnsafeRawPointer(cipher), 0, key, keyCount, nonce, nonceCount, aad, aadCount, ciphertext, count,
            plaintext, nil, tag, tagCount)
        switch rc {
        case 1: return
        case 0: throw CryptoError(.authenticationFailed, "GCM authentication tag mismatch")
        default: throw CryptoError.failed("AES-GCM open")
        }
    }

    /// The checks both directions share, then the fetched cipher for the key length.
    private static func checkedCipher(
        keyCount: Int, nonceCount: Int, aad: UnsafeRawPointer?, aadCount: Int, input: UnsafeRawPointer?,
        count: Int, output: UnsafeMutableRawPointer?, tagCount: Int
    ) throws(CryptoError) -> OpaquePointer {
        guard bufferTagLengths.contains(tagCount) else {
            throw CryptoError(.invalidParameter, "GCM tag length must be 8...16 bytes")
        }
        guard nonceCount > 0 else { throw CryptoError(.invalidParameter, "GCM nonce must not be empty") }
        guard aadCount >= 0, aadCount == 0 || aad != nil else {
            throw CryptoError(.invalidParameter, "GCM additional data missing")
        }
        guard count >= 0, count <= maximumMessageLength else {
            throw CryptoError(.invalidParameter, "GCM message longer than 2^36 - 32 bytes")
        }
        guard count == 0 || (input != nil && output != nil) else {
            throw CryptoError(.invalidParameter, "GCM input or output buffer missing")
        }
        return try cipher(forKeyLength: keyCount)
    }
}
