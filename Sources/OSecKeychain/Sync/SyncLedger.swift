import OSecSQLite
import OSecSystem
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The keychain's half of the sync: which synchronizable items the sync layer knows (`sync_items`), the outbox of
/// local changes not pushed yet (`sync_outbox`), the sync state (`sync_state`) and resolved conflicts
/// (`sync_conflicts`). Tables of schema version 3 (after the keychain's own version 2).
///
/// Every add, update or delete of a synchronizable item records its outbox entry in the same SQLite transaction as
/// the change itself, so a crash can neither lose a change nor send one that did not commit. Remote changes are
/// applied through ``KeychainStore/withSyncTransaction(_:)``, which records nothing in the outbox.
package final class SyncLedger: @unchecked Sendable {  // sendable: `applyingRemote` is only used under the db lock
    /// Set while a sync transaction applies remote changes (under the connection's lock).
    var applyingRemote = false
    private let changed = Atomic<Bool>(false)
    private let observer = LockedValue<(@Sendable () -> Void)?>(nil)

    init() {}

    /// Called (on the writing thread, after the commit) whenever a local change of a synchronizable item
    /// committed: the sync layer wakes its pusher.
    package func setChangeObserver(_ body: (@Sendable () -> Void)?) {
        observer.withLock { $0 = body }
    }

    /// Fires the observer if a change was recorded since the last call.
    func flush() {
        guard changed.exchange(false, ordering: .acquiringAndReleasing) else { return }
        if let body = observer.withLock({ $0 }) { body() }
    }

    func noteChange() { changed.store(true, ordering: .releasing) }

    /// The statements of schema version 3; idempotent, like every migration.
    static let schema: [String] = [
        """
        CREATE TABLE IF NOT EXISTS sync_items (
            item_id BLOB PRIMARY KEY,
            class TEXT NOT NULL,
            persistref BLOB,
            version INTEGER NOT NULL DEFAULT 0,
            member BLOB,
            mdat REAL NOT NULL DEFAULT 0
        )
        """,
        "CREATE UNIQUE INDEX IF NOT EXISTS sync_items_row ON sync_items (class, persistref)",
        """
        CREATE TABLE IF NOT EXISTS sync_outbox (
            item_id BLOB PRIMARY KEY,
            change INTEGER NOT NULL DEFAULT 1,
            claimed_pid INTEGER,
            claimed_until REAL
        )
        """,
        "CREATE TABLE IF NOT EXISTS sync_state (key TEXT PRIMARY KEY, value BLOB)",
        """
        CREATE TABLE IF NOT EXISTS sync_conflicts (
            id INTEGER PRIMARY KEY,
            item_id BLOB NOT NULL,
            resolved REAL NOT NULL,
            winner BLOB,
            loser BLOB,
            loser_mdat REAL NOT NULL,
            loser_blob BLOB
        )
        """,
    ]

    // MARK: Hooks (inside the caller's write transaction)

    /// Records that the rows `uuids` of `itemClass` changed: rows that are (or were) synchronizable get an
    /// outbox entry; a synchronizable row that is gone, or no longer synchronizable, becomes a tombstone.
    func recordChanges(_ db: Database, itemClass: ItemClass, uuids: [Data]) throws {
        guard !applyingRemote, !uuids.isEmpty else { return }
        let now = Date().timeIntervalSinceReferenceDate
        for uuid in uuids {
            let live = try db.scalar("SELECT sync FROM \"\(itemClass.code)\" WHERE persistref = ?", [.blob(uuid)])
            let isSynchronizable = (live.integerValue ?? 0) != 0
            let known = try db.scalar(
                "SELECT item_id FROM sync_items WHERE class = ? AND persistref = ?",
                [.text(itemClass.code), .blob(uuid)]
            ).blobValue
            if let itemID = known {
                if isSynchronizable {
                    try db.run(
                        "UPDATE sync_items SET member = NULL, mdat = ? WHERE item_id = ?", [.real(now), .blob(itemID)])
                } else {
                    try db.run(
                        "UPDATE sync_items SET persistref = NULL, member = NULL, mdat = ? WHERE item_id = ?",
                        [.real(now), .blob(itemID)])
                }
                try enqueue(db, itemID)
            } else if isSynchronizable {
                let itemID = try PasswordKDF.randomBytes(16)  // random: never derived from attributes
                try db.run(
                    "INSERT INTO sync_items (item_id, class, persistref, version, member, mdat) "
                        + "VALUES (?, ?, ?, 0, NULL, ?)",
                    [.blob(itemID), .text(itemClass.code), .blob(uuid), .real(now)])
                try enqueue(db, itemID)
            }
        }
    }

    /// The persistent-ref UUIDs of the synchronizable rows matching a WHERE clause (before a delete).
    func synchronizableRows(
        _ db: Database, itemClass: ItemClass, clause: String, bindings: [SQLiteValue]
    ) throws
        -> [Data]
    {
        guard !applyingRemote else { return [] }
        return try db.query("SELECT persistref, sync FROM \"\(itemClass.code)\"" + clause, bindings) { row in
            (row.data(at: 0) ?? Data(), row.int64(at: 1))
        }.filter { $0.1 != 0 }.map(\.0)
    }

    func enqueue(_ db: Database, _ itemID: Data) throws {
        try db.run(
            "INSERT INTO sync_outbox (item_id, change) VALUES (?, 1) "
                + "ON CONFLICT (item_id) DO UPDATE SET change = change + 1",
            [.blob(itemID)])
        noteChange()
    }
}
