// CommonDigest.h: MD5, SHA-1 and SHA-2 message digests, one-shot and incremental.
//
// Every digest comes from OpenSSL (OSecCrypto). Signatures are Apple's, as Swift imports them: pointers are
// implicitly unwrapped optionals, lengths are `CC_LONG` (`UInt32`), the `#define`d sizes are `Int32`, and the
// context structs are zero-initialisable (`var ctx = CC_SHA256_CTX(); CC_SHA256_Init(&ctx)`).
// The functions only copy bytes in and out of the pointers they are handed.
import Foundation
import OSecCrypto

/// A 32-bit length, as the digest functions take it (`uint32_t`).
public typealias CC_LONG = UInt32

/// A 64-bit word (`uint64_t`), the word of the SHA-384/512 context.
public typealias CC_LONG64 = UInt64

// MARK: - Shared implementation

/// The one-shot digest: `md` receives the digest and is returned, or nil when `md` is nil or `data` is nil with a
/// non-zero length (Apple's answers in those cases).
@inline(__always)
private func oneShot(
    _ algorithm: DigestAlgorithm, _ data: UnsafeRawPointer?, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>?
) -> UnsafeMutablePointer<UInt8>? {
    guard let md, data != nil || len == 0 else { return nil }
    return Digest.hash(algorithm, bytes: data, count: Int(len), into: md) ? md : nil
}

/// The running state of a digest context: OSecCrypto's `DigestContext`, or MD4's own (legacy provider).
protocol CCRunningDigest {
    mutating func update(bytes: UnsafeRawPointer?, count: Int)
    func finalize() -> Data
}

extension DigestContext: CCRunningDigest {}
extension MD4.Context: CCRunningDigest {}

/// A `CC_*_CTX`: its running state, nil until `_Init` or the first `_Update`, and again after `_Final`.
protocol CCDigestState {
    associatedtype Running: CCRunningDigest
    var digest: Running? { get set }
}

/// `_Init`: starts a new computation (`fresh`) in the context. Returns 1 (0 only for a nil context, where C
/// would crash).
@inline(__always)
private func start<State: CCDigestState>(
    _ c: UnsafeMutablePointer<State>?, _ fresh: @autoclosure () -> State.Running
) -> Int32 {
    guard let c else { return 0 }
    c.pointee.digest = fresh()
    return 1
}

/// `_Update`: feeds bytes. Like Apple, ignores a nil `data` or a zero length, and returns 1. A context that was
/// never initialised (or was finalised) starts a new computation (`fresh`). Returns 0 for a nil context.
@inline(__always)
private func feed<State: CCDigestState>(
    _ c: UnsafeMutablePointer<State>?, _ data: UnsafeRawPointer?, _ len: CC_LONG,
    _ fresh: @autoclosure () -> State.Running
) -> Int32 {
    guard let c else { return 0 }
    guard len > 0, let data else { return 1 }
    if c.pointee.digest == nil { c.pointee.digest = fresh() }
    c.pointee.digest?.update(bytes: data, count: Int(len))
    return 1
}

/// `_Final`: writes `length` bytes of the digest to `md` and clears the context (a finalised C context is
/// unusable until the next `_Init`; here it starts over). A nil `md` leaves the context alone, as Apple's does.
/// Returns 0 for a nil context, or when OpenSSL gave no digest (MD4 without the legacy provider).
@inline(__always)
private func finish<State: CCDigestState>(
    _ md: UnsafeMutablePointer<UInt8>?, _ c: UnsafeMutablePointer<State>?, _ length: Int,
    _ fresh: @autoclosure () -> State.Running
) -> Int32 {
    guard let c else { return 0 }
    guard let md else { return 1 }
    let digest = (c.pointee.digest ?? fresh()).finalize()
    c.pointee.digest = nil
    guard digest.count >= length else { return 0 }
    digest.copyBytes(to: md, count: length)
    return 1
}

/// Message-derived state is never printed.
private let contextDescription = "<digest context>"

// MARK: - MD4 (RFC 1320), from OpenSSL's legacy provider

/// The length of an MD4 digest in bytes.
public let CC_MD4_DIGEST_LENGTH: Int32 = 16
/// The MD4 block size in bytes.
public let CC_MD4_BLOCK_BYTES: Int32 = 64

/// The context of the incremental MD4 functions (`CC_MD4_CTX`).
///
/// Zero-initialise it and pass it to `CC_MD4_Init`. Unlike the C struct its fields are not public: the running
/// state is an OpenSSL digest context. Copying the struct copies the state (copy-on-write), as copying the C
/// struct does.
public struct CC_MD4state_st {
    var digest: MD4.Context?

