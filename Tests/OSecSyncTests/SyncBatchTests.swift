import Foundation
import OSecCrypto
import OSecKeychain
import OSecPostgres
import OSecSync
import OSecTestSupport
import Testing

/// The batched paths of the sync, in one process: a push of thousands of rows is one statement whose
/// compare-and-set refuses some rows and stores the others, a pulled page is applied with one batched add for the
/// items new to the keychain, rows are sealed and opened on several threads. Whatever the batching, the outcome is
/// the one of the rules applied row by row: later modification wins, the loser is kept, nothing is lost.
@Suite(.serialized, .enabled(if: PGTestServer.isAvailable, "needs PostgreSQL's server binaries"))
struct SyncBatchTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "osec-sync-batch")
    }

    /// A member: its own keychain in `directory`, joined to `circle` on `url`.
    func member(_ name: String, url: String, circle: String) throws -> SyncEngine {
        let store = try KeychainStore.openOrCreate(at: directory.path("\(name).keychain-db"))
        return try SyncEngine.join(
            store: store, settings: try SyncSettings(url: url, circle: circle), passphrase: Data("batch".utf8),
            parameters: .testing)
    }

    static func circle(_ base: String) -> String { "\(base)-\(UUID().uuidString)" }

    static func newItem(_ account: String, _ value: String, synchronizable: Bool = true) -> NewItem {
        NewItem(
            itemClass: .genericPassword,
            attributes: ["svce": .string("batch.example"), "acct": .string(account), "labl": .string("l \(account)")],
            accessGroup: "batch", accessibility: .afterFirstUnlock, isSynchronizable: synchronizable,
            secret: Data(value.utf8))
    }

    static func query(_ account: String) -> ItemQuery {
        ItemQuery(
            itemClass: .genericPassword, attributes: ["svce": .string("batch.example"), "acct": .string(account)],
            accessGroups: ["batch"], isSynchronizable: true)
    }

    static func set(_ store: KeychainStore, _ accounts: some Sequence<String>, _ value: (String) -> String) throws {
        for account in accounts {
            let changed = try store.update(query(account), with: ItemChanges(secret: Data(value(account).utf8)))
            #expect(changed == 1)
        }
    }

    /// Every synchronizable password of the test service as account → secret.
    static func contents(_ store: KeychainStore) throws -> [String: String] {
        var out: [String: String] = [:]
        let items = try store.find(
            ItemQuery(
                itemClass: .genericPassword, attributes: ["svce": .string("batch.example")], isSynchronizable: true))
        for item in items {
            guard case .string(let account)? = item.attributes["acct"] else { continue }
            out[account] = String(decoding: try item.secret?.open() ?? Data(), as: UTF8.self)
        }
        return out
    }

    static func accounts(_ range: Range<Int>) -> [String] { range.map { "acct-\($0)" } }

    @Test func aBatchWhereSomeRowsLoseTheCompareAndSetStoresTheOthersAndTheLosersAreKept() throws {
        let server = try PGTestServer.shared()
        let circle = Self.circle("cas")
        let a = try member("cas-a", url: server.url, circle: circle)
        let b = try member("cas-b", url: server.url, circle: circle)
        _ = try a.store.add(contentsOf: Self.accounts(0..<600).map { Self.newItem($0, "v1 \($0)") })
        try a.sync()
        try b.sync()
        #expect(try Self.contents(b.store).count == 600)
        // Both change an overlapping range; b's changes are later, and b pushes first.
        try Self.set(a.store, Self.accounts(0..<300)) { "a \($0)" }
        try Self.set(b.store, Self.accounts(200..<600)) { "b \($0)" }
        #expect(try b.pushPending() == 0)
        let refused = try a.pushPending()
        #expect(refused == 100, "the rows of 200..<300 lose the compare-and-set, the other 200 are stored")
        // What the server holds now: a's 0..<200, b's 200..<600, each at version 2.
        let db = try server.connect()
        let versions = try db.execute(
            """
            SELECT version, count(*) FROM osec_items i JOIN osec_circles c USING (circle_id)
            WHERE c.lookup = $1 GROUP BY version
            """, [.bytes(Digest.circleLookup(circle))]
        ).rows.map { ($0[0].integerValue ?? -1, $0[1].integerValue ?? -1) }
        #expect(versions.count == 1 && versions.first?.0 == 2 && versions.first?.1 == 600, "\(versions)")
        try a.sync()
        try b.sync()
        var expected: [String: String] = [:]
        for account in Self.accounts(0..<200) { expected[account] = "a \(account)" }
        for account in Self.accounts(200..<600) { expected[account] = "b \(account)" }
        #expect(try Self.contents(a.store) == expected)
        #expect(try Self.contents(b.store) == expected)
        // The losers (a's changes of 200..<300) are kept on a, sealed, with b as the winner.
        let conflicts = try a.store.syncConflicts()
        #expect(conflicts.count == 100)
        #expect(conflicts.allSatisfy { $0.winner == b.member && $0.loserBlob != nil })
        #expect(try a.store.pendingSyncChangeCount() == 0 && b.store.pendingSyncChangeCount() == 0)
    }

    @Test func mixedInsertsUpdatesAndDeletesInOneBatchConvergeWithCollisionsResolvedByTheRule() throws {
        let server = try PGTestServer.shared()
        let circle = Self.circle("mixed")
        let a = try member("mixed-a", url: server.url, circle: circle)
        let b = try member("mixed-b", url: server.url, circle: circle)
        _ = try a.store.add(contentsOf: Self.accounts(0..<400).map { Self.newItem($0, "v1 \($0)") })
        try a.sync()
        try b.sync()
        // b creates two items a is about to create too: one before a (a's later one wins), one after (b's wins).
        _ = try b.store.add(Self.newItem("acct-1000", "b early"))
        _ = try a.store.add(contentsOf: Self.accounts(1000..<1300).map { Self.newItem($0, "new \($0)") })
        _ = try b.store.add(Self.newItem("acct-1001", "b late"))
        try Self.set(a.store, Self.accounts(0..<200)) { "v2 \($0)" }
        for account in Self.accounts(200..<300) { #expect(try a.store.delete(Self.query(account)) == 1) }
        try a.sync()  // one push statement: 300 inserts, 200 updates, 100 tombstones
        try b.sync()  // one page, applied in one transaction: batched adds, updates, deletes, two collisions
        try a.sync()
        var expected: [String: String] = [:]
        for account in Self.accounts(0..<200) { expected[account] = "v2 \(account)" }
        for account in Self.accounts(300..<400) { expected[account] = "v1 \(account)" }
        for account in Self.accounts(1000..<1300) { expected[account] = "new \(account)" }
        expected["acct-1001"] = "b late"
        #expect(try Self.contents(b.store) == expected)
        #expect(try Self.contents(a.store) == expected)
        #expect(try b.store.syncConflicts().count == 2, "both collisions resolved on b, the losers kept")
        #expect(try a.store.pendingSyncChangeCount() == 0 && b.store.pendingSyncChangeCount() == 0)
    }

    /// The batched apply of a page gives the same keychain as applying its rows one at a time.
    @Test func aPageAppliedAtOnceEqualsItsRowsAppliedOneByOne() throws {
        let server = try PGTestServer.shared()
        let circle = Self.circle("page")
        let a = try member("page-a", url: server.url, circle: circle)
        _ = try a.store.add(contentsOf: Self.accounts(0..<700).map { Self.newItem($0, "v1 \($0)") })
        try a.sync()
        // Two fresh keychains with local items: one that collides with a remote item changed later (the remote
        // one wins), one that is not synchronizable (no collision).
        var engines: [SyncEngine] = []
        for name in ["whole", "single"] {
            let store = try KeychainStore.openOrCreate(at: directory.path("page-\(name).keychain-db"))
            _ = try store.add(Self.newItem("acct-3", "local older"))
            _ = try store.add(Self.newItem("acct-4", "local only", synchronizable: false))
            engines.append(
                try SyncEngine.offline(
                    store: store, settings: try SyncSettings(url: server.url, circle: circle), key: a.key))
        }
        try Self.set(a.store, Self.accounts(0..<100)) { "v2 \($0)" }
        for account in Self.accounts(100..<150) { #expect(try a.store.delete(Self.query(account)) == 1) }
        _ = try a.store.add(Self.newItem("acct-5000", "late"))
        try a.sync()
        let db = try SyncServer(url: server.url)
        let circleID = try #require(try db.circle(named: circle)?.circleID)
        let rows = try db.pull(circleID: circleID, after: 0, limit: 10_000)
        #expect(rows.count == 701)
        try engines[0].apply(pulled: rows)
        for row in rows { try engines[1].apply(pulled: [row]) }
        let whole = try Self.contents(engines[0].store)
        #expect(whole == (try Self.contents(engines[1].store)))
        #expect(whole.count == 651 && whole["acct-3"] == "v2 acct-3" && whole["acct-5000"] == "late")
        #expect(whole["acct-120"] == nil && whole["acct-200"] == "v1 acct-200")
        for engine in engines { #expect(try engine.store.syncConflicts().count == 1) }
    }

    /// A pull seals the new items of each page after the first ahead, for the row ids forecast from the pages
    /// before it. Here the forecast is wrong: the first page updates items the member holds (its rows prepare as
    /// new items but add none), so the next page's new items are sealed for rows they do not get and are sealed
    /// again when added. A fresh member's forecast is right. Both end with every secret readable and right.
    @Test func newItemsSealedAheadForTheWrongRowsAreSealedAgain() throws {
        let server = try PGTestServer.shared()
        let circle = Self.circle("preseal")
        let a = try member("preseal-a", url: server.url, circle: circle)
        _ = try a.store.add(contentsOf: Self.accounts(0..<600).map { Self.newItem($0, "v1 \($0)") })
        try a.sync()
        let b = try member("preseal-b", url: server.url, circle: circle)
        try b.sync()
        #expect(try Self.contents(b.store).count == 600)
        // Updates first (they fill the first page of b's next pull), then new items.
        try Self.set(a.store, Self.accounts(0..<600)) { "v2 \($0)" }
        _ = try a.store.add(contentsOf: Self.accounts(600..<1_500).map { Self.newItem($0, "v1 \($0)") })
        try a.sync()
        try b.sync()
        let fresh = try member("preseal-fresh", url: server.url, circle: circle)
        try fresh.sync()
        let expected = try Self.contents(a.store)
        #expect(expected.count == 1_500 && expected["acct-5"] == "v2 acct-5" && expected["acct-900"] == "v1 acct-900")
        #expect(try Self.contents(b.store) == expected)
        #expect(try Self.contents(fresh.store) == expected)
    }

    @Test func aBatchInterruptedByADroppedConnectionLosesNothing() throws {
        let server = try PGTestServer()
        defer { server.destroy() }
        let circle = Self.circle("drop")
        let a = try member("drop-a", url: server.url, circle: circle)
        let b = try member("drop-b", url: server.url, circle: circle)
        _ = try a.store.add(contentsOf: Self.accounts(0..<1500).map { Self.newItem($0, "v1 \($0)") })
        // The server holds the push statement after its rows are written, until the test drops the connection.
        let db = try server.connect()
        try db.execute(
            """
            CREATE FUNCTION osec_test_hold() RETURNS trigger LANGUAGE plpgsql AS
            $$ BEGIN PERFORM pg_sleep(30); RETURN NULL; END $$
            """)
        try db.execute(
            """
            CREATE TRIGGER osec_test_hold AFTER INSERT ON osec_items
            FOR EACH STATEMENT EXECUTE FUNCTION osec_test_hold()
            """)
        let killer = Thread {
            for _ in 0..<300 {
                Thread.sleep(forTimeInterval: 0.05)
                let killed = try? db.execute(
                    """
                    SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                    WHERE pid <> pg_backend_pid() AND wait_event = 'PgSleep'
                    """
                ).rows.count
                if (killed ?? 0) > 0 { return }
            }
        }
        killer.start()
        #expect(throws: SyncError.self) { try a.pushPending() }
        try db.execute("DROP TRIGGER osec_test_hold ON osec_items")
        #expect(try db.execute("SELECT count(*) FROM osec_items").scalar().integerValue == 0, "rolled back whole")
        #expect(try a.store.pendingSyncChangeCount() == 1500, "every change still waits in the outbox")
        // Pushed by the server, its acknowledgement lost: the rows are there, the outbox still holds them.
        let key = a.key
        let entries = try a.store.claimSyncChanges(limit: 500, lease: 60)
        let sealed = try entries.map { entry in
            try SyncRow.seal(
                SyncPayload(
                    member: a.member, modificationDate: entry.record?.modificationDate ?? Date(),
                    itemClass: entry.itemClass, record: entry.record),
                itemID: entry.itemID, version: entry.baseVersion + 1, key: key)
        }
        let direct = try SyncServer(url: server.url)
        #expect(try direct.push(sealed, circleID: key.circleID).count == 500)
        try a.store.releaseSyncClaims(entries.map(\.itemID))
        // The next sync sends everything again: 500 refused (already there, taken as acknowledged), 1000 stored.
        try a.sync()
        #expect(try a.store.pendingSyncChangeCount() == 0)
        try b.sync()
        var expected: [String: String] = [:]
        for account in Self.accounts(0..<1500) { expected[account] = "v1 \(account)" }
        #expect(try Self.contents(b.store) == expected)
        #expect(try a.store.syncConflicts().isEmpty && b.store.syncConflicts().isEmpty)
    }
}

extension Digest {
    /// The server's lookup key of a circle name (as `SyncServer` computes it).
    static func circleLookup(_ name: String) -> Data {
        Digest.hash(.sha256, Data("OSecSync.circle.v1".utf8) + Data(name.utf8))
    }
}
