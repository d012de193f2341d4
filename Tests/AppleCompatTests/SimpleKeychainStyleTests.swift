import Foundation
import Security
import Testing

// In the style of SimpleKeychain and Locksmith: the service defaults to the bundle identifier (read as
// `Bundle.main.bundleIdentifier` or `infoDictionary?[kCFBundleIdentifierKey as String]`), every query carries the
// macOS branch's `kSecUseDataProtectionKeychain: kCFBooleanTrue`, reads take data and attributes together,
// `keys()` lists accounts with kSecMatchLimitAll, `hasItem` passes a nil result pointer, `deleteAll` deletes by
// service, items are also addressed by persistent reference, and failures carry SecCopyErrorMessageString.

struct SimpleKeychainStyleError: Error, CustomStringConvertible {
    let status: OSStatus
    var description: String { (SecCopyErrorMessageString(status, nil) as String?) ?? "OSStatus \(status)" }
}

/// Locksmith's default service: the bundle identifier from the info dictionary, or a constant.
let locksmithDefaultService =
    Bundle.main.infoDictionary?[kCFBundleIdentifierKey as String] as? String ?? "compat.locksmith.defaultService"

final class SimpleStyleKeychain: @unchecked Sendable {
    let service: String
    let accessGroup: String?
    let synchronizable: Bool
    let accessibility: CFString

    init(
        service: String = Bundle.main.bundleIdentifier ?? "compat.simplekeychain", accessGroup: String? = nil,
        synchronizable: Bool = false, accessibility: CFString = kSecAttrAccessibleAfterFirstUnlock
    ) {
        self.service = service
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
        self.accessibility = accessibility
    }

    private var baseQuery: [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            // What `#if os(macOS)` adds on Apple platforms: the iOS-style keychain.
            kSecUseDataProtectionKeychain as String: kCFBooleanTrue as Any,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        if synchronizable { query[kSecAttrSynchronizable as String] = kCFBooleanTrue as Any }
        return query
    }

    private func query(forKey key: String? = nil, _ extra: [String: Any] = [:]) -> [String: Any] {
        var query = baseQuery
        if let key { query[kSecAttrAccount as String] = key }
        return query.merging(extra) { _, new in new }
    }

    func set(_ data: Data, forKey key: String) throws {
        let addQuery = query(
            forKey: key, [kSecValueData as String: data, kSecAttrAccessible as String: accessibility])
        var status = SecItemAdd(addQuery as CFDictionary, nil)
        if status == errSecDuplicateItem {
            status = SecItemUpdate(
                query(forKey: key) as CFDictionary, [kSecValueData as String: data] as CFDictionary)
        }
        guard status == errSecSuccess else { throw SimpleKeychainStyleError(status: status) }
    }

    func data(forKey key: String) throws -> Data {
        let searchQuery = query(
            forKey: key, [kSecReturnData as String: kCFBooleanTrue as Any, kSecMatchLimit as String: kSecMatchLimitOne])
        var result: AnyObject?
        let status = SecItemCopyMatching(searchQuery as CFDictionary, &result)
        guard status == errSecSuccess else { throw SimpleKeychainStyleError(status: status) }
        guard let data = result as? Data else { throw SimpleKeychainStyleError(status: errSecInternalError) }
        return data
    }

    func hasItem(forKey key: String) -> Bool {
        SecItemCopyMatching(query(forKey: key) as CFDictionary, nil) == errSecSuccess
    }

    func keys() throws -> [String] {
        let searchQuery = query(
            [kSecReturnAttributes as String: kCFBooleanTrue as Any, kSecMatchLimit as String: kSecMatchLimitAll])
        var result: AnyObject?
        let status = SecItemCopyMatching(searchQuery as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess, let items = result as? [[String: Any]] else {
            throw SimpleKeychainStyleError(status: status)
        }
        return items.compactMap { $0[kSecAttrAccount as String] as? String }.sorted()
    }

    func deleteItem(forKey key: String) throws {
        let status = SecItemDelete(query(forKey: key) as CFDictionary)
        guard status == errSecSuccess else { throw SimpleKeychainStyleError(status: status) }
    }

    func deleteAll() throws {
        let status = SecItemDelete(baseQuery as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw SimpleKeychainStyleError(status: status)
        }
    }
}

@Suite struct SimpleKeychainStyleTests {
    init() { CompatEnvironment.isolated }

    @Test func bundleIdentifierDefaultsResolveToAString() {
        // Linux test runners have no Info.plist: both spellings fall back the way the libraries wrote them.
        #expect(!locksmithDefaultService.isEmpty)
        #expect(!SimpleStyleKeychain().service.isEmpty)
        #expect(kCFBundleIdentifierKey as String == "CFBundleIdentifier")
        #expect(kCFBundleVersionKey as String == "CFBundleVersion" && kCFBundleNameKey as String == "CFBundleName")
    }

