internal import CSQLite

extension Database {
    /// SQLite journal modes (`PRAGMA journal_mode`).
    package enum JournalMode: String, Sendable {
        case delete, truncate, persist, memory, wal, off
    }

    /// `PRAGMA synchronous` levels.
    ///
    /// With `journal_mode=WAL`: `.normal` syncs the WAL only at checkpoints, so a committed transaction
    /// survives an application crash (SIGKILL) but may be lost on power failure; `.full` syncs the WAL at
    /// every commit, so a commit that returned is durable across power loss. The keychain uses `.full`.
    package enum SynchronousLevel: Int64, Sendable {
        case off = 0
        case normal = 1
        case full = 2
        case extra = 3
    }

    /// `PRAGMA wal_checkpoint` modes.
    package enum CheckpointMode: String, Sendable {
        case passive = "PASSIVE"
        case full = "FULL"
        case restart = "RESTART"
        case truncate = "TRUNCATE"
    }

    /// Reads a pragma's value (`PRAGMA name`). `name` must be a plain identifier.
    package func pragma(_ name: String) throws -> SQLiteValue {
        try Database.checkIdentifier(name)
        return try scalar("PRAGMA \(name)")
    }

    /// Sets a pragma (`PRAGMA name = value`) and returns the first value it reports, if any.
    /// `name` must be a plain identifier; `value` an integer or a plain identifier.
    @discardableResult
    package func setPragma(_ name: String, _ value: SQLiteValue) throws -> SQLiteValue {
        try Database.checkIdentifier(name)
        let literal: String
        switch value {
        case .integer(let v): literal = String(v)
        case .text(let v):
            try Database.checkIdentifier(v)
            literal = v
        default:
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "pragma values must be integers or identifiers")
        }
        let statement = try prepare("PRAGMA \(name) = \(literal)")
        return try withLock {
            try statement.step() ? statement.value(at: 0) : .null
        }
    }

    /// The current journal mode.
    package var journalMode: JournalMode? {
        get throws { try pragma("journal_mode").textValue.flatMap { JournalMode(rawValue: $0.lowercased()) } }
    }

    /// Switches the journal mode and returns the mode now in force (SQLite may refuse, e.g. for `:memory:`).
    @discardableResult
    package func setJournalMode(_ mode: JournalMode) throws -> JournalMode? {
        try withLock {
            let result = try setPragma("journal_mode", .text(mode.rawValue)).textValue.flatMap {
                JournalMode(rawValue: $0.lowercased())
            }
            isKnownWAL = result == .wal  // enables commitToken()
            return result
        }
    }

    /// The current `synchronous` level.
    package var synchronous: SynchronousLevel? {
        get throws { try pragma("synchronous").integerValue.flatMap(SynchronousLevel.init(rawValue:)) }
    }

    /// Sets the `synchronous` level (per connection).
    package func setSynchronous(_ level: SynchronousLevel) throws {
        try setPragma("synchronous", .integer(level.rawValue))
    }

    /// `PRAGMA user_version`: a 32-bit integer stored in the database header, used for schema versions.
    package var userVersion: Int32 {
        get throws { Int32(truncatingIfNeeded: try pragma("user_version").integerValue ?? 0) }
    }

    /// Sets `PRAGMA user_version` (transactional when run inside a transaction).
    package func setUserVersion(_ version: Int32) throws {
        try setPragma("user_version", .integer(Int64(version)))
    }

    /// `PRAGMA application_id`: a 32-bit integer identifying the file format.
    package var applicationID: Int32 {
        get throws { Int32(truncatingIfNeeded: try pragma("application_id").integerValue ?? 0) }
    }

    /// Sets `PRAGMA application_id`.
    package func setApplicationID(_ id: Int32) throws {
        try setPragma("application_id", .integer(Int64(id)))
    }

    /// Runs a WAL checkpoint; returns (busy flag, WAL frames, frames checkpointed).
    @discardableResult
    package func checkpoint(_ mode: CheckpointMode = .passive) throws -> (busy: Bool, logFrames: Int, checkpointed: Int)
    {
        let statement = try prepare("PRAGMA wal_checkpoint(\(mode.rawValue))")
        return try withLock {
            guard try statement.step() else { return (false, 0, 0) }
            return (statement.int64(at: 0) != 0, Int(statement.int64(at: 1)), Int(statement.int64(at: 2)))
        }
    }

    /// Runs a WAL checkpoint that waits for other connections' locks at most `wait` (instead of the connection's
    /// busy timeout), then restores the busy timeout. `busy` in the result means it could not finish in time (a
    /// reader or writer held the WAL); nothing is lost then, the frames are checkpointed later.
    @discardableResult
    package func checkpoint(
        _ mode: CheckpointMode, waitingAtMost wait: Duration
    ) throws -> (busy: Bool, logFrames: Int, checkpointed: Int) {
        try withLock {
            let saved = busyTimeout
            sqlite3_busy_timeout(handle, Database.milliseconds(wait))
            defer { sqlite3_busy_timeout(handle, Database.milliseconds(saved)) }
            return try checkpoint(mode)
        }
    }

    /// `PRAGMA secure_delete` (per connection): with `true`, SQLite overwrites deleted content with zeros (in the
    /// database pages and hence in the WAL frames that carry them), so deleted rows do not stay readable in free
    /// space.
    package func setSecureDelete(_ on: Bool) throws {
        try setPragma("secure_delete", .integer(on ? 1 : 0))
    }

    /// Whether `PRAGMA secure_delete` is on for this connection.
    package var secureDelete: Bool {
        get throws { (try pragma("secure_delete").integerValue ?? 0) != 0 }
    }

    /// Reads back a pragma's every row (e.g. `PRAGMA table_info(t)`); `argument` must be an identifier.
    package func pragmaRows(_ name: String, argument: String? = nil) throws -> [[String: SQLiteValue]] {
        try Database.checkIdentifier(name)
        var sql = "PRAGMA \(name)"
        if let argument {
            try Database.checkIdentifier(argument)
            sql += "(\(argument))"
        }
        return try query(sql) { $0.row() }
    }

    static func checkIdentifier(_ text: String) throws(SQLiteError) {
        let ok =
            !text.isEmpty
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x5F
            }
        guard ok else { throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "not a plain identifier: \(text)") }
    }
}