    /// An empty context, to be initialised with `CC_MD4_Init`.
    public init() {}
}

/// `@unchecked Sendable`: the state is copy-on-write; a copy never shares mutable state with another copy.
extension CC_MD4state_st: @unchecked Sendable {}

extension CC_MD4state_st: CCDigestState {}

extension CC_MD4state_st: CustomStringConvertible {
    /// A fixed text: message-derived state is never printed.
    public var description: String { contextDescription }
}

/// The context of the incremental MD4 functions.
public typealias CC_MD4_CTX = CC_MD4state_st

/// Starts an MD4 computation in `c`. Returns 1.
@available(
    *, deprecated,
    message: """
        This function is cryptographically broken and should not be used in security contexts. \
        Clients should migrate to SHA256 (or stronger).
        """
)
@discardableResult
public func CC_MD4_Init(_ c: UnsafeMutablePointer<CC_MD4_CTX>!) -> Int32 {
    start(c, MD4.Context())
}

/// Feeds `len` bytes at `data` to the computation in `c`. Returns 1.
@available(
    *, deprecated,
    message: """
        This function is cryptographically broken and should not be used in security contexts. \
        Clients should migrate to SHA256 (or stronger).
        """
)
@discardableResult
public func CC_MD4_Update(_ c: UnsafeMutablePointer<CC_MD4_CTX>!, _ data: UnsafeRawPointer!, _ len: CC_LONG) -> Int32 {
    feed(c, data, len, MD4.Context())
}

/// Writes the MD4 digest (`CC_MD4_DIGEST_LENGTH` bytes) of everything fed to `c` into `md`. Returns 1 (0 when
/// OpenSSL's legacy provider is missing).
@available(
    *, deprecated,
    message: """
        This function is cryptographically broken and should not be used in security contexts. \
        Clients should migrate to SHA256 (or stronger).
        """
)
@discardableResult
public func CC_MD4_Final(_ md: UnsafeMutablePointer<UInt8>!, _ c: UnsafeMutablePointer<CC_MD4_CTX>!) -> Int32 {
    finish(md, c, MD4.outputSize, MD4.Context())
}

/// Computes the MD4 (RFC 1320) digest of `len` bytes at `data` into `md` (`CC_MD4_DIGEST_LENGTH` bytes).
/// Returns `md`, or nil when `md` is nil, `data` is nil with a non-zero length, or OpenSSL's legacy provider is
/// missing.
@available(
    *, deprecated,
    message: """
        This function is cryptographically broken and should not be used in security contexts. \
        Clients should migrate to SHA256 (or stronger).
        """
)
@discardableResult
public func CC_MD4(
    _ data: UnsafeRawPointer!, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>!
)
    -> UnsafeMutablePointer<UInt8>!
{
    guard let md, data != nil || len == 0 else { return nil }
    return MD4.hash(bytes: data, count: Int(len), into: md) ? md : nil
}

// MARK: - MD5 (RFC 1321)
/// The length of an MD5 digest in bytes.
public let CC_MD5_DIGEST_LENGTH: Int32 = 16
/// The MD5 block size in bytes.
public let CC_MD5_BLOCK_BYTES: Int32 = 64

/// The context of the incremental MD5 functions (`CC_MD5_CTX`).
///
/// Zero-initialise it and pass it to `CC_MD5_Init`. Unlike the C struct its fields are not public: the running
/// state is an OpenSSL digest context. Copying the struct copies the state (copy-on-write), as copying the C
/// struct does.
public struct CC_MD5state_st {
    var digest: DigestContext?

    /// An empty context, to be initialised with `CC_MD5_Init`.
    public init() {}
}

/// `@unchecked Sendable`: the state is copy-on-write; a copy never shares mutable state with another copy.
extension CC_MD5state_st: @unchecked Sendable {}

extension CC_MD5state_st: CCDigestState {}

extension CC_MD5state_st: CustomStringConvertible {
    /// A fixed text: message-derived state is never printed.
    public var description: String { contextDescription }
}

/// The context of the incremental MD5 functions.
public typealias CC_MD5_CTX = CC_MD5state_st

/// Starts an MD5 computation in `c`. Returns 1.
@available(
    *, deprecated,
    message: """
        This function is cryptographically broken and should not be used in security contexts. \
        Clients should migrate to SHA256 (or stronger).
        """
)
@discardableResult
public func CC_MD5_Init(_ c: UnsafeMutablePointer<CC_MD5_CTX>!) -> Int32 {
    start(c, DigestContext(.md5))
}

