import Foundation
import OSecSQLite
import Testing

@testable import OSecKeychain

/// Issue 12 item 2: a sealed secret opens only in the row it was sealed for, and only while that row still names
/// the same item. Someone who can write the file but has no password swaps or edits columns with raw SQL.
@Suite struct ItemBindingTests {
    let dir = TestDirectory()

    /// The bank's and the attacker's items in one keychain, plus a raw connection to the file.
    struct Scene {
        let path: String
        let store: KeychainStore
        let bank: KeychainItem
        let evil: KeychainItem
        let raw: Database
    }

    func scene(password: Data? = testPassword) throws -> Scene {
        let path = dir.keychainPath()
        let store = try KeychainStore.create(at: path, password: password, kdf: .testing)
        let bank = try store.add(genp(account: "alice", service: "bank.example", secret: "bank-password"))
        let evil = try store.add(genp(account: "mallory", service: "evil.example", secret: "evil-password"))
        return Scene(path: path, store: store, bank: bank, evil: evil, raw: try Database(path: path))
    }

    /// What a lookup by service (and account) answers: the secret, or the error code.
    func lookup(
        _ store: KeychainStore, _ service: String, account: String? = nil, group: String = "test.group"
    ) -> Result<Data?, KeychainStoreError> {
        var attributes: [String: AttributeValue] = ["svce": .string(service)]
        if let account { attributes["acct"] = .string(account) }
        do {
            for withAttributes in [false, true] {  // both projections decode the binding
                var query = ItemQuery(
                    itemClass: .genericPassword, attributes: attributes, accessGroups: [group], limit: 1)
                query.includesAttributes = withAttributes
                guard let item = try store.find(query).first else { return .success(nil) }
                let secret = try item.secret?.open()
                if withAttributes { return .success(secret) }
            }
            return .success(nil)
        } catch {
            return .failure(error)
        }
    }

    func isDecodeError(_ result: Result<Data?, KeychainStoreError>) -> Bool {
        if case .failure(let error) = result {
            return error.code == .integrityCheckFailed  // errSecDecode (ErrorMappingTests)
        }
        return false
    }

    @Test func swappingPersistentRefAndSecretColumnsNeverRevealsTheOtherItemsSecret() throws {
        let s = try scene()
        // Give each row the other's persistref and secret: version 1 bound the secret to the persistref only.
        let bankBlob = try #require(s.bank.secret?.blob)
        let evilBlob = try #require(s.evil.secret?.blob)
        try s.raw.transaction {
            try s.raw.run("UPDATE genp SET persistref = randomblob(16) WHERE id = ?", [.integer(s.bank.rowID)])
            try s.raw.run(
                "UPDATE genp SET persistref = ?, secret = ? WHERE id = ?",
                [.blob(s.bank.persistentRef.uuid), .blob(bankBlob), .integer(s.evil.rowID)])
            try s.raw.run(
                "UPDATE genp SET persistref = ?, secret = ? WHERE id = ?",
                [.blob(s.evil.persistentRef.uuid), .blob(evilBlob), .integer(s.bank.rowID)])
        }
        let evilLookup = lookup(s.store, "evil.example")
        #expect(isDecodeError(evilLookup), "evil.example gave \(evilLookup)")
        #expect(isDecodeError(lookup(s.store, "bank.example")))
        // Through the persistent refs too.
        for ref in [s.bank.persistentRef, s.evil.persistentRef] {
            #expect(expectCode(.integrityCheckFailed) { _ = try s.store.find(persistentRef: ref)?.secret?.open() })
        }
    }

