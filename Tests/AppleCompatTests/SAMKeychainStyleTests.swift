import Foundation
import Security
import Testing

// In the style of SAMKeychain (an Objective-C wrapper used from Swift): mutable Foundation dictionaries filled with
// `setObject(_:forKey:)` and CFString keys, results kept as NSDictionary/NSArray, errors as NSError with the
// message of SecCopyErrorMessageString, and a macOS branch that asks for kSecMatchLimitAll on delete.

let samErrorDomain = "com.samsoffes.samkeychain"

final class SAMStyleQuery {
    var service: String?
    var account: String?
    var label: String?
    var passwordData: Data?

    private func query() -> NSMutableDictionary {
        let dictionary = NSMutableDictionary(capacity: 4)
        dictionary.setObject(kSecClassGenericPassword, forKey: kSecClass)
        if let service { dictionary.setObject(service, forKey: kSecAttrService) }
        if let account { dictionary.setObject(account, forKey: kSecAttrAccount) }
        return dictionary
    }

    static func error(_ status: OSStatus) -> NSError {
        let message = SecCopyErrorMessageString(status, nil) as String? ?? "Unknown error"
        return NSError(domain: samErrorDomain, code: Int(status), userInfo: [NSLocalizedDescriptionKey: message])
    }

    func save() throws {
        guard service != nil, account != nil, let passwordData else { throw SAMStyleQuery.error(errSecParam) }
        let searchQuery = query()
        var status = SecItemCopyMatching(searchQuery, nil)
        if status == errSecSuccess {
            let changes = NSMutableDictionary()
            changes.setObject(passwordData, forKey: kSecValueData)
            if let label { changes.setObject(label, forKey: kSecAttrLabel) }
            status = SecItemUpdate(searchQuery, changes)
        } else if status == errSecItemNotFound {
            let toAdd = query()
            if let label { toAdd.setObject(label, forKey: kSecAttrLabel) }
            toAdd.setObject(passwordData, forKey: kSecValueData)
            toAdd.setObject(kSecAttrAccessibleAfterFirstUnlock, forKey: kSecAttrAccessible)
            status = SecItemAdd(toAdd, nil)
        }
        if status != errSecSuccess { throw SAMStyleQuery.error(status) }
    }

    func fetch() throws {
        let fetchQuery = query()
        fetchQuery.setObject(kCFBooleanTrue!, forKey: kSecReturnData)
        fetchQuery.setObject(kSecMatchLimitOne, forKey: kSecMatchLimit)
        var result: CFTypeRef?
        let status = SecItemCopyMatching(fetchQuery as CFDictionary, &result)
        if status != errSecSuccess { throw SAMStyleQuery.error(status) }
        passwordData = result as? Data
    }

    func deleteItem() throws {
        let deleteQuery = query()
        #if os(OSX) || !os(iOS)
        deleteQuery.setObject(kSecMatchLimitAll, forKey: kSecMatchLimit)
        #endif
        let status = SecItemDelete(deleteQuery)
        if status != errSecSuccess { throw SAMStyleQuery.error(status) }
    }

    static func allAccounts(forService service: String) throws -> [NSDictionary] {
        let query = NSMutableDictionary()
        query.setObject(kSecClassGenericPassword, forKey: kSecClass)
        query.setObject(service, forKey: kSecAttrService)
        query.setObject(kCFBooleanTrue!, forKey: kSecReturnAttributes)
        query.setObject(kSecMatchLimitAll, forKey: kSecMatchLimit)
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query, &result)
        if status != errSecSuccess { throw error(status) }
        return (result as? NSArray)?.compactMap { $0 as? NSDictionary } ?? []
    }
}

@Suite struct SAMKeychainStyleTests {
    init() { CompatEnvironment.isolated }

    @Test func mutableDictionaryQueriesSaveFetchAndDelete() throws {
        let service = CompatEnvironment.service("sam")
        let query = SAMStyleQuery()
        query.service = service
        query.account = "sam"
        query.label = "Sam's password"
        query.passwordData = Data("correct horse".utf8)
        try query.save()
        query.passwordData = Data("battery staple".utf8)
        try query.save()

        let fetch = SAMStyleQuery()
        fetch.service = service
        fetch.account = "sam"
        try fetch.fetch()
        #expect(fetch.passwordData == Data("battery staple".utf8))

        let accounts = try SAMStyleQuery.allAccounts(forService: service)
        #expect(accounts.count == 1)
        #expect(accounts.first?[kSecAttrAccount] as? String == "sam")
        #expect(accounts.first?.object(forKey: kSecAttrLabel) as? String == "Sam's password")
        #expect(accounts.first?[kSecAttrCreationDate] is Date)
        try fetch.deleteItem()
        #expect(throws: SAMStyleQuery.error(errSecItemNotFound)) { try fetch.fetch() }
    }

    @Test func errorsCarryTheStatusAndApplesMessage() throws {
        let missing = SAMStyleQuery()
        missing.service = CompatEnvironment.service("sam-missing")
        missing.account = "nobody"
        do {
            try missing.fetch()
            Issue.record("fetch of a missing item succeeded")
        } catch let error as NSError {
            #expect(error.domain == samErrorDomain && error.code == Int(errSecItemNotFound))
            #expect(error.localizedDescription == "The specified item could not be found in the keychain.")
        }
    }
}
