import Foundation
import Security
import Testing

// In the style of SwiftKeychainWrapper: a service name and an optional access group, values stored as
// archived data, generic-password queries with `kSecAttrGeneric` and `kSecAttrAccount` both set to the encoded key,
// `SecItemUpdate` when the add finds a duplicate, and listings read as `[[AnyHashable: Any]]` indexed with the
// CFString constants themselves as well as with their String spelling.

private let SecMatchLimit: String = kSecMatchLimit as String
private let SecReturnData: String = kSecReturnData as String
private let SecReturnAttributes: String = kSecReturnAttributes as String
private let SecValueData: String = kSecValueData as String
private let SecAttrAccessible: String = kSecAttrAccessible as String
private let SecClass: String = kSecClass as String
private let SecAttrService: String = kSecAttrService as String
private let SecAttrGeneric: String = kSecAttrGeneric as String
private let SecAttrAccount: String = kSecAttrAccount as String
private let SecAttrAccessGroup: String = kSecAttrAccessGroup as String

struct ServiceKeychain {
    let serviceName: String
    let accessGroup: String?

    private func queryDictionary(forKey key: String) -> [String: Any] {
        var query: [String: Any] = [SecClass: kSecClassGenericPassword, SecAttrService: serviceName]
        if let accessGroup { query[SecAttrAccessGroup] = accessGroup }
        let encodedIdentifier = key.data(using: .utf8)
        query[SecAttrGeneric] = encodedIdentifier
        query[SecAttrAccount] = encodedIdentifier
        return query
    }

    @discardableResult
    func set(_ value: Data, forKey key: String) -> Bool {
        var query = queryDictionary(forKey: key)
        query[SecValueData] = value
        query[SecAttrAccessible] = kSecAttrAccessibleWhenUnlocked
        let status = SecItemAdd(query as CFDictionary, nil)
        if status == errSecSuccess { return true }
        if status == errSecDuplicateItem { return update(value, forKey: key) }
        return false
    }

    private func update(_ value: Data, forKey key: String) -> Bool {
        let query = queryDictionary(forKey: key)
        let update = [SecValueData: value, SecAttrAccessible: kSecAttrAccessibleWhenUnlocked] as [String: Any]
        return SecItemUpdate(query as CFDictionary, update as CFDictionary) == errSecSuccess
    }

    func data(forKey key: String) -> Data? {
        var query = queryDictionary(forKey: key)
        query[SecMatchLimit] = kSecMatchLimitOne
        query[SecReturnData] = kCFBooleanTrue
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return status == noErr ? result as? Data : nil
    }

    /// Both spellings a wrapper may index with: the String constant and the CFString constant itself.
    func allKeys() -> Set<String> {
        var query: [String: Any] = [
            SecClass: kSecClassGenericPassword, SecAttrService: serviceName,
            SecReturnAttributes: kCFBooleanTrue!, SecMatchLimit: kSecMatchLimitAll,
        ]
        if let accessGroup { query[SecAttrAccessGroup] = accessGroup }
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        guard status == errSecSuccess else { return [] }
        var keys = Set<String>()
        if let results = result as? [[AnyHashable: Any]] {
            for attributes in results {
                if let accountData = attributes[kSecAttrAccount] as? Data,
                    let key = String(data: accountData, encoding: .utf8)
                {
                    keys.insert(key)
                }
                if let accountData = attributes[SecAttrAccount] as? Data,
                    let key = String(data: accountData, encoding: .utf8)
                {
                    keys.insert("string-key:" + key)
                }
            }
        }
        return keys
    }

    @discardableResult
    func removeObject(forKey key: String) -> Bool {
        SecItemDelete(queryDictionary(forKey: key) as CFDictionary) == errSecSuccess
    }

    @discardableResult
    func removeAllKeys() -> Bool {
        var query: [String: Any] = [SecClass: kSecClassGenericPassword, SecAttrService: serviceName]
        if let accessGroup { query[SecAttrAccessGroup] = accessGroup }
        return SecItemDelete(query as CFDictionary) == errSecSuccess
    }
}

@Suite struct SwiftKeychainWrapperStyleTests {
    init() { CompatEnvironment.isolated }

    @Test func valuesRoundTripAndDuplicatesUpdate() throws {
        let keychain = ServiceKeychain(serviceName: CompatEnvironment.service("skw"), accessGroup: nil)
        let archived = try NSKeyedArchiver.archivedData(
            withRootObject: ["a": 1] as NSDictionary, requiringSecureCoding: false)
        #expect(keychain.set(archived, forKey: "dictionary"))
        #expect(keychain.set(Data("v2".utf8), forKey: "dictionary"), "a duplicate add becomes an update")
        #expect(keychain.data(forKey: "dictionary") == Data("v2".utf8))
        #expect(keychain.removeObject(forKey: "dictionary"))
        #expect(keychain.data(forKey: "dictionary") == nil)
    }

    @Test func listingIsReadableWithTheCFStringConstantAndWithItsString() {
        let keychain = ServiceKeychain(serviceName: CompatEnvironment.service("skw-keys"), accessGroup: nil)
        keychain.set(Data("1".utf8), forKey: "first")
        keychain.set(Data("2".utf8), forKey: "second")
        #expect(keychain.allKeys() == ["first", "second", "string-key:first", "string-key:second"])
        #expect(keychain.removeAllKeys())
        #expect(keychain.allKeys().isEmpty)
    }

    @Test func anAccessGroupOfTheAppsTeamWorksWithoutConfiguration() {
        let keychain = ServiceKeychain(
            serviceName: CompatEnvironment.service("skw-group"), accessGroup: "TEAMID.com.example.group")
        #expect(keychain.set(Data("grouped".utf8), forKey: "k"))
        #expect(keychain.data(forKey: "k") == Data("grouped".utf8))
        #expect(keychain.allKeys().contains("k"))
    }
}
