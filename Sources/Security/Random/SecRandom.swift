import Foundation
import OSecCrypto
import OSecSystem

/// Apple's `SecRandomRef`: a random number generator, imported by Swift as an `OpaquePointer`; the only one is
/// ``kSecRandomDefault``, and `SecRandomCopyBytes` also takes nil for it.
public typealias SecRandomRef = OpaquePointer

/// The generator behind ``kSecRandomDefault`` (OpenSSL's, through OSecCrypto).
final class SecRandomGenerator: Sendable {
    static let handles = OpaqueHandleTable<SecRandomGenerator>(tag: 0x52)
    nonisolated(unsafe) static let defaultHandle = handles.insert(SecRandomGenerator())
}

/// Apple's `kSecRandomDefault`: the system's cryptographically secure generator (OpenSSL's). Apple's value is a
/// NULL `SecRandomRef`; here it is a registered handle (never dereferenced), so it is a valid non-optional
/// `OpaquePointer` for Swift.
nonisolated(unsafe) public let kSecRandomDefault: SecRandomRef = SecRandomGenerator.defaultHandle

/// Apple's `SecRandomCopyBytes`: fills `bytes` with `count` cryptographically secure random bytes from OpenSSL.
/// Returns errSecSuccess, or errSecParam (with nothing written) for a negative count. `rnd` is not consulted, as by
/// Apple (only the default generator exists): nil and ``kSecRandomDefault`` are the usual arguments.
@discardableResult
public func SecRandomCopyBytes(_ rnd: SecRandomRef?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 {
    guard count >= 0 else { return errSecParam }
    // OpenSSL writes straight into the caller's buffer (no intermediate Data, no copy of the secret bytes).
    guard (try? SecureRandom.fill(bytes, count: count)) != nil else { return errSecInternal }
    return errSecSuccess
}
