import Foundation
import Security
import Testing

// In the style of Valet: a base query typed `[String: AnyHashable]` (CFString values and a SecAccessControl in it),
// queries compared for equality, a status switch mapping Apple's codes, and migration of every item of another
// service (attributes and persistent refs listed, data read back by persistent ref, added, the old ones removed).

enum ValetStyleError: Error, Equatable {
    case itemNotFound, userCancelled, missingEntitlement, couldNotAccessKeychain, invalidQuery
    case other(OSStatus)

    init(status: OSStatus) {
        switch status {
        case errSecItemNotFound: self = .itemNotFound
        case errSecUserCanceled, errSecAuthFailed: self = .userCancelled
        case errSecMissingEntitlement: self = .missingEntitlement
        case errSecNotAvailable, errSecInteractionNotAllowed, errSecNoSuchKeychain: self = .couldNotAccessKeychain
        case errSecParam, errSecNoSuchAttr, errSecNoSuchClass: self = .invalidQuery
        default: self = .other(status)
        }
    }
}

struct ServiceValet {
    let identifier: String
    var accessControl: SecAccessControl?

    var baseQuery: [String: AnyHashable] {
        var query: [String: AnyHashable] = [
            kSecClass as String: kSecClassGenericPassword as String,
            kSecAttrService as String: identifier,
        ]
        if let accessControl {
            query[kSecAttrAccessControl as String] = accessControl
        } else {
            query[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
        }
        return query
    }

    func setString(_ string: String, forKey key: String) throws {
        var query = baseQuery
        query[kSecAttrAccount as String] = key
        let status = SecItemCopyMatching(query as CFDictionary, nil)
        if status == errSecSuccess {
            let update = [kSecValueData as String: Data(string.utf8)]
            let updateStatus = SecItemUpdate(query as CFDictionary, update as CFDictionary)
            guard updateStatus == errSecSuccess else { throw ValetStyleError(status: updateStatus) }
        } else {
            query[kSecValueData as String] = Data(string.utf8)
            let addStatus = SecItemAdd(query as CFDictionary, nil)
            guard addStatus == errSecSuccess else { throw ValetStyleError(status: addStatus) }
        }
    }

    func string(forKey key: String) throws -> String {
        var query = baseQuery
        query[kSecAttrAccount as String] = key
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        query[kSecReturnData as String] = true
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        guard status == errSecSuccess else { throw ValetStyleError(status: status) }
        guard let data = result as? Data, let string = String(data: data, encoding: .utf8) else {
            throw ValetStyleError.invalidQuery
        }
        return string
    }

    func allKeys() throws -> Set<String> {
        var query = baseQuery
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        query[kSecReturnAttributes as String] = true
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess else { throw ValetStyleError(status: status) }
        if let single = result as? [String: AnyObject], let key = single[kSecAttrAccount as String] as? String {
            return [key]
        }
        guard let items = result as? [[String: AnyObject]] else { throw ValetStyleError.invalidQuery }
        return Set(items.compactMap { $0[kSecAttrAccount as String] as? String })
    }

    func removeAllObjects() throws {
        var query = baseQuery
        #if !os(iOS) && !os(tvOS) && !os(watchOS)
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        #endif
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw ValetStyleError(status: status) }
    }

    /// Moves every item matching `query` into this valet (Valet's migration flow).
    func migrateObjects(matching query: [String: AnyHashable], removeOnCompletion: Bool) throws {
        var listing = query
        listing[kSecMatchLimit as String] = kSecMatchLimitAll
        listing[kSecReturnAttributes as String] = true
        listing[kSecReturnPersistentRef as String] = true
        var result: CFTypeRef?
        let status = SecItemCopyMatching(listing as CFDictionary, &result)
        guard status == errSecSuccess else { throw ValetStyleError(status: status) }
        guard let items = result as? [[String: AnyObject]] else { throw ValetStyleError.invalidQuery }
        for item in items {
            guard let key = item[kSecAttrAccount as String] as? String,
                let reference = item[kSecValuePersistentRef as String] as? Data
            else { throw ValetStyleError.invalidQuery }
            let byReference: [String: AnyHashable] = [
                kSecValuePersistentRef as String: reference, kSecReturnData as String: true,
            ]
            var data: CFTypeRef?
            let dataStatus = SecItemCopyMatching(byReference as CFDictionary, &data)
            guard dataStatus == errSecSuccess, let value = data as? Data else {
                throw ValetStyleError(status: dataStatus)
            }
            try setString(String(decoding: value, as: UTF8.self), forKey: key)
        }
        if removeOnCompletion {
            let deleteStatus = SecItemDelete(query as CFDictionary)
            guard deleteStatus == errSecSuccess else { throw ValetStyleError(status: deleteStatus) }
        }
    }
}

@Suite struct ValetStyleTests {
    init() { CompatEnvironment.isolated }

    @Test func anyHashableQueriesStoreAndReadBack() throws {
        let valet = ServiceValet(identifier: CompatEnvironment.service("valet"))
        try valet.setString("password", forKey: "alice")
        try valet.setString("changed", forKey: "alice")
        try valet.setString("other", forKey: "bob")
        #expect(try valet.string(forKey: "alice") == "changed")
        #expect(try valet.allKeys() == ["alice", "bob"])
        try valet.removeAllObjects()
        #expect(throws: ValetStyleError.itemNotFound) { try valet.string(forKey: "alice") }
    }

    @Test func accessControlledItemsAndQueryEquality() throws {
        let accessControl = try #require(
            SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryAny, nil))
        let valet = ServiceValet(identifier: CompatEnvironment.service("valet-acl"), accessControl: accessControl)
        let twin = try #require(
            SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryAny, nil))
        #expect(valet.baseQuery == ServiceValet(identifier: valet.identifier, accessControl: twin).baseQuery)
        #expect(CFEqual(accessControl, twin) && CFHash(accessControl) == CFHash(twin))
        try valet.setString("face", forKey: "k")
        #expect(try valet.string(forKey: "k") == "face")
        var query = valet.baseQuery
        query[kSecAttrAccessible as String] = kSecAttrAccessibleAlways
        #expect(SecItemAdd(query as CFDictionary, nil) == errSecParam, "kSecAttrAccessible conflicts with the ACL")
    }

    @Test func migrationMovesEveryItem() throws {
        let legacy = ServiceValet(identifier: CompatEnvironment.service("valet-old"))
        for name in ["a", "b", "c"] { try legacy.setString("secret-\(name)", forKey: name) }
        let valet = ServiceValet(identifier: CompatEnvironment.service("valet-new"))
        try valet.migrateObjects(matching: legacy.baseQuery, removeOnCompletion: true)
        #expect(try valet.allKeys() == ["a", "b", "c"])
        #expect(try valet.string(forKey: "b") == "secret-b")
        #expect(try legacy.allKeys().isEmpty)
    }

    @Test func statusesMapToApplesMeaning() {
        #expect(ValetStyleError(status: -25300) == .itemNotFound)
        #expect(ValetStyleError(status: -34018) == .missingEntitlement)
        #expect(ValetStyleError(status: -25308) == .couldNotAccessKeychain)
        #expect(ValetStyleError(status: -128) == .userCancelled)
    }
}
