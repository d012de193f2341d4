internal import COpenSSL

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Owns one EVP_CIPHER_CTX for the duration of one operation.
final class CipherContext {
    let raw: OpaquePointer

    init() throws(CryptoError) {
        raw = try ossl(EVP_CIPHER_CTX_new(), "EVP_CIPHER_CTX_new")
    }

    deinit { EVP_CIPHER_CTX_free(raw) }

    /// Sets the key and IV (an empty `iv`: none) with EVP_CipherInit_ex2, and with a non-nil `cipher` the
    /// cipher too (nil: the one an earlier init chose, after its key length was set). `enc` is 1 to encrypt,
    /// 0 to decrypt.
    func setKey(_ key: Data, iv: Data, cipher: OpaquePointer?, enc: Int32) throws(CryptoError) {
        try key.withBytes { (keyBytes, _) throws(CryptoError) in
            try iv.withBytes { (ivBytes, ivCount) throws(CryptoError) in
                try ossl(
                    EVP_CipherInit_ex2(
                        raw, cipher, keyBytes.assumingMemoryBound(to: UInt8.self),
                        ivCount > 0 ? ivBytes.assumingMemoryBound(to: UInt8.self) : nil, enc, nil),
                    "EVP_CipherInit_ex2")
            }
        }
    }

    /// Largest input accepted in one call (EVP_CipherUpdate takes an `int` length).
    static let maximumInput = Int(Int32.max) - 64

    /// Runs EVP_CipherUpdate over `input` into `out` (which must have room), returning bytes written.
    func update(_ input: Data, into out: UnsafeMutableRawPointer) throws(CryptoError) -> Int {
        guard input.count <= Self.maximumInput else { throw CryptoError(.resourceLimit, "input too large") }
        return try input.withBytes { (bytes, count) throws(CryptoError) in
            var written: Int32 = 0
            try ossl(
                EVP_CipherUpdate(
                    raw, out.assumingMemoryBound(to: UInt8.self), &written,
                    bytes.assumingMemoryBound(to: UInt8.self), Int32(count)),
                "EVP_CipherUpdate")
            return Int(written)
        }
    }

    /// Feeds additional authenticated data (AEAD modes).
    func updateAAD(_ aad: Data) throws(CryptoError) {
        guard !aad.isEmpty else { return }
        guard aad.count <= Self.maximumInput else { throw CryptoError(.resourceLimit, "AAD too large") }
        try aad.withBytes { (bytes, count) throws(CryptoError) in
            var written: Int32 = 0
            try ossl(
                EVP_CipherUpdate(raw, nil, &written, bytes.assumingMemoryBound(to: UInt8.self), Int32(count)),
                "EVP_CipherUpdate(AAD)")
        }
    }
}