/// Feeds `len` bytes at `data` to the computation in `c`. Returns 1.
@available(
    *, deprecated,
    message: """
        This function is cryptographically broken and should not be used in security contexts. \
        Clients should migrate to SHA256 (or stronger).
        """
)
@discardableResult
public func CC_MD5_Update(_ c: UnsafeMutablePointer<CC_MD5_CTX>!, _ data: UnsafeRawPointer!, _ len: CC_LONG) -> Int32 {
    feed(c, data, len, DigestContext(.md5))
}

/// Writes the MD5 digest (`CC_MD5_DIGEST_LENGTH` bytes) of everything fed to `c` into `md`. Returns 1.
@available(
    *, deprecated,
    message: """
        This function is cryptographically broken and should not be used in security contexts. \
        Clients should migrate to SHA256 (or stronger).
        """
)
@discardableResult
public func CC_MD5_Final(_ md: UnsafeMutablePointer<UInt8>!, _ c: UnsafeMutablePointer<CC_MD5_CTX>!) -> Int32 {
    finish(md, c, 16, DigestContext(.md5))
}

/// Computes the MD5 (RFC 1321) digest of `len` bytes at `data` into `md` (`CC_MD5_DIGEST_LENGTH` bytes).
/// Returns `md`, or nil when `md` is nil or `data` is nil with a non-zero length.
@available(
    *, deprecated,
    message: """
        This function is cryptographically broken and should not be used in security contexts. \
        Clients should migrate to SHA256 (or stronger).
        """
)
@discardableResult
public func CC_MD5(
    _ data: UnsafeRawPointer!, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>!
)
    -> UnsafeMutablePointer<UInt8>!
{
    oneShot(.md5, data, len, md)
}

// MARK: - SHA-1 (FIPS 180-4)
/// The length of a SHA-1 digest in bytes.
public let CC_SHA1_DIGEST_LENGTH: Int32 = 20
/// The SHA-1 block size in bytes.
public let CC_SHA1_BLOCK_BYTES: Int32 = 64

/// The context of the incremental SHA-1 functions (`CC_SHA1_CTX`).
///
/// Zero-initialise it and pass it to `CC_SHA1_Init`. Unlike the C struct its fields are not public: the running
/// state is an OpenSSL digest context. Copying the struct copies the state (copy-on-write), as copying the C
/// struct does.
public struct CC_SHA1state_st {
    var digest: DigestContext?

    /// An empty context, to be initialised with `CC_SHA1_Init`.
    public init() {}
}

/// `@unchecked Sendable`: the state is copy-on-write; a copy never shares mutable state with another copy.
extension CC_SHA1state_st: @unchecked Sendable {}

extension CC_SHA1state_st: CCDigestState {}

extension CC_SHA1state_st: CustomStringConvertible {
    /// A fixed text: message-derived state is never printed.
    public var description: String { contextDescription }
}

/// The context of the incremental SHA-1 functions.
public typealias CC_SHA1_CTX = CC_SHA1state_st

/// Starts a SHA-1 computation in `c`. Returns 1.
@discardableResult
public func CC_SHA1_Init(_ c: UnsafeMutablePointer<CC_SHA1_CTX>!) -> Int32 {
    start(c, DigestContext(.sha1))
}

/// Feeds `len` bytes at `data` to the computation in `c`. Returns 1.
@discardableResult
public func CC_SHA1_Update(_ c: UnsafeMutablePointer<CC_SHA1_CTX>!, _ data: UnsafeRawPointer!, _ len: CC_LONG) -> Int32
{
    feed(c, data, len, DigestContext(.sha1))
}

/// Writes the SHA-1 digest (`CC_SHA1_DIGEST_LENGTH` bytes) of everything fed to `c` into `md`. Returns 1.
@discardableResult
public func CC_SHA1_Final(_ md: UnsafeMutablePointer<UInt8>!, _ c: UnsafeMutablePointer<CC_SHA1_CTX>!) -> Int32 {
    finish(md, c, 20, DigestContext(.sha1))
}

/// Computes the SHA-1 (FIPS 180-4) digest of `len` bytes at `data` into `md` (`CC_SHA1_DIGEST_LENGTH` bytes).
/// Returns `md`, or nil when `md` is nil or `data` is nil with a non-zero length.
@discardableResult
public func CC_SHA1(
    _ data: UnsafeRawPointer!, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>!
)
    -> UnsafeMutablePointer<UInt8>!
{
    oneShot(.sha1, data, len, md)
}

