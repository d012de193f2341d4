import Foundation
import OSecCrypto

/// Apple's `SecRandomRef`: a random number generator; the only one is ``kSecRandomDefault``.
///
/// Apple declares it as an `OpaquePointer` whose value is NULL; here it is an opaque value, so code that passes
/// `kSecRandomDefault` or `nil` compiles unchanged.
public struct SecRandomRef: Sendable, Hashable {
    fileprivate init() {}
}

/// Apple's `kSecRandomDefault`: the system's cryptographically secure generator (OpenSSL's).
public let kSecRandomDefault = SecRandomRef()

/// Apple's `SecRandomCopyBytes`: fills `bytes` with `count` cryptographically secure random bytes from OpenSSL.
/// Returns errSecSuccess, or errSecParam (with nothing written) for a negative count.
@discardableResult
public func SecRandomCopyBytes(_ rnd: SecRandomRef?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 {
    guard count >= 0 else { return errSecParam }
    var offset = 0
    while offset < count {
        let chunk = min(count - offset, SecRandomLimits.chunk)
        guard let random = try? SecureRandom.bytes(chunk) else { return errSecInternal }
        for byte in random {
            bytes.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self)
            offset += 1
        }
    }
    return errSecSuccess
}

enum SecRandomLimits {
    /// Bytes drawn from OpenSSL per call (larger requests are split; RAND_bytes takes an `int` count).
    static let chunk = 1 << 20
}
