// CommonHMAC.h: keyed-hash message authentication (RFC 2104), one-shot and incremental.
//
// Apple's algorithm selectors are an anonymous C enum (Swift `Int` constants), converted to `CCHmacAlgorithm`
// (`uint32_t`) at the call: `CCHmac(CCHmacAlgorithm(kCCHmacAlgSHA256), key, keyLength, data, dataLength, &mac)`.
// The MAC comes from OpenSSL (OSecCrypto); this file only copies bytes in and out of the pointers it is handed.
import Foundation
import OSecCrypto

/// Selects the hash function of an HMAC (`uint32_t`).
public typealias CCHmacAlgorithm = UInt32

/// HMAC with SHA-1 (20-byte MAC).
public let kCCHmacAlgSHA1: Int = 0
/// HMAC with MD5 (16-byte MAC).
public let kCCHmacAlgMD5: Int = 1
/// HMAC with SHA-256 (32-byte MAC).
public let kCCHmacAlgSHA256: Int = 2
/// HMAC with SHA-384 (48-byte MAC).
public let kCCHmacAlgSHA384: Int = 3
/// HMAC with SHA-512 (64-byte MAC).
public let kCCHmacAlgSHA512: Int = 4
/// HMAC with SHA-224 (28-byte MAC).
public let kCCHmacAlgSHA224: Int = 5

/// The size of Apple's `CCHmacContext` in 32-bit words (`#define CC_HMAC_CONTEXT_SIZE 96`).
public let CC_HMAC_CONTEXT_SIZE: Int32 = 96

/// The context of `CCHmacInit`, `CCHmacUpdate` and `CCHmacFinal`.
///
/// Zero-initialise it (`var context = CCHmacContext()`), or allocate it uninitialised
/// (`UnsafeMutablePointer<CCHmacContext>.allocate(capacity: 1)`), and pass it to `CCHmacInit`. The running state
/// is an OpenSSL HMAC context, whose key schedule OpenSSL cleanses when it is freed; `CCHmacInit` initialises
/// the memory without reading what was there. Copying the struct copies the state (copy-on-write), as copying
/// the C struct does. The C struct's `ctx` words are present with Apple's type but are not the running state
/// (see docs/differences-from-apple.md).
public struct CCHmacContext {
    /// Apple's C field, with its type (`CC_HMAC_CONTEXT_SIZE` words). Present for source compatibility: the
    /// running state is kept elsewhere in the struct, so it stays as initialised (zero) unless code sets it.
    public var ctx:
        (
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
            UInt32, UInt32, UInt32, UInt32, UInt32
        ) =
            (
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
            )
    var hmac: HMACContext?

    /// An empty context, to be initialised with `CCHmacInit`.
    public init() {}

    /// A context with its C words set (the memberwise initialiser Swift gives the C struct); the running state
    /// starts empty, as after `init()`.
    public init(
        ctx: (
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
            UInt32, UInt32, UInt32, UInt32, UInt32
        )
    ) {
        self.ctx = ctx
    }

    /// A context running `hmac`.
    fileprivate init(running hmac: HMACContext?) {
        self.hmac = hmac
    }
}

/// `@unchecked Sendable`: the state is copy-on-write; a copy never shares mutable state with another copy.
extension CCHmacContext: @unchecked Sendable {}

extension CCHmacContext: CustomStringConvertible {
    /// A fixed text: key-derived state is never printed.
    public var description: String { "<HMAC context>" }
}

/// The digest of an HMAC selector, or nil for a value CommonCrypto does not define.
func hmacDigest(_ algorithm: CCHmacAlgorithm) -> DigestAlgorithm? {
    switch Int(algorithm) {
    case kCCHmacAlgSHA1: .sha1
    case kCCHmacAlgMD5: .md5
    case kCCHmacAlgSHA256: .sha256
    case kCCHmacAlgSHA384: .sha384
    case kCCHmacAlgSHA512: .sha512
    case kCCHmacAlgSHA224: .sha224
    default: nil
    }
}

/// Starts an HMAC in `ctx` with the hash `algorithm` and `keyLength` bytes of key at `key` (any length,
/// including zero). An unknown `algorithm` leaves the context empty, so the MAC it later writes is nothing
/// (Apple's crashes on the first update).
public func CCHmacInit(
    _ ctx: UnsafeMutablePointer<CCHmacContext>!, _ algorithm: CCHmacAlgorithm, _ key: UnsafeRawPointer!,
    _ keyLength: Int
) {
    guard let ctx else { return }
    // `initialize`, not an assignment: the memory may be uninitialised (caller-allocated), so what is there is
    // never read or released. (Re-initialising a running context without `CCHmacFinal` leaves its OpenSSL
    // context unfreed, as Apple's leaves nothing to free.)
    guard let digest = hmacDigest(algorithm), keyLength >= 0, key != nil || keyLength == 0 else {
        ctx.initialize(to: CCHmacContext(running: nil))
        return
    }
    ctx.initialize(to: CCHmacContext(running: HMACContext(digest, key: key, keyCount: keyLength)))
}

/// Feeds `dataLength` bytes at `data` to the HMAC in `ctx`; may be called any number of times.
public func CCHmacUpdate(_ ctx: UnsafeMutablePointer<CCHmacContext>!, _ data: UnsafeRawPointer!, _ dataLength: Int) {
    guard let ctx, dataLength > 0 else { return }
    ctx.pointee.hmac?.update(bytes: data, count: dataLength)
}

/// Writes the MAC (the digest length of the algorithm: `CC_SHA256_DIGEST_LENGTH` bytes for SHA-256, …) to
/// `macOut` and ends the computation; call `CCHmacInit` before reusing the context. Compare MACs in constant
/// time, never with `==` on the bytes.
public func CCHmacFinal(_ ctx: UnsafeMutablePointer<CCHmacContext>!, _ macOut: UnsafeMutableRawPointer!) {
    guard let ctx, let macOut else { return }
    guard let mac = ctx.pointee.hmac?.finalize() else { return }
    ctx.pointee.hmac = nil
    RawBytes.store(mac, at: macOut)
}

/// Computes in one call the HMAC with hash `algorithm` of `dataLength` bytes at `data` under `keyLength` bytes
/// of key at `key`, writing the MAC (the digest length of the algorithm) to `macOut`. An unknown `algorithm`
/// writes nothing (Apple's crashes).
public func CCHmac(
    _ algorithm: CCHmacAlgorithm, _ key: UnsafeRawPointer!, _ keyLength: Int, _ data: UnsafeRawPointer!,
    _ dataLength: Int, _ macOut: UnsafeMutableRawPointer!
) {
    guard let macOut, let digest = hmacDigest(algorithm), keyLength >= 0, dataLength >= 0,
        key != nil || keyLength == 0, data != nil || dataLength == 0
    else { return }
    _ = HMAC.authenticate(digest, key: key, keyCount: keyLength, data: data, count: dataLength, into: macOut)
}
