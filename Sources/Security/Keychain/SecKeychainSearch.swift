import Foundation
import OSecSystem

/// Apple's `SecKeychainSearch` (macOS, SecKeychainSearch.h): the items of one class whose attributes equal the
/// given ones, handed out one by one by `SecKeychainSearchCopyNext`. The matches are found when the search is
/// created (a SecItem query with `kSecMatchLimitAll`).
public final class SecKeychainSearch: NSObject, @unchecked Sendable {
    private let pending: LockedValue<[SecKeychainItem]>

    init(items: [SecKeychainItem]) { pending = LockedValue(items) }

    func next() -> SecKeychainItem? {
        pending.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    public override var description: String { "<SecKeychainSearch>" }
}

/// Apple's `SecKeychainSearchRef`.
public typealias SecKeychainSearchRef = SecKeychainSearch

/// Apple's `SecKeychainSearchGetTypeID`.
public func SecKeychainSearchGetTypeID() -> CFTypeID { CFTypeIdentifier.keychainSearch }

/// Apple's `SecKeychainSearchCreateFromAttributes`: a search for items of `itemClass` in `keychainOrArray` (a
/// keychain, an array of them, or nil) whose attributes equal those of `attrList` (nil: every item of the class).
/// The key classes search the keychain's keys of that kind (public, private, symmetric).
public func SecKeychainSearchCreateFromAttributes(
    _ keychainOrArray: CFTypeRef?, _ itemClass: SecItemClass, _ attrList: UnsafePointer<SecKeychainAttributeList>?,
    _ searchRef: UnsafeMutablePointer<SecKeychainSearch?>
) -> OSStatus {
    searchRef.pointee = nil
    return SecItemDiagnostics.run {
        guard let kind = KeychainItemBridge.kind(of: itemClass) else {
            searchRef.pointee = SecKeychainSearch(items: [])
            return
        }
        var query = try KeychainItemBridge.attributes(attrList?.pointee, kind: kind)
        if let keyClass = KeychainItemBridge.keyClass(of: itemClass) { query[kSecAttrKeyClass as String] = keyClass }
        query[kSecClass as String] = kind.rawValue
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        query[kSecReturnPersistentRef as String] = true
        let keychains = try KeychainItemBridge.searchList(keychainOrArray) ?? [KeychainRegistry.defaultKeychain()]
        var items: [SecKeychainItem] = []
        for keychain in keychains {
            query[kSecMatchSearchList as String] = [keychain]
            let found: AnyObject?
            do {
                found = try SecItemOperations.copyMatching(
                    try SecItemQuery(query as NSDictionary, for: .copyMatching))
            } catch let error as SecError where error.status == errSecItemNotFound {
                continue
            }
            for case let reference as Data in (found as? NSArray) ?? [] {
                items.append(
                    SecKeychainItem(
                        reference: SecItemReference(keychainPath: keychain.path, persistentRef: reference),
                        itemClass: kind))
            }
        }
        searchRef.pointee = SecKeychainSearch(items: items)
    }
}

/// Apple's `SecKeychainSearchCopyNext`: the next match; errSecItemNotFound when there are no more.
public func SecKeychainSearchCopyNext(
    _ searchRef: SecKeychainSearch, _ itemRef: UnsafeMutablePointer<SecKeychainItem?>
) -> OSStatus {
    guard let item = searchRef.next() else {
        itemRef.pointee = nil
        return errSecItemNotFound
    }
    itemRef.pointee = item
    return errSecSuccess
}
