internal import CSQLite
import OSecLocks

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One SQLite connection (`sqlite3*`), closed in `deinit`.
///
/// ## Thread-safety
/// The connection is opened with `SQLITE_OPEN_NOMUTEX` and serialized by a per-connection recursive
/// lock instead: every method of `Database` takes that lock, and cached statements are lent only inside
/// ``withStatement(_:_:)`` while the lock is held. A `Database` can therefore be shared between threads.
/// A ``Statement`` returned by ``prepare(_:)`` is owned by the caller and is not itself locked; use it
/// inside ``withLock(_:)`` if other threads use the same connection. Using one lock (rather than
/// `SQLITE_OPEN_FULLMUTEX`) also makes "step, then read `sqlite3_errmsg`" atomic.
///
/// Several connections — in one process or in several — may open the same file; with WAL mode,
/// a busy timeout and `BEGIN IMMEDIATE` write transactions they wait for each other instead of failing.
package final class Database: @unchecked Sendable {  // sendable: all mutable state is guarded by `lock`
    /// Flags for opening a connection.
    package struct OpenOptions: OptionSet, Sendable {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }
        /// Open for reading only.
        package static let readOnly = OpenOptions(rawValue: SQLITE_OPEN_READONLY)
        /// Open for reading and writing.
        package static let readWrite = OpenOptions(rawValue: SQLITE_OPEN_READWRITE)
        /// Create the file when missing (with `readWrite`).
        package static let create = OpenOptions(rawValue: SQLITE_OPEN_CREATE)
        /// Refuse to open through a symbolic link.
        package static let noFollow = OpenOptions(rawValue: 0x0100_0000)  // SQLITE_OPEN_NOFOLLOW (3.31+)
    }

    /// The kinds of `BEGIN`.
    package enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED"
        case immediate = "IMMEDIATE"
        case exclusive = "EXCLUSIVE"

        var beginSQL: String {
            switch self {
            case .deferred: "BEGIN DEFERRED"
            case .immediate: "BEGIN IMMEDIATE"
            case .exclusive: "BEGIN EXCLUSIVE"
            }
        }
    }

    let handle: OpaquePointer
    let lock = PosixMutex(recursive: true)
    private var cache: [String: Statement] = [:]
    private var savepointDepth = 0
    /// The main database's `sqlite3_file` (for ``commitToken()``), looked up once.
    var mainFile: UnsafeMutableRawPointer?
    /// Set when ``setJournalMode(_:)`` put this connection in WAL mode (``commitToken()`` needs it).
    var isKnownWAL = false
    private var busyTimeoutStorage: Duration
    /// The path given at open time.
    package let path: String

    /// Cached statements kept at most; the cache is emptied when it would grow beyond this.
    package static let statementCacheLimit = 256

    /// Opens (and with `.create`, creates) the database at `path`.
    /// - Parameters:
    ///   - busyTimeout: how long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    ///   - immutable: with `.readOnly`, open the file as immutable (SQLite's `immutable=1` URI parameter): no locks,
    ///     no `-wal`/`-shm` files, so a database on read-only storage can be read even when those files do not
    ///     exist and cannot be created. Only correct when nobody writes the file meanwhile and it has no WAL content
    ///     that is not yet checkpointed (SQLite ignores the `-wal` file then).
    package init(
        path: String, options: OpenOptions = [.readWrite, .create],
        busyTimeout: Duration = .seconds(10), immutable: Bool = false
    ) throws(SQLiteError) {
        var raw: OpaquePointer?
        var flags = options.rawValue | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE_FLAG
        var name = path
        if immutable {
            name = Database.fileURI(path) + "?immutable=1"
            flags |= SQLITE_OPEN_URI
        }
        let rc = sqlite3_open_v2(name, &raw, flags, nil)
        guard rc == SQLITE_OK, let raw else {
            let error = SQLiteError(connection: raw, rc: rc == SQLITE_OK ? SQLITE_NOMEM : rc)
            sqlite3_close_v2(raw)
            throw error
        }
        self.handle = raw
        self.path = path
        self.busyTimeoutStorage = busyTimeout
        sqlite3_extended_result_codes(raw, 1)
        sqlite3_busy_timeout(raw, Database.milliseconds(busyTimeout))
    }

    deinit {
        cache.removeAll()
        // close_v2 turns the connection into a zombie until the last caller-owned statement is finalized.
        sqlite3_close_v2(handle)
    }

    /// `file:` URI for `path` (RFC 3986 percent-encoding of everything SQLite's URI parser treats specially).
    static func fileURI(_ path: String) -> String {
        var uri = "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: "."), UInt8(ascii: "~"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                uri +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return uri
    }

    /// `true` when the connection cannot write its main database (opened read-only, or on read-only storage).
    package var isReadOnly: Bool { withLock { sqlite3_db_readonly(handle, "main") == 1 } }

    /// Runs `body` while holding this connection's lock (recursive).
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    // MARK: Statements

    /// Runs one or more SQL statements separated by `;` (no parameters, rows are discarded).
    package func execute(_ sql: String) throws(SQLiteError) {
        lock.lock()
        defer { lock.unlock() }
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        guard rc == SQLITE_OK else {
            let text = message.map { String(cString: $0) }
            sqlite3_free(message)
            throw SQLiteError(connection: handle, rc: rc, sql: sql, fallback: text)
        }
    }

    /// Prepares an uncached statement owned by the caller.
    package func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        lock.lock()
        defer { lock.unlock() }
        return try Statement(connection: handle, sql: sql)
    }

    /// Lends the cached prepared statement for `sql` to `body`, holding the connection lock.
    ///
    /// The statement is prepared once per connection and reused; after `body` it is reset and its
    /// bindings cleared. A nested use of the same SQL gets a fresh, uncached statement.
    package func withStatement<R>(_ sql: String, _ body: (Statement) throws -> R) throws -> R {
        lock.lock()
        defer { lock.unlock() }
        let statement = try acquire(sql)
        defer { giveBack(statement) }
        return try body(statement)
    }

    /// Binds `bindings` to the cached statement for `sql` and calls `body` for every result row.
    /// Non-generic on purpose: it is the hot path of keychain lookups and avoids generic-metadata work
    /// across the module boundary.
    package func forEachRow(_ sql: String, _ bindings: [SQLiteValue], _ body: (Statement) throws -> Void) throws {
        lock.lock()
        defer { lock.unlock() }
        let statement = try acquire(sql)
        defer { giveBack(statement) }
        try statement.bind(bindings)
        while try statement.step() { try body(statement) }
    }

    /// Like ``withStatement(_:_:)``, but with a statement cache keyed by the caller's own key instead of the
    /// SQL text: for hot paths (keychain lookups and adds), where hashing and comparing a long SQL string on
    /// every call costs more than the key. `sql` is evaluated only on a cache miss; the same key must always
    /// give the same SQL. After `body` the statement is reset (its bindings stay until the next bind).
    package func withStatement<Key: Hashable, R>(
        keyed cache: KeyedStatementCache<Key>, _ key: Key, sql: () -> String,
        _ body: (Statement) throws -> R
    ) throws -> R {
        lock.lock()
        defer { lock.unlock() }
        var statement: Statement
        var fresh = false
        if let cached = cache.statements[key], cached.connection == handle {
            statement = cached
            if statement.isLent {  // nested use of the same key: a fresh statement, dropped afterwards
                statement = try Statement(connection: handle, sql: cached.sql)
                fresh = true
            }
        } else {
            statement = try Statement(connection: handle, sql: sql())
            if cache.statements.count >= KeyedStatementCache<Key>.limit { cache.statements.removeAll() }
            cache.statements[key] = statement
        }
        statement.isLent = true
        defer {
            statement.reset()
            if !fresh { statement.isLent = false }
        }
        return try body(statement)
    }

    /// ``forEachRow(_:_:_:)`` with a keyed statement cache (see ``withStatement(keyed:_:sql:_:)``).
    package func forEachRow<Key: Hashable>(
        keyed cache: KeyedStatementCache<Key>, _ key: Key, sql: () -> String,
        _ bindings: [SQLiteValue], _ body: (Statement) throws -> Void
    ) throws {
        try withStatement(keyed: cache, key, sql: sql) { statement in
            try statement.bind(bindings)
            while try statement.step() { try body(statement) }
        }
    }

    /// Takes the cached statement for `sql` (or prepares one). Caller holds `lock`.
    private func acquire(_ sql: String) throws(SQLiteError) -> Statement {
        if let cached = cache[sql] {
            if !cached.isLent {
                cached.isLent = true
                return cached
            }
            // Nested use of the same SQL: a fresh statement, dropped afterwards.
            return try Statement(connection: handle, sql: sql)
        }
        let statement = try Statement(connection: handle, sql: sql)
        if cache.count >= Database.statementCacheLimit {
            cache = cache.filter { $0.value.isLent }  // keep statements that are lent out right now
        }
        cache[sql] = statement
        statement.isLent = true
        return statement
    }

    /// Resets a statement from ``acquire(_:)`` for its next use. Caller holds `lock`.
    private func giveBack(_ statement: Statement) {
        statement.reset()
        statement.clearBindings()
        statement.isLent = false
    }

    /// Runs a cached statement with `bindings` to completion (INSERT/UPDATE/DELETE/DDL).
    package func run(_ sql: String, _ bindings: [SQLiteValue] = []) throws {
        try withStatement(sql) { statement in
            try statement.bind(bindings)
            try statement.run()
        }
    }

    /// Runs a cached query and maps every row with `transform`.
    package func query<R>(
        _ sql: String, _ bindings: [SQLiteValue] = [],
        _ transform: (Statement) throws -> R
    ) throws -> [R] {
        try withStatement(sql) { statement in
            try statement.bind(bindings)
            var rows: [R] = []
            while try statement.step() { rows.append(try transform(statement)) }
            return rows
        }
    }

    /// Runs a cached query and returns the first column of the first row (or `.null`).
    package func scalar(_ sql: String, _ bindings: [SQLiteValue] = []) throws -> SQLiteValue {
        try withStatement(sql) { statement in
            try statement.bind(bindings)
            return try statement.step() ? statement.value(at: 0) : .null
        }
    }

    /// Finalizes every cached statement (needed before some schema changes on other connections are seen
    /// cheaply; SQLite re-prepares automatically otherwise).
    package func clearStatementCache() {
        withLock { cache.removeAll() }
    }

    /// The number of cached statements (for tests and diagnostics).
    package var cachedStatementCount: Int { withLock { cache.count } }

    // MARK: Connection state

    /// The row id of the most recent successful INSERT on this connection.
    package var lastInsertRowID: Int64 { withLock { sqlite3_last_insert_rowid(handle) } }

    /// Rows changed by the most recent INSERT/UPDATE/DELETE on this connection.
    package var changes: Int { withLock { Int(sqlite3_changes64(handle)) } }

    /// Rows changed since the connection was opened.
    package var totalChanges: Int { withLock { Int(sqlite3_total_changes64(handle)) } }

    /// `true` when no transaction is open (autocommit mode).
    package var isAutocommit: Bool { withLock { sqlite3_get_autocommit(handle) != 0 } }

    /// How long statements wait for locks held by other connections.
    package var busyTimeout: Duration {
        get { withLock { busyTimeoutStorage } }
        set {
            withLock {
                busyTimeoutStorage = newValue
                sqlite3_busy_timeout(handle, Database.milliseconds(newValue))
            }
        }
    }

    // MARK: Transactions

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    /// When another connection holds the write lock longer than the busy timeout allows, or SQLite
    /// reports `SQLITE_BUSY` without waiting (e.g. `SQLITE_BUSY_SNAPSHOT`), the transaction is rolled
    /// back and retried from the start until the busy timeout has elapsed, so **`body` may run more
    /// than once** and must only have database side effects. Called inside another transaction, `body`
    /// runs in a SAVEPOINT of the outer one (no retry; the outer transaction owns that).
    package func transaction<R>(_ kind: TransactionKind = .immediate, _ body: () throws -> R) throws -> R {
        lock.lock()
        defer { lock.unlock() }
        if sqlite3_get_autocommit(handle) == 0 {
            return try savepoint(body)
        }
        let deadline = ContinuousClock.now + busyTimeoutStorage
        var attempt = 0
        while true {
            do {
                try runCached(kind.beginSQL)
                do {
                    let result = try body()
                    try runCached("COMMIT")
                    return result
                } catch {
                    rollbackIfOpen()
                    throw error
                }
            } catch let error as SQLiteError where error.isBusy && ContinuousClock.now < deadline {
                attempt += 1
                // Back off 1, 2, 4 … 32 ms; the busy handler already slept inside SQLite for blocking waits.
                sleepThread(seconds: Double(1 << min(attempt, 5)) / 1000)
            }
        }
    }

    /// Runs a parameterless statement from the statement cache (BEGIN/COMMIT: no re-parse per transaction).
    private func runCached(_ sql: String) throws {
        let statement = try acquire(sql)
        defer { giveBack(statement) }
        try statement.run()
    }

    private func savepoint<R>(_ body: () throws -> R) throws -> R {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "osec_sp\(savepointDepth)"
        try execute("SAVEPOINT \(name)")
        do {
            let result = try body()
            try execute("RELEASE \(name)")
            return result
        } catch {
            try? execute("ROLLBACK TO \(name)")
            try? execute("RELEASE \(name)")
            throw error
        }
    }

    private func rollbackIfOpen() {
        if sqlite3_get_autocommit(handle) == 0 {
            sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
        }
    }

    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let ms = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, ms))
    }
}

// SQLITE_OPEN_EXRESCODE (3.37+) makes sqlite3_open_v2 itself return extended codes.
private let SQLITE_OPEN_EXRESCODE_FLAG: Int32 = 0x0200_0000

/// Prepared statements of one connection kept by a caller-chosen key (see
/// ``Database/forEachRow(keyed:_:sql:_:_:)``). Only touched under the connection's lock.
package final class KeyedStatementCache<Key: Hashable>: @unchecked Sendable {  // sendable: guarded by the Database lock
    fileprivate var statements: [Key: Statement] = [:]
    /// Statements kept at most; the cache is emptied when it would grow beyond this.
    package static var limit: Int { 256 }

    package init() {}

    /// The number of cached statements (tests and diagnostics; call under the connection's lock).
    package var count: Int { statements.count }
}
