internal import COpenSSL
import Foundation

/// One-shot message digests.
package enum Digest {
    /// Hashes `data` with `algorithm` (EVP_Digest with a pre-fetched EVP_MD).
    ///
    /// Does not throw: the algorithms are built into OpenSSL's default provider. If OpenSSL nevertheless
    /// fails (e.g. a FIPS-only configuration without MD5) the result is empty, which no caller can mistake
    /// for a valid digest.
    package static func hash(_ algorithm: DigestAlgorithm, _ data: Data) -> Data {
        (try? hashOrThrow(algorithm, data)) ?? Data()
    }

    /// Like ``hash(_:_:)`` but reports OpenSSL failures.
    package static func hashOrThrow(_ algorithm: DigestAlgorithm, _ data: Data) throws(CryptoError) -> Data {
        let md = try algorithm.fetched()
        return try data.withBytes { (input, count) throws(CryptoError) in
            try Data.filling(capacity: algorithm.outputSize) { (out) throws(CryptoError) in
                var length: UInt32 = 0
                try ossl(
                    EVP_Digest(input, count, out.assumingMemoryBound(to: UInt8.self), &length, md, nil), "EVP_Digest")
                return Int(length)
            }
        }
    }
}
