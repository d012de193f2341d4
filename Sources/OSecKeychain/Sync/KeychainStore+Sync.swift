import OSecSQLite
import OSecSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The storage engine's interface for the sync layer (`OSecSync`): sync state, the outbox, and applying remote
/// changes. See ``SyncLedger``.
extension KeychainStore {
    // MARK: State

    /// A value of the sync state (`sync_state`), or `nil`.
    package func syncState(_ key: String) throws(KeychainStoreError) -> Data? {
        try KeychainStore.mapErrors {
            try db.scalar("SELECT value FROM sync_state WHERE key = ?", [.text(key)]).blobValue
        }
    }

    /// Sets (or, with `nil`, removes) values of the sync state in one transaction.
    package func setSyncState(_ values: [String: Data?]) throws(KeychainStoreError) {
        try KeychainStore.mapErrors { try db.transaction(.immediate) { try writeSyncState(values) } }
    }

    /// Writes values of the sync state; the caller holds a write transaction.
    private func writeSyncState(_ values: [String: Data?]) throws {
        for (key, value) in values {
            if let value {
                try db.run(
                    "INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = ?",
                    [.text(key), .blob(value), .blob(value)])
            } else {
                try db.run("DELETE FROM sync_state WHERE key = ?", [.text(key)])
            }
        }
    }

    /// Forgets everything the sync layer recorded (leaving a circle): state, outbox, item ids, conflicts.
    /// The items themselves stay.
    package func resetSyncLedger() throws(KeychainStoreError) {
        try KeychainStore.mapErrors {
            try db.transaction(.immediate) {
                for table in ["sync_state", "sync_outbox", "sync_items", "sync_conflicts"] {
                    try db.run("DELETE FROM \(table)")
                }
            }
        }
    }

    /// Gives every synchronizable item that has no sync id yet one, with an outbox entry (joining a circle: items
    /// added before are pushed too). Returns how many were enqueued.
    package func enqueueUnsyncedItems() throws(KeychainStoreError) -> Int {
        try KeychainStore.mapErrors {
            try db.transaction(.immediate) {
                var count = 0
                for itemClass in ItemClass.all {
                    let uuids = try db.query(
                        """
                        SELECT persistref FROM "\(itemClass.code)" WHERE sync = 1 AND persistref NOT IN
                            (SELECT persistref FROM sync_items WHERE class = ? AND persistref IS NOT NULL)
                        """, [.text(itemClass.code)]
                    ) { $0.data(at: 0) ?? Data() }
                    try syncLedger.recordChanges(db, itemClass: itemClass, uuids: uuids)
                    count += uuids.count
                }
                return count
            }
        }
    }

    // MARK: Outbox

    /// The number of local changes waiting to be pushed.
    package func pendingSyncChangeCount() throws(KeychainStoreError) -> Int {
        try KeychainStore.mapErrors { Int(try db.scalar("SELECT count(*) FROM sync_outbox").integerValue ?? 0) }
    }

