import Foundation
import Security
import Testing

// Inputs Apple's SecItem functions accept, written the way keychain wrappers write them (KeychainAccess,
// SAMKeychain, Valet, KeychainSwift): counting queries without a return key, updates whose attributes repeat the
// whole query, one account stored in two access groups and read without a group, dates read twice, and
// authentication-context keys carried in every query.

/// A wrapper in the style of several popular ones: one base query reused for every operation.
private struct WrapperStyleStore {
    let service: String

    var baseQuery: [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
    }

    /// "How many items do I have?": kSecMatchLimitAll with no kSecReturn… key (Apple: success, no result).
    func count() -> (OSStatus, CFTypeRef?) {
        var query = baseQuery
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result)
    }

    /// Existence test (SAMKeychain/KeychainSwift): no return key, default limit, nil result pointer.
    func exists(_ account: String) -> OSStatus {
        var query = baseQuery
        query[kSecAttrAccount as String] = account
        return SecItemCopyMatching(query as CFDictionary, nil)
    }

    func add(_ account: String, _ value: String, group: String? = nil) -> OSStatus {
        var query = baseQuery
        query[kSecAttrAccount as String] = account
        query[kSecValueData as String] = Data(value.utf8)
        if let group { query[kSecAttrAccessGroup as String] = group }
        return SecItemAdd(query as CFDictionary, nil)
    }

    /// The update some wrappers write: the attributes to update are the query itself plus the new data.
    func fullQueryUpdate(_ account: String, _ value: String, extra: [String: Any] = [:]) -> OSStatus {
        var query = baseQuery
        query[kSecAttrAccount as String] = account
        var attributes = query
        attributes[kSecValueData as String] = Data(value.utf8)
        for (key, extraValue) in extra { attributes[key] = extraValue }
        return SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
    }

    func read(_ account: String, extra: [String: Any] = [:]) -> (OSStatus, String?) {
        var query = baseQuery
        query[kSecAttrAccount as String] = account
        query[kSecReturnData as String] = kCFBooleanTrue
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        for (key, value) in extra { query[key] = value }
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, (result as? Data).map { String(decoding: $0, as: UTF8.self) })
    }

    func attributes(_ account: String) -> [String: Any]? {
        var query = baseQuery
        query[kSecAttrAccount as String] = account
        query[kSecReturnAttributes as String] = true
        var result: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return nil }
        return result as? [String: Any]
    }

    func removeAll() {
        _ = SecItemDelete(baseQuery as CFDictionary)
    }
}

/// An object from another module standing in for an LAContext (any object is accepted as the context).
private final class ForeignAuthenticationContext: NSObject {}

@Suite struct SecItemInputRulesTests {
    init() { CompatEnvironment.isolated }

    @Test func countingQueryWithoutReturnKeySucceedsWithNoResult() {
        let store = WrapperStyleStore(service: CompatEnvironment.service("count"))
        defer { store.removeAll() }
        #expect(store.count().0 == errSecItemNotFound)
        #expect(store.add("a", "1") == errSecSuccess)
        #expect(store.add("b", "2") == errSecSuccess)
        let (status, result) = store.count()
        #expect(status == errSecSuccess)
        #expect(result == nil)
        #expect(store.exists("a") == errSecSuccess)
        #expect(store.exists("missing") == errSecItemNotFound)
        var single: CFTypeRef?
        let one: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: store.service,
        ]
        #expect(SecItemCopyMatching(one as CFDictionary, &single) == errSecSuccess)
        #expect(single == nil)
    }

    @Test func updateWhoseAttributesRepeatTheQueryIsAccepted() {
        let store = WrapperStyleStore(service: CompatEnvironment.service("fullupdate"))
        defer { store.removeAll() }
        #expect(store.add("alice", "old") == errSecSuccess)
        #expect(store.fullQueryUpdate("alice", "new") == errSecSuccess)
        #expect(store.read("alice").1 == "new")
        // Query-only keys copied along with the query (limits, return and use keys, "any" synchronizability).
        let copied: [String: Any] = [
            kSecMatchLimit as String: kSecMatchLimitOne, kSecReturnData as String: true,
            kSecUseDataProtectionKeychain as String: true,
            kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
        ]
        #expect(store.fullQueryUpdate("alice", "newer", extra: copied) == errSecSuccess)
        #expect(store.read("alice").1 == "newer")
        // The class never changes.
        let otherClass: [String: Any] = [kSecClass as String: kSecClassInternetPassword]
        #expect(store.fullQueryUpdate("alice", "x", extra: otherClass) == errSecNoSuchAttr)
        #expect(store.read("alice").1 == "newer")
    }

    @Test func oneAccountInTwoAccessGroupsReadsTheFirstAdded() {
        let store = WrapperStyleStore(service: CompatEnvironment.service("groups"))
        defer { store.removeAll() }
        // The second group sorts before the first: the answer must follow insertion, not the group's name.
        #expect(store.add("shared", "first", group: "com.example.zeta") == errSecSuccess)
        #expect(store.add("shared", "second", group: "com.example.alpha") == errSecSuccess)
        #expect(store.read("shared").1 == "first")
        #expect(store.read("shared", extra: [kSecAttrAccessGroup as String: "com.example.alpha"]).1 == "second")
        var all: CFTypeRef?
        var query = store.baseQuery
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        query[kSecReturnData as String] = true
        #expect(SecItemCopyMatching(query as CFDictionary, &all) == errSecSuccess)
        #expect((all as? [Data])?.map { String(decoding: $0, as: UTF8.self) } == ["first", "second"])
    }

    @Test func datesOfAnUnchangedItemReadTheSameEveryTime() throws {
        let store = WrapperStyleStore(service: CompatEnvironment.service("dates"))
        defer { store.removeAll() }
        #expect(store.add("dated", "v") == errSecSuccess)
        let first = try #require(store.attributes("dated"))
        let second = try #require(store.attributes("dated"))
        let created = try #require(first[kSecAttrCreationDate as String] as? Date)
        let modified = try #require(first[kSecAttrModificationDate as String] as? Date)
        #expect(second[kSecAttrCreationDate as String] as? Date == created)
        #expect(second[kSecAttrModificationDate as String] as? Date == modified)
        #expect(created == modified)
        // A date read back finds the item when used as a query value (wrappers re-query with read attributes).
        var query = store.baseQuery
        query[kSecAttrAccount as String] = "dated"
        query[kSecAttrCreationDate as String] = created
        #expect(SecItemCopyMatching(query as CFDictionary, nil) == errSecSuccess)
    }

    @Test func authenticationContextAndOtherUseKeysAreAccepted() {
        let store = WrapperStyleStore(service: CompatEnvironment.service("use"))
        defer { store.removeAll() }
        #expect(store.add("a", "1") == errSecSuccess)
        let useKeys: [[String: Any]] = [
            [kSecUseAuthenticationContext as String: ForeignAuthenticationContext()],
            [kSecUseAuthenticationUI as String: kSecUseAuthenticationUIAllow],
            [kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip],
            [kSecUseOperationPrompt as String: "Unlock"],
            [kSecUseDataProtectionKeychain as String: true],
        ]
        for extra in useKeys {
            #expect(store.read("a", extra: extra).1 == "1", "\(extra.keys)")
        }
    }
}
