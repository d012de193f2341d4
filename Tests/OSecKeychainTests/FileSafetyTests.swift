import Foundation
import OSecSystem
import Testing

@testable import OSecKeychain

/// Issue 12 item 3: a keychain file that is a symbolic link, belongs to another user or is open to the group or
/// others is refused (errSecInvalidKeychain, naming the file), never used.
@Suite struct FileSafetyTests {
    let dir = TestDirectory()

    /// A keychain with one item, closed again; returns its files.
    func closedKeychain(_ name: String = "test.keychain-db") throws -> KeychainFiles {
        let path = dir.keychainPath(name)
        do {
            let store = try KeychainStore.create(at: path, password: nil)
            _ = try store.add(genp(account: "a", service: "s", secret: "x"))
        }
        return KeychainFiles(database: path)
    }

    /// A keychain left open by `store` (its -wal and -shm exist).
    func openKeychain() throws -> (KeychainStore, KeychainFiles) {
        let path = dir.keychainPath()
        let store = try KeychainStore.create(at: path, password: nil)
        _ = try store.add(genp(account: "a", service: "s", secret: "x"))
        return (store, KeychainFiles(database: path))
    }

    func refusal(_ body: () throws -> Void) -> KeychainStoreError? {
        do {
            try body()
            return nil
        } catch let error as KeychainStoreError {
            return error
        } catch {
            return KeychainStoreError(.internal, "\(error)")
        }
    }

    func chmod(_ path: String, _ mode: Int) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    /// A header naming a schema format SQLite does not know (bytes 44–47; "unsupported file format", SQLite's
    /// generic error) is a damaged keychain, errSecInvalidKeychain — not an internal error (found by the
    /// keychain-file fuzzer) — and so is an unknown read version (byte 19; "file is not a database").
    @Test func aHeaderOfAnUnknownFormatIsInvalid() throws {
        for (offset, bytes) in [(44, [0, 0, 0, 5]), (44, [0, 0, 0, 200]), (19, [3])] as [(Int, [UInt8])] {
            let files = try closedKeychain("format-\(offset)-\(bytes.last ?? 0).keychain-db")
            var header = try #require(FileManager.default.contents(atPath: files.database))
            header.replaceSubrange(offset..<offset + bytes.count, with: bytes)
            try header.write(to: URL(fileURLWithPath: files.database))
            let error = refusal { _ = try KeychainStore.open(at: files.database) }
            #expect(error?.code == .invalidKeychain, "offset \(offset) \(bytes): \(String(describing: error))")
        }
    }

