import Foundation
import OSecSQLite
import Synchronization
import Testing

@testable import OSecKeychain

/// Keychains written by schema version 1 (the fixtures in `Tests/Vectors/keychain-v1`, made by the old code) open,
/// migrate to the current version and lose no item; their secrets end up bound to their items.
@Suite struct SchemaMigrationTests {
    let dir = TestDirectory()

    /// `Tests/Vectors/keychain-v1`.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Vectors/keychain-v1")

    /// Copies fixture `name` (database + device key) into the test directory with mode 0600 (git keeps no modes).
    func copyFixture(_ name: String) throws -> String {
        try FileManager.default.createDirectory(at: dir.url, withIntermediateDirectories: true)
        let path = dir.url.appendingPathComponent(name + ".keychain-db").path
        for suffix in ["", ".devkey"] {
            let source = Self.fixtures.appendingPathComponent(name + ".keychain-db" + suffix)
            try Data(contentsOf: source).write(to: URL(fileURLWithPath: path + suffix))
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path + suffix)
        }
        return path
    }

    static func manifest(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("manifest.json"))
        let all = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(all[name] as? [String: Any])
    }

    /// Every item of the fixture, each secret opened, by a description of the item.
    func contents(_ store: KeychainStore) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for itemClass in ItemClass.all {
            for item in try store.find(ItemQuery(itemClass: itemClass)) {
                let name: String
                switch itemClass {
                case .genericPassword, .internetPassword:
                    let service = item.attributes["svce"] ?? item.attributes["srvr"]
                    name = "\(itemClass.code) \(service?.stringValue ?? "?")"
                case .key:
                    let tag = item.attributes["atag"]?.stringValue ?? ""
                    name = "keys \(tag.isEmpty ? "identity" : tag)"
                default: name = "cert"
                }
                result[name] = try item.secret?.open() ?? Data()
            }
        }
        return result
    }

    func expected(_ name: String) throws -> [String: Data] {
        let manifest = try Self.manifest(name)
        func base64(_ key: String) throws -> Data { try #require(Data(base64Encoded: manifest[key] as? String ?? "")) }
        return [
            "genp bank.example": Data("bank-password".utf8), "genp evil.example": Data("evil-password".utf8),
            "genp always.example": Data("always-password".utf8), "genp afu.example": Data("afu-password".utf8),
            "genp sync.example": Data("sync-password".utf8), "genp nosecret.example": Data(),
            "inet bank.example": Data("inet-password".utf8), "keys fixture.tag": try base64("taggedKey"),
            "keys identity": try base64("identityKey"), "cert": try base64("certificate"),
        ]
    }

    func resealQueueCount(_ path: String) throws -> Int64 {
        try Database(path: path).scalar("SELECT count(*) FROM reseal_queue").integerValue ?? -1
    }

    @Test func versionOneKeychainWithoutPasswordMigratesWithoutLosingAnItem() throws {
        let path = try copyFixture("v1-device")
        #expect(try Database(path: path).userVersion == 1)
        let store = try KeychainStore.open(at: path)
        #expect(try Database(path: path).userVersion == KeychainSchema.currentVersion)
        #expect(try contents(store) == (try expected("v1-device")))
        #expect(try resealQueueCount(path) == 0, "every secret re-sealed at open (the device key opens all)")
        // A second opener of the migrated file reads the same.
        #expect(try contents(try KeychainStore.open(at: path)) == (try expected("v1-device")))
    }

    @Test func versionOnePasswordKeychainReSealsTheRestAtUnlock() throws {
        let path = try copyFixture("v1-password")
        let password = Data("fixture-password".utf8)
        let store = try KeychainStore.open(at: path)
        // Locked: only Always items (class D) were re-sealed; attributes are all there.
        let always = try store.find(
            ItemQuery(itemClass: .genericPassword, attributes: ["svce": .string("always.example")]))
        #expect(try always.first?.secret?.open() == Data("always-password".utf8))
        #expect(try store.find(ItemQuery(itemClass: .genericPassword)).count == 6)
        #expect(try resealQueueCount(path) > 0)
        try store.unlock(password: password)
        #expect(try resealQueueCount(path) == 0)
        #expect(try contents(store) == (try expected("v1-password")))
        let again = try KeychainStore.open(at: path)
        try again.unlock(password: password)
        #expect(try contents(again) == (try expected("v1-password")))
    }

    @Test func migratedSecretsAreBoundToTheirItems() throws {
        let path = try copyFixture("v1-device")
        let store = try KeychainStore.open(at: path)
        let raw = try Database(path: path)
        // The version-1 attack: swap persistref and secret of the bank's and the attacker's rows.
        let rows = try raw.query(
            "SELECT id, persistref, secret FROM genp WHERE svce IN (CAST('bank.example' AS BLOB), "
                + "CAST('evil.example' AS BLOB)) ORDER BY svce"
        ) { ($0.int64(at: 0), $0.data(at: 1) ?? Data(), $0.data(at: 2) ?? Data()) }
        try #require(rows.count == 2)
        try raw.transaction {
            try raw.run("UPDATE genp SET persistref = randomblob(16) WHERE id = ?", [.integer(rows[0].0)])
            try raw.run(
                "UPDATE genp SET persistref = ?, secret = ? WHERE id = ?",
                [.blob(rows[0].1), .blob(rows[0].2), .integer(rows[1].0)])
            try raw.run(
                "UPDATE genp SET persistref = ?, secret = ? WHERE id = ?",
                [.blob(rows[1].1), .blob(rows[1].2), .integer(rows[0].0)])
        }
        let evil = try store.find(ItemQuery(itemClass: .genericPassword, attributes: ["svce": .string("evil.example")]))
        #expect(expectCode(.integrityCheckFailed) { _ = try evil.first?.secret?.open() })
    }

    @Test func concurrentOpenersMigrateOnceAndTheStepsAreIdempotent() throws {
        let path = try copyFixture("v1-device")
        let stores = Mutex<[KeychainStore]>([])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do {
                let store = try KeychainStore.open(at: path)
                stores.withLock { $0.append(store) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        for store in stores.withLock({ $0 }) { #expect(try contents(store) == (try expected("v1-device"))) }
        // Running the steps again on the migrated file changes nothing that is read.
        let raw = try Database(path: path)
        try raw.transaction { try KeychainSchema.migrate(raw, from: 0) }
        try raw.transaction { try KeychainSchema.migrate(raw, from: 1) }
        let reopened = try KeychainStore.open(at: path)
        #expect(try contents(reopened) == (try expected("v1-device")))
        #expect(try resealQueueCount(path) == 0)
    }

    @Test func aVersionOneSealPutBackAfterTheMigrationIsRefused() throws {
        let path = try copyFixture("v1-device")
        let raw = try Database(path: path)
        let before = try raw.query("SELECT id, secret FROM genp WHERE svce = CAST('bank.example' AS BLOB)") {
            ($0.int64(at: 0), $0.data(at: 1) ?? Data())
        }
        try #require(before.count == 1)
        let store = try KeychainStore.open(at: path)
        // Someone restores the row's old (version-1) secret from a backup: no version-1 binding is accepted any
        // more, so it does not open (a whole old file put back is a version-1 keychain again, see the design).
        try raw.run("UPDATE genp SET secret = ? WHERE id = ?", [.blob(before[0].1), .integer(before[0].0)])
        let bank = try store.find(ItemQuery(itemClass: .genericPassword, attributes: ["svce": .string("bank.example")]))
        #expect(expectCode(.integrityCheckFailed) { _ = try bank.first?.secret?.open() })
    }
}

extension AttributeValue {
    /// The string, or the data as UTF-8.
    var stringValue: String? {
        switch self {
        case .string(let s): s
        case .data(let d): String(decoding: d, as: UTF8.self)
        default: nil
        }
    }
}