    /// Claims up to `limit` outbox entries for this process (in one transaction, so two processes never claim the
    /// same entry) and returns them, in outbox order, with the items' current state. A claim lapses after `lease`
    /// seconds, or as soon as the claiming process is gone, so a killed pusher's entries are taken over.
    ///
    /// Set-based: one UPDATE claims the batch (the processes whose claims still hold are checked once each, not
    /// once per entry), one joined SELECT reads the claimed entries' states, and the items are read back with one
    /// query per class and chunk.
    ///
    /// This process may take its own earlier claims again (a push that failed half-way), except the claim
    /// `sparing` names (``SyncOutboxEntry/claim`` of a batch that is still on its way to the server).
    /// - Throws: `interactionNotAllowed` when a secret cannot be opened (locked keychain): nothing stays claimed.
    package func claimSyncChanges(
        limit: Int, lease: TimeInterval, sparing: Double? = nil
    ) throws(KeychainStoreError) -> [SyncOutboxEntry] {
        let pid = POSIXProcesses.currentID
        let now = Date().timeIntervalSinceReferenceDate
        var until = now + lease
        // The expiry is the claim's name: never the one of the claim spared (same clock reading).
        if let sparing, until <= sparing { until = sparing.nextUp }
        let claimed: [ClaimedChange] = try KeychainStore.mapErrors {
            try db.transaction(.immediate) {
                try claimBatch(pid: pid, now: now, until: until, sparing: sparing ?? -1, limit: limit)
            }
        }
        do {
            let records = try records(claimed.compactMap { $0.state.persistentRef })
            var entries: [SyncOutboxEntry] = []
            entries.reserveCapacity(claimed.count)
            for claim in claimed {
                let state = claim.state
                let record = state.persistentRef.flatMap { records[$0] }
                entries.append(
                    SyncOutboxEntry(
                        itemID: claim.itemID, itemClass: state.itemClass, change: claim.change,
                        baseVersion: state.version, record: record,
                        deletionDate: record == nil ? state.modificationDate : nil, claim: until))
            }
            return entries
        } catch {
            try? releaseSyncClaims(claimed.map(\.itemID))
            throw error
        }
    }

    /// One claimed outbox entry with its item's state.
    private struct ClaimedChange {
        let itemID: Data
        let change: Int64
        let state: SyncItemState
    }

    /// Claims up to `limit` entries for `pid` until `until` (but not those of this process's claim `sparing`) and
    /// reads them back. Caller holds a write transaction.
    private func claimBatch(
        pid: Int64, now: Double, until: Double, sparing: Double, limit: Int
    ) throws -> [ClaimedChange] {
        // The first `limit` entries in outbox order that are free to take: unclaimed, claimed by this process
        // (except the claim spared), lapsed, or claimed by a process that is gone (each holder checked once).
        // Walked in order and stopped there, so a claim costs the entries in flight ahead of it plus its own,
        // not the whole outbox: a scan of every entry per batch made a large push quadratic.
        var holders: [Int64: Bool] = [:]
        var claimedRowIDs: [Int64] = []
        claimedRowIDs.reserveCapacity(limit)
        try db.withStatement("SELECT rowid, claimed_pid, claimed_until FROM sync_outbox ORDER BY rowid") { statement in
            while claimedRowIDs.count < limit, try statement.step() {
                if !statement.isNull(at: 1) {
                    let holder = statement.int64(at: 1)
                    let expiry = statement.double(at: 2)
                    if holder == pid {
                        if expiry == sparing { continue }
                    } else if expiry > now {
                        let alive = holders[holder] ?? POSIXProcesses.isAlive(holder)
                        holders[holder] = alive
                        if alive { continue }
                    }
                }
                claimedRowIDs.append(statement.int64(at: 0))
            }
        }
        try db.withStatement("UPDATE sync_outbox SET claimed_pid = ?, claimed_until = ? WHERE rowid = ?") {
            statement in
            try statement.bind(pid, at: 1)
            try statement.bind(until, at: 2)
            for rowID in claimedRowIDs {
                try statement.bind(rowID, at: 3)
                try statement.run()
            }
        }
        guard let first = claimedRowIDs.min(), let last = claimedRowIDs.max() else { return [] }
        let rows = try db.query(
            """
            SELECT o.item_id, o.change, s.class, s.persistref, s.version, s.member, s.mdat
            FROM sync_outbox o JOIN sync_items s ON s.item_id = o.item_id
            WHERE o.rowid BETWEEN ? AND ? AND o.claimed_pid = ? AND o.claimed_until = ? ORDER BY o.rowid
            """, [.integer(first), .integer(last), .integer(pid), .real(until)]
        ) { row in
            (
                row.data(at: 0) ?? Data(), row.int64(at: 1), row.string(at: 2) ?? "", row.data(at: 3),
                row.int64(at: 4), row.data(at: 5), row.double(at: 6)
            )
        }
        var out: [ClaimedChange] = []
        out.reserveCapacity(rows.count)
        for (itemID, change, code, uuid, version, member, mdat) in rows {
            guard let itemClass = ItemClass(code: code) else {
                throw KeychainStoreError(.invalidKeychain, "malformed sync_items row")
            }
            let ref = try uuid.map { try PersistentRef(itemClass: itemClass, uuid: $0) }
            out.append(
                ClaimedChange(
                    itemID: itemID, change: change,
                    state: SyncItemState(
                        itemID: itemID, itemClass: itemClass, persistentRef: ref, version: version, member: member,
                        modificationDate: Date(timeIntervalSinceReferenceDate: mdat), hasPendingChange: true)))
        }
        return out
    }

