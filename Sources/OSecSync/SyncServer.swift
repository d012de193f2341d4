import Foundation
import OSecCrypto
import OSecPostgres

/// The circle as the server keeps it.
package struct ServerCircle: Sendable {
    /// The circle's random id.
    package let circleID: Data
    /// scrypt salt.
    package let salt: Data
    /// scrypt work factors.
    package let parameters: CircleKey.Parameters
    /// HMAC of the circle key (detects a wrong passphrase).
    package let keyCheck: Data
}

extension ServerCircle {
    /// Reads a row of `SELECT circle_id, salt, kdf_n, kdf_r, kdf_p, key_check FROM osec_circles` (what the server
    /// returns is untrusted: every column is checked, the scrypt parameters against the joiner's bounds).
    package init(row: [PGValue]) throws(SyncError) {
        guard row.count == 6, let id = row[0].bytesValue, id.count == 16, let salt = row[1].bytesValue,
            let n = row[2].integerValue, let r = row[3].integerValue, let p = row[4].integerValue,
            let check = row[5].bytesValue, let un = UInt64(exactly: n), let ur = UInt32(exactly: r),
            let up = UInt32(exactly: p)
        else {
            throw SyncError(.serverIncompatible, "the circle row is malformed")
        }
        self.init(circleID: id, salt: salt, parameters: try CircleKey.Parameters(n: un, r: ur, p: up), keyCheck: check)
    }
}

extension SyncRow {
    /// Reads a row of `SELECT item_id, version, seq, tombstone, blob FROM osec_items` (untrusted: a wrong type or
    /// a missing column is `serverIncompatible`; the content is checked when the row is opened).
    package init(serverRow row: [PGValue]) throws(SyncError) {
        guard row.count == 5, let id = row[0].bytesValue, let version = row[1].integerValue,
            let seq = row[2].integerValue, let tombstone = row[3].boolValue, let blob = row[4].bytesValue
        else {
            throw SyncError(.serverIncompatible, "an item row is malformed")
        }
        self.init(itemID: id, version: version, seq: seq, isTombstone: tombstone, blob: blob)
    }
}

extension ServerMember {
    /// Reads a row of `SELECT member_id, info, last_seen (µs)` from `osec_members`; a member whose info does not
    /// open with `key` (or a malformed row) is listed with host name `"?"`.
    package init(row: [PGValue], key: CircleKey) {
        let member = row.first?.bytesValue ?? Data()
        let info = row.count > 1 ? row[1].bytesValue ?? Data() : Data()
        let host = (try? SyncServer.openInfo(info, member: member, key: key)) ?? "?"
        let micros = Double(row.count > 2 ? row[2].integerValue ?? 0 : 0)
        self.init(memberID: member, hostName: host, lastSeen: Date(timeIntervalSince1970: micros / 1e6))
    }
}

/// A member as listed by the server (its info opened with the circle key).
package struct ServerMember: Sendable {
    /// The member's id.
    package let memberID: Data
    /// The host name the member gave when it joined (sealed on the server).
    package let hostName: String
    /// When the member last synced (server time).
    package let lastSeen: Date
}

