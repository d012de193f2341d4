import Foundation

/// Apple's `SecKeychainItem` (macOS): a reference to a password item stored in a keychain.
///
/// Apple's macOS file keychain returns one for `kSecReturnRef` on password items; iOS's data-protection keychain
/// has no ref for them and leaves the ref out of the result. OpenSecurity returns the macOS ref (it never fails
/// the query, and macOS code can pass it back): `kSecValueRef` or `kSecMatchItemList` with a SecKeychainItem
/// selects that item in `SecItemCopyMatching`, `SecItemUpdate` and `SecItemDelete`.
public final class SecKeychainItem: NSObject, @unchecked Sendable {  // immutable
    /// Where the item is stored.
    let reference: SecItemReference
    /// The item's class (a password class).
    let itemClass: SecItemKind

    init(reference: SecItemReference, itemClass: SecItemKind) {
        self.reference = reference
        self.itemClass = itemClass
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SecKeychainItem else { return false }
        return other.reference == reference
    }

    public override var hash: Int { reference.hashValue }

    public override var description: String { "<SecKeychainItem \(itemClass.rawValue) in \(reference.keychainPath)>" }
}
