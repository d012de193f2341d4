internal import COpenSSL
import OSecLocks

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

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

extension SecureRandom {
    /// Largest request ``publicBytes(_:)`` serves from its pool; larger ones go to RAND_bytes directly.
    static let poolRequestLimit = 64

    /// Random bytes for values that are not secret and must only never repeat: AES-GCM nonces, random ids.
    ///
    /// OpenSSL 3's `RAND_bytes` costs about a microsecond and a half per call whatever the size (each call runs the
    /// DRBG's generate and update steps behind its locks), which made it the largest single cost of sealing a
    /// small keychain secret or sync row. These bytes come from a pool refilled with one `RAND_bytes` call per
    /// 4 KiB instead; bytes handed out are wiped from the pool. The pool remembers the process it was filled in:
    /// after a `fork` the child refills before handing anything out, so parent and child never share bytes (a
    /// repeated nonce under one key would break AES-GCM). Never for keys, salts of secrets, or anything that must
    /// stay secret: use ``bytes(_:)``.
    package static func publicBytes(_ count: Int) throws(CryptoError) -> Data {
        guard count > 0, count <= poolRequestLimit else { return try bytes(count) }
        return try RandomPool.shared.take(count)
    }
}

/// The pool behind ``SecureRandom/publicBytes(_:)``.
private final class RandomPool: @unchecked Sendable {  // sendable: every access holds `lock`
    static let shared = RandomPool()
    static let size = 4096

    private let lock = PosixMutex()
    private var buffer = [UInt8](repeating: 0, count: RandomPool.size)
    private var next = RandomPool.size  // empty until the first request
    private var owner: pid_t = 0

    func take(_ count: Int) throws(CryptoError) -> Data {
        let process = getpid()
        lock.lock()
        defer { lock.unlock() }
        if owner != process || next + count > buffer.count {
            let filled = buffer.withUnsafeMutableBufferPointer { pool -> Int32 in
                guard let base = pool.baseAddress else { return 0 }
                return RAND_bytes(base, Int32(pool.count))
            }
            try ossl(filled, "RAND_bytes")
            owner = process
            next = 0
        }
        let start = next
        next += count
        return buffer.withUnsafeMutableBufferPointer { pool -> Data in
            guard let base = pool.baseAddress else { return Data() }
            let out = Data(bytes: base + start, count: count)
            (base + start).update(repeating: 0, count: count)
            return out
        }
    }
}