// MARK: - SHA-224 (FIPS 180-4)
/// The length of a SHA-224 digest in bytes.
public let CC_SHA224_DIGEST_LENGTH: Int32 = 28
/// The SHA-224 block size in bytes.
public let CC_SHA224_BLOCK_BYTES: Int32 = 64

/// Starts a SHA-224 computation in `c`. Returns 1.
@discardableResult
public func CC_SHA224_Init(_ c: UnsafeMutablePointer<CC_SHA256_CTX>!) -> Int32 {
    start(c, DigestContext(.sha224))
}

/// Feeds `len` bytes at `data` to the computation in `c`. Returns 1.
@discardableResult
public func CC_SHA224_Update(
    _ c: UnsafeMutablePointer<CC_SHA256_CTX>!, _ data: UnsafeRawPointer!, _ len: CC_LONG
) -> Int32 {
    feed(c, data, len, DigestContext(.sha224))
}

/// Writes the SHA-224 digest (`CC_SHA224_DIGEST_LENGTH` bytes) of everything fed to `c` into `md`. Returns 1.
@discardableResult
public func CC_SHA224_Final(_ md: UnsafeMutablePointer<UInt8>!, _ c: UnsafeMutablePointer<CC_SHA256_CTX>!) -> Int32 {
    finish(md, c, 28, DigestContext(.sha224))
}

/// Computes the SHA-224 (FIPS 180-4) digest of `len` bytes at `data` into `md` (`CC_SHA224_DIGEST_LENGTH` bytes).
/// Returns `md`, or nil when `md` is nil or `data` is nil with a non-zero length.
@discardableResult
public func CC_SHA224(
    _ data: UnsafeRawPointer!, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>!
)
    -> UnsafeMutablePointer<UInt8>!
{
    oneShot(.sha224, data, len, md)
}

// MARK: - SHA-256 (FIPS 180-4)
/// The length of a SHA-256 digest in bytes.
public let CC_SHA256_DIGEST_LENGTH: Int32 = 32
/// The SHA-256 block size in bytes.
public let CC_SHA256_BLOCK_BYTES: Int32 = 64

/// The context of the incremental SHA-256 functions (`CC_SHA256_CTX`). It is also the context of the SHA-224 functions.
///
/// Zero-initialise it and pass it to `CC_SHA256_Init`. Unlike the C struct its fields are not public: the running
/// state is an OpenSSL digest context. Copying the struct copies the state (copy-on-write), as copying the C
/// struct does.
public struct CC_SHA256state_st {
    var digest: DigestContext?

    /// An empty context, to be initialised with `CC_SHA256_Init`.
    public init() {}
}

/// `@unchecked Sendable`: the state is copy-on-write; a copy never shares mutable state with another copy.
extension CC_SHA256state_st: @unchecked Sendable {}

extension CC_SHA256state_st: CCDigestState {}

extension CC_SHA256state_st: CustomStringConvertible {
    /// A fixed text: message-derived state is never printed.
    public var description: String { contextDescription }
}

/// The context of the incremental SHA-256 functions.
public typealias CC_SHA256_CTX = CC_SHA256state_st

/// Starts a SHA-256 computation in `c`. Returns 1.
@discardableResult
public func CC_SHA256_Init(_ c: UnsafeMutablePointer<CC_SHA256_CTX>!) -> Int32 {
    start(c, DigestContext(.sha256))
}

/// Feeds `len` bytes at `data` to the computation in `c`. Returns 1.
@discardableResult
public func CC_SHA256_Update(
    _ c: UnsafeMutablePointer<CC_SHA256_CTX>!, _ data: UnsafeRawPointer!, _ len: CC_LONG
) -> Int32 {
    feed(c, data, len, DigestContext(.sha256))
}

/// Writes the SHA-256 digest (`CC_SHA256_DIGEST_LENGTH` bytes) of everything fed to `c` into `md`. Returns 1.
@discardableResult
public func CC_SHA256_Final(_ md: UnsafeMutablePointer<UInt8>!, _ c: UnsafeMutablePointer<CC_SHA256_CTX>!) -> Int32 {
    finish(md, c, 32, DigestContext(.sha256))
}

/// Computes the SHA-256 (FIPS 180-4) digest of `len` bytes at `data` into `md` (`CC_SHA256_DIGEST_LENGTH` bytes).
/// Returns `md`, or nil when `md` is nil or `data` is nil with a non-zero length.
@discardableResult
public func CC_SHA256(
    _ data: UnsafeRawPointer!, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>!
)
    -> UnsafeMutablePointer<UInt8>!
{
    oneShot(.sha256, data, len, md)
}

