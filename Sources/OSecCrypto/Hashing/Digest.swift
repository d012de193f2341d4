internal import COpenSSL
import Foundation

/// One-shot message digests.
package enum Digest {
    /// The longest digest of any ``DigestAlgorithm`` (SHA-512), the size of ``withDigest(_:of:_:)``'s buffer.
    static let maximumOutputSize = 64

    /// Hashes `data` with `algorithm` (EVP_Digest with a pre-fetched EVP_MD).
    ///
    /// Does not throw: the algorithms are built into OpenSSL's default provider. If OpenSSL nevertheless
    /// fails (e.g. a FIPS-only configuration without MD5) the result is empty, which no caller can mistake
    /// for a valid digest.
    package static func hash(_ algorithm: DigestAlgorithm, _ data: some CryptoInput) -> Data {
        (try? hashOrThrow(algorithm, data)) ?? Data()
    }

    /// Like ``hash(_:_:)`` but reports OpenSSL failures.
    package static func hashOrThrow(_ algorithm: DigestAlgorithm, _ data: some CryptoInput) throws(CryptoError) -> Data
    {
        let md = try algorithm.fetched()
        return try data.withCryptoBytes { (input, count) throws(CryptoError) in
            try Data.filling(capacity: algorithm.outputSize) { (out) throws(CryptoError) in
                var length: UInt32 = 0
                try ossl(
                    EVP_Digest(input, count, out.assumingMemoryBound(to: UInt8.self), &length, md, nil), "EVP_Digest")
                return Int(length)
            }
        }
    }

    /// Hashes `input` into a buffer on the stack and lends the digest to `body` (signing a message needs its
    /// digest only for the length of one call, so it is never put on the heap).
    static func withDigest<R>(
        _ algorithm: DigestAlgorithm, of input: some CryptoInput,
        _ body: (UnsafeRawPointer, Int) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        let md = try algorithm.fetched()
        let result: Result<R, CryptoError> = withUnsafeTemporaryAllocation(
            byteCount: maximumOutputSize, alignment: 16
        ) { buffer in
            Result { () throws(CryptoError) -> R in
                guard let out = buffer.baseAddress else { throw CryptoError.failed("digest buffer") }
                var length: UInt32 = 0
                try input.withCryptoBytes { (bytes, count) throws(CryptoError) in
                    try ossl(
                        EVP_Digest(bytes, count, out.assumingMemoryBound(to: UInt8.self), &length, md, nil),
                        "EVP_Digest")
                }
                return try body(UnsafeRawPointer(out), Int(length))
            }
        }
        return try result.get()
    }
}
