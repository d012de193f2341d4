import Foundation
import Security
import Testing

/// Apps hand SecItem queries over in every form Swift allows: `[String: Any]` literals bridged by Foundation,
/// NSDictionaries built key by key with NSString or NSMutableString keys, booleans as `true`, `kCFBooleanTrue` or
/// numbers. The parser reads the exact classes a bridged literal holds (NSString, NSNumber, SecKeychain) through
/// a plain class check and every other form through Swift's full cast: each form must find the same item, and a
/// value of the wrong type must still be refused with errSecParam.
@Suite struct QueryValueFormsTests {
    let service = CompatEnvironment.service("forms")
    let keychain: SecKeychain?

    init() {
        CompatEnvironment.isolated
        var found: SecKeychain?
        keychain = SecKeychainCopyDefault(&found) == errSecSuccess ? found : nil
        let add: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: "alice", kSecValueData as String: Data("secret".utf8),
        ]
        _ = SecItemAdd(add as CFDictionary, nil)
    }

    /// SecItemCopyMatching of `entries` (an NSMutableDictionary filled key by key): its status and data.
    private func find(_ entries: [(AnyHashable, Any)]) -> (status: OSStatus, data: Data?) {
        let query = NSMutableDictionary()
        for (key, value) in entries { query[key] = value }
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query, &result)
        return (status, result as? Data)
    }

    private func entries(
        account: Any = "alice", returnData: Any = true, useKeychain: Any? = nil,
        key: (CFString) -> AnyHashable = { $0 as String }
    ) -> [(AnyHashable, Any)] {
        var entries: [(AnyHashable, Any)] = [
            (key(kSecClass), kSecClassGenericPassword), (key(kSecAttrService), service),
            (key(kSecAttrAccount), account), (key(kSecReturnData), returnData),
        ]
        if let useKeychain { entries.append((key(kSecUseKeychain), useKeychain)) }
        return entries
    }

    @Test func aBridgedLiteralFindsTheItem() throws {
        let keychain = try #require(keychain)
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: "alice", kSecReturnData as String: true, kSecUseKeychain as String: keychain,
        ]
        var result: CFTypeRef?
        #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
        #expect(result as? Data == Data("secret".utf8))
    }

    @Test func everyFormOfTheKeysFindsTheItem() throws {
        let keychain = try #require(keychain)
        let forms: [(String, (CFString) -> AnyHashable)] = [
            ("String", { $0 as String }), ("NSString", { NSString(string: $0 as String) }),
            ("NSMutableString", { NSMutableString(string: $0 as String) }),
        ]
        for (name, form) in forms {
            let found = find(entries(useKeychain: keychain, key: form))
            #expect(found.status == errSecSuccess, "keys as \(name)")
            #expect(found.data == Data("secret".utf8), "keys as \(name)")
        }
    }

    @Test func everyFormOfTheValuesFindsTheItem() throws {
        let keychain = try #require(keychain)
        let accounts: [(String, Any)] = [
            ("String", "alice"), ("NSString", NSString(string: "alice")),
            ("NSMutableString", NSMutableString(string: "alice")), ("Substring", "xalice".dropFirst()),
        ]
        for (name, account) in accounts {
            let found = find(entries(account: account, useKeychain: keychain))
            #expect(found.status == errSecSuccess, "account as \(name)")
            #expect(found.data == Data("secret".utf8), "account as \(name)")
        }
        let booleans: [(String, Any)] = [
            ("Bool", true), ("kCFBooleanTrue", kCFBooleanTrue!), ("NSNumber(bool)", NSNumber(value: true)),
            ("NSNumber(int)", NSNumber(value: 1)), ("Int", 1),
        ]
        for (name, flag) in booleans {
            let found = find(entries(returnData: flag, useKeychain: keychain))
            #expect(found.status == errSecSuccess, "kSecReturnData as \(name)")
            #expect(found.data == Data("secret".utf8), "kSecReturnData as \(name)")
        }
        let keychains: [(String, Any?)] = [("none (the default keychain)", nil), ("SecKeychain", keychain)]
        for (name, useKeychain) in keychains {
            let found = find(entries(useKeychain: useKeychain))
            #expect(found.status == errSecSuccess, "kSecUseKeychain: \(name)")
            #expect(found.data == Data("secret".utf8), "kSecUseKeychain: \(name)")
        }
    }

    @Test func valuesOfTheWrongTypeAreStillRefused() {
        #expect(find(entries(returnData: "yes")).status == errSecParam)
        #expect(find(entries(useKeychain: "not a keychain")).status == errSecParam)
        #expect(find(entries(account: "bob")).status == errSecItemNotFound)
    }
}
