import Foundation
import Testing

@testable import OSecKeychain

/// A pulled page's secrets are sealed ahead of the write transaction for the row ids their items are expected to
/// get (`KeychainStore.preseal`); the add uses such a seal only for that row and seals again otherwise. Either way
/// the stored secret opens in its row, as a seal bound to another row would not.
@Suite struct PresealTests {
    let dir = TestDirectory()

    func secrets(_ store: KeychainStore, _ accounts: [String]) throws -> [String] {
        try accounts.map { account in
            let query = ItemQuery(
                itemClass: .genericPassword, attributes: ["acct": .string(account)], accessGroups: ["test.group"],
                limit: 1)
            let item = try #require(try store.find(query).first)
            return String(decoding: try #require(try item.secret?.open()), as: UTF8.self)
        }
    }

    @Test func sealsMadeForTheRightRowsAreStoredAndOthersAreSealedAgain() throws {
        let store = try KeychainStore.create(at: dir.keychainPath(), password: testPassword, kdf: .testing)
        _ = try store.add(genp(account: "before", service: "s", secret: "first"))
        let accounts = (0..<6).map { "a\($0)" }
        var prepared = try store.prepare(accounts.map { genp(account: $0, service: "s", secret: "secret \($0)") })
        var forecast = try store.rowIDForecast()
        for index in prepared.indices {
            let taken = forecast.take(prepared[index].itemClass)
            let expected = try #require(taken)
            #expect(expected == Int64(index + 2))  // after the one item already there
            // Items 1 and 4 are sealed for rows they will not get (one before, one far after); item 5 is not sealed.
            let rowID = index == 1 ? expected - 1 : index == 4 ? expected + 100 : expected
            if index != 5 { store.preseal(&prepared[index], rowID: rowID) }
        }
        let stored = try store.add(prepared: prepared, skippingDuplicates: false)
        #expect(stored.compactMap { $0?.rowID } == (2...7).map(Int64.init))
        #expect(try secrets(store, accounts) == accounts.map { "secret \($0)" })
        // And in a fresh process's view of the file.
        let reopened = try KeychainStore.open(at: dir.keychainPath())
        try reopened.unlock(password: testPassword)
        #expect(try secrets(reopened, accounts + ["before"]) == accounts.map { "secret \($0)" } + ["first"])
    }

    @Test func aForecastMadeBeforeAnotherWriterAddsIsWrongAndHarmless() throws {
        let store = try KeychainStore.create(at: dir.keychainPath(), password: testPassword, kdf: .testing)
        var prepared = try store.prepare([genp(account: "late", service: "s", secret: "late secret")])
        var forecast = try store.rowIDForecast()
        let taken = forecast.take(.genericPassword)
        store.preseal(&prepared[0], rowID: try #require(taken))
        // Another writer takes the forecast row first.
        _ = try store.add(genp(account: "early", service: "s", secret: "early secret"))
        let stored = try store.add(prepared: prepared, skippingDuplicates: false)
        #expect(stored.first??.rowID == 2)
        #expect(try secrets(store, ["early", "late"]) == ["early secret", "late secret"])
    }
}

/// New items' persistent-ref UUIDs are RFC 9562 version 7, so that those made one after another sort together and
/// the indexes over them grow at one edge.
@Suite struct PersistentRefUUIDTests {
    let dir = TestDirectory()

    @Test func newPersistentRefUUIDsAreVersion7AndSortByTime() throws {
        let start = Date()
        var uuids: [Data] = []
        for offset in 0..<2_000 {
            uuids.append(try PersistentRef.newUUID(at: start.addingTimeInterval(Double(offset) * 0.001)))
        }
        #expect(Set(uuids).count == uuids.count)
        for uuid in uuids {
            let bytes = [UInt8](uuid)
            #expect(bytes.count == PersistentRef.uuidLength)
            #expect(bytes[6] >> 4 == 7 && bytes[8] >> 6 == 0b10)
        }
        // The first 48 bits are the Unix time in milliseconds, so one millisecond later sorts later.
        let milliseconds = [UInt8](uuids[0]).prefix(6).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(milliseconds == UInt64(start.timeIntervalSince1970 * 1000))
        for (earlier, later) in zip(uuids, uuids.dropFirst()) {
            #expect([UInt8](earlier).lexicographicallyPrecedes([UInt8](later)))
        }
        // Any clock reading gives a UUID: before 1970 the time field is zero, past its 48 bits it is full.
        for (date, prefix) in [
            (Date.distantPast, [UInt8](repeating: 0, count: 6)),
            (Date(timeIntervalSince1970: 1e15), [UInt8](repeating: 0xFF, count: 6)),
        ] {
            let uuid = [UInt8](try PersistentRef.newUUID(at: date))
            #expect(Array(uuid.prefix(6)) == prefix && uuid[6] >> 4 == 7 && uuid[8] >> 6 == 0b10)
        }
        // Items added one after another get such UUIDs.
        let store = try KeychainStore.create(at: dir.keychainPath(), password: testPassword, kdf: .testing)
        let first = try store.add(genp(account: "x", service: "s", secret: "1"))
        #expect([UInt8](first.persistentRef.uuid)[6] >> 4 == 7)
    }
}
