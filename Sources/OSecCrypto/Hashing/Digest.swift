internal import COpenSSL
internal import COpenSSLShims

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

extension Digest {
    /// Hashes `count` bytes at `bytes` into `output` (``DigestAlgorithm/outputSize`` bytes), for callers that
    /// hold C buffers (CommonCrypto's `CC_SHA256`). `bytes` may be nil when `count` is 0. Runs on a per-thread
    /// cached EVP_MD_CTX, so a short message costs no allocation. Returns false only if OpenSSL fails.
    package static func hash(
        _ algorithm: DigestAlgorithm, bytes: UnsafeRawPointer?, count: Int, into output: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        guard count >= 0, let md = try? algorithm.fetched() else { return false }
        var length: UInt32 = 0
        guard osec_digest_cached(UnsafeRawPointer(md), algorithm.cacheSlot, bytes, count, output, &length) == 1 else {
            OpenSSLErrorQueue.clear()
            return false
        }
        return Int(length) == algorithm.outputSize
    }
}

extension DigestAlgorithm {
    /// The per-thread context slot of the cached one-shot digest (below `OSEC_DIGEST_CACHE_SLOTS`).
    fileprivate var cacheSlot: Int32 {
        switch self {
        case .md5: 0
        case .sha1: 1
        case .sha224: 2
        case .sha256: 3
        case .sha384: 4
        case .sha512: 5
        }
    }
}
