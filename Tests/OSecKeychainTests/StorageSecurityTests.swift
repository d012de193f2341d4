import Foundation
import OSecSQLite
import Testing

@testable import OSecKeychain

@Suite struct StorageSecurityTests {
    let dir = TestDirectory()

    private func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func secretNeverAppearsInClearInAnyFile() throws {
        let path = dir.keychainPath()
        let store = try KeychainStore.create(at: path, password: testPassword, kdf: .testing)
        let marker = "RECOGNIZABLE-SECRET-\(UUID().uuidString)"
        for n in 0..<50 {
            _ = try store.add(
                genp(
                    account: "acct\(n)", service: "svc", secret: marker + "-\(n)",
                    accessibility: n % 3 == 0 ? .always : .whenUnlocked))
        }
        _ = try store.update(
            ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("acct1")]),
            with: ItemChanges(secret: Data((marker + "-updated").utf8)))
        // Attribute sanity: non-secret attributes are in clear (like Apple's), so the scan can see the files.
        let directory = (path as NSString).deletingLastPathComponent
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(names.contains { $0.hasSuffix("-wal") })
        var sawAccount = false
        for name in names {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
            #expect(!contains(bytes, Data(marker.utf8)), "secret found in clear in \(name)")
            #expect(!contains(bytes, Data(testPassword)), "password found in clear in \(name)")
            if contains(bytes, Data("acct7".utf8)) { sawAccount = true }
        }
        #expect(sawAccount)
        #expect(
            try store.find(ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("acct1")]))
                .first?.secret?.open() == Data((marker + "-updated").utf8))
    }

    @Test func directoriesAre0700AndFilesAre0600() throws {
        let path = dir.keychainPath()
        let store = try KeychainStore.create(at: path, password: nil)
        _ = try store.add(genp(account: "a", service: "s", secret: "x"))
        let directory = (path as NSString).deletingLastPathComponent
        #expect(try mode(directory) == 0o700)
        let files = KeychainFiles(database: path)
        for file in [files.database, files.wal, files.sharedMemory, files.deviceKey] {
            #expect(FileManager.default.fileExists(atPath: file), "\(file) missing")
            #expect(try mode(file) == 0o600, "\(file) is not 0600")
        }
    }

    @Test func secretBlobSwappedBetweenRowsFailsIntegrityCheck() throws {
        let path = dir.keychainPath()
        let store = try KeychainStore.create(at: path, password: testPassword, kdf: .testing)
        let a = try store.add(genp(account: "a", service: "s", secret: "alpha"))
        let b = try store.add(genp(account: "b", service: "s", secret: "bravo"))
        // Tamper with raw SQL through a separate connection: give row b the blob of row a.
        let raw = try Database(path: path)
        try raw.run(
            "UPDATE genp SET secret = (SELECT secret FROM genp WHERE id = ?) WHERE id = ?",
            [.integer(a.rowID), .integer(b.rowID)])
        let tampered = try #require(try store.find(persistentRef: b.persistentRef))
        #expect(expectCode(.integrityCheckFailed) { _ = try tampered.secret?.open() })
        #expect(try store.find(persistentRef: a.persistentRef)?.secret?.open() == Data("alpha".utf8))
        // Moving the row to another protection class (pdmn edited in clear) is caught too.
        try raw.run("UPDATE genp SET pdmn = 'dk' WHERE id = ?", [.integer(a.rowID)])
        #expect(
            expectCode(.integrityCheckFailed) { _ = try store.find(persistentRef: a.persistentRef)?.secret?.open() })
        // Flipping one ciphertext bit as well.
        let c = try store.add(genp(account: "c", service: "s", secret: "charlie"))
        try raw.run(
            "UPDATE genp SET secret = substr(secret, 1, 20) || X'00' || substr(secret, 22) WHERE id = ?",
            [.integer(c.rowID)])
        let flipped = try #require(try store.find(persistentRef: c.persistentRef))
        if flipped.secret?.blob != c.secret?.blob {
            #expect(expectCode(.integrityCheckFailed) { _ = try flipped.secret?.open() })
        }
    }

    @Test func tamperedWrappedMasterKeyFailsUnlock() throws {
        let path = dir.keychainPath()
        _ = try KeychainStore.create(at: path, password: testPassword, kdf: .testing)
        let raw = try Database(path: path)
        try raw.run(
            "UPDATE keychain_meta SET wrapped_master = substr(wrapped_master, 1, 30) || X'FF' || "
                + "substr(wrapped_master, 32)"
        )
        let store = try KeychainStore.open(at: path)
        #expect(expectCode(.authFailed) { try store.unlock(password: testPassword) })
    }

    @Test func notAKeychainAndMissingFilesAreReported() throws {
        let junk = dir.url.appendingPathComponent("junk.keychain-db")
        try FileManager.default.createDirectory(at: dir.url, withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 4096).write(to: junk)
        #expect(expectCode(.invalidKeychain) { _ = try KeychainStore.open(at: junk.path) })

        let foreign = dir.url.appendingPathComponent("foreign.db").path
        let db = try Database(path: foreign)
        try db.execute("CREATE TABLE x (y)")
        #expect(expectCode(.invalidKeychain) { _ = try KeychainStore.open(at: foreign) })

        #expect(expectCode(.noSuchKeychain) { _ = try KeychainStore.open(at: dir.keychainPath("absent")) })
        #expect(expectCode(.noSuchKeychain) { try KeychainStore.delete(at: dir.keychainPath("absent")) })

        let path = dir.keychainPath()
        _ = try KeychainStore.create(at: path, password: nil)
        #expect(expectCode(.duplicateKeychain) { _ = try KeychainStore.create(at: path, password: nil) })
        try FileManager.default.removeItem(atPath: KeychainFiles(database: path).deviceKey)
        #expect(expectCode(.invalidKeychain) { _ = try KeychainStore.open(at: path) })
    }

    @Test func deleteRemovesEveryFile() throws {
        let path = dir.keychainPath()
        do {
            let store = try KeychainStore.create(at: path, password: nil)
            _ = try store.add(genp(account: "a", service: "s", secret: "x"))
        }
        try KeychainStore.delete(at: path)
        for file in KeychainFiles(database: path).all {
            #expect(!FileManager.default.fileExists(atPath: file), "\(file) left behind")
        }
        let directory = (path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test func defaultPathFollowsEnvironmentAndIsCreatedOnFirstUse() throws {
        #expect(
            try KeychainStore.defaultPath(environment: ["HOME": "/home/u"])
                == "/home/u/.local/share/opensecurity/keychains/login.keychain-db")
        #expect(
            try KeychainStore.defaultPath(environment: ["HOME": "/home/u", "XDG_DATA_HOME": "/x"])
                == "/x/opensecurity/keychains/login.keychain-db")
        #expect(
            try KeychainStore.defaultPath(environment: [
                "HOME": "/home/u", "XDG_DATA_HOME": "/x",
                "OPENSECURITY_KEYCHAIN": "/k/my.db",
            ]) == "/k/my.db")
        #expect(expectCode(.noSuchKeychain) { _ = try KeychainStore.defaultPath(environment: [:]) })

        let environment = ["XDG_DATA_HOME": dir.path + "/data"]
        let first = try KeychainStore.openDefault(environment: environment)
        _ = try first.add(genp(account: "a", service: "s", secret: "x"))
        #expect(try first.status.isPasswordProtected == false)
        let second = try KeychainStore.openDefault(environment: environment)
        #expect(try second.find(ItemQuery(itemClass: .genericPassword)).first?.secret?.open() == Data("x".utf8))
        #expect(try mode(dir.path + "/data/opensecurity") == 0o700)
        #expect(try mode(dir.path + "/data/opensecurity/keychains") == 0o700)
    }

    /// Finds read rows with `SELECT *`, so the table's column order must be engine columns + attributes.
    @Test func tableColumnOrderMatchesDecoder() throws {
        let path = dir.keychainPath()
        _ = try KeychainStore.create(at: path, password: nil)
        let raw = try Database(path: path)
        for itemClass in ItemClass.all {
            let columns = try raw.pragmaRows("table_info", argument: itemClass.code).compactMap {
                $0["name"]?.textValue
            }
            #expect(columns == ItemSQL.engineColumns + itemClass.attributes.map(\.key), "\(itemClass.code)")
        }
    }

    @Test func schemaIsVersionedAndMarked() throws {
        let path = dir.keychainPath()
        _ = try KeychainStore.create(at: path, password: nil)
        let raw = try Database(path: path)
        #expect(try raw.userVersion == KeychainSchema.currentVersion)
        #expect(try raw.applicationID == KeychainSchema.applicationID)
        #expect(try raw.journalMode == .wal)
        try raw.setUserVersion(KeychainSchema.currentVersion + 1)
        #expect(expectCode(.invalidKeychain) { _ = try KeychainStore.open(at: path) })
    }
}