    /// The whole local items `refs` point to (secrets opened), read with one query per class and chunk instead of
    /// one per item; refs whose item is gone are missing from the result.
    func records(_ refs: [PersistentRef]) throws(KeychainStoreError) -> [PersistentRef: SyncRecord] {
        var byClass: [Int: [PersistentRef]] = [:]
        for ref in refs { byClass[ref.itemClass.ordinal, default: []].append(ref) }
        var out: [PersistentRef: SyncRecord] = [:]
        out.reserveCapacity(refs.count)
        for classRefs in byClass.values {
            guard let itemClass = classRefs.first?.itemClass else { continue }
            var start = 0
            while start < classRefs.count {
                let chunk = Array(classRefs[start..<min(classRefs.count, start + KeychainStore.recordChunk)])
                start += chunk.count
                for item in try find(
                    ItemQuery(itemClass: itemClass, persistentRefs: chunk), cached: false, ordered: false)
                {
                    out[item.persistentRef] = SyncRecord(item: item, secret: try item.secret?.open())
                }
            }
        }
        return out
    }

    /// Persistent refs looked up per query by ``records(_:)``, item ids by ``SyncTransaction/knownItemIDs(_:)``
    /// (well below SQLite's limit on bound parameters).
    static let recordChunk = 500

    /// Drops this process's claim on `itemIDs` (they are pushed later, by whoever claims them).
    package func releaseSyncClaims(_ itemIDs: [Data]) throws(KeychainStoreError) {
        try KeychainStore.mapErrors {
            try db.transaction(.immediate) {
                for itemID in itemIDs {
                    try db.run(
                        "UPDATE sync_outbox SET claimed_pid = NULL, claimed_until = NULL "
                            + "WHERE item_id = ? AND claimed_pid = ?",
                        [.blob(itemID), .integer(POSIXProcesses.currentID)])
                }
            }
        }
    }

    /// Records pushes the server accepted: the item is now at `version`, and its outbox entry is gone unless a
    /// newer local change arrived meanwhile (then it stays, for the next push, based on `version`). `state` is
    /// written to the sync state in the same transaction.
    package func completeSyncPushes(
        _ accepted: [(entry: SyncOutboxEntry, version: Int64)], settingState state: [String: Data?] = [:]
    ) throws(KeychainStoreError) {
        try KeychainStore.mapErrors {
            try db.transaction(.immediate) {
                try writeSyncState(state)
                for (entry, version) in accepted {
                    try db.run(
                        "UPDATE sync_items SET version = ? WHERE item_id = ?", [.integer(version), .blob(entry.itemID)])
                    try db.run(
                        "DELETE FROM sync_outbox WHERE item_id = ? AND change = ?",
                        [.blob(entry.itemID), .integer(entry.change)])
                    if db.changes == 0 {  // a newer change arrived meanwhile: it stays, unclaimed
                        try db.run(
                            "UPDATE sync_outbox SET claimed_pid = NULL, claimed_until = NULL WHERE item_id = ?",
                            [.blob(entry.itemID)])
                    }
                }
            }
        }
    }

    // MARK: Items

