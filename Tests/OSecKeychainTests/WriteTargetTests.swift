import Foundation
import Testing

@testable import OSecKeychain

/// Issue 12 item 5: a write never reports success for a keychain file that is gone. Before each write
/// transaction the store checks that its path still names the file it opened.
@Suite struct WriteTargetTests {
    let dir = TestDirectory()

    func everything(_ store: KeychainStore) throws -> [KeychainItem] {
        var query = ItemQuery(itemClass: .genericPassword)
        query.isSynchronizable = nil
        return try store.find(query)
    }

    @Test func writesIntoAKeychainDeletedAndCreatedAgainAreRefusedNotLost() throws {
        let path = dir.keychainPath()
        let first = try KeychainStore.create(at: path, password: nil)
        let kept = try first.add(genp(account: "before", service: "s", secret: "1"))
        // Another process deletes the keychain and creates a new one at the same path.
        try KeychainStore.delete(at: path)
        let second = try KeychainStore.create(at: path, password: nil)
        let query = ItemQuery(persistentRef: kept.persistentRef)
        for write in [
            { _ = try first.add(genp(account: "after", service: "s", secret: "2")) },
            { _ = try first.update(query, with: ItemChanges(secret: Data("3".utf8))) },
            { _ = try first.delete(query) },
            { try first.changePassword(from: nil, to: Data("pw".utf8), kdf: .testing) },
        ] {
            do {
                try write()
                Issue.record("a write into the deleted keychain reported success")
            } catch let error as KeychainStoreError {
                #expect(error.code == .keychainReplaced)  // errSecInvalidKeychain (ErrorMappingTests)
            }
        }
        #expect(try everything(second).isEmpty, "nothing landed in the new keychain either")
        #expect(try everything(try KeychainStore.open(at: path)).isEmpty)
        // The store opened on the new file writes normally.
        _ = try second.add(genp(account: "new", service: "s", secret: "4"))
        #expect(try everything(try KeychainStore.open(at: path)).count == 1)
    }

    @Test func aKeychainDeletedWithoutReplacementIsReportedOnTheNextWrite() throws {
        let path = dir.keychainPath()
        let store = try KeychainStore.create(at: path, password: nil)
        for file in KeychainFiles(database: path).all { try? FileManager.default.removeItem(atPath: file) }
        #expect(expectCode(.keychainReplaced) { _ = try store.add(genp(account: "a", service: "s", secret: "x")) })
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aFileRenamedOverTheKeychainIsDetected() throws {
        let path = dir.keychainPath("a.keychain-db")
        let other = dir.keychainPath("b.keychain-db")
        let store = try KeychainStore.create(at: path, password: nil)
        _ = try KeychainStore.create(at: other, password: nil)
        // Someone replaces the keychain's files with another keychain's (this store keeps its unlinked -wal/-shm).
        for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
        for suffix in ["", ".devkey"] { #expect(rename(other + suffix, path + suffix) == 0) }
        #expect(expectCode(.keychainReplaced) { _ = try store.add(genp(account: "a", service: "s", secret: "x")) })
        #expect(try everything(try KeychainStore.open(at: path)).isEmpty)
    }
}