// MARK: - SHA-384 (FIPS 180-4)
/// The length of a SHA-384 digest in bytes.
public let CC_SHA384_DIGEST_LENGTH: Int32 = 48
/// The SHA-384 block size in bytes.
public let CC_SHA384_BLOCK_BYTES: Int32 = 128

/// Starts a SHA-384 computation in `c`. Returns 1.
@discardableResult
public func CC_SHA384_Init(_ c: UnsafeMutablePointer<CC_SHA512_CTX>!) -> Int32 {
    start(c, DigestContext(.sha384))
}

/// Feeds `len` bytes at `data` to the computation in `c`. Returns 1.
@discardableResult
public func CC_SHA384_Update(
    _ c: UnsafeMutablePointer<CC_SHA512_CTX>!, _ data: UnsafeRawPointer!, _ len: CC_LONG
) -> Int32 {
    feed(c, data, len, DigestContext(.sha384))
}

/// Writes the SHA-384 digest (`CC_SHA384_DIGEST_LENGTH` bytes) of everything fed to `c` into `md`. Returns 1.
@discardableResult
public func CC_SHA384_Final(_ md: UnsafeMutablePointer<UInt8>!, _ c: UnsafeMutablePointer<CC_SHA512_CTX>!) -> Int32 {
    finish(md, c, 48, DigestContext(.sha384))
}

/// Computes the SHA-384 (FIPS 180-4) digest of `len` bytes at `data` into `md` (`CC_SHA384_DIGEST_LENGTH` bytes).
/// Returns `md`, or nil when `md` is nil or `data` is nil with a non-zero length.
@discardableResult
public func CC_SHA384(
    _ data: UnsafeRawPointer!, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>!
)
    -> UnsafeMutablePointer<UInt8>!
{
    oneShot(.sha384, data, len, md)
}

// MARK: - SHA-512 (FIPS 180-4)
/// The length of a SHA-512 digest in bytes.
public let CC_SHA512_DIGEST_LENGTH: Int32 = 64
/// The SHA-512 block size in bytes.
public let CC_SHA512_BLOCK_BYTES: Int32 = 128

/// The context of the incremental SHA-512 functions (`CC_SHA512_CTX`). It is also the context of the SHA-384 functions.
///
/// Zero-initialise it and pass it to `CC_SHA512_Init`. Unlike the C struct its fields are not public: the running
/// state is an OpenSSL digest context. Copying the struct copies the state (copy-on-write), as copying the C
/// struct does.
public struct CC_SHA512state_st {
    var digest: DigestContext?

    /// An empty context, to be initialised with `CC_SHA512_Init`.
    public init() {}
}

/// `@unchecked Sendable`: the state is copy-on-write; a copy never shares mutable state with another copy.
extension CC_SHA512state_st: @unchecked Sendable {}

extension CC_SHA512state_st: CCDigestState {}

extension CC_SHA512state_st: CustomStringConvertible {
    /// A fixed text: message-derived state is never printed.
    public var description: String { contextDescription }
}

/// The context of the incremental SHA-512 functions.
public typealias CC_SHA512_CTX = CC_SHA512state_st

/// Starts a SHA-512 computation in `c`. Returns 1.
@discardableResult
public func CC_SHA512_Init(_ c: UnsafeMutablePointer<CC_SHA512_CTX>!) -> Int32 {
    start(c, DigestContext(.sha512))
}

/// Feeds `len` bytes at `data` to the computation in `c`. Returns 1.
@discardableResult
public func CC_SHA512_Update(
    _ c: UnsafeMutablePointer<CC_SHA512_CTX>!, _ data: UnsafeRawPointer!, _ len: CC_LONG
) -> Int32 {
    feed(c, data, len, DigestContext(.sha512))
}

/// Writes the SHA-512 digest (`CC_SHA512_DIGEST_LENGTH` bytes) of everything fed to `c` into `md`. Returns 1.
@discardableResult
public func CC_SHA512_Final(_ md: UnsafeMutablePointer<UInt8>!, _ c: UnsafeMutablePointer<CC_SHA512_CTX>!) -> Int32 {
    finish(md, c, 64, DigestContext(.sha512))
}

/// Computes the SHA-512 (FIPS 180-4) digest of `len` bytes at `data` into `md` (`CC_SHA512_DIGEST_LENGTH` bytes).
/// Returns `md`, or nil when `md` is nil or `data` is nil with a non-zero length.
@discardableResult
public func CC_SHA512(
    _ data: UnsafeRawPointer!, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>!
)
    -> UnsafeMutablePointer<UInt8>!
{
    oneShot(.sha512, data, len, md)
}
