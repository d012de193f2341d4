internal import COpenSSL
internal import COpenSSLShims

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

/// The state the incremental digests share: one EVP_MD_CTX, copied on write.
private struct DigestCore {
    var handle: DigestContextHandle
    /// Set when OpenSSL failed; `finalize` then returns an empty Data.
    var failed = false

    init(md: OpaquePointer?) {
        handle = DigestContextHandle(copying: nil)
        guard let raw = handle.raw, let md, EVP_DigestInit_ex(raw, md, nil) == 1 else {
            failed = true
            OpenSSLErrorQueue.clear()
            return
        }
    }

    mutating func update(bytes: UnsafeRawPointer?, count: Int) {
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

    func finalize(outputSize: Int) -> Data {
        guard !failed else { return Data() }
        let copy = DigestContextHandle(copying: handle)
        guard let raw = copy.raw else { return Data() }
        return
            (try? Data.filling(capacity: outputSize) { (out) throws(CryptoError) in
                var length: UInt32 = 0
                try ossl(
                    EVP_DigestFinal_ex(raw, out.assumingMemoryBound(to: UInt8.self), &length), "EVP_DigestFinal_ex")
                return Int(length)
            }) ?? Data()
    }
}

/// An incremental digest (EVP_MD_CTX). Value semantics: copies are independent (copy-on-write).
package struct DigestContext {
    /// The algorithm being computed.
    package let algorithm: DigestAlgorithm
    private var core: DigestCore

    /// Starts a new digest computation.
    package init(_ algorithm: DigestAlgorithm) {
        self.algorithm = algorithm
        core = DigestCore(md: try? algorithm.fetched())
    }

    /// Feeds more bytes.
    package mutating func update(_ data: Data) {
        data.withUnsafeBytes { buffer in core.update(bytes: buffer.baseAddress, count: buffer.count) }
    }

    /// Feeds `count` bytes at `bytes` (nil only when `count` is 0), for callers holding C buffers.
    package mutating func update(bytes: UnsafeRawPointer?, count: Int) {
        core.update(bytes: bytes, count: count)
    }

    /// Returns the digest of everything fed so far. The context can keep being updated afterwards
    /// (finalisation works on a copy). Returns an empty Data if OpenSSL failed.
    package func finalize() -> Data { core.finalize(outputSize: algorithm.outputSize) }
}

/// MD4 (RFC 1320), from OpenSSL's legacy provider. Broken; only for CommonCrypto's deprecated `CC_MD4`
/// functions (old protocols such as NTLM still use it).
package enum MD4 {
    /// Digest length in bytes.
    package static let outputSize = 16
    /// Block length in bytes.
    package static let blockSize = 64

    /// Hashes `count` bytes at `bytes` (nil only when `count` is 0) into 16 bytes at `output`. Returns false
    /// when OpenSSL fails or its legacy provider is missing.
    package static func hash(bytes: UnsafeRawPointer?, count: Int, into output: UnsafeMutablePointer<UInt8>) -> Bool {
        guard count >= 0, let md = try? fetched() else { return false }
        var length: UInt32 = 0
        guard osec_digest_cached(UnsafeRawPointer(md), 6, bytes, count, output, &length) == 1 else {
            OpenSSLErrorQueue.clear()
            return false
        }
        return Int(length) == outputSize
    }

    /// An incremental MD4, copy-on-write like ``DigestContext``.
    package struct Context {
        private var core = DigestCore(md: try? MD4.fetched())

        /// Starts a new MD4 computation.
        package init() {}

        /// Feeds `count` bytes at `bytes` (nil only when `count` is 0).
        package mutating func update(bytes: UnsafeRawPointer?, count: Int) { core.update(bytes: bytes, count: count) }

        /// The digest of everything fed so far (empty if OpenSSL failed).
        package func finalize() -> Data { core.finalize(outputSize: MD4.outputSize) }
    }

    private static let md4 = LegacyLibraryContext.shared.fetchDigest("MD4")

    private static func fetched() throws(CryptoError) -> OpaquePointer {
        _ = try LegacyLibraryContext.shared.get()  // names a missing legacy provider
        return try md4.get()
    }
}
