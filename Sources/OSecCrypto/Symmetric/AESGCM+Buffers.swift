internal import COpenSSLShims

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// AES-GCM on caller-owned C buffers, for facades whose Apple signatures hand them pointers (CommonCrypto's
/// `CCCryptorGCMOneshotEncrypt`/`Decrypt`): the message goes straight to OpenSSL, nothing is copied, and the
/// output may be the input (in place).
extension AESGCM {
    /// Tag lengths these entry points take: 8...16 bytes, what Apple's CommonCrypto accepts (SP 800-38D
    /// Appendix C allows 8-byte tags for constrained uses). The `Data` API keeps to ``tagLengths``.
    package static let bufferTagLengths = 8...16
    /// Longest message GCM may process under one key and IV (SP 800-38D §5.2.1.1: 2^39 − 256 bits).
    package static let maximumMessageLength = (1 << 36) - 32

    /// What a buffer one-shot does with its tag: a seal writes it, an open checks the one it is given.
    package enum BufferTag {
        /// Seal: encrypt, and write the tag to this pointer.
        case seal(into: UnsafeMutableRawPointer)
        /// Open: check the tag at this pointer (constant time, inside OpenSSL), and decrypt.
        case open(expected: UnsafeRawPointer)
    }

    /// Seals or opens, as `tag` says, `count` bytes at `input` into `output` (the same length; it may be
    /// `input`), with a `tagCount`-byte tag. `key` is 16, 24 or 32 bytes; `nonce` any length from 1 byte (12 is
    /// GCM's recommended size); `aad` and the message buffers may be nil when their counts are 0. When an open
    /// fails the output is cleansed.
    /// - Throws: `.invalidParameter` for a bad key, nonce, tag or message length or a missing buffer;
    ///   `.authenticationFailed` when an open's tag does not match (wrong key, nonce, data or tag).
    package static func oneShot(
        _ tag: BufferTag, key: UnsafeRawPointer, keyCount: Int, nonce: UnsafeRawPointer, nonceCount: Int,
        aad: UnsafeRawPointer?, aadCount: Int, input: UnsafeRawPointer?, count: Int,
        into output: UnsafeMutableRawPointer?, tagCount: Int
    ) throws(CryptoError) {
        let cipher = try checkedCipher(
            keyCount: keyCount, nonceCount: nonceCount, aad: aad, aadCount: aadCount, input: input,
            count: count, output: output, tagCount: tagCount)
        let (encrypt, tagOut, tagIn): (Int32, UnsafeMutableRawPointer?, UnsafeRawPointer?) =
            switch tag {
            case .seal(let into): (1, into, nil)
            case .open(let expected): (0, nil, expected)
            }
        let rc = osec_aes_gcm_oneshot(
            UnsafeRawPointer(cipher), encrypt, key, keyCount, nonce, nonceCount, aad, aadCount, input, count,
            output, tagOut, tagIn, tagCount)
        switch rc {
        case 1: return
        case 0 where encrypt == 0: throw CryptoError(.authenticationFailed, "GCM authentication tag mismatch")
        default: throw CryptoError.failed(encrypt == 1 ? "AES-GCM seal" : "AES-GCM open")
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
