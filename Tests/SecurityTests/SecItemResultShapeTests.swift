import Foundation
import Security
import Testing

/// The attribute dictionaries SecItemCopyMatching returns are built straight into an NSDictionary (not through a
/// bridged `[String: Any]`): every attribute, engine field and value type must be what Apple returns, alone, with
/// data, in a `kSecMatchLimitAll` listing, and when only persistent refs are asked for.
@Suite struct SecItemResultShapeTests {
    let kc: TestKeychain
    init() throws { kc = try TestKeychain() }

    func add(_ account: String, label: String? = nil, generic: Data? = nil) -> OSStatus {
        var q: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
            kSecAttrService as String: "shape", kSecValueData as String: Data("pw-\(account)".utf8),
        ]
        if let label { q[kSecAttrLabel as String] = label }
        if let generic { q[kSecAttrGeneric as String] = generic }
        return SecItemAdd(kc.q(q), nil)
    }

    func copy(_ extra: [String: Any]) -> (OSStatus, CFTypeRef?) {
        var q: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "shape"]
        for (k, v) in extra { q[k] = v }
        var result: CFTypeRef?
        let status = SecItemCopyMatching(kc.q(q), &result)
        return (status, result)
    }

    /// Every key and value type of one item's attributes.
    func checkAttributes(_ attributes: [String: Any], account: String) {
        #expect(attributes[kSecAttrAccount as String] as? String == account)
        #expect(attributes[kSecAttrService as String] as? String == "shape")
        #expect(attributes[kSecAttrLabel as String] as? String == "label-\(account)")
        #expect(attributes[kSecAttrGeneric as String] as? Data == Data([1, 2, 3]))
        #expect(attributes[kSecAttrAccessGroup as String] as? String == SecKeychainConfiguration.defaultAccessGroup)
        #expect(attributes[kSecAttrAccessible as String] as? String == kSecAttrAccessibleWhenUnlocked as String)
        #expect(attributes[kSecAttrSynchronizable as String] as? NSNumber == NSNumber(value: 0))
        #expect(attributes[kSecAttrCreationDate as String] is Date)
        #expect(attributes[kSecAttrModificationDate as String] is Date)
        #expect(attributes[kSecAttrAccessControl as String] is SecAccessControl)
        #expect(attributes[kSecValueData as String] == nil, "attributes alone carry no data")
    }

    @Test func attributesAloneHoldEveryAttributeWithApplesTypes() throws {
        #expect(add("a", label: "label-a", generic: Data([1, 2, 3])) == errSecSuccess)
        let (status, result) = copy([kSecAttrAccount as String: "a", kSecReturnAttributes as String: true])
        #expect(status == errSecSuccess)
        let attributes = try #require(result as? [String: Any])
        checkAttributes(attributes, account: "a")
        // The same keys as the attributes returned together with the data (built the other way).
        let (both, combined) = copy([
            kSecAttrAccount as String: "a", kSecReturnAttributes as String: true, kSecReturnData as String: true,
        ])
        #expect(both == errSecSuccess)
        let withData = try #require(combined as? [String: Any])
        #expect(withData[kSecValueData as String] as? Data == Data("pw-a".utf8))
        #expect(Set(withData.keys) == Set(attributes.keys).union([kSecValueData as String]))
        #expect(
            (withData[kSecAttrCreationDate as String] as? Date) == (attributes[kSecAttrCreationDate as String] as? Date)
        )
    }

    @Test func matchAllListsEveryItemsAttributes() throws {
        for account in ["x", "y", "z"] {
            #expect(add(account, label: "label-\(account)", generic: Data([1, 2, 3])) == errSecSuccess)
        }
        let (status, result) = copy([
            kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true,
        ])
        #expect(status == errSecSuccess)
        let all = try #require(result as? [[String: Any]])
        #expect(all.count == 3)
        for (attributes, account) in zip(all, ["x", "y", "z"]) { checkAttributes(attributes, account: account) }
    }

    @Test func persistentRefsAloneFindTheirItems() throws {
        for account in ["p", "q"] { #expect(add(account) == errSecSuccess) }
        let (status, result) = copy([
            kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnPersistentRef as String: true,
        ])
        #expect(status == errSecSuccess)
        let refs = try #require(result as? [Data])
        #expect(refs.count == 2)
        for (ref, account) in zip(refs, ["p", "q"]) {
            var data: CFTypeRef?
            let q: [String: Any] = [kSecValuePersistentRef as String: ref, kSecReturnData as String: true]
            #expect(SecItemCopyMatching(kc.q(q), &data) == errSecSuccess)
            #expect(data as? Data == Data("pw-\(account)".utf8))
        }
    }
}
