internal import COpenSSLShims

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An incremental digest whose whole state is plain bytes held in the value (OpenSSL's low-level MD4, MD5,
/// SHA-1 and SHA-2 contexts), for CommonCrypto's `CC_*_CTX` structs.
///
/// Code written for Apple platforms allocates those structs itself (`UnsafeMutablePointer<CC_MD5_CTX>
/// .allocate(capacity: 1)`, uninitialised) and copies them by value to read an intermediate digest. A value
/// holding a reference would release garbage when `CC_MD5_Init` writes to such memory, and would share state
/// between copies; this value holds no reference (it is a trivial type), so writing it over uninitialised
/// memory is safe, a copy is an independent computation, and nothing leaks when a context is abandoned.
package struct PlainDigest: Sendable {
    /// The digests the low-level API has.
    package enum Algorithm: Int32, Sendable {
        case md4 = 0
        case md5, sha1, sha224, sha256, sha384, sha512

        /// Digest length in bytes.
        package var outputSize: Int {
            switch self {
            case .md4, .md5: 16
            case .sha1: 20
            case .sha224: 28
            case .sha256: 32
            case .sha384: 48
            case .sha512: 64
            }
        }
    }

    private typealias Storage = (
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64
    )

    package let algorithm: Algorithm
    /// OpenSSL's context (at most OSEC_PLAIN_DIGEST_STATE_SIZE = 224 bytes, 8-aligned).
    private var storage: Storage = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    /// Set when OpenSSL failed; `finalize` then returns an empty Data.
    private var failed = false

    /// Starts a new computation.
    package init(_ algorithm: Algorithm) {
        self.algorithm = algorithm
        let ok = withUnsafeMutableBytes(of: &storage) { osec_plain_digest_init(algorithm.rawValue, $0.baseAddress) }
        failed = ok != 1
    }

    /// Feeds `count` bytes at `bytes` (nil only when `count` is 0).
    package mutating func update(bytes: UnsafeRawPointer?, count: Int) {
        guard !failed, count > 0 else { return }
        let algorithm = algorithm.rawValue
        let ok = withUnsafeMutableBytes(of: &storage) {
            osec_plain_digest_update(algorithm, $0.baseAddress, bytes, count)
        }
        if ok != 1 { failed = true }
    }

    /// The digest of everything fed so far (the value itself is unchanged), or an empty Data after a failure.
    package func finalize() -> Data {
        guard !failed else { return Data() }
        var copy = storage
        var output = [UInt8](repeating: 0, count: algorithm.outputSize)
        let algorithm = algorithm.rawValue
        let ok = withUnsafeMutableBytes(of: &copy) { state in
            output.withUnsafeMutableBytes { osec_plain_digest_final(algorithm, state.baseAddress, $0.baseAddress) }
        }
        return ok == 1 ? Data(output) : Data()
    }
}
