internal import COpenSSL
internal import COpenSSLShims

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// AES in Galois/Counter Mode (NIST SP 800-38D).
package enum AESGCM {
    /// Accepted tag lengths. SP 800-38D allows 12...16 bytes for general use; shorter tags make forgeries
    /// cheap, so they are rejected on both seal and open.
    package static let tagLengths = 12...16
    /// Longest nonce the EVP path takes: OpenSSL 3.0's GCM provider keeps the IV in a 128-byte buffer. GCM
    /// itself allows any length (12 bytes is the recommended size); longer nonces, up to
    /// ``maximumLongNonceLength``, go through libcrypto's GCM128 mode functions instead.
    package static let maximumNonceLength = 128
    /// Longest nonce accepted at all (a bound on work for input-chosen nonces).
    package static let maximumLongNonceLength = 64 * 1024

    /// Encrypts and authenticates. Key 16/24/32 bytes, nonce 1...128 bytes (12 recommended).
    package static func seal(
        key: Data, nonce: Data, plaintext: Data, aad: Data = Data(), tagLength: Int = 16
    ) throws(CryptoError) -> (ciphertext: Data, tag: Data) {
        guard tagLengths.contains(tagLength) else {
            throw CryptoError(.invalidParameter, "GCM tag length must be 12...16 bytes")
        }
        if nonce.count > maximumNonceLength {
            var tag = Data(count: tagLength)
            let ciphertext = try longNonce(encrypt: true, key: key, nonce: nonce, input: plaintext, aad: aad, tag: &tag)
            return (ciphertext, tag)
        }
        let context = try start(key: key, nonce: nonce, encrypt: true)
        return try finishSeal(context, plaintext: plaintext, aad: aad, tagLength: tagLength)
    }

    /// Checks the tag (constant time, inside OpenSSL) and decrypts. A wrong tag throws `.authenticationFailed`;
    /// a tag shorter than 12 or longer than 16 bytes throws `.invalidParameter`.
    package static func open(
        key: Data, nonce: Data, ciphertext: Data, tag: Data, aad: Data = Data()
    ) throws(CryptoError) -> Data {
        guard tagLengths.contains(tag.count) else {
            throw CryptoError(.invalidParameter, "GCM tag length must be 12...16 bytes")
        }
        if nonce.count > maximumNonceLength {
            var tagCopy = tag
            return try longNonce(encrypt: false, key: key, nonce: nonce, input: ciphertext, aad: aad, tag: &tagCopy)
        }
        let context = try start(key: key, nonce: nonce, encrypt: false)
        return try finishOpen(context, ciphertext: ciphertext, tag: tag, aad: aad)
    }

    /// Encrypts on a context already set up with key and nonce; returns ciphertext and tag.
    static func finishSeal(
        _ context: CipherContext, plaintext: Data, aad: Data, tagLength: Int
    ) throws(CryptoError) -> (ciphertext: Data, tag: Data) {
        try context.updateAAD(aad)
        let ciphertext = try Data.filling(capacity: plaintext.count + 16) { (out) throws(CryptoError) in
            let written = try context.update(plaintext, into: out)
            var final: Int32 = 0
            try ossl(
                EVP_CipherFinal_ex(context.raw, out.advanced(by: written).assumingMemoryBound(to: UInt8.self), &final),
                "EVP_EncryptFinal_ex")
            return written + Int(final)
        }
        let tag = try Data.filling(capacity: tagLength) { (out) throws(CryptoError) in
            try ossl(EVP_CIPHER_CTX_ctrl(context.raw, EVP_CTRL_GCM_GET_TAG, Int32(tagLength), out), "GCM get tag")
            return tagLength
        }
        return (ciphertext, tag)
    }

    /// Checks the tag and decrypts on a context already set up with key and nonce.
    static func finishOpen(_ context: CipherContext, ciphertext: Data, tag: Data, aad: Data) throws(CryptoError) -> Data
    {
        try context.updateAAD(aad)
        return try Data.filling(capacity: ciphertext.count + 16) { (out) throws(CryptoError) in
            let written = try context.update(ciphertext, into: out)
            // OpenSSL copies the expected tag (it only reads through this pointer). The tag is public.
            try tag.withBytes { (tagBytes, tagCount) throws(CryptoError) in
                try ossl(
                    EVP_CIPHER_CTX_ctrl(
                        context.raw, EVP_CTRL_GCM_SET_TAG, Int32(tagCount),
                        UnsafeMutableRawPointer(mutating: tagBytes)), "GCM set tag")
            }
            var final: Int32 = 0
            guard
                EVP_CipherFinal_ex(context.raw, out.advanced(by: written).assumingMemoryBound(to: UInt8.self), &final)
                    == 1
            else {
                throw CryptoError.openSSL(.authenticationFailed, "GCM authentication tag mismatch")
            }
            return written + Int(final)
        }
    }

    /// Apple's deprecated `CCCryptorGCM` on caller buffers: encrypting, seals `count` bytes at `input` into
    /// `output` and writes the `tagCount`-byte tag to `tag`; decrypting, opens `input` into `output` and writes
    /// the tag computed over the ciphertext to `tag`, checking nothing (the caller compares it with the tag it
    /// expects, as with Apple's). Any IV length from 1 byte; `aad`, `input` and `output` may be nil when their
    /// counts are 0; `output` may be `input`.
    /// - Throws: `.invalidParameter` for a key length other than 16, 24 or 32, an empty IV or a tag length
    ///   outside 1...16; `.internalError` when OpenSSL fails.
    package static func legacyOneShot(
        encrypt: Bool, key: UnsafeRawPointer, keyCount: Int, iv: UnsafeRawPointer, ivCount: Int,
        aad: UnsafeRawPointer?, aadCount: Int, input: UnsafeRawPointer?, count: Int,
        output: UnsafeMutableRawPointer?, tag: UnsafeMutableRawPointer, tagCount: Int
    ) throws(CryptoError) {
        guard [16, 24, 32].contains(keyCount), ivCount > 0, (1...16).contains(tagCount), aadCount >= 0, count >= 0
        else { throw CryptoError(.invalidParameter, "AES-GCM parameters out of range") }
        let rc = osec_aes_gcm_long_iv(
            encrypt ? 1 : 2, key, keyCount, iv, ivCount, aad, aadCount, input, count, output, tag, tagCount)
        guard rc == 1 else { throw CryptoError(.internalError, "AES-GCM failed") }
    }

    /// GCM with a nonce longer than the EVP provider takes (libcrypto's GCM128 functions, via the shim).
    private static func longNonce(
        encrypt: Bool, key: Data, nonce: Data, input: Data, aad: Data, tag: inout Data
    ) throws(CryptoError) -> Data {
        guard [16, 24, 32].contains(key.count) else {
            throw CryptoError(.invalidParameter, "AES key must be 16, 24 or 32 bytes")
        }
        guard nonce.count <= maximumLongNonceLength else {
            throw CryptoError(.invalidParameter, "GCM nonce longer than \(maximumLongNonceLength) bytes")
        }
        let tagLength = tag.count
        var rc: Int32 = -1
        let output = try Data.filling(capacity: input.count) { (out) throws(CryptoError) in
            try key.withBytes { (k, kc) throws(CryptoError) in
                try nonce.withBytes { (n, nc) throws(CryptoError) in
                    try aad.withBytes { (a, ac) throws(CryptoError) in
                        try input.withBytes { (i, ic) throws(CryptoError) in
                            rc = tag.withUnsafeMutableBytes { t in
                                osec_aes_gcm_long_iv(
                                    encrypt ? 1 : 0, k, kc, n, nc, a, ac, i, ic, out, t.baseAddress, tagLength)
                            }
                        }
                    }
                }
            }
            return input.count
        }
        switch rc {
        case 1: return output
        case 0: throw CryptoError(.authenticationFailed, "GCM authentication tag mismatch")
        default: throw CryptoError(.internalError, "AES-GCM (long nonce) failed")
        }
    }

    /// The fetched AES-GCM cipher for a 16-, 24- or 32-byte key.
    static func cipher(forKeyLength length: Int) throws(CryptoError) -> OpaquePointer {
        switch length {
        case 16: try FetchedCiphers.aes128GCM.get()
        case 24: try FetchedCiphers.aes192GCM.get()
        case 32: try FetchedCiphers.aes256GCM.get()
        default: throw CryptoError(.invalidParameter, "AES key must be 16, 24 or 32 bytes")
        }
    }

    private static func start(key: Data, nonce: Data, encrypt: Bool) throws(CryptoError) -> CipherContext {
        let cipher = try cipher(forKeyLength: key.count)
        guard !nonce.isEmpty else { throw CryptoError(.invalidParameter, "GCM nonce must not be empty") }
        guard nonce.count <= maximumNonceLength else {
            throw CryptoError(.invalidParameter, "GCM nonce longer than \(maximumNonceLength) bytes")
        }
        let context = try CipherContext()
        let enc: Int32 = encrypt ? 1 : 0
        try ossl(EVP_CipherInit_ex2(context.raw, cipher, nil, nil, enc, nil), "EVP_CipherInit_ex2")
        try ossl(EVP_CIPHER_CTX_ctrl(context.raw, EVP_CTRL_GCM_SET_IVLEN, Int32(nonce.count), nil), "GCM set IV length")
        try key.withBytes { (keyBytes, _) throws(CryptoError) in
            try nonce.withBytes { (nonceBytes, _) throws(CryptoError) in
                try ossl(
                    EVP_CipherInit_ex2(
                        context.raw, nil, keyBytes.assumingMemoryBound(to: UInt8.self),
                        nonceBytes.assumingMemoryBound(to: UInt8.self), enc, nil),
                    "EVP_CipherInit_ex2")
            }
        }
        return context
    }
}