    @Test func setReadUpdateListAndDelete() throws {
        let keychain = SimpleStyleKeychain(service: CompatEnvironment.service("simple"))
        try keychain.set(Data("token-1".utf8), forKey: "access-token")
        try keychain.set(Data("refresh".utf8), forKey: "refresh-token")
        #expect(try keychain.data(forKey: "access-token") == Data("token-1".utf8))
        try keychain.set(Data("token-2".utf8), forKey: "access-token")  // duplicate → update
        #expect(try keychain.data(forKey: "access-token") == Data("token-2".utf8))
        #expect(keychain.hasItem(forKey: "refresh-token"))
        #expect(try keychain.keys() == ["access-token", "refresh-token"])
        try keychain.deleteItem(forKey: "refresh-token")
        #expect(!keychain.hasItem(forKey: "refresh-token"))
        try keychain.deleteAll()
        #expect(try keychain.keys() == [])
        let missing = #expect(throws: SimpleKeychainStyleError.self) { try keychain.data(forKey: "access-token") }
        #expect(missing?.status == errSecItemNotFound)
        #expect(missing?.description.isEmpty == false)
    }

    @Test func synchronizableItemsAreFoundOnlyWhenAskedFor() throws {
        let service = CompatEnvironment.service("simple-sync")
        let synced = SimpleStyleKeychain(service: service, synchronizable: true)
        try synced.set(Data("cloud".utf8), forKey: "k")
        #expect(try synced.data(forKey: "k") == Data("cloud".utf8))
        // Without kSecAttrSynchronizable a query matches only non-synchronizable items (Apple's default).
        let local = SimpleStyleKeychain(service: service)
        #expect(!local.hasItem(forKey: "k"))
        let anyQuery: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
        ]
        #expect(SecItemCopyMatching(anyQuery as CFDictionary, nil) == errSecSuccess)
        #expect(SecItemDelete(anyQuery as CFDictionary) == errSecSuccess)
    }

    @Test func accessibilityIsStoredAndReturned() throws {
        let service = CompatEnvironment.service("simple-access")
        let keychain = SimpleStyleKeychain(
            service: service, accessibility: kSecAttrAccessibleWhenUnlockedThisDeviceOnly)
        try keychain.set(Data("x".utf8), forKey: "k")
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecReturnAttributes as String: true,
        ]
        var result: AnyObject?
        #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
        let attributes = try #require(result as? [String: Any])
        #expect(
            attributes[kSecAttrAccessible as String] as? String == kSecAttrAccessibleWhenUnlockedThisDeviceOnly
                as String)
        try keychain.deleteAll()
    }

    @Test func locksmithStyleDataAndAttributesTogetherAndPersistentReference() throws {
        let service = CompatEnvironment.service("locksmith")
        let archived = try NSKeyedArchiver.archivedData(
            withRootObject: ["password": "hunter2", "pin": 1234] as NSDictionary, requiringSecureCoding: false)
        let add: [String: AnyObject] = [
            String(kSecClass): kSecClassGenericPassword,
            String(kSecAttrService): service as NSString,
            String(kSecAttrAccount): "matt" as NSString,
            String(kSecValueData): archived as NSData,
            String(kSecAttrAccessible): kSecAttrAccessibleWhenUnlocked,
            String(kSecReturnPersistentRef): kCFBooleanTrue,
        ]
        var added: AnyObject?
        #expect(SecItemAdd(add as CFDictionary, &added) == errSecSuccess)
        let persistentReference = try #require(added as? Data)

        let read: [String: AnyObject] = [
            String(kSecClass): kSecClassGenericPassword,
            String(kSecAttrService): service as NSString,
            String(kSecAttrAccount): "matt" as NSString,
            String(kSecReturnData): kCFBooleanTrue,
            String(kSecReturnAttributes): kCFBooleanTrue,
            String(kSecMatchLimit): kSecMatchLimitOne,
        ]
        var result: AnyObject?
        #expect(SecItemCopyMatching(read as CFDictionary, &result) == errSecSuccess)
        let item = try #require(result as? [String: AnyObject])
        #expect(item[String(kSecAttrAccount)] as? String == "matt")
        let data = try #require(item[String(kSecValueData)] as? Data)
        let object = try NSKeyedUnarchiver.unarchivedObject(
            ofClasses: [NSDictionary.self, NSString.self, NSNumber.self], from: data)
        let dictionary = try #require(object as? [String: Any])
        #expect(dictionary["password"] as? String == "hunter2" && dictionary["pin"] as? Int == 1234)

        // The persistent reference finds the same item on its own.
        let byReference: [String: Any] = [
            kSecValuePersistentRef as String: persistentReference, kSecReturnData as String: true,
        ]
        var referenced: AnyObject?
        #expect(SecItemCopyMatching(byReference as CFDictionary, &referenced) == errSecSuccess)
        #expect(referenced as? Data == archived)
        #expect(SecItemDelete([kSecValuePersistentRef as String: persistentReference] as CFDictionary) == errSecSuccess)
        #expect(SecItemCopyMatching(byReference as CFDictionary, &referenced) == errSecItemNotFound)
    }
}