    /// The ledger's state of one item, or `nil` when the sync layer never saw it.
    package func syncItemState(_ itemID: Data) throws(KeychainStoreError) -> SyncItemState? {
        try KeychainStore.mapErrors {
            try db.query(
                """
                SELECT class, persistref, version, member, mdat,
                    EXISTS (SELECT 1 FROM sync_outbox o WHERE o.item_id = s.item_id)
                FROM sync_items s WHERE item_id = ?
                """, [.blob(itemID)]
            ) { row throws(KeychainStoreError) -> SyncItemState in
                guard let itemClass = ItemClass(code: row.string(at: 0) ?? "") else {
                    throw KeychainStoreError(.invalidKeychain, "malformed sync_items row")
                }
                let ref = try row.data(at: 1).map { (uuid) throws(KeychainStoreError) in
                    try PersistentRef(itemClass: itemClass, uuid: uuid)
                }
                return SyncItemState(
                    itemID: itemID, itemClass: itemClass, persistentRef: ref, version: row.int64(at: 2),
                    member: row.data(at: 3), modificationDate: Date(timeIntervalSinceReferenceDate: row.double(at: 4)),
                    hasPendingChange: row.int64(at: 5) != 0)
            }.first
        }
    }

    /// The whole local item a persistent ref points to (its secret opened), or `nil` when it is gone.
    package func record(_ ref: PersistentRef) throws(KeychainStoreError) -> SyncRecord? {
        guard let item = try find(persistentRef: ref) else { return nil }
        return SyncRecord(item: item, secret: try item.secret?.open())
    }

    /// The sync ids of every item the ledger knows, with their state (for status and tests).
    package func syncItemCount() throws(KeychainStoreError) -> (live: Int, tombstones: Int) {
        try KeychainStore.mapErrors {
            let live = try db.scalar("SELECT count(*) FROM sync_items WHERE persistref IS NOT NULL").integerValue ?? 0
            let dead = try db.scalar("SELECT count(*) FROM sync_items WHERE persistref IS NULL").integerValue ?? 0
            return (Int(live), Int(dead))
        }
    }

    /// Conflicts resolved here that are still kept (newest first).
    package func syncConflicts() throws(KeychainStoreError) -> [SyncConflict] {
        try KeychainStore.mapErrors {
            try db.query(
                "SELECT item_id, resolved, winner, loser, loser_mdat, loser_blob FROM sync_conflicts ORDER BY id DESC"
            ) { row in
                SyncConflict(
                    itemID: row.data(at: 0) ?? Data(),
                    resolvedAt: Date(timeIntervalSinceReferenceDate: row.double(at: 1)),
                    winner: row.data(at: 2), loser: row.data(at: 3),
                    loserModificationDate: Date(timeIntervalSinceReferenceDate: row.double(at: 4)),
                    loserBlob: row.data(at: 5))
            }
        }
    }

    /// Runs `body` in one write transaction in which remote changes are applied: nothing it writes is recorded in
    /// the outbox. All or nothing: when `body` throws, no local change remains. Like every write, it checks that the
    /// keychain's path still names the file this store opened; rows it deleted are scrubbed from the WAL afterwards.
    package func withSyncTransaction<R>(_ body: (SyncTransaction) throws -> R) throws(KeychainStoreError) -> R {
        let before = db.totalChanges
        let result = try writeTransaction("apply remote changes") {
            syncLedger.applyingRemote = true
            defer { syncLedger.applyingRemote = false }
            return try body(SyncTransaction(store: self))
        }
        if db.totalChanges != before { scrubDeletedContent() }
        return result
    }
}

