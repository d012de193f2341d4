import Foundation
import OSecSQLite
import Testing

@testable import OSecKeychain

/// Issue 12 item 7: a deleted item's attributes and sealed secret do not stay readable in the database, the
/// write-ahead log or the shared-memory index.
@Suite struct SecureDeleteTests {
    let dir = TestDirectory()

    /// The bytes of the database, -wal and -shm (those that exist).
    func fileContents(_ path: String) throws -> [(String, Data)] {
        let files = KeychainFiles(database: path)
        return try [files.database, files.wal, files.sharedMemory].compactMap { file in
            FileManager.default.fileExists(atPath: file)
                ? (file, try Data(contentsOf: URL(fileURLWithPath: file))) : nil
        }
    }

    @Test func deletedItemsLeaveNoReadableTraceInAnyFile() throws {
        let path = dir.keychainPath()
        let store = try KeychainStore.create(at: path, password: nil)
        let tag = UUID().uuidString
        for n in 0..<20 { _ = try store.add(genp(account: "filler-\(n)", service: "other", secret: "f\(n)")) }
        let victim = try store.add(
            NewItem(
                itemClass: .genericPassword,
                attributes: [
                    "acct": .string("ACCOUNT-\(tag)"), "svce": .string("SERVICE-\(tag)"),
                    "gena": .data(Data("GENERIC-\(tag)".utf8)),
                ], accessGroup: "g", secret: Data("SECRET-\(tag)".utf8)))
        let sealed = try #require(victim.secret?.blob)
        let markers = [Data("ACCOUNT-\(tag)".utf8), Data("SERVICE-\(tag)".utf8), Data("GENERIC-\(tag)".utf8), sealed]
        // Before: the item is on disk (in the WAL at least).
        #expect(try fileContents(path).contains { contains($0.1, markers[0]) })
        #expect(try store.delete(ItemQuery(persistentRef: victim.persistentRef)) == 1)
        for (file, bytes) in try fileContents(path) {
            for marker in markers {
                #expect(!contains(bytes, marker), "\(file) still holds \(marker.count) bytes of the deleted item")
            }
        }
        #expect(try store.find(ItemQuery(itemClass: .genericPassword)).count == 20)
        #expect(try store.db.secureDelete)
    }
}
