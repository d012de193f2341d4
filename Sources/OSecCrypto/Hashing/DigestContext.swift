internal import COpenSSL
import Foundation

/// Owns one EVP_MD_CTX. `@unchecked Sendable` is not claimed: a context is mutable and single-owner.
private final class DigestContextHandle {
    let raw: OpaquePointer?
    init(copying other: DigestContextHandle?) {
        let raw = EVP_MD_CTX_new()
        if let raw, let source = other?.raw, EVP_MD_CTX_copy_ex(raw, source) != 1 {
            EVP_MD_CTX_free(raw)
            self.raw = nil
            OpenSSLErrorQueue.clear()
            return
        }
        self.raw = raw
    }
    deinit { EVP_MD_CTX_free(raw) }
}

/// An incremental digest (EVP_MD_CTX). Value semantics: copies are independent (copy-on-write).
package struct DigestContext {
    /// The algorithm being computed.
    package let algorithm: DigestAlgorithm
    private var handle: DigestContextHandle
    /// Set when OpenSSL failed; `finalize()` then returns an empty Data.
    private var failed = false

    /// Starts a new digest computation.
    package init(_ algorithm: DigestAlgorithm) {
        self.algorithm = algorithm
        self.handle = DigestContextHandle(copying: nil)
        guard let raw = handle.raw, let md = try? algorithm.fetched(), EVP_DigestInit_ex(raw, md, nil) == 1 else {
            failed = true
            OpenSSLErrorQueue.clear()
            return
        }
    }

    /// Feeds more bytes.
    package mutating func update(_ data: Data) {
        data.withUnsafeBytes { buffer in update(bytes: buffer.baseAddress, count: buffer.count) }
    }

    /// Feeds `count` bytes at `bytes` (nil only when `count` is 0), for callers holding C buffers.
    package mutating func update(bytes: UnsafeRawPointer?, count: Int) {
        guard !failed, count > 0 else { return }
        guard let bytes else {
            failed = true
            return
        }
        if !isKnownUniquelyReferenced(&handle) { handle = DigestContextHandle(copying: handle) }
        guard let raw = handle.raw else {
            failed = true
            return
        }
        if EVP_DigestUpdate(raw, bytes, count) != 1 {
            failed = true
            OpenSSLErrorQueue.clear()
        }
    }

    /// Returns the digest of everything fed so far. The context can keep being updated afterwards
    /// (finalisation works on a copy). Returns an empty Data if OpenSSL failed.
    package func finalize() -> Data {
        guard !failed else { return Data() }
        let copy = DigestContextHandle(copying: handle)
        guard let raw = copy.raw else { return Data() }
        return
            (try? Data.filling(capacity: algorithm.outputSize) { (out) throws(CryptoError) in
                var length: UInt32 = 0
                try ossl(
                    EVP_DigestFinal_ex(raw, out.assumingMemoryBound(to: UInt8.self), &length), "EVP_DigestFinal_ex")
                return Int(length)
            }) ?? Data()
    }
}
