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

extension PlainDigest: CCRunningDigest {}
extension MD2.Context: CCRunningDigest {}

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

// MARK: - MD2 (RFC 1319), written here from the RFC (OpenSSL 3 is built without it)

/// The length of an MD2 digest in bytes.
public let CC_MD2_DIGEST_LENGTH: Int32 = 16
/// The MD2 block size in bytes.
public let CC_MD2_BLOCK_BYTES: Int32 = 64

/// The context of the incremental MD2 functions (`CC_MD2_CTX`).
///
/// Zero-initialise it (or allocate it uninitialised) and pass it to `CC_MD2_Init`. The running state is held by
/// value in the struct: copying the struct copies the computation, as copying the C struct does. Apple's C
/// fields are present with their types but are not the running state (see docs/differences-from-apple.md).
public struct CC_MD2state_st {
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var num: Int32 = 0
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var data:
        (
            UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
            UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var cksm:
        (
            CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG,
            CC_LONG, CC_LONG, CC_LONG, CC_LONG
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var state:
        (
            CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG,
            CC_LONG, CC_LONG, CC_LONG, CC_LONG
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var digest: MD2.Context?

    /// An empty context, to be initialised with `CC_MD2_Init`.
    public init() {}

    /// A context with its C fields set (the memberwise initialiser Swift gives the C struct); the running
    /// state starts empty, as after `init()`.
    public init(
        num: Int32,
        data: (
            UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
            UInt8
        ),
        cksm: (
            CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG,
            CC_LONG, CC_LONG, CC_LONG, CC_LONG
        ),
        state: (
            CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG,
            CC_LONG, CC_LONG, CC_LONG, CC_LONG
        )
    ) {
        self.num = num
        self.data = data
        self.cksm = cksm
        self.state = state
    }
}

extension CC_MD2state_st: Sendable {}

extension CC_MD2state_st: CCDigestState {}

extension CC_MD2state_st: CustomStringConvertible {
    /// A fixed text: message-derived state is never printed.
    public var description: String { contextDescription }
}

/// The context of the incremental MD2 functions.
public typealias CC_MD2_CTX = CC_MD2state_st

/// Starts an MD2 computation in `c`. Returns 1.
@available(
    *, deprecated,
    message: """
        This function is cryptographically broken and should not be used in security contexts. \
        Clients should migrate to SHA256 (or stronger).
        """
)
@discardableResult
public func CC_MD2_Init(_ c: UnsafeMutablePointer<CC_MD2_CTX>!) -> Int32 {
    start(c, MD2.Context())
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
public func CC_MD2_Update(_ c: UnsafeMutablePointer<CC_MD2_CTX>!, _ data: UnsafeRawPointer!, _ len: CC_LONG) -> Int32 {
    feed(c, data, len, MD2.Context())
}

/// Writes the MD2 digest (`CC_MD2_DIGEST_LENGTH` bytes) of everything fed to `c` into `md`. Returns 1.
@available(
    *, deprecated,
    message: """
        This function is cryptographically broken and should not be used in security contexts. \
        Clients should migrate to SHA256 (or stronger).
        """
)
@discardableResult
public func CC_MD2_Final(_ md: UnsafeMutablePointer<UInt8>!, _ c: UnsafeMutablePointer<CC_MD2_CTX>!) -> Int32 {
    finish(md, c, MD2.outputSize, MD2.Context())
}

/// Computes the MD2 (RFC 1319) digest of `len` bytes at `data` into `md` (`CC_MD2_DIGEST_LENGTH` bytes).
/// Returns `md`, or nil when `md` is nil or `data` is nil with a non-zero length.
@available(
    *, deprecated,
    message: """
        This function is cryptographically broken and should not be used in security contexts. \
        Clients should migrate to SHA256 (or stronger).
        """
)
@discardableResult
public func CC_MD2(
    _ data: UnsafeRawPointer!, _ len: CC_LONG, _ md: UnsafeMutablePointer<UInt8>!
)
    -> UnsafeMutablePointer<UInt8>!
{
    guard let md, let digest = MD2.hash(bytes: data, count: Int(len)) else { return nil }
    Data(digest).copyBytes(to: md, count: MD2.outputSize)
    return md
}

// MARK: - MD4 (RFC 1320)

/// The length of an MD4 digest in bytes.
public let CC_MD4_DIGEST_LENGTH: Int32 = 16
/// The MD4 block size in bytes.
public let CC_MD4_BLOCK_BYTES: Int32 = 64

/// The context of the incremental MD4 functions (`CC_MD4_CTX`).
///
/// Zero-initialise it (or allocate it uninitialised) and pass it to `CC_MD4_Init`. The running state is OpenSSL's
/// low-level digest context, held by value in the struct: copying the struct copies the computation, as
/// copying the C struct does, and an abandoned context holds nothing to free. Apple's C fields are present
/// with their types but are not the running state (see docs/differences-from-apple.md).
public struct CC_MD4state_st {
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var A: CC_LONG = 0
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var B: CC_LONG = 0
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var C: CC_LONG = 0
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var D: CC_LONG = 0
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var Nl: CC_LONG = 0
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var Nh: CC_LONG = 0
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var data:
        (
            CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG,
            CC_LONG, CC_LONG, CC_LONG, CC_LONG
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var num: Int32 = 0
    var digest: PlainDigest?

    /// An empty context, to be initialised with `CC_MD4_Init`.
    public init() {}

    /// A context with its C fields set (the memberwise initialiser Swift gives the C struct); the running
    /// state starts empty, as after `init()`.
    public init(
        A: CC_LONG, B: CC_LONG, C: CC_LONG, D: CC_LONG, Nl: CC_LONG, Nh: CC_LONG,
        data: (
            CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG,
            CC_LONG, CC_LONG, CC_LONG, CC_LONG
        ), num: Int32
    ) {
        self.A = A
        self.B = B
        self.C = C
        self.D = D
        self.Nl = Nl
        self.Nh = Nh
        self.data = data
        self.num = num
    }
}

extension CC_MD4state_st: Sendable {}

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
    start(c, PlainDigest(.md4))
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
    feed(c, data, len, PlainDigest(.md4))
}

/// Writes the MD4 digest (`CC_MD4_DIGEST_LENGTH` bytes) of everything fed to `c` into `md`. Returns 1.
@available(
    *, deprecated,
    message: """
        This function is cryptographically broken and should not be used in security contexts. \
        Clients should migrate to SHA256 (or stronger).
        """
)
@discardableResult
public func CC_MD4_Final(_ md: UnsafeMutablePointer<UInt8>!, _ c: UnsafeMutablePointer<CC_MD4_CTX>!) -> Int32 {
    finish(md, c, MD4.outputSize, PlainDigest(.md4))
}

/// Computes the MD4 (RFC 1320) digest of `len` bytes at `data` into `md` (`CC_MD4_DIGEST_LENGTH` bytes).
/// Returns `md`, or nil when `md` is nil or `data` is nil with a non-zero length.
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
    var context = PlainDigest(.md4)
    context.update(bytes: data, count: Int(len))
    let digest = context.finalize()
    guard digest.count == MD4.outputSize else { return nil }
    digest.copyBytes(to: md, count: MD4.outputSize)
    return md
}

// MARK: - MD5 (RFC 1321)
/// The length of an MD5 digest in bytes.
public let CC_MD5_DIGEST_LENGTH: Int32 = 16
/// The MD5 block size in bytes.
public let CC_MD5_BLOCK_BYTES: Int32 = 64

/// The context of the incremental MD5 functions (`CC_MD5_CTX`).
///
/// Zero-initialise it (or allocate it uninitialised) and pass it to `CC_MD5_Init`. The running state is OpenSSL's
/// low-level digest context, held by value in the struct: copying the struct copies the computation, as
/// copying the C struct does, and an abandoned context holds nothing to free. Apple's C fields are present
/// with their types but are not the running state (see docs/differences-from-apple.md).
public struct CC_MD5state_st {
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var A: CC_LONG = 0
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var B: CC_LONG = 0
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var C: CC_LONG = 0
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var D: CC_LONG = 0
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var Nl: CC_LONG = 0
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var Nh: CC_LONG = 0
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var data:
        (
            CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG,
            CC_LONG, CC_LONG, CC_LONG, CC_LONG
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var num: Int32 = 0
    var digest: PlainDigest?

    /// An empty context, to be initialised with `CC_MD5_Init`.
    public init() {}

    /// A context with its C fields set (the memberwise initialiser Swift gives the C struct); the running
    /// state starts empty, as after `init()`.
    public init(
        A: CC_LONG, B: CC_LONG, C: CC_LONG, D: CC_LONG, Nl: CC_LONG, Nh: CC_LONG,
        data: (
            CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG,
            CC_LONG, CC_LONG, CC_LONG, CC_LONG
        ), num: Int32
    ) {
        self.A = A
        self.B = B
        self.C = C
        self.D = D
        self.Nl = Nl
        self.Nh = Nh
        self.data = data
        self.num = num
    }
}

extension CC_MD5state_st: Sendable {}

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
    start(c, PlainDigest(.md5))
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
    feed(c, data, len, PlainDigest(.md5))
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
    finish(md, c, 16, PlainDigest(.md5))
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
/// Zero-initialise it (or allocate it uninitialised) and pass it to `CC_SHA1_Init`. The running state is OpenSSL's
/// low-level digest context, held by value in the struct: copying the struct copies the computation, as
/// copying the C struct does, and an abandoned context holds nothing to free. Apple's C fields are present
/// with their types but are not the running state (see docs/differences-from-apple.md).
public struct CC_SHA1state_st {
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var h0: CC_LONG = 0
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var h1: CC_LONG = 0
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var h2: CC_LONG = 0
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var h3: CC_LONG = 0
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var h4: CC_LONG = 0
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var Nl: CC_LONG = 0
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var Nh: CC_LONG = 0
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var data:
        (
            CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG,
            CC_LONG, CC_LONG, CC_LONG, CC_LONG
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var num: Int32 = 0
    var digest: PlainDigest?

    /// An empty context, to be initialised with `CC_SHA1_Init`.
    public init() {}

    /// A context with its C fields set (the memberwise initialiser Swift gives the C struct); the running
    /// state starts empty, as after `init()`.
    public init(
        h0: CC_LONG, h1: CC_LONG, h2: CC_LONG, h3: CC_LONG, h4: CC_LONG, Nl: CC_LONG, Nh: CC_LONG,
        data: (
            CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG,
            CC_LONG, CC_LONG, CC_LONG, CC_LONG
        ), num: Int32
    ) {
        self.h0 = h0
        self.h1 = h1
        self.h2 = h2
        self.h3 = h3
        self.h4 = h4
        self.Nl = Nl
        self.Nh = Nh
        self.data = data
        self.num = num
    }
}

extension CC_SHA1state_st: Sendable {}

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
    start(c, PlainDigest(.sha1))
}

/// Feeds `len` bytes at `data` to the computation in `c`. Returns 1.
@discardableResult
public func CC_SHA1_Update(_ c: UnsafeMutablePointer<CC_SHA1_CTX>!, _ data: UnsafeRawPointer!, _ len: CC_LONG) -> Int32
{
    feed(c, data, len, PlainDigest(.sha1))
}

/// Writes the SHA-1 digest (`CC_SHA1_DIGEST_LENGTH` bytes) of everything fed to `c` into `md`. Returns 1.
@discardableResult
public func CC_SHA1_Final(_ md: UnsafeMutablePointer<UInt8>!, _ c: UnsafeMutablePointer<CC_SHA1_CTX>!) -> Int32 {
    finish(md, c, 20, PlainDigest(.sha1))
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
    start(c, PlainDigest(.sha224))
}

/// Feeds `len` bytes at `data` to the computation in `c`. Returns 1.
@discardableResult
public func CC_SHA224_Update(
    _ c: UnsafeMutablePointer<CC_SHA256_CTX>!, _ data: UnsafeRawPointer!, _ len: CC_LONG
) -> Int32 {
    feed(c, data, len, PlainDigest(.sha224))
}

/// Writes the SHA-224 digest (`CC_SHA224_DIGEST_LENGTH` bytes) of everything fed to `c` into `md`. Returns 1.
@discardableResult
public func CC_SHA224_Final(_ md: UnsafeMutablePointer<UInt8>!, _ c: UnsafeMutablePointer<CC_SHA256_CTX>!) -> Int32 {
    finish(md, c, 28, PlainDigest(.sha224))
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
/// Zero-initialise it (or allocate it uninitialised) and pass it to `CC_SHA256_Init`. The running state is OpenSSL's
/// low-level digest context, held by value in the struct: copying the struct copies the computation, as
/// copying the C struct does, and an abandoned context holds nothing to free. Apple's C fields are present
/// with their types but are not the running state (see docs/differences-from-apple.md).
public struct CC_SHA256state_st {
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var count: (CC_LONG, CC_LONG) = (0, 0)
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var hash: (CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var wbuf:
        (
            CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG,
            CC_LONG, CC_LONG, CC_LONG, CC_LONG
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var digest: PlainDigest?

    /// An empty context, to be initialised with `CC_SHA256_Init`.
    public init() {}

    /// A context with its C fields set (the memberwise initialiser Swift gives the C struct); the running
    /// state starts empty, as after `init()`.
    public init(
        count: (CC_LONG, CC_LONG), hash: (CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG),
        wbuf: (
            CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG, CC_LONG,
            CC_LONG, CC_LONG, CC_LONG, CC_LONG
        )
    ) {
        self.count = count
        self.hash = hash
        self.wbuf = wbuf
    }
}

extension CC_SHA256state_st: Sendable {}

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
    start(c, PlainDigest(.sha256))
}

/// Feeds `len` bytes at `data` to the computation in `c`. Returns 1.
@discardableResult
public func CC_SHA256_Update(
    _ c: UnsafeMutablePointer<CC_SHA256_CTX>!, _ data: UnsafeRawPointer!, _ len: CC_LONG
) -> Int32 {
    feed(c, data, len, PlainDigest(.sha256))
}

/// Writes the SHA-256 digest (`CC_SHA256_DIGEST_LENGTH` bytes) of everything fed to `c` into `md`. Returns 1.
@discardableResult
public func CC_SHA256_Final(_ md: UnsafeMutablePointer<UInt8>!, _ c: UnsafeMutablePointer<CC_SHA256_CTX>!) -> Int32 {
    finish(md, c, 32, PlainDigest(.sha256))
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
    start(c, PlainDigest(.sha384))
}

/// Feeds `len` bytes at `data` to the computation in `c`. Returns 1.
@discardableResult
public func CC_SHA384_Update(
    _ c: UnsafeMutablePointer<CC_SHA512_CTX>!, _ data: UnsafeRawPointer!, _ len: CC_LONG
) -> Int32 {
    feed(c, data, len, PlainDigest(.sha384))
}

/// Writes the SHA-384 digest (`CC_SHA384_DIGEST_LENGTH` bytes) of everything fed to `c` into `md`. Returns 1.
@discardableResult
public func CC_SHA384_Final(_ md: UnsafeMutablePointer<UInt8>!, _ c: UnsafeMutablePointer<CC_SHA512_CTX>!) -> Int32 {
    finish(md, c, 48, PlainDigest(.sha384))
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
/// Zero-initialise it (or allocate it uninitialised) and pass it to `CC_SHA512_Init`. The running state is OpenSSL's
/// low-level digest context, held by value in the struct: copying the struct copies the computation, as
/// copying the C struct does, and an abandoned context holds nothing to free. Apple's C fields are present
/// with their types but are not the running state (see docs/differences-from-apple.md).
public struct CC_SHA512state_st {
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var count: (CC_LONG64, CC_LONG64) = (0, 0)
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var hash: (CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64) = (
        0, 0, 0, 0, 0, 0, 0, 0
    )
    /// Apple's C field of the same name, with its type. Present for source compatibility: the running
    /// state is kept elsewhere in the struct, so this stays as initialised (zero) unless code sets it.
    public var wbuf:
        (
            CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64,
            CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var digest: PlainDigest?

    /// An empty context, to be initialised with `CC_SHA512_Init`.
    public init() {}

    /// A context with its C fields set (the memberwise initialiser Swift gives the C struct); the running
    /// state starts empty, as after `init()`.
    public init(
        count: (CC_LONG64, CC_LONG64),
        hash: (CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64),
        wbuf: (
            CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64,
            CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64, CC_LONG64
        )
    ) {
        self.count = count
        self.hash = hash
        self.wbuf = wbuf
    }
}

extension CC_SHA512state_st: Sendable {}

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
    start(c, PlainDigest(.sha512))
}

/// Feeds `len` bytes at `data` to the computation in `c`. Returns 1.
@discardableResult
public func CC_SHA512_Update(
    _ c: UnsafeMutablePointer<CC_SHA512_CTX>!, _ data: UnsafeRawPointer!, _ len: CC_LONG
) -> Int32 {
    feed(c, data, len, PlainDigest(.sha512))
}

/// Writes the SHA-512 digest (`CC_SHA512_DIGEST_LENGTH` bytes) of everything fed to `c` into `md`. Returns 1.
@discardableResult
public func CC_SHA512_Final(_ md: UnsafeMutablePointer<UInt8>!, _ c: UnsafeMutablePointer<CC_SHA512_CTX>!) -> Int32 {
    finish(md, c, 64, PlainDigest(.sha512))
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
