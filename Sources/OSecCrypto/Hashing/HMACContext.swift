internal import COpenSSL
internal import COpenSSLShims

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Owns one HMAC_CTX (through the C shim).
private final class HMACContextHandle {
    let raw: UnsafeMutableRawPointer

    init?(algorithm: DigestAlgorithm, key: UnsafeRawPointer?, keyCount: Int) {
        guard let md = try? algorithm.fetched(), let raw = osec_hmac_ctx_new(UnsafeRawPointer(md), key, keyCount)
        else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        self.raw = raw
    }

    init?(copying other: HMACContextHandle) {
        guard let raw = osec_hmac_ctx_dup(other.raw) else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        self.raw = raw
    }

    deinit { osec_hmac_ctx_free(raw) }
}

/// An incremental HMAC (RFC 2104). Value semantics: copies are independent (copy-on-write), as copies of a C
/// HMAC context are. The key schedule lives in OpenSSL memory, which is cleansed when the context is freed.
package struct HMACContext {
    /// The hash function.
    package let algorithm: DigestAlgorithm
    private var handle: HMACContextHandle?

    /// Starts an HMAC under `keyCount` bytes at `key` (nil only when `keyCount` is 0). Any key length is
    /// accepted (RFC 2104 hashes keys longer than the block size).
    package init(_ algorithm: DigestAlgorithm, key: UnsafeRawPointer?, keyCount: Int) {
        self.algorithm = algorithm
        handle =
            keyCount >= 0 && (key != nil || keyCount == 0)
            ? HMACContextHandle(algorithm: algorithm, key: key, keyCount: keyCount) : nil
    }

    /// Feeds `count` bytes at `bytes` (nil only when `count` is 0).
    package mutating func update(bytes: UnsafeRawPointer?, count: Int) {
        guard count > 0, handle != nil else { return }
        guard let bytes else {
            handle = nil
            return
        }
        if !isKnownUniquelyReferenced(&handle), let shared = handle { handle = HMACContextHandle(copying: shared) }
        guard let unique = handle else { return }
        if osec_hmac_ctx_update(unique.raw, bytes, count) != 1 {
            OpenSSLErrorQueue.clear()
            handle = nil
        }
    }

    /// The MAC of everything fed so far, or nil if OpenSSL failed at any step. The context is consumed:
    /// finalising works on the shared state, so call it once.
    package mutating func finalize() -> Data? {
        if !isKnownUniquelyReferenced(&handle), let shared = handle { handle = HMACContextHandle(copying: shared) }
        guard let unique = handle else { return nil }
        handle = nil
        let mac = try? Data.filling(capacity: Int(EVP_MAX_MD_SIZE)) { (out) throws(CryptoError) in
            var length: UInt32 = 0
            try ossl(osec_hmac_ctx_final(unique.raw, out, &length), "HMAC_Final")
            return Int(length)
        }
        if mac == nil { OpenSSLErrorQueue.clear() }
        return mac
    }
}
