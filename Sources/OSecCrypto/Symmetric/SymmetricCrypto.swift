internal import COpenSSL

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Block and stream cipher encryption (EVP_CIPHER_CTX).
package enum SymmetricCrypto {
    /// Encrypts `plaintext`. With `padding` (CBC modes) PKCS#7 padding is added; without it the
    /// plaintext length must be a multiple of the block size.
    package static func encrypt(
        _ cipher: BlockCipher, key: Data, iv: Data, plaintext: Data, padding: Bool = true
    ) throws(CryptoError) -> Data {
        try run(cipher, key: key, iv: iv, input: plaintext, padding: padding, encrypt: true)
    }

    /// Decrypts `ciphertext`. A bad PKCS#7 padding throws `.decryptionFailed`.
    package static func decrypt(
        _ cipher: BlockCipher, key: Data, iv: Data, ciphertext: Data, padding: Bool = true
    ) throws(CryptoError) -> Data {
        try run(cipher, key: key, iv: iv, input: ciphertext, padding: padding, encrypt: false)
    }

    private static func run(
        _ cipher: BlockCipher, key: Data, iv: Data, input: Data, padding: Bool, encrypt: Bool
    ) throws(CryptoError) -> Data {
        // Sizes are checked here: OpenSSL silently reads past short keys/IVs for fixed-size ciphers.
        try checkParameters(cipher, key: key, iv: iv)
        let usesPadding = padding && cipher.blockSize > 1
        if !usesPadding || !encrypt, cipher.blockSize > 1, input.count % cipher.blockSize != 0 {
            throw CryptoError(.invalidParameter, "input length is not a multiple of the block size")
        }
        let evpCipher = try cipher.fetched()
        let context = try CipherContext()
        let ctx = context.raw
        let enc: Int32 = encrypt ? 1 : 0
        try ossl(EVP_CipherInit_ex2(ctx, evpCipher, nil, nil, enc, nil), "EVP_CipherInit_ex2")
        switch cipher {
        case .rc2CBC(let bits):
            try ossl(EVP_CIPHER_CTX_set_key_length(ctx, Int32(key.count)), "EVP_CIPHER_CTX_set_key_length")
            try ossl(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_SET_RC2_KEY_BITS, Int32(bits), nil), "RC2 key bits")
        case .rc4:
            try ossl(EVP_CIPHER_CTX_set_key_length(ctx, Int32(key.count)), "EVP_CIPHER_CTX_set_key_length")
        default:
            break
        }
        try context.setKey(key, iv: iv, cipher: nil, enc: enc)
        try ossl(EVP_CIPHER_CTX_set_padding(ctx, usesPadding ? 1 : 0), "EVP_CIPHER_CTX_set_padding")
        return try Data.filling(capacity: input.count + cipher.blockSize) { (out) throws(CryptoError) in
            let written = try context.update(input, into: out)
            var final: Int32 = 0
            guard EVP_CipherFinal_ex(ctx, out.advanced(by: written).assumingMemoryBound(to: UInt8.self), &final) == 1
            else {
                throw encrypt
                    ? CryptoError.failed("EVP_CipherFinal_ex")
                    : CryptoError.openSSL(.decryptionFailed, "bad padding or wrong key")
            }
            return written + Int(final)
        }
    }

    private static func checkParameters(_ cipher: BlockCipher, key: Data, iv: Data) throws(CryptoError) {
        switch cipher {
        case .rc2CBC(let bits):
            guard (8...1024).contains(bits), bits % 8 == 0 else {
                throw CryptoError(.invalidParameter, "RC2 effective key bits must be a multiple of 8 in 8...1024")
            }
        case .rc4(let bytes):
            guard (1...256).contains(bytes) else {
                throw CryptoError(.invalidParameter, "RC4 key must be 1...256 bytes")
            }
        default:
            break
        }
        guard key.count == cipher.keySize else {
            throw CryptoError(.invalidParameter, "key must be \(cipher.keySize) bytes, got \(key.count)")
        }
        guard iv.count == cipher.ivSize else {
            throw CryptoError(.invalidParameter, "IV must be \(cipher.ivSize) bytes, got \(iv.count)")
        }
    }
}