/// The statements the sync sends, on one connection. Only opaque ids, counters and sealed blobs are written.
package final class SyncServer: @unchecked Sendable {  // sendable: PGConnection is internally locked
    let connection: PGConnection
    /// The NOTIFY channel of every circle (the payload is the circle id in hex).
    static let channel = "osec_sync"

    /// Connects and prepares the schema.
    /// - Throws: `serverUnavailable` when the server cannot be reached.
    package init(url: String) throws(SyncError) {
        do {
            connection = try PGConnection(url)
            try ServerSchema.prepare(connection)
        } catch {
            throw SyncServer.map(error)
        }
    }

    /// `false` once the connection broke.
    package var isConnected: Bool { connection.isConnected }

    /// The opaque lookup key of a circle name.
    static func lookup(_ name: String) -> Data {
        Digest.hash(.sha256, Data("OSecSync.circle.v1".utf8) + Data(name.utf8))
    }

    /// The circle named `name`, or `nil`.
    package func circle(named name: String) throws(SyncError) -> ServerCircle? {
        try run {
            let result = try connection.execute(
                "SELECT circle_id, salt, kdf_n, kdf_r, kdf_p, key_check FROM osec_circles WHERE lookup = $1",
                [.bytes(SyncServer.lookup(name))])
            guard let row = result.rows.first else { return nil }
            return try ServerCircle(row: row)
        }
    }

    /// Creates the circle `name` (the first member does); when another member created it at the same moment,
    /// returns theirs instead (the caller then checks the passphrase against it).
    package func createCircle(
        named name: String, passphrase: Data, parameters: CircleKey.Parameters
    ) throws(SyncError) -> (ServerCircle, CircleKey?) {
        let circleID: Data
        let salt: Data
        do {
            circleID = try SecureRandom.bytes(16)
            salt = try SecureRandom.bytes(CircleKey.saltLength)
        } catch {
            throw SyncError(.internal, "random generator failed", underlying: error)
        }
        let key = try CircleKey.derive(passphrase: passphrase, salt: salt, parameters: parameters, circleID: circleID)
        let created = try run {
            try connection.execute(
                """
                INSERT INTO osec_circles (circle_id, lookup, salt, kdf_n, kdf_r, kdf_p, key_check)
                VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (lookup) DO NOTHING
                """,
                [
                    .bytes(circleID), .bytes(SyncServer.lookup(name)), .bytes(salt), .integer(Int64(parameters.n)),
                    .integer(Int64(parameters.r)), .integer(Int64(parameters.p)), .bytes(key.keyCheck),
                ]
            ).affectedRows == 1
        }
        if created {
            return (ServerCircle(circleID: circleID, salt: salt, parameters: parameters, keyCheck: key.keyCheck), key)
        }
        guard let existing = try circle(named: name) else {
            throw SyncError(.serverIncompatible, "the circle vanished while it was being created")
        }
        return (existing, nil)
    }

    /// Registers (or refreshes) a member with its sealed info.
    package func register(member: Data, hostName: String, key: CircleKey) throws(SyncError) {
        let info = try SyncServer.sealInfo(hostName, member: member, key: key)
        try run {
            try connection.execute(
                """
                INSERT INTO osec_members (circle_id, member_id, info) VALUES ($1, $2, $3)
                ON CONFLICT (circle_id, member_id) DO UPDATE SET info = excluded.info, last_seen = now()
                """, [.bytes(key.circleID), .bytes(member), .bytes(info)])
        }
    }

    /// Refreshes a member's last-seen time.
    package func touch(member: Data, circleID: Data) throws(SyncError) {
        try run {
            try connection.execute(
                "UPDATE osec_members SET last_seen = now() WHERE circle_id = $1 AND member_id = $2",
                [.bytes(circleID), .bytes(member)])
        }
    }

    /// Removes a member (leaving).
    package func remove(member: Data, circleID: Data) throws(SyncError) {
        try run {
            try connection.execute(
                "DELETE FROM osec_members WHERE circle_id = $1 AND member_id = $2", [.bytes(circleID), .bytes(member)])
        }
    }

    /// The circle's members; entries whose info does not open are listed as `"?"`.
    package func members(key: CircleKey) throws(SyncError) -> [ServerMember] {
        try run {
            try connection.execute(
                """
                SELECT member_id, info, (extract(epoch FROM last_seen) * 1000000)::bigint FROM osec_members
                WHERE circle_id = $1 ORDER BY member_id
                """, [.bytes(key.circleID)]
            ).rows.map { ServerMember(row: $0, key: key) }
        }
    }

    /// Pushes rows with a compare-and-set on each item's version: a row of version v is stored only when the
    /// server has the item at v − 1 (or not at all, for v = 1). Returns the ids of the rows stored.
    ///
    /// One statement, so one round trip and one (implicit) transaction for the whole batch, whatever its size:
    /// the rows travel as binary arrays (`unnest`), the circle row is locked while sequence numbers are taken (so
    /// sequence order is commit order and a pull past the last seen number never misses a change), every row's
    /// compare-and-set is the `WHERE` of one `INSERT … ON CONFLICT DO UPDATE`, and the NOTIFY that wakes the
    /// other members is sent from the same statement when at least one row was stored (PostgreSQL delivers it at
    /// commit). A refused row takes a sequence number that stays unused: pulls only need sequence order.
    package func push(_ rows: [SyncRow], circleID: Data) throws(SyncError) -> Set<Data> {
        guard !rows.isEmpty else { return [] }
        var ids: [Data] = []
        var versions: [Int64] = []
        var tombstones: [Bool] = []
        var blobs: [Data] = []
        ids.reserveCapacity(rows.count)
        versions.reserveCapacity(rows.count)
        tombstones.reserveCapacity(rows.count)
        blobs.reserveCapacity(rows.count)
        for row in rows {
            ids.append(row.itemID)
            versions.append(row.version)
            tombstones.append(row.isTombstone)
            blobs.append(row.blob)
        }
        return try run {
            let stored = try connection.execute(
                SyncServer.pushStatement,
                [
                    .bytes(circleID), .bytesArray(ids), .integerArray(versions), .boolArray(tombstones),
                    .bytesArray(blobs), .integer(Int64(rows.count)), .text(SyncServer.channel),
                    .text(circleID.hexString),
                ])
            var accepted = Set<Data>(minimumCapacity: stored.rows.count)
            for row in stored.rows { if let id = row.first?.bytesValue { accepted.insert(id) } }
            return accepted
        }
    }

    /// The batched compare-and-set push (see ``push(_:circleID:)``): `$1` circle, `$2`–`$5` the rows' item ids,
    /// versions, tombstone flags and blobs as arrays, `$6` their number, `$7`/`$8` the NOTIFY channel and payload.
    static let pushStatement = """
        WITH base AS (
            UPDATE osec_circles SET next_seq = next_seq + $6 WHERE circle_id = $1
            RETURNING next_seq - $6 AS first),
        input AS (
            SELECT * FROM unnest($2::bytea[], $3::bigint[], $4::boolean[], $5::bytea[])
                WITH ORDINALITY AS t(item_id, version, tombstone, blob, ord)),
        stored AS (
            INSERT INTO osec_items AS cur (circle_id, item_id, version, seq, tombstone, blob)
            SELECT $1, i.item_id, i.version, b.first + i.ord, i.tombstone, i.blob FROM input i, base b
            ON CONFLICT (circle_id, item_id) DO UPDATE
                SET version = excluded.version, seq = excluded.seq, tombstone = excluded.tombstone,
                    blob = excluded.blob
                WHERE cur.version = excluded.version - 1
            RETURNING item_id),
        woken AS (
            SELECT pg_notify($7, $8) FROM (SELECT 1 FROM stored LIMIT 1) AS any_stored)
        SELECT item_id, (SELECT count(*) FROM woken) FROM stored
        """

    /// The rows changed after sequence number `seq`, in sequence order, at most `limit`.
    package func pull(circleID: Data, after seq: Int64, limit: Int) throws(SyncError) -> [SyncRow] {
        try run {
            try connection.execute(
                """
                SELECT item_id, version, seq, tombstone, blob FROM osec_items
                WHERE circle_id = $1 AND seq > $2 ORDER BY seq LIMIT $3
                """, [.bytes(circleID), .integer(seq), .integer(Int64(limit))]
            ).rows.map { row throws(SyncError) in try SyncRow(serverRow: row) }
        }
    }

    /// Starts receiving the circles' NOTIFY wake-ups on this connection.
    package func listen() throws(SyncError) {
        try run { try connection.listen(SyncServer.channel) }
    }

    /// Waits up to `timeout` for a wake-up for `circleID`; `true` when one came.
    package func waitForChange(circleID: Data, timeout: Duration) throws(SyncError) -> Bool {
        let hex = circleID.hexString
        return try run { try connection.waitForNotifications(timeout: timeout).contains { $0.payload == hex } }
    }

    // MARK: Helpers

    package static func sealInfo(_ host: String, member: Data, key: CircleKey) throws(SyncError) -> Data {
        let aad = Data("OSecSync.member.v1".utf8) + key.circleID + member
        do {
            let nonce = try SecureRandom.bytes(12)
            let (ciphertext, tag) = try key.sealingKey.seal(nonce: nonce, plaintext: Data(host.utf8), aad: aad)
            return Data([1]) + nonce + ciphertext + tag
        } catch {
            throw SyncError(.internal, "sealing member info failed", underlying: error)
        }
    }

    static func openInfo(_ blob: Data, member: Data, key: CircleKey) throws -> String {
        guard blob.count >= 29, blob.first == 1 else { throw SyncError(.tamperedRow, "malformed member info") }
        let aad = Data("OSecSync.member.v1".utf8) + key.circleID + member
        return String(
            decoding: try key.sealingKey.open(combined: blob, from: 1, tagLength: 16, aad: aad), as: UTF8.self)
    }

    @discardableResult
    private func run<R>(_ body: () throws -> R) throws(SyncError) -> R {
        do {
            return try body()
        } catch {
            throw SyncServer.map(error)
        }
    }

    static func map(_ error: any Error) -> SyncError {
        if let error = error as? SyncError { return error }
        if let error = error as? PGError {
            if error.isTransient {
                return SyncError(
                    .serverUnavailable, "the sync server is unavailable: \(error.message)", underlying: error)
            }
            return SyncError(.internal, "the sync server rejected a statement: \(error.message)", underlying: error)
        }
        return SyncError(.internal, "unexpected error: \(error)")
    }
}
