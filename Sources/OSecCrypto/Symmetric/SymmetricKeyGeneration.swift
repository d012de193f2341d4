internal import COpenSSL

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Random keys for a cipher, as OpenSSL makes them (EVP_CIPHER_CTX_rand_key: random bytes, and for DES and
/// triple DES odd parity in every byte).
package enum SymmetricKeyGeneration {
    /// A fresh random key of `cipher`'s key size.
    package static func randomKey(_ cipher: BlockCipher) throws(CryptoError) -> Data {
        let context = try CipherContext()
        try ossl(EVP_CipherInit_ex2(context.raw, try cipher.fetched(), nil, nil, 1, nil), "EVP_CipherInit_ex2")
        let count = Int(EVP_CIPHER_CTX_get_key_length(context.raw))
        guard count > 0 else { throw CryptoError(.invalidKey, "the cipher has no key length") }
        return try Data.filling(capacity: count) { (out) throws(CryptoError) in
            try ossl(
                EVP_CIPHER_CTX_rand_key(context.raw, out.assumingMemoryBound(to: UInt8.self)),
                "EVP_CIPHER_CTX_rand_key")
            return count
        }
    }
}