    @Test func editingAnIdentifyingAttributeGivesDecodeNotTheSecret() throws {
        let s = try scene()
        // Move the bank's row to the attacker's service, account and group (the attacker's own item deleted).
        try s.raw.run("DELETE FROM genp WHERE id = ?", [.integer(s.evil.rowID)])
        try s.raw.run("UPDATE genp SET svce = CAST('evil.example' AS BLOB) WHERE id = ?", [.integer(s.bank.rowID)])
        #expect(isDecodeError(lookup(s.store, "evil.example")))
        try s.raw.run(
            "UPDATE genp SET svce = CAST('bank.example' AS BLOB), acct = CAST('mallory' AS BLOB) WHERE id = ?",
            [.integer(s.bank.rowID)])
        #expect(isDecodeError(lookup(s.store, "bank.example", account: "mallory")))
        try s.raw.run(
            "UPDATE genp SET acct = CAST('alice' AS BLOB), agrp = 'evil.group' WHERE id = ?", [.integer(s.bank.rowID)])
        #expect(isDecodeError(lookup(s.store, "bank.example", group: "evil.group")))
        try s.raw.run("UPDATE genp SET agrp = 'test.group', sync = 1 WHERE id = ?", [.integer(s.bank.rowID)])
        #expect(
            expectCode(.integrityCheckFailed) {
                _ = try s.store.find(persistentRef: s.bank.persistentRef)?.secret?.open()
            })
        // Every edit undone: the secret opens again (nothing else was bound).
        try s.raw.run("UPDATE genp SET sync = 0 WHERE id = ?", [.integer(s.bank.rowID)])
        #expect(try lookup(s.store, "bank.example").get() == Data("bank-password".utf8))
    }

    @Test func everyPrimaryKeyAttributeOfEveryClassIsBound() throws {
        let store = try KeychainStore.makeTest(in: dir, password: nil)
        let raw = try Database(path: dir.keychainPath())
        let items: [NewItem] = [
            genp(account: "a", service: "s", secret: "genp"),
            NewItem(
                itemClass: .internetPassword,
                attributes: [
                    "srvr": .string("bank.example"), "acct": .string("alice"), "ptcl": .string("htps"),
                    "port": .integer(443), "path": .string("/"), "sdmn": .string("realm"), "atyp": .string("form"),
                ], accessGroup: "g", secret: Data("inet".utf8)),
            NewItem(
                itemClass: .certificate,
                attributes: ["issr": .data(Data([1])), "slnr": .data(Data([2])), "ctyp": .integer(3)],
                accessGroup: "g", secret: Data("cert".utf8)),
            NewItem(
                itemClass: .key,
                attributes: [
                    "klbl": .data(Data([3])), "atag": .string("tag"), "kcls": .integer(1), "type": .integer(73),
                    "bsiz": .integer(256), "esiz": .integer(256),
                    "sdat": .date(Date(timeIntervalSinceReferenceDate: 5)),
                ], accessGroup: "g", secret: Data("keys".utf8)),
        ]
        for item in items {
            let added = try store.add(item)
            let table = item.itemClass.code
            for key in item.itemClass.primaryKey {
                // Change the column to another value of its kind, check, restore.
                let original = try raw.scalar(
                    "SELECT \"\(key)\" FROM \"\(table)\" WHERE id = ?", [.integer(added.rowID)])
                let other: SQLiteValue =
                    switch item.itemClass.descriptor(for: key)?.kind {
                    case .bytes: .blob(Data("tampered".utf8))
                    case .date: .real(12345.5)
                    default: .integer(999)
                    }
                try raw.run("UPDATE \"\(table)\" SET \"\(key)\" = ? WHERE id = ?", [other, .integer(added.rowID)])
                #expect(
                    expectCode(.integrityCheckFailed) {
                        _ = try store.find(persistentRef: added.persistentRef)?.secret?.open()
                    },
                    "\(table).\(key) is not bound")
                try raw.run("UPDATE \"\(table)\" SET \"\(key)\" = ? WHERE id = ?", [original, .integer(added.rowID)])
            }
            #expect(try store.find(persistentRef: added.persistentRef)?.secret?.open() == item.secret)
            // A row moved to another row id (same content) does not open either.
            try raw.run("UPDATE \"\(table)\" SET id = id + 1000 WHERE id = ?", [.integer(added.rowID)])
            #expect(
                expectCode(.integrityCheckFailed) {
                    _ = try store.find(persistentRef: added.persistentRef)?.secret?.open()
                })
        }
    }

    @Test func attributesThatAreOnlyStoredDoNotAffectTheSecret() throws {
        let s = try scene()
        try s.raw.run(
            "UPDATE genp SET labl = CAST('edited' AS BLOB), gena = X'00', mdat = 0, strs = 0 WHERE id = ?",
            [.integer(s.bank.rowID)])
        #expect(try lookup(s.store, "bank.example").get() == Data("bank-password".utf8))
    }

    @Test func updatingABoundAttributeReSealsTheSecret() throws {
        let s = try scene()
        let ref = s.bank.persistentRef
        let changes: [ItemChanges] = [
            ItemChanges(attributes: ["svce": .string("bank2.example")]),
            ItemChanges(attributes: ["acct": .data(Data("alice2".utf8))]),
            ItemChanges(accessGroup: "other.group"),
            ItemChanges(isSynchronizable: true),
            ItemChanges(accessibility: .afterFirstUnlock),
            ItemChanges(attributes: ["labl": .string("label only")]),
        ]
        for change in changes {
            #expect(try s.store.update(ItemQuery(persistentRef: ref), with: change) == 1)
            #expect(try s.store.find(persistentRef: ref)?.secret?.open() == Data("bank-password".utf8), "\(change)")
        }
        // The new binding holds: editing the updated service back in raw SQL breaks it.
        try s.raw.run("UPDATE genp SET svce = CAST('bank.example' AS BLOB) WHERE id = ?", [.integer(s.bank.rowID)])
        #expect(expectCode(.integrityCheckFailed) { _ = try s.store.find(persistentRef: ref)?.secret?.open() })
    }

    @Test func whileLockedOnlyUpdatesThatNeedNoReSealSucceed() throws {
        let s = try scene()
        try s.store.lock()
        let query = ItemQuery(persistentRef: s.bank.persistentRef)
        #expect(try s.store.update(query, with: ItemChanges(attributes: ["labl": .string("x")])) == 1)
        #expect(
            expectCode(.interactionNotAllowed) {
                _ = try s.store.update(query, with: ItemChanges(attributes: ["svce": .string("moved")]))
            })
        try s.store.unlock(password: testPassword)
        #expect(try s.store.find(persistentRef: s.bank.persistentRef)?.attributes["svce"] == .string("bank.example"))
        #expect(try lookup(s.store, "bank.example").get() == Data("bank-password".utf8))
    }

    @Test func updatingAPrimaryKeyToAnEqualValueOfAnotherTypeKeepsTheSecretOpen() throws {
        let store = try KeychainStore.makeTest(in: dir, password: nil)
        let item = try store.add(
            NewItem(
                itemClass: .internetPassword, attributes: ["srvr": .string("h"), "port": .integer(443)],
                accessGroup: "g", secret: Data("p".utf8)))
        // 443.0 is the same key as 443 (SQLite compares numerically): the binding agrees.
        #expect(
            try store.update(
                ItemQuery(persistentRef: item.persistentRef), with: ItemChanges(attributes: ["port": .double(443)]))
                == 1)
        #expect(try store.find(persistentRef: item.persistentRef)?.secret?.open() == Data("p".utf8))
    }
}