    @Test func aSymlinkedDatabaseIsRefused() throws {
        let files = try closedKeychain("real.keychain-db")
        let link = dir.keychainPath("link.keychain-db")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: files.database)
        try FileManager.default.createSymbolicLink(atPath: link + ".devkey", withDestinationPath: files.deviceKey)
        for open in [
            { _ = try KeychainStore.open(at: link) }, { _ = try KeychainStore.openOrCreate(at: link) },
        ] {
            let error = refusal(open)
            #expect(error?.code == .invalidKeychain, "\(String(describing: error))")
        }
        #expect(refusal { _ = try KeychainStore.create(at: link, password: nil) }?.code == .duplicateKeychain)
        // A dangling link where a new keychain would be created is not followed either.
        let dangling = dir.keychainPath("dangling.keychain-db")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: dir.path + "/elsewhere")
        #expect(refusal { _ = try KeychainStore.openOrCreate(at: dangling) }?.code == .invalidKeychain)
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/elsewhere"))
    }

    @Test func symlinkedCompanionFilesAreRefused() throws {
        let files = try closedKeychain()
        let target = dir.path + "/planted"
        _ = FileManager.default.createFile(atPath: target, contents: Data(), attributes: [.posixPermissions: 0o600])
        for companion in [files.wal, files.sharedMemory, files.deviceKey] {
            let saved = try? Data(contentsOf: URL(fileURLWithPath: companion))
            try? FileManager.default.removeItem(atPath: companion)
            try FileManager.default.createSymbolicLink(atPath: companion, withDestinationPath: target)
            #expect(
                refusal { _ = try KeychainStore.open(at: files.database) }?.code == .invalidKeychain, "\(companion)")
            try FileManager.default.removeItem(atPath: companion)
            if let saved {
                _ = FileManager.default.createFile(
                    atPath: companion, contents: saved, attributes: [.posixPermissions: 0o600])
            }
        }
        #expect(try KeychainStore.open(at: files.database).find(ItemQuery(itemClass: .genericPassword)).count == 1)
    }

    @Test func aGroupReadableDatabaseIsRefused() throws {
        let files = try closedKeychain()
        try chmod(files.database, 0o640)
        #expect(refusal { _ = try KeychainStore.open(at: files.database) }?.code == .invalidKeychain)
        try chmod(files.database, 0o600)
        try chmod(files.deviceKey, 0o604)
        #expect(refusal { _ = try KeychainStore.open(at: files.database) }?.code == .invalidKeychain)
        try chmod(files.deviceKey, 0o400)  // fewer bits for the owner are fine
        #expect(try KeychainStore.open(at: files.database).find(ItemQuery(itemClass: .genericPassword)).count == 1)
    }

    @Test func aWorldWritableWALIsRefused() throws {
        let (store, files) = try openKeychain()
        #expect(FileManager.default.fileExists(atPath: files.wal))
        try chmod(files.wal, 0o602)
        #expect(refusal { _ = try KeychainStore.open(at: files.database) }?.code == .invalidKeychain)
        try chmod(files.wal, 0o600)
        try chmod(files.sharedMemory, 0o660)
        #expect(refusal { _ = try KeychainStore.open(at: files.database) }?.code == .invalidKeychain)
        withExtendedLifetime(store) {}
    }

    @Test func aPlantedWorldWritableWALIsNeverWrittenTo() throws {
        // Another user pre-creates the -wal (readable by them) next to a keychain that does not exist yet.
        let path = dir.keychainPath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(
            atPath: path + "-wal", contents: Data(), attributes: [.posixPermissions: 0o666])
        try chmod(path + "-wal", 0o666)
        #expect(refusal { _ = try KeychainStore.create(at: path, password: nil) }?.code == .invalidKeychain)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")).isEmpty)
    }

    /// Another user's file: as root the test hands the file to another uid; otherwise it opens the keychain
    /// demanding another owner than the files have (the same check, seen from the other side).
    @Test func aFileOfAnotherUserIsRefused() throws {
        let files = try closedKeychain()
        let me = POSIXFiles.effectiveUserID
        for file in [files.database, files.deviceKey] {
            if me == 0 {
                try FileManager.default.setAttributes([.ownerAccountID: 4_242], ofItemAtPath: file)
                let error = refusal { _ = try KeychainStore.open(at: files.database) }
                #expect(error?.code == .invalidKeychain, "\(file): \(String(describing: error))")
                try FileManager.default.setAttributes([.ownerAccountID: 0], ofItemAtPath: file)
            } else {
                #expect(
                    refusal { _ = try KeychainStore.open(at: files.database, owner: me + 1) }?.code == .invalidKeychain)
            }
        }
        #expect(try KeychainStore.open(at: files.database).find(ItemQuery(itemClass: .genericPassword)).count == 1)
    }

    @Test func createdDirectoriesAreCheckedAndPrivate() throws {
        // The keychain creates both levels; each is 0700 and ours.
        let path = dir.path + "/a/b/test.keychain-db"
        _ = try KeychainStore.create(at: path, password: nil)
        for directory in [dir.path + "/a", dir.path + "/a/b"] {
            let status = try #require(try POSIXFiles.linkStatus(directory))
            #expect(status.permissions == 0o700 && status.owner == POSIXFiles.effectiveUserID, "\(directory)")
        }
        for file in KeychainFiles(database: path).all {
            if let status = try POSIXFiles.linkStatus(file) { #expect(status.groupOrOtherPermissions == 0, "\(file)") }
        }
        // A directory the keychain must not create (it exists) but that is a link is not followed for creation.
        let files = KeychainFiles(database: dir.path + "/c/test.keychain-db", owner: POSIXFiles.effectiveUserID)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/c", withDestinationPath: dir.path + "/nowhere")
        #expect(refusal { _ = try KeychainStore.openOrCreate(at: files.database) } != nil)
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/nowhere"))
    }
}
