import Foundation
import Testing

@testable import OSecKeychain

@Suite struct LockAndPasswordTests {
    let dir = TestDirectory()

    @Test func passwordKeychainStartsLockedInANewInstance() throws {
        let path = dir.keychainPath()
        let creator = try KeychainStore.create(at: path, password: testPassword, kdf: .testing)
        #expect(
            try creator.status == KeychainStatus(isPasswordProtected: true, isUnlocked: true, hasBeenUnlocked: true))
        let unlockedItem = try creator.add(
            genp(account: "a", service: "s", secret: "A-secret", accessibility: .whenUnlocked))
        _ = try creator.add(genp(account: "c", service: "s", secret: "C-secret", accessibility: .afterFirstUnlock))
        _ = try creator.add(genp(account: "d", service: "s", secret: "D-secret", accessibility: .always))

        let other = try KeychainStore.open(at: path)
        #expect(
            try other.status == KeychainStatus(isPasswordProtected: true, isUnlocked: false, hasBeenUnlocked: false))
        let items = try other.find(ItemQuery(itemClass: .genericPassword, attributes: ["svce": .string("s")]))
        #expect(items.count == 3)  // attributes readable while locked
        func secret(_ store: KeychainStore, _ account: String) throws -> Data? {
            try store.find(ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string(account)])).first?
                .secret?.open()
        }
        #expect(expectCode(.interactionNotAllowed) { _ = try secret(other, "a") })
        #expect(expectCode(.interactionNotAllowed) { _ = try secret(other, "c") })
        #expect(try secret(other, "d") == Data("D-secret".utf8))
        // Writing a WhenUnlocked secret while locked is not allowed either; attribute-only adds are.
        #expect(expectCode(.interactionNotAllowed) { _ = try other.add(genp(account: "x", service: "s", secret: "x")) })
        _ = try other.add(genp(account: "y", service: "s"))

        #expect(expectCode(.authFailed) { try other.unlock(password: Data("wrong".utf8)) })
        #expect(try other.status.isUnlocked == false)
        try other.unlock(password: testPassword)
        #expect(try secret(other, "a") == Data("A-secret".utf8))
        let fetchedWhileUnlocked = try #require(try other.find(persistentRef: unlockedItem.persistentRef))
        #expect(try secret(other, "c") == Data("C-secret".utf8))

        try other.lock()
        #expect(try other.status == KeychainStatus(isPasswordProtected: true, isUnlocked: false, hasBeenUnlocked: true))
        #expect(expectCode(.interactionNotAllowed) { _ = try secret(other, "a") })
        #expect(try secret(other, "c") == Data("C-secret".utf8))  // AfterFirstUnlock survives lock
        #expect(try secret(other, "d") == Data("D-secret".utf8))
        // An item fetched before locking cannot be opened after it either; other instances keep their own state.
        #expect(expectCode(.interactionNotAllowed) { _ = try fetchedWhileUnlocked.secret?.open() })
        #expect(try unlockedItem.secret?.open() == Data("A-secret".utf8))
    }

    @Test func changePasswordRewrapsOnlyTheMasterKey() throws {
        let path = dir.keychainPath()
        let store = try KeychainStore.create(at: path, password: testPassword, kdf: .testing)
        let item = try store.add(genp(account: "a", service: "s", secret: "keep me"))
        let before = try store.find(persistentRef: item.persistentRef)?.secret
        #expect(
            expectCode(.authFailed) {
                try store.changePassword(from: Data("nope".utf8), to: Data("new".utf8), kdf: .testing)
            })
        try store.changePassword(from: testPassword, to: Data("new".utf8), kdf: .testing)
        // Item rows untouched: same sealed bytes.
        let after = try store.find(persistentRef: item.persistentRef)?.secret
        #expect(before?.blob == after?.blob)

        let reopened = try KeychainStore.open(at: path)
        #expect(expectCode(.authFailed) { try reopened.unlock(password: testPassword) })
        try reopened.unlock(password: Data("new".utf8))
        #expect(try reopened.find(persistentRef: item.persistentRef)?.secret?.open() == Data("keep me".utf8))

        // Remove the password: the keychain becomes device-key protected and never locked.
        try reopened.changePassword(from: Data("new".utf8), to: nil)
        let passwordless = try KeychainStore.open(at: path)
        #expect(
            try passwordless.status
                == KeychainStatus(isPasswordProtected: false, isUnlocked: true, hasBeenUnlocked: true))
        try passwordless.lock()
        #expect(try passwordless.find(persistentRef: item.persistentRef)?.secret?.open() == Data("keep me".utf8))
        // …and set one again.
        try passwordless.changePassword(from: nil, to: Data("third".utf8), kdf: .testing)
        let third = try KeychainStore.open(at: path)
        #expect(try third.status.isUnlocked == false)
        try third.unlock(password: Data("third".utf8))
        #expect(try third.find(persistentRef: item.persistentRef)?.secret?.open() == Data("keep me".utf8))
    }

    @Test func kdfParametersAreStoredAndValidated() throws {
        let custom = try KDFParameters(n: 1 << 11, r: 4, p: 2)
        let path = dir.keychainPath()
        _ = try KeychainStore.create(at: path, password: testPassword, kdf: custom)
        let reopened = try KeychainStore.open(at: path)
        let meta = try KeychainStore.mapErrors { try KeychainMeta.read(reopened.db) }
        #expect(meta.kdf == custom)
        #expect(meta.kdfSalt?.count == 16)
        try reopened.unlock(password: testPassword)
        #expect(expectCode(.param) { _ = try KDFParameters(n: 1000, r: 8, p: 1) })
        #expect(KDFParameters.default.n >= 1 << 17)
    }

    @Test func passwordlessKeychainIsAlwaysUnlocked() throws {
        let path = dir.keychainPath()
        let store = try KeychainStore.create(at: path, password: nil)
        _ = try store.add(genp(account: "a", service: "s", secret: "x"))
        let reopened = try KeychainStore.open(at: path)
        #expect(try reopened.status.isUnlocked)
        #expect(try reopened.find(ItemQuery(itemClass: .genericPassword)).first?.secret?.open() == Data("x".utf8))
    }
}
