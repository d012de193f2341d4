// CommonRandom.h: cryptographically secure random bytes (from OpenSSL's RAND_bytes DRBG, seeded by the OS).
import OSecCrypto
import OSecSystem

/// The status `CCRandomGenerateBytes` returns.
public typealias CCRNGStatus = CCCryptorStatus

/// Fills `count` bytes at `bytes` with cryptographically secure random bytes. Returns `kCCSuccess` (also for
/// a zero count, where `bytes` may be nil), `kCCParamError` for a nil buffer, or `kCCRNGFailure` when the
/// generator fails.
@discardableResult
public func CCRandomGenerateBytes(_ bytes: UnsafeMutableRawPointer!, _ count: Int) -> CCRNGStatus {
    if count == 0 { return CCRNGStatus(kCCSuccess) }
    guard let bytes, count > 0 else { return CCRNGStatus(kCCParamError) }
    do {
        try SecureRandom.fill(bytes, count: count)
        return CCRNGStatus(kCCSuccess)
    } catch {
        return CCRNGStatus(kCCRNGFailure)
    }
}

// MARK: - CommonRandomSPI.h

/// A random number generator (Apple's `CCRandomRef`, SPI): `OpaquePointer`, as Apple's Swift imports it. The two
/// generators Apple's declares are ``kCCRandomDefault`` and ``kCCRandomDevRandom``; both are OpenSSL's DRBG here.
public typealias CCRandomRef = OpaquePointer

/// The generators behind the ``CCRandomRef`` handles.
private final class RandomSource: Sendable {}

/// The handles of the two generators.
private let randomSources = OpaqueHandleTable<RandomSource>(tag: 0xCD)

/// The default generator (Apple's `kCCRandomDefault`, SPI): OpenSSL's DRBG, seeded by the OS.
nonisolated(unsafe) public let kCCRandomDefault: CCRandomRef! = randomSources.insert(RandomSource())

/// Apple's former `/dev/random` generator (`kCCRandomDevRandom`, SPI, deprecated): the same DRBG here.
nonisolated(unsafe) public let kCCRandomDevRandom: CCRandomRef! = randomSources.insert(RandomSource())

/// Fills `count` bytes at `bytes` from the generator `rnd` (Apple's SPI, which code of the iOS 5–7 era declares
/// itself; ``CCRandomGenerateBytes(_:_:)`` is the public form). Returns 0, or -1 for a generator that is not
/// ``kCCRandomDefault`` or ``kCCRandomDevRandom``, a nil buffer with bytes to write, or a failing generator.
@discardableResult
public func CCRandomCopyBytes(_ rnd: CCRandomRef!, _ bytes: UnsafeMutableRawPointer!, _ count: Int) -> Int32 {
    guard randomSources.object(for: rnd) != nil else { return -1 }
    return CCRandomGenerateBytes(bytes, count) == CCRNGStatus(kCCSuccess) ? 0 : -1
}
