import Foundation

/// Where a stored item lives: its keychain file and Apple-format persistent reference. Carried by refs
/// (`SecKey`, `SecCertificate`, `SecIdentity`) that came from a keychain, so `kSecValueRef` queries find them.
struct SecItemReference: Sendable, Hashable {
    let keychainPath: String
    let persistentRef: Data
}
