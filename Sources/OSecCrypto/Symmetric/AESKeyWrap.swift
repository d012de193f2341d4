internal import COpenSSL

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// AES Key Wrap (RFC 3394, NIST SP 800-38F "KW"), through OpenSSL's `AES-128/192/256-WRAP` ciphers.
package enum AESKeyWrap {
    /// The default initial value of RFC 3394 §2.2.3.1 (A6A6A6A6A6A6A6A6).
    package static let defaultIV = Data(repeating: 0xA6, count: 8)

    /// The same eight bytes in static memory, for CommonCrypto's `CCrfc3394_iv` (a C pointer). Allocated once,
    /// never freed, never written after initialisation (hence `nonisolated(unsafe)`).
    nonisolated(unsafe) package static let defaultIVBytes: UnsafePointer<UInt8> = {
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 8)
        bytes.initialize(repeating: 0xA6, count: 8)
        return UnsafePointer(bytes)
    }()

    /// Largest key data wrapped or unwrapped (OpenSSL's CRYPTO128_WRAP_MAX is 2^31 bytes; keys are short).
    package static let maximumLength = 1 << 24

    /// Wraps `keyData` (a multiple of 8 bytes, at least 16) under a 16-, 24- or 32-byte `kek` with an 8-byte
    /// initial value. The result is 8 bytes longer.
    /// - Throws: `.invalidParameter` for a bad KEK, IV or key data length.
    package static func wrap(_ keyData: Data, kek: Data, iv: Data = defaultIV) throws(CryptoError) -> Data {
        guard keyData.count >= 16, keyData.count % 8 == 0, keyData.count <= maximumLength else {
            throw CryptoError(.invalidParameter, "key data to wrap must be a multiple of 8 bytes, at least 16")
        }
        return try run(keyData, kek: kek, iv: iv, encrypt: true)
    }

    /// Unwraps `wrapped` (a multiple of 8 bytes, at least 24) and checks its integrity value against `iv`.
    /// - Throws: `.authenticationFailed` when the integrity check fails (wrong KEK or IV, altered data),
    ///   `.invalidParameter` for a bad KEK, IV or length.
    package static func unwrap(_ wrapped: Data, kek: Data, iv: Data = defaultIV) throws(CryptoError) -> Data {
        guard wrapped.count >= 24, wrapped.count % 8 == 0, wrapped.count <= maximumLength + 8 else {
            throw CryptoError(.invalidParameter, "wrapped key must be a multiple of 8 bytes, at least 24")
        }
        return try run(wrapped, kek: kek, iv: iv, encrypt: false)
    }

    private static func run(_ input: Data, kek: Data, iv: Data, encrypt: Bool) throws(CryptoError) -> Data {
        guard iv.count == 8 else { throw CryptoError(.invalidParameter, "key wrap IV must be 8 bytes") }
        let cipher: OpaquePointer =
            switch kek.count {
            case 16: try FetchedWrapCiphers.aes128.get()
            case 24: try FetchedWrapCiphers.aes192.get()
            case 32: try FetchedWrapCiphers.aes256.get()
            default: throw CryptoError(.invalidParameter, "KEK must be 16, 24 or 32 bytes")
            }
        let context = try CipherContext()
        let ctx = context.raw
        EVP_CIPHER_CTX_set_flags(ctx, Int32(EVP_CIPHER_CTX_FLAG_WRAP_ALLOW))
        try kek.withBytes { (kekBytes, _) throws(CryptoError) in
            try iv.withBytes { (ivBytes, _) throws(CryptoError) in
                try ossl(
                    EVP_CipherInit_ex2(
                        ctx, cipher, kekBytes.assumingMemoryBound(to: UInt8.self),
                        ivBytes.assumingMemoryBound(to: UInt8.self), encrypt ? 1 : 0, nil),
                    "EVP_CipherInit_ex2")
            }
        }
        return try Data.filling(capacity: input.count + 8) { (out) throws(CryptoError) in
            var written: Int32 = 0
            let ok = try input.withBytes { (bytes, count) throws(CryptoError) in
                EVP_CipherUpdate(
                    ctx, out.assumingMemoryBound(to: UInt8.self), &written, bytes.assumingMemoryBound(to: UInt8.self),
                    Int32(count)) == 1
            }
            guard ok, written > 0 else {
                if encrypt { throw CryptoError.failed("AES key wrap") }
                throw CryptoError.openSSL(.authenticationFailed, "key unwrap integrity check failed")
            }
            return Int(written)
        }
    }
}

/// Process-wide fetched key wrap ciphers.
private enum FetchedWrapCiphers {
    static let aes128 = FetchedAlgorithm(name: "AES-128-WRAP", raw: EVP_CIPHER_fetch(nil, "AES-128-WRAP", nil))
    static let aes192 = FetchedAlgorithm(name: "AES-192-WRAP", raw: EVP_CIPHER_fetch(nil, "AES-192-WRAP", nil))
    static let aes256 = FetchedAlgorithm(name: "AES-256-WRAP", raw: EVP_CIPHER_fetch(nil, "AES-256-WRAP", nil))
}
