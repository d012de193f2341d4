import Foundation
import Security
import Testing

@Suite struct SecItemPasswordTests {
    let kc: TestKeychain
    init() throws { kc = try TestKeychain() }

    func add(_ account: String, _ service: String, _ password: String, extra: [String: Any] = [:]) -> OSStatus {
        var q: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
            kSecAttrService as String: service, kSecValueData as String: Data(password.utf8),
        ]
        q.merge(extra) { $1 }
        return SecItemAdd(kc.q(q), nil)
    }

    @Test func saveReadUpdateDelete() throws {
        #expect(add("alice", "github", "s3cret") == errSecSuccess)
        var result: CFTypeRef?
        let read: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "alice",
            kSecAttrService as String: "github", kSecReturnData as String: true,
        ]
        #expect(SecItemCopyMatching(kc.q(read), &result) == errSecSuccess)
        #expect(result as? Data == Data("s3cret".utf8))

        let match: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "alice",
            kSecAttrService as String: "github",
        ]
        #expect(
            SecItemUpdate(kc.q(match), [kSecValueData as String: Data("n3w".utf8)] as CFDictionary) == errSecSuccess)
        #expect(SecItemCopyMatching(kc.q(read), &result) == errSecSuccess)
        #expect(result as? Data == Data("n3w".utf8))

        #expect(SecItemDelete(kc.q(match)) == errSecSuccess)
        #expect(SecItemCopyMatching(kc.q(read), &result) == errSecItemNotFound)
        #expect(result == nil)
        #expect(SecItemDelete(kc.q(match)) == errSecItemNotFound)
    }

    @Test func duplicatesFollowApplesUniquenessRule() {
        #expect(add("alice", "github", "a") == errSecSuccess)
        #expect(add("alice", "github", "b") == errSecDuplicateItem)
        #expect(add("bob", "github", "b") == errSecSuccess)
        // Omitted account counts as its default: two items with only a service collide.
        let noAccount: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "x"]
        #expect(SecItemAdd(kc.q(noAccount), nil) == errSecSuccess)
        #expect(SecItemAdd(kc.q(noAccount), nil) == errSecDuplicateItem)
        // Labels are not part of the key.
        #expect(add("alice", "github", "c", extra: [kSecAttrLabel as String: "other"]) == errSecDuplicateItem)
    }

    @Test func allAccountsOfAServiceWithApplesAttributeKeys() throws {
        for name in ["alice", "bob", "carol"] { #expect(add(name, "mail", "pw-\(name)") == errSecSuccess) }
        #expect(add("dave", "other", "x") == errSecSuccess)
        var result: CFTypeRef?
        let q: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "mail",
            kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true,
        ]
        #expect(SecItemCopyMatching(kc.q(q), &result) == errSecSuccess)
        let items = try #require(result as? [[String: Any]])
        #expect(items.count == 3)
        #expect(Set(items.compactMap { $0["acct"] as? String }) == ["alice", "bob", "carol"])
        for item in items {
            #expect(item["svce"] as? String == "mail")
            #expect(item["v_Data"] == nil, "no secret unless asked")
            #expect(item["cdat"] is Date && item["mdat"] is Date)
            #expect(item["pdmn"] as? String == "ak")
            #expect((item["sync"] as? NSNumber)?.intValue == 0)
            #expect(item["agrp"] as? String == SecKeychainConfiguration.accessGroups.first)
        }
    }

    @Test func everyReturnCombinationHasApplesShape() throws {
        #expect(add("alice", "shape", "pw") == errSecSuccess)
        let base: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "shape"]
        func run(_ extra: [String: Any]) -> (OSStatus, CFTypeRef?) {
            var result: CFTypeRef?
            let status = SecItemCopyMatching(kc.q(base.merging(extra) { $1 }), &result)
            return (status, result)
        }
        // No return keys: success, no result.
        let (s0, r0) = run([:])
        #expect(s0 == errSecSuccess && r0 == nil)
        #expect(run([kSecReturnData as String: true]).1 is Data)
        #expect(run([kSecReturnAttributes as String: true]).1 is [String: Any])
        let pref = try #require(run([kSecReturnPersistentRef as String: true]).1 as? Data)
        #expect(pref.count == 20 && pref.prefix(4) == Data("genp".utf8))
        let both = try #require(
            run([kSecReturnData as String: true, kSecReturnAttributes as String: true]).1 as? [String: Any])
        #expect(both["v_Data"] as? Data == Data("pw".utf8))
        #expect(both["acct"] as? String == "alice")
        let dataAndRef = try #require(
            run([kSecReturnData as String: true, kSecReturnPersistentRef as String: true]).1 as? [String: Any])
        #expect(dataAndRef["v_PersistentRef"] as? Data == pref)
        #expect(dataAndRef["acct"] == nil, "attributes only when asked")
        // Arrays with kSecMatchLimitAll, even for one match.
        let all = run([kSecReturnData as String: true, kSecMatchLimit as String: kSecMatchLimitAll]).1
        #expect((all as? [Data])?.count == 1)
        // A persistent ref alone is a complete query.
        var result: CFTypeRef?
        let byRef: [String: Any] = [kSecValuePersistentRef as String: pref, kSecReturnData as String: true]
        #expect(SecItemCopyMatching(kc.q(byRef), &result) == errSecSuccess)
        #expect(result as? Data == Data("pw".utf8))
        // Existence test with a nil result pointer.
        #expect(SecItemCopyMatching(kc.q(base.merging([kSecReturnData as String: true]) { $1 }), nil) == errSecSuccess)
    }

    @Test func persistentRefIsStableAcrossUpdates() throws {
        var result: CFTypeRef?
        let q: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "p",
            kSecAttrService as String: "stable", kSecValueData as String: Data("1".utf8),
            kSecReturnPersistentRef as String: true,
        ]
        #expect(SecItemAdd(kc.q(q), &result) == errSecSuccess)
        let ref = try #require(result as? Data)
        let match: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "stable"]
        #expect(
            SecItemUpdate(
                kc.q(match),
                [kSecAttrLabel as String: "relabelled", kSecValueData as String: Data("2".utf8)] as CFDictionary)
                == errSecSuccess)
        var again: CFTypeRef?
        #expect(
            SecItemCopyMatching(
                kc.q([
                    kSecValuePersistentRef as String: ref, kSecReturnAttributes as String: true,
                    kSecReturnData as String: true,
                ]), &again) == errSecSuccess)
        let dict = try #require(again as? [String: Any])
        #expect(dict["labl"] as? String == "relabelled")
        #expect(dict["v_Data"] as? Data == Data("2".utf8))
    }

    @Test func internetPasswords() throws {
        let q: [String: Any] = [
            kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "example.com",
            kSecAttrAccount as String: "me", kSecAttrProtocol as String: kSecAttrProtocolHTTPS,
            kSecAttrPort as String: 443, kSecValueData as String: Data("pw".utf8),
        ]
        #expect(SecItemAdd(kc.q(q), nil) == errSecSuccess)
        #expect(SecItemAdd(kc.q(q), nil) == errSecDuplicateItem)
        var other = q
        other[kSecAttrPort as String] = 8443
        #expect(SecItemAdd(kc.q(other), nil) == errSecSuccess)
        var result: CFTypeRef?
        let find: [String: Any] = [
            kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "example.com",
            kSecAttrPort as String: 443, kSecReturnAttributes as String: true,
        ]
        #expect(SecItemCopyMatching(kc.q(find), &result) == errSecSuccess)
        let attrs = try #require(result as? [String: Any])
        #expect(attrs["ptcl"] as? String == "htps")
        #expect((attrs["port"] as? NSNumber)?.intValue == 443)
    }

    @Test func malformedQueriesGetApplesCodes() {
        var result: CFTypeRef?
        #expect(
            SecItemCopyMatching([kSecAttrAccount as String: "x"] as CFDictionary, &result) == errSecParam, "no class")
        #expect(SecItemCopyMatching(kc.q([kSecClass as String: "nope"]), &result) == errSecNoSuchClass)
        #expect(
            SecItemCopyMatching(
                kc.q([kSecClass as String: kSecClassInternetPassword, kSecAttrService as String: "s"]), &result)
                == errSecNoSuchAttr)
        #expect(
            SecItemCopyMatching(
                kc.q([kSecClass as String: kSecClassGenericPassword, kSecReturnData as String: "yes"]), &result)
                == errSecParam)
        #expect(
            SecItemCopyMatching(
                kc.q([kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: "lots"]), &result)
                == errSecParam)
        #expect(
            SecItemCopyMatching(kc.q([kSecClass as String: kSecClassGenericPassword, "zzzz_bogus": 1]), &result)
                == errSecParam)
        #expect(
            SecItemDelete(kc.q([kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: "lots"]))
                == errSecParam, "match keys in delete are validated before they are stripped")
        #expect(
            SecItemUpdate(
                kc.q([kSecClass as String: kSecClassGenericPassword, kSecReturnData as String: "yes"]),
                [kSecAttrLabel as String: "x"] as CFDictionary) == errSecParam)
        #expect(
            SecItemCopyMatching(
                kc.q([kSecValuePersistentRef as String: Data([1, 2, 3]), kSecReturnData as String: true]), &result)
                == errSecParam)
        #expect(SecCopyLastErrorMessage() != nil)
    }

    @Test func updateNeverChangesTheClass() {
        #expect(add("u", "cls", "x") == errSecSuccess)
        let match: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "cls"]
        #expect(
            SecItemUpdate(kc.q(match), [kSecClass as String: kSecClassInternetPassword] as CFDictionary)
                == errSecNoSuchAttr)
        #expect(SecItemUpdate(kc.q(match), [kSecAttrServer as String: "nope"] as CFDictionary) == errSecNoSuchAttr)
        // An update that would collide with another item is a duplicate.
        #expect(add("v", "cls", "y") == errSecSuccess)
        let v: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "v"]
        #expect(SecItemUpdate(kc.q(v), [kSecAttrAccount as String: "u"] as CFDictionary) == errSecDuplicateItem)
        #expect(
            SecItemUpdate(
                kc.q([kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "none"]),
                [kSecAttrLabel as String: "l"] as CFDictionary) == errSecItemNotFound)
    }

    @Test func stringAndDataAttributesMatchByBytes() throws {
        #expect(add("bytes", "svc-bytes", "x") == errSecSuccess)
        var result: CFTypeRef?
        let q: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: Data("bytes".utf8),
            kSecReturnData as String: true,
        ]
        #expect(SecItemCopyMatching(kc.q(q), &result) == errSecSuccess)
        let upper: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "BYTES",
            kSecMatchCaseInsensitive as String: true, kSecReturnData as String: true,
        ]
        #expect(
            SecItemCopyMatching(kc.q(upper), &result) == errSecItemNotFound,
            "Apple's data-protection keychain matches byte-exactly")
    }

    @Test func synchronizableItemsAreInvisibleToPlainQueries() throws {
        #expect(add("s", "sync-svc", "x", extra: [kSecAttrSynchronizable as String: true]) == errSecSuccess)
        var result: CFTypeRef?
        let plain: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "sync-svc",
        ]
        #expect(SecItemCopyMatching(kc.q(plain), &result) == errSecItemNotFound)
        var any = plain
        any[kSecAttrSynchronizable as String] = kSecAttrSynchronizableAny
        #expect(SecItemCopyMatching(kc.q(any), &result) == errSecSuccess)
    }

    /// A configured list of groups is the process's entitlement: other groups give errSecMissingEntitlement.
    @Test func configuredAccessGroupsExcludeOthers() throws {
        try SecKeychainConfiguration.withAccessGroups(["team.one", "team.two"]) {
            #expect(
                add("g", "group-svc", "x", extra: [kSecAttrAccessGroup as String: "not-mine"])
                    == errSecMissingEntitlement)
            #expect(add("g", "group-svc", "x", extra: [kSecAttrAccessGroup as String: "team.two"]) == errSecSuccess)
            #expect(add("h", "group-svc", "x") == errSecSuccess)
            var result: CFTypeRef?
            let find: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "group-svc",
                kSecReturnAttributes as String: true, kSecMatchLimit as String: kSecMatchLimitAll,
            ]
            #expect(SecItemCopyMatching(kc.q(find), &result) == errSecSuccess)
            let groups = try #require(result as? [[String: Any]]).compactMap { $0["agrp"] as? String }
            #expect(Set(groups) == ["team.one", "team.two"], "new items go to the first configured group")
            var other = find
            other[kSecAttrAccessGroup as String] = "not-mine"
            #expect(SecItemCopyMatching(kc.q(other), &result) == errSecMissingEntitlement)
        }
    }

    /// Without configured groups a process may use any group (Linux has no entitlements); groups still separate.
    @Test func unconfiguredProcessesMayUseAnyAccessGroup() {
        SecKeychainConfiguration.withAccessGroups(nil) {
            #expect(
                add("g", "any-group", "a", extra: [kSecAttrAccessGroup as String: "com.example.a"]) == errSecSuccess)
            #expect(
                add("g", "any-group", "b", extra: [kSecAttrAccessGroup as String: "com.example.b"]) == errSecSuccess)
            #expect(add("g", "any-group", "default") == errSecSuccess)
            var result: CFTypeRef?
            var find: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "any-group",
                kSecReturnData as String: true, kSecMatchLimit as String: kSecMatchLimitAll,
            ]
            #expect(SecItemCopyMatching(kc.q(find), &result) == errSecSuccess)
            #expect((result as? [Data])?.count == 3, "a query without a group searches every group")
            find[kSecAttrAccessGroup as String] = "com.example.b"
            #expect(SecItemCopyMatching(kc.q(find), &result) == errSecSuccess)
            #expect(result as? [Data] == [Data("b".utf8)])
            find[kSecAttrAccessGroup as String] = SecKeychainConfiguration.defaultAccessGroup
            #expect(SecItemCopyMatching(kc.q(find), &result) == errSecSuccess)
            #expect(result as? [Data] == [Data("default".utf8)])
        }
    }

    // MARK: The one-pass query reader and the data-only lookup path

    @Test func dataOnlyLookupsHaveApplesShapes() throws {
        for name in ["a", "b", "c"] { #expect(add(name, "many", "pw-\(name)") == errSecSuccess) }
        let noSecret: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "many",
            kSecAttrAccount as String: "empty",
        ]
        #expect(SecItemAdd(kc.q(noSecret), nil) == errSecSuccess)
        let base: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "many",
            kSecReturnData as String: true,
        ]
        var result: CFTypeRef?
        var all = base
        all[kSecMatchLimit as String] = kSecMatchLimitAll
        #expect(SecItemCopyMatching(kc.q(all), &result) == errSecSuccess)
        let secrets = try #require(result as? [Data])
        #expect(Set(secrets) == [Data("pw-a".utf8), Data("pw-b".utf8), Data("pw-c".utf8), Data()])
        var two = base
        two[kSecMatchLimit as String] = 2
        #expect(SecItemCopyMatching(kc.q(two), &result) == errSecSuccess)
        #expect((result as? [Data])?.count == 2)
        var one = base
        one[kSecAttrAccount as String] = "empty"
        #expect(SecItemCopyMatching(kc.q(one), &result) == errSecSuccess)
        #expect(result as? Data == Data(), "an item without a secret returns empty data")
        one[kSecAttrAccount as String] = "nobody"
        #expect(SecItemCopyMatching(kc.q(one), &result) == errSecItemNotFound)
        #expect(result == nil)
        #expect(SecCopyLastErrorMessage()?.contains("no genp item") == true)
        // Engine fields in a data-only query still filter.
        var filtered = base
        filtered[kSecAttrAccessible as String] = kSecAttrAccessibleAlways
        #expect(SecItemCopyMatching(kc.q(filtered), &result) == errSecItemNotFound)
        filtered[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlocked
        filtered[kSecAttrSynchronizable as String] = kSecAttrSynchronizableAny
        filtered[kSecAttrAccount as String] = "b"
        #expect(SecItemCopyMatching(kc.q(filtered), &result) == errSecSuccess)
        #expect(result as? Data == Data("pw-b".utf8))
    }

    @Test func everyDictionarySpellingReadsTheSame() throws {
        let secret = Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        // NSData value, NSString keys, NSMutableDictionary: bytes must survive exactly.
        let add = NSMutableDictionary()
        add[kSecClass] = kSecClassGenericPassword
        add[kSecAttrService] = NSString(string: "spell")
        add[kSecAttrAccount] = "ns"
        add[kSecValueData] = NSData(data: secret)
        add[kSecUseKeychain] = kc.keychain
        #expect(SecItemAdd(add, nil) == errSecSuccess)
        var result: CFTypeRef?
        let byCFString: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword, kSecAttrService: "spell",
            kSecAttrAccount: Data("ns".utf8), kSecReturnData: NSNumber(value: true),
            kSecUseKeychain: kc.keychain,
        ]
        #expect(SecItemCopyMatching(byCFString as CFDictionary, &result) == errSecSuccess)
        #expect(result as? Data == secret)
        let byAnyHashable: [AnyHashable: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "spell",
            kSecAttrAccount as String: "ns", kSecReturnData as String: true,
            kSecUseKeychain as String: kc.keychain,
        ]
        #expect(SecItemCopyMatching(byAnyHashable as NSDictionary, &result) == errSecSuccess)
        #expect(result as? Data == secret)
        // A non-string key is refused, whatever the other entries.
        let mixed: [AnyHashable: Any] = [
            kSecClass as String: kSecClassGenericPassword, 42: "x", kSecUseKeychain as String: kc.keychain,
        ]
        #expect(SecItemCopyMatching(mixed as NSDictionary, &result) == errSecParam)
        // Numbers and booleans given as Swift values or NSNumber both work for number attributes and flags.
        #expect(
            SecItemCopyMatching(
                kc.q([
                    kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "ns",
                    kSecReturnData as String: 1,
                ]), &result) == errSecSuccess)
        #expect(result as? Data == secret)
    }

    /// macOS strips kSecReturn… and kSecMatch… keys from update and delete queries (iOS refuses them); code written
    /// for macOS passes them (`kSecMatchLimitAll` to delete every match), so they are accepted.
    @Test func returnAndMatchKeysAreStrippedFromUpdateAndDeleteAsOnMacOS() throws {
        for account in ["v1", "v2", "v3"] { #expect(add(account, "validate", "x") == errSecSuccess) }
        let match: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "validate",
        ]
        var withReturns = match
        withReturns[kSecReturnAttributes as String] = true
        withReturns[kSecReturnData as String] = false
        withReturns[kSecMatchLimit as String] = kSecMatchLimitOne
        #expect(SecItemUpdate(kc.q(withReturns), [kSecAttrLabel as String: "l"] as CFDictionary) == errSecSuccess)
        var check = match
        check[kSecReturnAttributes as String] = true
        check[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        #expect(SecItemCopyMatching(kc.q(check), &result) == errSecSuccess)
        let updated = try #require(result as? [[String: Any]])
        #expect(updated.count == 3 && updated.allSatisfy { $0["labl"] as? String == "l" }, "every match changes")
        var withMatchOptions = match
        withMatchOptions[kSecMatchCaseInsensitive as String] = false
        withMatchOptions[kSecMatchLimit as String] = kSecMatchLimitAll
        withMatchOptions[kSecReturnRef as String] = true
        #expect(SecItemDelete(kc.q(withMatchOptions)) == errSecSuccess)
        #expect(SecItemCopyMatching(kc.q(check), &result) == errSecItemNotFound, "every match is deleted")
    }

    @Test func lastErrorMessageIsPerThreadAndClearedBySuccess() throws {
        var result: CFTypeRef?
        let missing: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "nobody",
            kSecReturnData as String: true,
        ]
        #expect(SecItemCopyMatching(kc.q(missing), &result) == errSecItemNotFound)
        let message = SecCopyLastErrorMessage()
        #expect(message != nil)
        // Another thread's failure sets that thread's message only.
        final class Box: @unchecked Sendable { var message: String? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let keychain = kc.keychain
        let thread = Thread {
            var r: CFTypeRef?
            let q: [String: Any] = [kSecClass as String: "nope", kSecUseKeychain as String: keychain]
            _ = SecItemCopyMatching(q as CFDictionary, &r)
            box.message = SecCopyLastErrorMessage()
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(box.message != nil && box.message != message)
        #expect(SecCopyLastErrorMessage() == message)
        #expect(add("msg", "msg", "x") == errSecSuccess)
        #expect(SecCopyLastErrorMessage() == nil)
    }
}