/// Operations on the local keychain inside ``KeychainStore/withSyncTransaction(_:)``.
package struct SyncTransaction {
    let store: KeychainStore
    private var db: Database { store.db }
    /// Whether expired conflicts were dropped in this transaction already (see
    /// ``logConflict(_:winner:loser:loserDate:loserBlob:keep:)``).
    private let conflictsPruned = PruneFlag()

    /// Set once per transaction; a class so that the transaction value can stay a `let`.
    private final class PruneFlag { var isSet = false }

    init(store: KeychainStore) { self.store = store }

    /// The ledger's state of an item.
    package func state(_ itemID: Data) throws(KeychainStoreError) -> SyncItemState? {
        try store.syncItemState(itemID)
    }

    /// The whole local item, or `nil`.
    package func record(_ ref: PersistentRef) throws(KeychainStoreError) -> SyncRecord? {
        try store.record(ref)
    }

    /// The synchronizable local item that has the same primary key as `record` (Apple's uniqueness rule), with its
    /// sync id if it has one.
    package func collidingItem(_ record: SyncRecord) throws(KeychainStoreError) -> (ref: PersistentRef, itemID: Data?)?
    {
        let query = ItemQuery(
            itemClass: record.itemClass, attributes: record.primaryKeyAttributes, accessGroups: [record.accessGroup],
            isSynchronizable: true, limit: 1)
        guard let item = try store.find(query).first else { return nil }
        let itemID = try KeychainStore.mapErrors {
            try db.scalar(
                "SELECT item_id FROM sync_items WHERE class = ? AND persistref = ?",
                [.text(item.itemClass.code), .blob(item.persistentRef.uuid)]
            ).blobValue
        }
        return (item.persistentRef, itemID)
    }

    /// Writes a remote item locally: updates the row the item id maps to, or adds a new one. `mdat` and `cdat` are
    /// the record's (so every member compares the same dates).
    /// - Throws: `duplicateItem` when another local item has the same primary key (the caller resolves that).
    package func put(_ itemID: Data, _ record: SyncRecord, version: Int64, member: Data) throws(KeychainStoreError) {
        let existing = try state(itemID)
        var ref: PersistentRef
        if let known = existing?.persistentRef, known.itemClass == record.itemClass,
            try store.find(persistentRef: known) != nil
        {
            // The record is the whole item: what it lacks (an attribute, the secret) goes from the local row too.
            let changes = ItemChanges(
                attributes: record.attributes, accessGroup: record.accessGroup, accessibility: record.accessibility,
                isSynchronizable: true, secret: record.secret, replacesItem: true)
            _ = try store.update(ItemQuery(persistentRef: known), with: changes)
            ref = known
        } else {
            if let known = existing?.persistentRef {
                _ = try store.delete(ItemQuery(persistentRef: known))
            }
            let added = try store.add(
                NewItem(
                    itemClass: record.itemClass, attributes: record.attributes, accessGroup: record.accessGroup,
                    accessibility: record.accessibility, isSynchronizable: true, secret: record.secret))
            ref = added.persistentRef
        }
        try link(itemID, record, ref: ref, version: version, member: member)
    }

    /// Adds remote items this keychain has never seen (no `sync_items` row) in one batched add: one row-id lookup,
    /// one file check, one statement per item, the record's dates written by the insert itself. Their `sync_items`
    /// rows are then written with one prepared statement reused for the whole run. Returns, for each, whether it was
    /// stored; `false` means its primary key is taken by another local item, and nothing was written for it (the
    /// caller applies the conflict rule, through ``put(_:_:version:member:)``).
    ///
    /// An item's local row may have been prepared already (``SyncTransaction/prepare(_:in:)``, on another thread);
    /// the others are prepared here, which throws the reason a record does not make a valid item.
    package func putNew(
        _ items: [(
            itemID: Data, record: SyncRecord, version: Int64, member: Data, prepared: KeychainStore.PreparedItem?
        )]
    ) throws(KeychainStoreError) -> [Bool] {
        var prepared: [KeychainStore.PreparedItem] = []
        prepared.reserveCapacity(items.count)
        for item in items {
            if let ready = item.prepared {
                prepared.append(ready)
            } else {
                prepared.append(contentsOf: try store.prepare([SyncTransaction.newItem(item.record)]))
            }
        }
        let added = try store.addReturningUUIDs(prepared: prepared, skippingDuplicates: true)
        try KeychainStore.mapErrors {
            try db.withStatement(SyncTransaction.linkSQL) { statement in
                for (item, uuid) in zip(items, added) {
                    guard let uuid else { continue }
                    try statement.bind(item.itemID, at: 1)
                    try statement.bind(item.record.itemClass.code, at: 2)
                    try statement.bind(uuid, at: 3)
                    try statement.bind(item.version, at: 4)
                    try statement.bind(item.member, at: 5)
                    try statement.bind(item.record.modificationDate.timeIntervalSinceReferenceDate, at: 6)
                    try statement.run()
                }
            }
        }
        return added.map { $0 != nil }
    }

    /// The local item a remote record becomes (synchronizable, with the record's own dates).
    package static func newItem(_ record: SyncRecord) -> NewItem {
        var new = NewItem(
            itemClass: record.itemClass, attributes: record.attributes, accessGroup: record.accessGroup,
            accessibility: record.accessibility, isSynchronizable: true, secret: record.secret)
        new.dates = (record.creationDate, record.modificationDate)
        return new
    }

    /// The local row of a remote record, prepared for `putNew(_:)` outside the write transaction (on any thread);
    /// `nil` when the record does not make a valid item (`putNew(_:)` then throws the reason).
    package static func prepare(_ record: SyncRecord, in store: KeychainStore) -> KeychainStore.PreparedItem? {
        (try? store.prepare([newItem(record)]))?.first
    }

    /// Maps an item id to its local row (`?1` item id, `?2` class, `?3` persistent-ref UUID, `?4` version,
    /// `?5` member, `?6` mdat), replacing what the ledger knew of it.
    static let linkSQL = """
        INSERT INTO sync_items (item_id, class, persistref, version, member, mdat) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (item_id) DO UPDATE SET class = excluded.class, persistref = excluded.persistref,
            version = excluded.version, member = excluded.member, mdat = excluded.mdat
        """

    /// Which of `itemIDs` the ledger knows (has a `sync_items` row for), looked up with one query per 500 ids
    /// instead of one per id: a pulled page asks once, then reads the full state only of the items it knows.
    package func knownItemIDs(_ itemIDs: [Data]) throws(KeychainStoreError) -> Set<Data> {
        var known = Set<Data>()
        var start = 0
        while start < itemIDs.count {
            let chunk = itemIDs[start..<min(itemIDs.count, start + KeychainStore.recordChunk)]
            start += chunk.count
            let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            try KeychainStore.mapErrors {
                try db.forEachRow(
                    "SELECT item_id FROM sync_items WHERE item_id IN (\(placeholders))", chunk.map(SQLiteValue.blob)
                ) { row in
                    if let id = row.data(at: 0) { known.insert(id) }
                }
            }
        }
        return known
    }

    /// Gives the local row `ref` the record's dates and maps the item id to it at `version`, written by `member`.
    private func link(
        _ itemID: Data, _ record: SyncRecord, ref: PersistentRef, version: Int64, member: Data
    ) throws(KeychainStoreError) {
        try KeychainStore.mapErrors {
            try db.run(
                "UPDATE \"\(record.itemClass.code)\" SET cdat = ?, mdat = ? WHERE persistref = ?",
                [
                    .real(record.creationDate.timeIntervalSinceReferenceDate),
                    .real(record.modificationDate.timeIntervalSinceReferenceDate), .blob(ref.uuid),
                ])
            try db.run(
                SyncTransaction.linkSQL,
                [
                    .blob(itemID), .text(record.itemClass.code), .blob(ref.uuid), .integer(version), .blob(member),
                    .real(record.modificationDate.timeIntervalSinceReferenceDate),
                ])
        }
    }

    /// Applies a remote delete: removes the local row (if any) and keeps the item as a tombstone at `version`.
    package func remove(
        _ itemID: Data, itemClass: ItemClass, version: Int64, member: Data?, deletionDate: Date
    ) throws(KeychainStoreError) {
        if let ref = try state(itemID)?.persistentRef {
            _ = try store.delete(ItemQuery(persistentRef: ref))
        }
        try KeychainStore.mapErrors {
            try db.run(
                """
                INSERT INTO sync_items (item_id, class, persistref, version, member, mdat) VALUES (?, ?, NULL, ?, ?, ?)
                ON CONFLICT (item_id) DO UPDATE SET persistref = NULL, version = excluded.version,
                    member = excluded.member, mdat = excluded.mdat
                """,
                [
                    .blob(itemID), .text(itemClass.code), .integer(version), member.map(SQLiteValue.blob) ?? .null,
                    .real(deletionDate.timeIntervalSinceReferenceDate),
                ])
        }
    }

    /// The local change wins over the server's `version`: it stays in the outbox, now based on `version`.
    package func rebase(_ itemID: Data, onto version: Int64) throws(KeychainStoreError) {
        try KeychainStore.mapErrors {
            try db.run("UPDATE sync_items SET version = ? WHERE item_id = ?", [.integer(version), .blob(itemID)])
            try db.run(
                "UPDATE sync_outbox SET claimed_pid = NULL, claimed_until = NULL WHERE item_id = ?", [.blob(itemID)])
        }
    }

    /// Records that `version` of the item is known (nothing else changes).
    package func acknowledge(_ itemID: Data, version: Int64) throws(KeychainStoreError) {
        try KeychainStore.mapErrors {
            try db.run("UPDATE sync_items SET version = ? WHERE item_id = ?", [.integer(version), .blob(itemID)])
        }
    }

    /// Drops the item's pending local change (it lost a conflict).
    package func dropPendingChange(_ itemID: Data) throws(KeychainStoreError) {
        try KeychainStore.mapErrors { try db.run("DELETE FROM sync_outbox WHERE item_id = ?", [.blob(itemID)]) }
    }

    /// Queues a push of the item's current state (e.g. the tombstone of a collision's loser).
    package func enqueue(_ itemID: Data) throws(KeychainStoreError) {
        try KeychainStore.mapErrors { try store.syncLedger.enqueue(db, itemID) }
    }

    /// Marks a local item that lost a collision as deleted, with a pending tombstone push (when it has a sync id).
    package func retire(_ ref: PersistentRef, itemID: Data?) throws(KeychainStoreError) {
        _ = try store.delete(ItemQuery(persistentRef: ref))
        guard let itemID else { return }
        try KeychainStore.mapErrors {
            try db.run(
                "UPDATE sync_items SET persistref = NULL, member = NULL, mdat = ? WHERE item_id = ?",
                [.real(Date().timeIntervalSinceReferenceDate), .blob(itemID)])
            try store.syncLedger.enqueue(db, itemID)
        }
    }

    /// Keeps a losing change for `sync-status` (older entries than `keep` seconds are dropped, once per
    /// transaction: `resolved` has no index, so dropping them at every conflict would scan the table once per
    /// conflict, quadratic in a page full of collisions).
    package func logConflict(
        _ itemID: Data, winner: Data?, loser: Data?, loserDate: Date, loserBlob: Data?, keep: TimeInterval
    ) throws(KeychainStoreError) {
        let now = Date().timeIntervalSinceReferenceDate
        try KeychainStore.mapErrors {
            if !conflictsPruned.isSet {
                try db.run("DELETE FROM sync_conflicts WHERE resolved < ?", [.real(now - keep)])
                conflictsPruned.isSet = true
            }
            try db.run(
                """
                INSERT INTO sync_conflicts (item_id, resolved, winner, loser, loser_mdat, loser_blob)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [
                    .blob(itemID), .real(now), winner.map(SQLiteValue.blob) ?? .null,
                    loser.map(SQLiteValue.blob) ?? .null, .real(loserDate.timeIntervalSinceReferenceDate),
                    loserBlob.map(SQLiteValue.blob) ?? .null,
                ])
        }
    }
}
