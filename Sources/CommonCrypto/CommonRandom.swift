// CommonRandom.h: cryptographically secure random bytes (from OpenSSL's RAND_bytes DRBG, seeded by the OS).
import OSecCrypto

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
