import Foundation
import Security
import Testing

@testable import OpenSecurityKit

@Suite struct KeychainOneLinerTests {
    let store: KitKeychain
    init() throws { store = try KitKeychain() }

    @Test func setGetUpdateDeleteAString() throws {
        let keychain = store.view("api.example.com")
        #expect(try keychain.string(forAccount: "alice") == nil)
        try keychain.set("s3cret", forAccount: "alice")
        #expect(try keychain.string(forAccount: "alice") == "s3cret")
        try keychain.set("n3w", forAccount: "alice")
        #expect(try keychain.string(forAccount: "alice") == "n3w")
        #expect(try keychain.accounts() == ["alice"])
        #expect(try keychain.delete(account: "alice"))
        #expect(try keychain.string(forAccount: "alice") == nil)
        #expect(try keychain.delete(account: "alice") == false)
    }

    @Test func dataIsStoredByteForByte() throws {
        let keychain = store.view()
        let bytes = Data((0...255).map { UInt8($0) })
        try keychain.set(bytes, forAccount: "blob")
        #expect(try keychain.data(forAccount: "blob") == bytes)
        try keychain.set(Data(), forAccount: "empty")
        #expect(try keychain.data(forAccount: "empty") == Data())
    }

    @Test func itemsAreTheSameAsRawSecItemCalls() throws {
        let keychain = store.view("raw.example")
        try keychain.set("from-kit", forAccount: "bob")
        var result: CFTypeRef?
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "raw.example",
            kSecAttrAccount as String: "bob", kSecReturnData as String: true, kSecUseKeychain as String: store.keychain,
        ]
        #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
        #expect(result as? Data == Data("from-kit".utf8))
        // And an item written by raw SecItemAdd is read by the one-liner.
        #expect(
            store.addRaw([
                kSecAttrService as String: "raw.example", kSecAttrAccount as String: "carol",
                kSecValueData as String: Data("raw".utf8),
            ]) == errSecSuccess)
        #expect(try keychain.string(forAccount: "carol") == "raw")
    }

    @Test func nonUTF8BytesAreAConversionErrorWhenTextIsAsked() throws {
        let keychain = store.view()
        try keychain.set(Data([0xFF, 0xFE, 0x00, 0xC3]), forAccount: "binary")
        #expect(thrownStatus { try keychain.string(forAccount: "binary") } == errSecConversionError)
        #expect(try keychain.data(forAccount: "binary") == Data([0xFF, 0xFE, 0x00, 0xC3]))
    }

    @Test func containsChecksWithoutReading() throws {
        let keychain = store.view()
        #expect(try keychain.contains(account: "x") == false)
        try keychain.set("1", forAccount: "x")
        #expect(try keychain.contains(account: "x"))
    }

    @Test func accountsAreSortedAndPerService() throws {
        let mail = store.view("mail")
        for name in ["carol", "alice", "bob"] { try mail.set("pw-\(name)", forAccount: name) }
        try store.view("other").set("x", forAccount: "dave")
        #expect(try mail.accounts() == ["alice", "bob", "carol"])
        #expect(try store.view("other").accounts() == ["dave"])
        #expect(try store.view("none").accounts() == [])
        #expect(try mail.deleteAll() == 3)
        #expect(try mail.accounts() == [])
        #expect(try store.view("other").accounts() == ["dave"])
        #expect(try mail.deleteAll() == 0)
    }

    @Test func accountDictionariesHaveSSKeychainsKeys() throws {
        let keychain = store.view("sskeychain").label("Mail account")
        let before = Date().addingTimeInterval(-5)
        try keychain.set("pw", forAccount: "alice")
        let dictionaries = try keychain.accountDictionaries()
        #expect(dictionaries.count == 1)
        let item = try #require(dictionaries.first)
        // SSKeychain's kSSKeychainAccountKey, WhereKey, LabelKey, CreatedAtKey, LastModifiedKey.
        #expect(item["acct"] as? String == "alice")
        #expect(item["svce"] as? String == "sskeychain")
        #expect(item["labl"] as? String == "Mail account")
        let created = try #require(item["cdat"] as? Date)
        let modified = try #require(item["mdat"] as? Date)
        #expect(created >= before && modified >= created)
        #expect(item[kSecValueData as String] == nil)
    }

    @Test func allAccountsListsEveryServiceSynchronizableOrNot() throws {
        try store.view("one").set("a", forAccount: "alice")
        try store.view("two").synchronizable(true).set("b", forAccount: "bob")
        let all = try Keychain.allAccounts(in: store.keychain)
        let pairs = Set(
            all.compactMap { item -> String? in
                guard let account = item["acct"] as? String, let service = item["svce"] as? String else { return nil }
                return "\(service)/\(account)"
            })
        #expect(pairs == ["one/alice", "two/bob"])
    }

    @Test func itemsReportTheirAttributes() throws {
        let keychain = store.view("typed").label("Label").comment("Comment").accessibility(.afterFirstUnlock)
        try keychain.set("v", forAccount: "alice")
        let item = try #require(try keychain.items().first)
        #expect(item.account == "alice")
        #expect(item.service == "typed")
        #expect(item.label == "Label")
        #expect(item.comment == "Comment")
        #expect(item.accessibility == .afterFirstUnlock)
        #expect(item.synchronizable == false)
        #expect(item.creationDate != nil && item.modificationDate != nil)
    }

    @Test func updateChangesLabelCommentAndAccessibilityButKeepsWhatIsNotGiven() throws {
        let base = store.view("update")
        try base.label("first").comment("note").set("1", forAccount: "a")
        try base.accessibility(.whenUnlockedThisDeviceOnly).set("2", forAccount: "a")
        var item = try #require(try base.items().first)
        #expect(item.label == "first")
        #expect(item.comment == "note")
        #expect(item.accessibility == .whenUnlockedThisDeviceOnly)
        try base.label("second").set("3", forAccount: "a")
        item = try #require(try base.items().first)
        #expect(item.label == "second")
        #expect(try base.string(forAccount: "a") == "3")
    }

    @Test func synchronizableIsPartOfTheItem() throws {
        let local = store.view("sync")
        let synced = local.synchronizable(true)
        try local.set("local", forAccount: "a")
        try synced.set("synced", forAccount: "a")
        #expect(try local.string(forAccount: "a") == "local")
        #expect(try synced.string(forAccount: "a") == "synced")
        #expect(try synced.items().first?.synchronizable == true)
        #expect(try local.delete(account: "a"))
        #expect(try synced.string(forAccount: "a") == "synced")
    }

    @Test func accessGroupsSeparateItems() throws {
        let groupA = store.view("groups").accessGroup("com.example.a")
        let groupB = store.view("groups").accessGroup("com.example.b")
        try groupA.set("in A", forAccount: "shared")
        #expect(try groupB.string(forAccount: "shared") == nil)
        try groupB.set("in B", forAccount: "shared")
        #expect(try groupA.string(forAccount: "shared") == "in A")
        #expect(try groupB.string(forAccount: "shared") == "in B")
        #expect(try groupA.items().first?.accessGroup == "com.example.a")
        // Without a group, searches see every group.
        #expect(try store.view("groups").accounts() == ["shared", "shared"])
    }

    @Test func aLockedKeychainGivesApplesCodeNameAndMessage() throws {
        let locked = try KitKeychain(password: "pw")
        let keychain = locked.view()
        try keychain.set("v", forAccount: "a")
        #expect(SecKeychainLock(locked.keychain) == errSecSuccess)
        do {
            _ = try keychain.string(forAccount: "a")
            Issue.record("reading a when-unlocked item from a locked keychain succeeded")
        } catch {
            #expect(error.status == errSecInteractionNotAllowed)
            #expect(error.name == "errSecInteractionNotAllowed")
            #expect(error.message == SecCopyErrorMessageString(errSecInteractionNotAllowed, nil) as String?)
            #expect((error as NSError).domain == NSOSStatusErrorDomain)
            #expect((error as NSError).code == Int(errSecInteractionNotAllowed))
            #expect(error == SecurityKitError.interactionNotAllowed)
        }
        // Nothing was written by a failed set either.
        #expect(thrownStatus { try keychain.set("w", forAccount: "b") } == errSecInteractionNotAllowed)
        #expect(SecKeychainUnlock(locked.keychain, 2, "pw", true) == errSecSuccess)
        #expect(try keychain.accounts() == ["a"])
    }

    @Test func errorsMatchCodeConstantsInCatchClauses() {
        let error: any Error = SecurityKitError(errSecItemNotFound, reason: "test")
        switch error {
        case SecurityKitError.itemNotFound: break
        default: Issue.record("the code constant did not match")
        }
        #expect(SecurityKitError(-25300).description.hasPrefix("errSecItemNotFound (-25300): "))
        #expect(SecurityKitError(-99_999).name == "OSStatus -99999")
        #expect(SecurityKitError(errSecSuccess).name == "errSecSuccess")
    }

    @Test func concurrentWritersNeverLeaveTheItemMissing() async throws {
        let keychain = store.view("race")
        try await keychain.set("0", forAccount: "counter")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for round in 0..<15 { try await keychain.set("\(writer)-\(round)", forAccount: "counter") }
                }
            }
            group.addTask {
                for _ in 0..<60 {
                    let value = try await keychain.string(forAccount: "counter")
                    #expect(value != nil, "a reader saw the item missing while it was being replaced")
                }
            }
            try await group.waitForAll()
        }
        #expect(try await keychain.accounts() == ["counter"])
    }

    @Test func asyncVariantsRunOffTheCallersThread() async throws {
        let keychain = store.view("async")
        try await keychain.set("async-value", forAccount: "a")
        try await keychain.set(Data([1, 2, 3]), forAccount: "b")
        #expect(try await keychain.string(forAccount: "a") == "async-value")
        #expect(try await keychain.data(forAccount: "b") == Data([1, 2, 3]))
        #expect(try await keychain.contains(account: "a"))
        #expect(try await keychain.accounts() == ["a", "b"])
        #expect(try await keychain.items().count == 2)
        #expect(try await keychain.delete(account: "a"))
        #expect(try await keychain.deleteAll() == 1)
        #expect(await thrownStatus { try await keychain.string(forAccount: "a") } == nil)
    }

    /// The work blocks until the main actor signals it: had it run on the caller's (main) actor, the signal could
    /// never come and the wait would time out (a hang guard, not a timing assertion).
    @MainActor
    @Test func asyncWorkLeavesTheCallersActorFree() async throws {
        let semaphore = DispatchSemaphore(value: 0)
        let work = Task { @MainActor in
            try await offCallerThread { () throws(SecurityKitError) in
                semaphore.wait(timeout: .now() + 60) == .success
            }
        }
        await Task.yield()
        semaphore.signal()
        #expect(try await work.value)
    }
}
