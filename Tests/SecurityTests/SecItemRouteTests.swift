import Foundation
import Security
import Testing

/// The SecItem route's rules (issue 14 item 4): every key Apple defines is known by its kind, unknown keys
/// get Apple's answers, engine fields (agrp, pdmn, sync, cdat, mdat) travel apart from class attributes and
/// come back in results, an unknown class is errSecNoSuchClass, and the one find loop spans keychains.
@Suite struct SecItemRouteTests {
    let kc: TestKeychain
    init() throws { kc = try TestKeychain() }

    private func password(_ account: String, _ extra: [String: Any] = [:]) -> [String: Any] {
        var q: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "route",
            kSecAttrAccount as String: account,
        ]
        q.merge(extra) { $1 }
        return q
    }

    private func add(_ account: String, in keychain: TestKeychain? = nil, _ extra: [String: Any] = [:]) -> OSStatus {
        var q = password(account, extra)
        q[kSecValueData as String] = Data(account.utf8)
        return SecItemAdd((keychain ?? kc).q(q), nil)
    }

    @Test func everyMatchReturnValueAndUseKeyIsAcceptedInAQuery() throws {
        #expect(add("alice") == errSecSuccess)
        let accepted: [String: Any] = [
            kSecMatchCaseInsensitive as String: true, kSecMatchDiacriticInsensitive as String: false,
            kSecMatchWidthInsensitive as String: true, kSecMatchSubjectContains as String: "x",
            kSecMatchSubjectStartsWith as String: "x", kSecMatchSubjectEndsWith as String: "x",
            kSecMatchSubjectWholeString as String: "x", kSecMatchHostOrSubdomainOfHost as String: "x",
            kSecUseOperationPrompt as String: "why", kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip,
            kSecUseDataProtectionKeychain as String: true, kSecAttrAccess as String: "legacy",
            kSecReturnPersistentRef as String: false, kSecReturnAttributes as String: false,
        ]
        for (key, value) in accepted {
            var result: CFTypeRef?
            var q = password("alice", [key: value])
            q[kSecReturnData as String] = true
            #expect(SecItemCopyMatching(kc.q(q), &result) == errSecSuccess, "key \(key)")
            #expect(result as? Data == Data("alice".utf8), "key \(key)")
        }
    }

    @Test func unknownKeysGetApplesAnswersByTheirShape() throws {
        #expect(add("alice") == errSecSuccess)
        let answers: [(String, OSStatus)] = [
            ("zzzz", errSecNoSuchAttr),  // a 4-character attribute name no class has
            ("srvr", errSecNoSuchAttr),  // an attribute of another class (inet)
            ("klbl", errSecNoSuchAttr),  // an attribute of another class (keys)
            ("m_Unknown", errSecParam), ("r_Unknown", errSecParam), ("u_Unknown", errSecParam),
            ("v_Unknown", errSecParam), ("class2", errSecParam), ("x", errSecParam),
            (kSecAttrPersistentReference as String, errSecNoSuchAttr),
        ]
        for (key, status) in answers {
            var q = password("alice", [key: "value"])
            q[kSecReturnData as String] = true
            var result: CFTypeRef?
            #expect(SecItemCopyMatching(kc.q(q), &result) == status, "key \(key)")
            #expect(result == nil)
            #expect(SecItemDelete(kc.q(password("alice", [key: "value"]))) == status, "key \(key)")
        }
        // Flag keys (`f…`) are accepted and have no effect, as in securityd.
        var result: CFTypeRef?
        let flagged = password("alice", ["f_Unknown": true, kSecReturnData as String: true])
        #expect(SecItemCopyMatching(kc.q(flagged), &result) == errSecSuccess)
        #expect(result as? Data == Data("alice".utf8))
    }

    @Test func unknownClassIsNoSuchClassForEveryOperation() throws {
        for code in ["zzzz", "genpx", "", "GENP"] {
            let q: [String: Any] = [kSecClass as String: code, kSecAttrAccount as String: "a"]
            var result: CFTypeRef?
            #expect(SecItemCopyMatching(kc.q(q), &result) == errSecNoSuchClass, "class \(code)")
            var adding = q
            adding[kSecValueData as String] = Data("x".utf8)
            #expect(SecItemAdd(kc.q(adding), nil) == errSecNoSuchClass, "class \(code)")
            #expect(SecItemDelete(kc.q(q)) == errSecNoSuchClass, "class \(code)")
            #expect(
                SecItemUpdate(kc.q(q), [kSecAttrLabel as String: "l"] as CFDictionary) == errSecNoSuchClass,
                "class \(code)")
        }
        let notAString: [String: Any] = [kSecClass as String: 42, kSecAttrAccount as String: "a"]
        #expect(SecItemDelete(kc.q(notAString)) == errSecParam)
    }

    @Test func engineFieldsMatchAndComeBackInResults() throws {
        let extra: [String: Any] = [
            kSecAttrAccessGroup as String: "group.route",
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
            kSecAttrSynchronizable as String: true,
        ]
        #expect(add("alice", extra) == errSecSuccess)
        #expect(add("bob") == errSecSuccess)

        var result: CFTypeRef?
        var q = password("alice", extra)
        q[kSecReturnAttributes as String] = true
        #expect(SecItemCopyMatching(kc.q(q), &result) == errSecSuccess)
        let attributes = try #require(result as? [String: Any])
        #expect(attributes[kSecAttrAccessGroup as String] as? String == "group.route")
        #expect(attributes[kSecAttrAccessible as String] as? String == kSecAttrAccessibleAfterFirstUnlock as String)
        #expect((attributes[kSecAttrSynchronizable as String] as? NSNumber)?.intValue == 1)
        #expect(attributes[kSecAttrCreationDate as String] is Date)
        #expect(attributes[kSecAttrModificationDate as String] is Date)
        #expect(attributes[kSecAttrAccount as String] as? String == "alice")

        // Each engine field constrains the match on its own.
        let misses: [[String: Any]] = [
            [kSecAttrAccessGroup as String: "group.other", kSecAttrSynchronizable as String: true],
            [kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked, kSecAttrSynchronizable as String: true],
            [:],  // sync defaults to 0: the synchronizable item is not found
        ]
        for extra in misses {
            #expect(SecItemCopyMatching(kc.q(password("alice", extra)), &result) == errSecItemNotFound)
        }
        let any = password("alice", [kSecAttrSynchronizable as String: kSecAttrSynchronizableAny])
        #expect(SecItemCopyMatching(kc.q(any), &result) == errSecSuccess)
        // The creation and modification dates are the keychain's: accepted in a query, read-only in an update.
        let dated = password("bob", [kSecAttrCreationDate as String: Date(timeIntervalSince1970: 0)])
        #expect(SecItemCopyMatching(kc.q(dated), &result) == errSecSuccess)
        for key in [kSecAttrCreationDate, kSecAttrModificationDate] {
            let update = [key as String: Date()] as CFDictionary
            #expect(SecItemUpdate(kc.q(password("bob")), update) == errSecReadOnlyAttr)
        }
    }

    @Test func updateMovesEngineFieldsAndRefusesNonAttributes() throws {
        #expect(add("alice") == errSecSuccess)
        let update: [String: Any] = [
            kSecAttrAccessGroup as String: "group.moved",
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
            kSecAttrLabel as String: "moved",
        ]
        #expect(SecItemUpdate(kc.q(password("alice")), update as CFDictionary) == errSecSuccess)
        var result: CFTypeRef?
        let moved = password(
            "alice",
            [
                kSecAttrAccessGroup as String: "group.moved",
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
                kSecAttrLabel as String: "moved", kSecReturnData as String: true,
            ])
        #expect(SecItemCopyMatching(kc.q(moved), &result) == errSecSuccess)
        #expect(result as? Data == Data("alice".utf8))
        for key in [kSecAttrServer as String, "zzzz", kSecReturnData as String, kSecMatchLimit as String, "f_Flag"] {
            let refused = [key: "x"] as CFDictionary
            #expect(SecItemUpdate(kc.q(password("alice")), refused) == errSecNoSuchAttr, "key \(key)")
        }
    }

    @Test func dataOnlyAndGeneralFindsSpanTheSearchList() throws {
        let second = try TestKeychain()
        #expect(add("alice") == errSecSuccess)
        #expect(add("bob", in: second) == errSecSuccess)
        let both = [kc.keychain, second.keychain] as NSArray
        for returnAttributes in [false, true] {
            for limit in [kSecMatchLimitAll as Any, 2, 5] {
                var q: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "route",
                    kSecMatchSearchList as String: both, kSecMatchLimit as String: limit,
                    kSecReturnData as String: true,
                ]
                if returnAttributes { q[kSecReturnAttributes as String] = true }
                var result: CFTypeRef?
                #expect(SecItemCopyMatching(q as CFDictionary, &result) == errSecSuccess)
                let items = try #require(result as? [Any])
                #expect(items.count == 2)
                let secrets: [Data] =
                    returnAttributes
                    ? items.compactMap { ($0 as? [String: Any])?[kSecValueData as String] as? Data }
                    : items.compactMap { $0 as? Data }
                #expect(secrets == [Data("alice".utf8), Data("bob".utf8)])
            }
            var q: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "route",
                kSecMatchSearchList as String: both, kSecReturnData as String: true,
            ]
            if returnAttributes { q[kSecReturnAttributes as String] = true }
            var result: CFTypeRef?
            #expect(SecItemCopyMatching(q as CFDictionary, &result) == errSecSuccess)
            let first: Any? = returnAttributes ? (result as? [String: Any])?[kSecValueData as String] : result
            #expect(first as? Data == Data("alice".utf8))
            q[kSecAttrAccount as String] = "carol"
            #expect(SecItemCopyMatching(q as CFDictionary, &result) == errSecItemNotFound)
        }
        let searchList = [kSecClass as String: kSecClassGenericPassword, kSecMatchSearchList as String: both]
        #expect(SecItemDelete(searchList as CFDictionary) == errSecSuccess)
        #expect(SecItemDelete(searchList as CFDictionary) == errSecItemNotFound)
    }
}
