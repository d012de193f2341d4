internal import COpenSSL

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Cryptographically secure random bytes (RAND_bytes).
package enum SecureRandom {
    /// Largest single request (RAND_bytes takes an `int` count).
    package static let maximumCount = 1 << 30

    /// Returns `count` random bytes.
    package static func bytes(_ count: Int) throws(CryptoError) -> Data {
        guard count >= 0 else { throw CryptoError(.invalidParameter, "negative random byte count") }
        guard count <= maximumCount else {
            throw CryptoError(.resourceLimit, "random byte count above \(maximumCount)")
        }
        if count == 0 { return Data() }
        return try Data.filling(capacity: count) { (out) throws(CryptoError) in
            try ossl(RAND_bytes(out.assumingMemoryBound(to: UInt8.self), Int32(count)), "RAND_bytes")
            return count
        }
    }
}

extension SecureRandom {
    /// Fills `count` bytes at `output` with random bytes (RAND_bytes, in chunks of at most ``maximumCount``),
    /// for callers holding C buffers (CommonCrypto's `CCRandomGenerateBytes`).
    package static func fill(_ output: UnsafeMutableRawPointer, count: Int) throws(CryptoError) {
        guard count >= 0 else { throw CryptoError(.invalidParameter, "negative random byte count") }
        var offset = 0
        while offset < count {
            let chunk = Swift.min(count - offset, maximumCount)
            try ossl(
                RAND_bytes(output.advanced(by: offset).assumingMemoryBound(to: UInt8.self), Int32(chunk)),
                "RAND_bytes")
            offset += chunk
        }
    }
}
