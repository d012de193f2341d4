import Foundation
import OSecKeychain
import OSecSync
import OSecTestSupport
import Testing

/// The set-based paths of the keychain's sync ledger, without a server: the claimed items read back through the
/// claim (one joined query per class), the push completed with set-based statements, and a pulled page applied with
/// one lookup of the item ids the ledger knows and the remote dates written by the batched add itself. Each is
/// checked against the one-item paths it replaces.
struct SyncLedgerBatchTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "osec-sync-ledger")
    }

    func store(_ name: String) throws -> KeychainStore {
        try KeychainStore.openOrCreate(at: directory.path("\(name).keychain-db"))
    }

    /// One synchronizable item of every class, with every kind of attribute value (text and bytes in `bytes`
    /// columns, integers, a double, dates), with and without a secret.
    static let variedItems: [NewItem] = [
        NewItem(
            itemClass: .genericPassword,
            attributes: [
                "svce": .string("ledger.example"), "acct": .string("text account"), "labl": .string("label"),
                "gena": .data(Data([0, 1, 2, 255])), "type": .integer(0x6170_706c), "crtr": .integer(-7),
                "desc": .string(""),
            ],
            accessGroup: "group.one", accessibility: .afterFirstUnlock, isSynchronizable: true,
            secret: Data("secret one".utf8)),
        NewItem(
            itemClass: .genericPassword,
            attributes: ["svce": .data(Data("bytes service".utf8)), "acct": .data(Data([9, 8, 7]))],
            accessGroup: "group.two", accessibility: .whenUnlocked, isSynchronizable: true, secret: nil),
        NewItem(
            itemClass: .internetPassword,
            attributes: [
                "srvr": .string("host.example"), "acct": .string("user"), "ptcl": .integer(443), "port": .integer(8443),
                "path": .string("/a/b"), "atyp": .string("dflt"), "invi": .double(1.5),
            ],
            accessGroup: "group.one", accessibility: .afterFirstUnlock, isSynchronizable: true,
            secret: Data(repeating: 0x41, count: 300)),
        NewItem(
            itemClass: .certificate,
            attributes: [
                "issr": .data(Data([0x30, 0x03, 1, 2, 3])), "slnr": .data(Data([0x02, 0x01, 0x05])),
                "ctyp": .integer(1), "labl": .string("cert label"), "pkhh": .data(Data(repeating: 7, count: 20)),
            ],
            accessGroup: "group.one", accessibility: .afterFirstUnlock, isSynchronizable: true,
            secret: Data([0x30, 0x82, 0x01, 0x00])),
        NewItem(
            itemClass: .key,
            attributes: [
                "klbl": .data(Data(repeating: 3, count: 20)), "kcls": .integer(1), "bsiz": .integer(256),
                "esiz": .integer(256), "sdat": .date(Date(timeIntervalSinceReferenceDate: 700_000_000.25)),
                "edat": .date(Date(timeIntervalSinceReferenceDate: 800_000_000)), "sign": .integer(1),
                "labl": .string("key label"),
            ],
            accessGroup: "group.one", accessibility: .afterFirstUnlock, isSynchronizable: true,
            secret: Data(repeating: 0x55, count: 32)),
    ]

    @Test func claimedItemsReadBackAsTheKeychainStoresThem() throws {
        let store = try store("claim")
        let added = try store.add(contentsOf: Self.variedItems)
        let gone = try store.add(
            NewItem(
                itemClass: .genericPassword, attributes: ["svce": .string("ledger.example"), "acct": .string("gone")],
                accessGroup: "group.one", isSynchronizable: true, secret: Data("x".utf8)))
        #expect(try store.delete(ItemQuery(persistentRef: gone.persistentRef)) == 1)
        let entries = try store.claimSyncChanges(limit: 100, lease: 60)
        #expect(entries.count == Self.variedItems.count + 1)
        var live = 0
        for entry in entries {
            let state = try #require(try store.syncItemState(entry.itemID))
            guard let ref = state.persistentRef else {
                #expect(entry.record == nil && entry.deletionDate != nil, "the deleted item goes out as a tombstone")
                continue
            }
            live += 1
            let record = try #require(entry.record)
            #expect(record == (try store.record(ref)), "the claim reads what a lookup by persistent ref reads")
            let index = try #require(added.firstIndex { $0.persistentRef == ref })
            #expect(record.secret == Self.variedItems[index].secret)
            #expect(record.itemClass == entry.itemClass && entry.baseVersion == 0 && entry.change == 1)
        }
        #expect(live == Self.variedItems.count)
    }

    @Test func aCompletedPushDropsItsEntriesAndKeepsNewerChangesQueuedAndUnclaimed() throws {
        let store = try store("complete")
        let items = (0..<5).map { index in
            NewItem(
                itemClass: .genericPassword,
                attributes: ["svce": .string("ledger.example"), "acct": .string("acct-\(index)")],
                accessGroup: "group.one", isSynchronizable: true, secret: Data("v1 \(index)".utf8))
        }
        _ = try store.add(contentsOf: items)
        let entries = try store.claimSyncChanges(limit: 100, lease: 60)
        #expect(entries.count == 5)
        // A newer change of acct-2 commits while the push is on its way.
        let query = ItemQuery(
            itemClass: .genericPassword, attributes: ["svce": .string("ledger.example"), "acct": .string("acct-2")],
            accessGroups: ["group.one"], isSynchronizable: true)
        #expect(try store.update(query, with: ItemChanges(secret: Data("v2".utf8))) == 1)
        // The server took four of them; acct-4's row was refused and its claim released.
        let refused = try #require(entries.last)
        try store.releaseSyncClaims([refused.itemID])
        try store.completeSyncPushes(entries.dropLast().map { ($0, $0.baseVersion + 1) })
        #expect(try store.pendingSyncChangeCount() == 2, "the newer change and the refused one wait")
        for entry in entries.dropLast() { #expect(try store.syncItemState(entry.itemID)?.version == 1) }
        #expect(try store.syncItemState(refused.itemID)?.version == 0)
        // Both are unclaimed: a new claim takes them, the newer change based on the version just pushed.
        let again = try store.claimSyncChanges(limit: 100, lease: 60)
        #expect(Set(again.map(\.itemID)).count == 2)
        let newer = try #require(again.first { $0.itemID != refused.itemID })
        #expect(newer.baseVersion == 1 && newer.change == 2 && newer.record?.secret == Data("v2".utf8))
        // Completing nothing changes nothing.
        try store.completeSyncPushes([])
        #expect(try store.pendingSyncChangeCount() == 2)
    }

    /// A pulled record is the whole item (found by the sync fuzzer): what the winning record lacks — an attribute,
    /// a primary-key attribute, the secret — goes from the local row too, whether the earlier version came in the
    /// same page (the batched add, then the update) or an earlier one, so every member holds the same item.
    @Test func aPulledRecordReplacesTheWholeItem() throws {
        let key = try CircleKey(circleID: Data(repeating: 1, count: 16), material: Data(repeating: 2, count: 64))
        let settings = try SyncSettings(url: "host=/nonexistent", circle: "ledger")
        let remote = Data(repeating: 0xEE, count: 16)
        let itemID = Data(repeating: 9, count: 16)
        let created = Date(timeIntervalSinceReferenceDate: 600_000_000)
        let full = SyncRecord(
            itemClass: .genericPassword,
            attributes: [
                "svce": .string("ledger.example"), "acct": .string("whole"), "labl": .string("label"),
                "desc": .string("description"), "gena": .data(Data([1, 2, 3])), "crtr": .integer(7),
            ],
            accessGroup: "group.one", accessibility: .afterFirstUnlock, creationDate: created,
            modificationDate: created.addingTimeInterval(1), secret: Data("first".utf8))
        // Version 2 keeps only the service: no account (a primary-key attribute), no label, no secret.
        let bare = SyncRecord(
            itemClass: .genericPassword, attributes: ["svce": .string("ledger.example")], accessGroup: "group.one",
            accessibility: .whenUnlocked, creationDate: created, modificationDate: created.addingTimeInterval(2),
            secret: nil)
        let rows = [
            try Self.row(
                key, member: remote, itemID: itemID, version: 1, seq: 1, record: full, date: full.modificationDate),
            try Self.row(
                key, member: remote, itemID: itemID, version: 2, seq: 2, record: bare, date: bare.modificationDate),
        ]
        // What the keychain reads back for an item added as `bare` says.
        let reference = try store("replace-reference")
        let added = try reference.add(
            NewItem(
                itemClass: .genericPassword, attributes: bare.attributes, accessGroup: "group.one",
                accessibility: .whenUnlocked, isSynchronizable: true, secret: nil))
        let expected = try #require(try reference.record(added.persistentRef))
        for onePage in [true, false] {
            let store = try store("replace-\(onePage)")
            let engine = try SyncEngine.offline(store: store, settings: settings, key: key)
            if onePage {
                try engine.apply(pulled: rows)
            } else {
                for row in rows { try engine.apply(pulled: [row]) }
            }
            let state = try #require(try store.syncItemState(itemID))
            #expect(state.version == 2)
            let ref = try #require(state.persistentRef)
            let local = try #require(try store.record(ref))
            #expect(local.secret == nil, "one page: \(onePage)")
            #expect(local.attributes == expected.attributes, "one page: \(onePage)")
            #expect(local.accessibility == .whenUnlocked && local.accessGroup == "group.one")
            #expect(local.modificationDate == bare.modificationDate && local.creationDate == created)
            let found = try store.find(
                ItemQuery(itemClass: .genericPassword, attributes: ["svce": .string("ledger.example")]))
            #expect(found.count == 1 && found.first?.attributes["labl"] == nil, "\(found.map(\.attributes))")
        }
    }

    /// A row sealed by `member` for `key`.
    static func row(
        _ key: CircleKey, member: Data, itemID: Data, version: Int64, seq: Int64, record: SyncRecord?,
        date: Date
    ) throws -> SyncRow {
        let sealed = try SyncRow.seal(
            SyncPayload(
                member: member, modificationDate: date, itemClass: record?.itemClass ?? .genericPassword,
                record: record),
            itemID: itemID, version: version, key: key)
        return SyncRow(itemID: itemID, version: version, seq: seq, isTombstone: record == nil, blob: sealed.blob)
    }

    static func record(_ account: String, _ secret: String, created: Date, modified: Date) -> SyncRecord {
        SyncRecord(
            itemClass: .genericPassword,
            attributes: ["svce": .string("ledger.example"), "acct": .string(account), "labl": .string("remote")],
            accessGroup: "group.one", accessibility: .afterFirstUnlock, creationDate: created,
            modificationDate: modified, secret: Data(secret.utf8))
    }

    @Test func aPageWithNewKnownAndRepeatedItemsAppliesLikeItsRowsOneByOne() throws {
        let key = try CircleKey(circleID: Data(repeating: 1, count: 16), material: Data(repeating: 2, count: 64))
        let settings = try SyncSettings(url: "host=/nonexistent", circle: "ledger")
        let remote = Data(repeating: 0xEE, count: 16)
        let created = Date(timeIntervalSinceReferenceDate: 600_000_000.5)
        var rows: [SyncRow] = []
        var seq: Int64 = 0
        func next(_ id: UInt8, _ version: Int64, _ record: SyncRecord?, _ date: Date) throws {
            seq += 1
            rows.append(
                try Self.row(
                    key, member: remote, itemID: Data(repeating: id, count: 16), version: version, seq: seq,
                    record: record, date: date))
        }
        // Page 1: three new items. Page 2: item 4 named twice (v1, then v2 while v1 still waits in the batch of new
        // items), an update of item 1, the deletion of item 2, another new item.
        for id in UInt8(1)...3 {
            let date = created.addingTimeInterval(Double(id))
            try next(id, 1, Self.record("acct-\(id)", "v1", created: created, modified: date), date)
        }
        let firstPage = rows
        rows = []
        let later = created.addingTimeInterval(100)
        try next(4, 1, Self.record("acct-4", "v1", created: created, modified: later), later)
        try next(5, 1, Self.record("acct-5", "v1", created: created, modified: later), later)
        let latest = later.addingTimeInterval(1)
        try next(4, 2, Self.record("acct-4", "v2", created: created, modified: latest), latest)
        try next(1, 2, Self.record("acct-1", "v2", created: created, modified: later), later)
        try next(2, 2, nil, later)
        try next(6, 1, Self.record("acct-6", "v1", created: created, modified: later), later)
        let secondPage = rows
        var stores: [KeychainStore] = []
        for name in ["whole", "single"] {
            let store = try store("page-\(name)")
            let engine = try SyncEngine.offline(store: store, settings: settings, key: key)
            if name == "whole" {
                try engine.apply(pulled: firstPage)
                try engine.apply(pulled: secondPage)
            } else {
                for row in firstPage + secondPage { try engine.apply(pulled: [row]) }
            }
            stores.append(store)
        }
        for store in stores {
            let items = try store.find(
                ItemQuery(itemClass: .genericPassword, attributes: ["svce": .string("ledger.example")]))
            var contents: [String: String] = [:]
            for item in items {
                guard case .string(let account)? = item.attributes["acct"] else { continue }
                contents[account] = String(decoding: try item.secret?.open() ?? Data(), as: UTF8.self)
                // A remote item keeps the dates it was made with (every member compares the same ones).
                #expect(item.creationDate == created, "\(account)")
            }
            #expect(contents == ["acct-1": "v2", "acct-3": "v1", "acct-4": "v2", "acct-5": "v1", "acct-6": "v1"])
            let fourth = try #require(items.first { $0.attributes["acct"] == .string("acct-4") })
            #expect(fourth.modificationDate == later.addingTimeInterval(1), "the row's own date")
            let third = try #require(items.first { $0.attributes["acct"] == .string("acct-3") })
            #expect(third.modificationDate == created.addingTimeInterval(3))
            for id in UInt8(1)...6 {
                let state = try #require(try store.syncItemState(Data(repeating: id, count: 16)))
                #expect(state.version == ([1, 2, 4].contains(id) ? 2 : 1))
                #expect((state.persistentRef == nil) == (id == 2) && state.member == remote)
            }
            #expect(try store.pendingSyncChangeCount() == 0 && store.syncConflicts().isEmpty)
        }
    }

    /// The pipelined push claims the next batch while one is still on its way to the server: that claim must leave
    /// the batch in flight alone, and it gets a claim of its own (the claims are told apart by their expiry).
    @Test func aClaimSparesTheBatchStillInFlight() throws {
        let store = try store("spare")
        _ = try store.add(
            contentsOf: (0..<7).map { index in
                NewItem(
                    itemClass: .genericPassword,
                    attributes: ["svce": .string("ledger.example"), "acct": .string("acct-\(index)")],
                    accessGroup: "group.one", isSynchronizable: true, secret: Data("v1 \(index)".utf8))
            })
        let first = try store.claimSyncChanges(limit: 3, lease: 60)
        #expect(first.count == 3 && Set(first.map(\.claim)).count == 1)
        let inFlight = try #require(first.first?.claim)
        let second = try store.claimSyncChanges(limit: 3, lease: 60, sparing: inFlight)
        #expect(second.count == 3)
        #expect(Set(second.map(\.itemID)).isDisjoint(with: first.map(\.itemID)), "the batch in flight stays out")
        #expect(second.allSatisfy { $0.claim != inFlight }, "a claim of its own, even on the same clock reading")
        // Sparing the second claim instead, this process takes its own first claim again, with what is left.
        let third = try store.claimSyncChanges(limit: 10, lease: 60, sparing: second.first?.claim)
        #expect(third.count == 4 && Set(first.map(\.itemID)).isSubset(of: third.map(\.itemID)))
        #expect(Set(third.map(\.itemID)).isDisjoint(with: second.map(\.itemID)))
    }

    /// A page in which every row collides with a local item on the primary key (a member that rejoins a circle
    /// holding the same items) keeps one conflict per collision, and drops the expired ones once, not at every
    /// conflict (which scanned the conflicts table once per row: a quadratic apply).
    @Test func aPageOfCollisionsKeepsEveryConflictAndDropsExpiredOnesOnce() throws {
        let key = try CircleKey(circleID: Data(repeating: 1, count: 16), material: Data(repeating: 2, count: 64))
        let settings = try SyncSettings(url: "host=/nonexistent", circle: "ledger")
        let store = try store("collisions")
        let engine = try SyncEngine.offline(store: store, settings: settings, key: key)
        let created = Date(timeIntervalSinceReferenceDate: 600_000_000)
        // An expired conflict, from an earlier apply.
        try store.withSyncTransaction { transaction in
            try transaction.logConflict(
                Data(repeating: 0xAA, count: 16), winner: nil, loser: nil, loserDate: created, loserBlob: nil,
                keep: 3600)
        }
        #expect(try store.syncConflicts().count == 1)
        let count = 300
        _ = try store.add(
            contentsOf: (0..<count).map { index in
                NewItem(
                    itemClass: .genericPassword,
                    attributes: ["svce": .string("ledger.example"), "acct": .string("acct-\(index)")],
                    accessGroup: "group.one", isSynchronizable: true, secret: Data("local \(index)".utf8))
            })
        // The same items from another member, later: every row wins its collision.
        let remote = Data(repeating: 0xEE, count: 16)
        let later = Date().addingTimeInterval(60)
        var rows: [SyncRow] = []
        for index in 0..<count {
            var itemID = Data(repeating: 0x5A, count: 14)
            itemID.append(UInt8(index >> 8))
            itemID.append(UInt8(index & 0xFF))
            let record = Self.record("acct-\(index)", "remote \(index)", created: created, modified: later)
            rows.append(
                try Self.row(
                    key, member: remote, itemID: itemID, version: 1, seq: Int64(index + 1), record: record, date: later)
            )
        }
        // Every conflict of this page is kept; the expired one goes (keep 0 for it: it is older than now).
        Thread.sleep(forTimeInterval: 0.01)
        try store.withSyncTransaction { transaction in
            try transaction.logConflict(
                Data(repeating: 0xBB, count: 16), winner: nil, loser: nil, loserDate: created, loserBlob: nil, keep: 0)
            try transaction.logConflict(
                Data(repeating: 0xCC, count: 16), winner: nil, loser: nil, loserDate: created, loserBlob: nil, keep: 0)
        }
        let afterPrune = try store.syncConflicts().map(\.itemID)
        #expect(Set(afterPrune) == [Data(repeating: 0xBB, count: 16), Data(repeating: 0xCC, count: 16)])
        try engine.apply(pulled: rows)
        let conflicts = try store.syncConflicts()
        #expect(conflicts.count == count + 2, "one per collision, and the two of the earlier transaction")
        let items = try store.find(
            ItemQuery(itemClass: .genericPassword, attributes: ["svce": .string("ledger.example")]))
        #expect(items.count == count)
        for item in items {
            guard case .string(let account)? = item.attributes["acct"] else { continue }
            let suffix = account.dropFirst("acct-".count)
            #expect(try item.secret?.open() == Data("remote \(suffix)".utf8), "the later change wins")
        }
    }
}
