import Foundation
import Security
import Testing

/// Update and delete apply to every match (Apple: no match limit for either).
@Suite struct SecItemMatchAllTests {
    let kc: TestKeychain
    init() throws { kc = try TestKeychain() }

    func add(_ account: String, _ service: String) -> OSStatus {
        SecItemAdd(
            kc.q([
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
                kSecAttrService as String: service, kSecValueData as String: Data("pw".utf8),
            ]), nil)
    }

    func labels(_ service: String) -> [String] {
        var result: CFTypeRef?
        let q: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true,
        ]
        guard SecItemCopyMatching(kc.q(q), &result) == errSecSuccess else { return [] }
        return (result as? [[String: Any]] ?? []).compactMap { $0["labl"] as? String }
    }

    @Test func updateAndDeleteApplyToEveryMatch() {
        for account in ["a", "b", "c"] { #expect(add(account, "all") == errSecSuccess) }
        #expect(add("d", "other") == errSecSuccess)
        let match: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "all"]
        #expect(SecItemUpdate(kc.q(match), [kSecAttrLabel as String: "updated"] as CFDictionary) == errSecSuccess)
        #expect(labels("all") == ["updated", "updated", "updated"])
        #expect(labels("other").isEmpty, "items outside the match keep no label")
        #expect(SecItemDelete(kc.q(match)) == errSecSuccess)
        #expect(SecItemCopyMatching(kc.q(match), nil) == errSecItemNotFound)
        #expect(
            SecItemCopyMatching(
                kc.q([kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "other"]), nil)
                == errSecSuccess)
    }

    @Test func numericMatchLimitGivesAnArrayOfAtMostThatMany() throws {
        for account in ["a", "b", "c"] { #expect(add(account, "limit") == errSecSuccess) }
        var result: CFTypeRef?
        let q: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "limit",
            kSecMatchLimit as String: 2, kSecReturnData as String: true,
        ]
        #expect(SecItemCopyMatching(kc.q(q), &result) == errSecSuccess)
        #expect((result as? [Data])?.count == 2)
        var one = q
        one[kSecMatchLimit as String] = 1
        #expect(SecItemCopyMatching(kc.q(one), &result) == errSecSuccess)
        #expect(result is Data, "a limit of 1 is a single value, not an array")
    }
}
