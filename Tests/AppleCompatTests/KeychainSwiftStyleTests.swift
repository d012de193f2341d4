import Foundation
import Security
import Testing

// A key-value store in the style of KeychainSwift: a key prefix, `lastResultCode`, queries as `[String: Any]` with
// `kCFBooleanTrue!`, the result read through `withUnsafeMutablePointer` into `AnyObject?`, access groups and
// synchronizable items, and `clear()` deleting the whole class (with kSecMatchLimitAll outside iOS).

final class PrefixedKeychain: @unchecked Sendable {
    var lastResultCode: OSStatus = noErr
    let keyPrefix: String
    var accessGroup: String?
    var synchronizable = false

    init(keyPrefix: String) { self.keyPrefix = keyPrefix }

    private func keyWithPrefix(_ key: String) -> String { "\(keyPrefix)\(key)" }

    private func addAccessGroupWhenPresent(_ items: [String: Any]) -> [String: Any] {
        guard let accessGroup else { return items }
        var result = items
        result[kSecAttrAccessGroup as String] = accessGroup
        return result
    }

    private func addSynchronizableIfRequired(_ items: [String: Any], addingItems: Bool) -> [String: Any] {
        if !synchronizable { return items }
        var result = items
        result[kSecAttrSynchronizable as String] = addingItems ? true : kSecAttrSynchronizableAny
        return result
    }

    @discardableResult
    func set(_ value: Data, forKey key: String, withAccess access: CFString = kSecAttrAccessibleWhenUnlocked) -> Bool {
        delete(key)
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: keyWithPrefix(key),
            kSecValueData as String: value,
            kSecAttrAccessible as String: access,
        ]
        query = addAccessGroupWhenPresent(query)
        query = addSynchronizableIfRequired(query, addingItems: true)
        lastResultCode = SecItemAdd(query as CFDictionary, nil)
        return lastResultCode == noErr
    }

    @discardableResult
    func set(_ value: String, forKey key: String) -> Bool {
        guard let data = value.data(using: .utf8) else { return false }
        return set(data, forKey: key)
    }

    func getData(_ key: String, asReference: Bool = false) -> Data? {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: keyWithPrefix(key),
            kSecMatchLimit as String: kSecMatchLimitOne,
        ]
        if asReference {
            query[kSecReturnPersistentRef as String] = kCFBooleanTrue!
        } else {
            query[kSecReturnData as String] = kCFBooleanTrue!
        }
        query = addAccessGroupWhenPresent(query)
        query = addSynchronizableIfRequired(query, addingItems: false)
        var result: AnyObject?
        lastResultCode = withUnsafeMutablePointer(to: &result) {
            SecItemCopyMatching(query as CFDictionary, UnsafeMutablePointer($0))
        }
        if lastResultCode == noErr { return result as? Data }
        return nil
    }

    func get(_ key: String) -> String? {
        getData(key).flatMap { String(data: $0, encoding: .utf8) }
    }

    var allKeys: [String] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecReturnData as String: true,
            kSecReturnAttributes as String: true,
            kSecReturnRef as String: true,
            kSecMatchLimit as String: kSecMatchLimitAll,
        ]
        query = addAccessGroupWhenPresent(query)
        query = addSynchronizableIfRequired(query, addingItems: false)
        var result: AnyObject?
        lastResultCode = withUnsafeMutablePointer(to: &result) {
            SecItemCopyMatching(query as CFDictionary, UnsafeMutablePointer($0))
        }
        guard lastResultCode == noErr else { return [] }
        return (result as? [[String: Any]])?.compactMap { $0[kSecAttrAccount as String] as? String }
            .filter { $0.hasPrefix(keyPrefix) }.sorted() ?? []
    }

    @discardableResult
    func delete(_ key: String) -> Bool {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: keyWithPrefix(key),
        ]
        query = addAccessGroupWhenPresent(query)
        query = addSynchronizableIfRequired(query, addingItems: false)
        lastResultCode = SecItemDelete(query as CFDictionary)
        return lastResultCode == noErr
    }

    /// Deletes this store's items (KeychainSwift deletes the whole class; the prefix keeps tests apart).
    @discardableResult
    func clear() -> Bool {
        for key in allKeys {
            var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: key]
            #if os(iOS) || os(tvOS) || os(watchOS)
            #else
            query[kSecMatchLimit as String] = kSecMatchLimitAll
            #endif
            query = addAccessGroupWhenPresent(query)
            query = addSynchronizableIfRequired(query, addingItems: false)
            lastResultCode = SecItemDelete(query as CFDictionary)
            if lastResultCode != noErr { return false }
        }
        return true
    }
}

@Suite struct KeychainSwiftStyleTests {
    init() { CompatEnvironment.isolated }

    @Test func stringsAndDataRoundTrip() {
        let keychain = PrefixedKeychain(keyPrefix: CompatEnvironment.service("ks") + "_")
        #expect(keychain.set("hello :)", forKey: "key 1"))
        #expect(keychain.get("key 1") == "hello :)")
        #expect(keychain.set(Data([0, 1, 2, 255]), forKey: "bytes"))
        #expect(keychain.getData("bytes") == Data([0, 1, 2, 255]))
        #expect(keychain.getData("bytes", asReference: true)?.count == 20, "a persistent reference")
        #expect(keychain.get("missing") == nil)
        #expect(keychain.lastResultCode == errSecItemNotFound)
        #expect(keychain.delete("key 1"))
        #expect(keychain.get("key 1") == nil)
    }

    @Test func listingWithDataAttributesAndRefs() {
        let keychain = PrefixedKeychain(keyPrefix: CompatEnvironment.service("ks-all") + "_")
        for name in ["one", "two", "three"] { keychain.set("v", forKey: name) }
        #expect(keychain.allKeys == ["one", "three", "two"].map { keychain.keyPrefix + $0 })
        #expect(keychain.lastResultCode == noErr, "kSecReturnRef with data and attributes does not fail the query")
        #expect(keychain.clear())
        #expect(keychain.allKeys.isEmpty)
    }

    @Test func accessGroupsNeedNoEntitlementWhenNoneAreConfigured() {
        let keychain = PrefixedKeychain(keyPrefix: CompatEnvironment.service("ks-group") + "_")
        keychain.accessGroup = "ABCDE12345.com.example.shared"
        #expect(keychain.set("shared", forKey: "k"), "status \(keychain.lastResultCode)")
        #expect(keychain.get("k") == "shared")
        let other = PrefixedKeychain(keyPrefix: keychain.keyPrefix)
        other.accessGroup = "ABCDE12345.com.example.other"
        #expect(other.get("k") == nil, "groups still separate items")
    }

    @Test func synchronizableItemsAreFoundWithSynchronizableAny() {
        let keychain = PrefixedKeychain(keyPrefix: CompatEnvironment.service("ks-sync") + "_")
        keychain.synchronizable = true
        #expect(keychain.set("synced", forKey: "s"))
        #expect(keychain.get("s") == "synced")
        let plain = PrefixedKeychain(keyPrefix: keychain.keyPrefix)
        #expect(plain.get("s") == nil, "plain queries do not see synchronizable items")
        #expect(keychain.delete("s"))
    }
}
