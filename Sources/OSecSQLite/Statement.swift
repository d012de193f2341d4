internal import CSQLite

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A prepared SQLite statement (`sqlite3_stmt`), finalized in `deinit`.
///
/// Binds are 1-based like SQLite's (`?1`, `:name`); column indexes are 0-based like SQLite's.
///
/// Thread-safety: a `Statement` is *not* safe for concurrent use. Statements obtained from
/// ``Database/withStatement(_:_:)`` are lent only while the connection lock is held; statements from
/// ``Database/prepare(_:)`` belong to the caller, who must use them under ``Database/withLock(_:)``
/// when the connection is shared between threads.
package final class Statement {
    // Owned `sqlite3_stmt*`. The connection handle is kept only for error messages; it stays valid
    // because the connection is closed with `sqlite3_close_v2`, which waits for every statement.
    private let handle: OpaquePointer
    let connection: OpaquePointer
    /// The SQL text this statement was prepared from.
    package let sql: String
    private var columnIndexCache: [String: Int32]?
    /// Set while a cached statement is lent out by `Database.withStatement`.
    var isLent = false

    init(connection: OpaquePointer, sql: String) throws(SQLiteError) {
        var raw: OpaquePointer?
        let rc = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard rc == SQLITE_OK, let raw else {
            sqlite3_finalize(raw)
            // SQLITE_OK without a statement: the text held no SQL. Any other code carries SQLite's own message.
            throw SQLiteError(
                connection: connection, rc: rc == SQLITE_OK ? SQLITE_MISUSE : rc, sql: sql,
                fallback: rc == SQLITE_OK ? "empty statement" : nil)
        }
        self.handle = raw
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    // MARK: Binding

    /// The number of SQL parameters.
    package var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    /// Binds `value` to the 1-based parameter `index`.
    package func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let rc: Int32
        switch value {
        case .null:
            rc = sqlite3_bind_null(handle, index)
        case .integer(let v):
            rc = sqlite3_bind_int64(handle, index, v)
        case .real(let v):
            rc = sqlite3_bind_double(handle, index, v)
        case .text(let v):
            rc = Statement.bindText(handle, index, v)
        case .blob(let v):
            rc = Statement.bindBlob(handle, index, v)
        }
        try check(rc)
    }

    /// Binds `value` to the named parameter (`":name"`, `"@name"`, `"$name"`; the prefix is required).
    package func bind(_ value: SQLiteValue, named name: String) throws(SQLiteError) {
        let index = sqlite3_bind_parameter_index(handle, name)
        guard index > 0 else {
            throw SQLiteError(extendedCode: SQLITE_RANGE, message: "no parameter named \(name)", sql: sql)
        }
        try bind(value, at: index)
    }

    /// Binds `values` to parameters 1…n in order.
    package func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds an integer.
    package func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value))
    }
    /// Binds a double.
    package func bind(_ value: Double, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_double(handle, index, value))
    }
    /// Binds UTF-8 text.
    package func bind(_ value: String, at index: Int32) throws(SQLiteError) {
        try check(Statement.bindText(handle, index, value))
    }

    private static func bindText(_ handle: OpaquePointer, _ index: Int32, _ value: String) -> Int32 {
        // withUTF8 lends native strings' storage without copying (the implicit String → char* bridge
        // builds a temporary array). An empty buffer may have no base address, which SQLite would bind as NULL.
        var text = value
        return text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, !utf8.isEmpty else {
                return sqlite3_bind_text(handle, index, "", 0, SQLITE_TRANSIENT_DESTRUCTOR)
            }
            return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                sqlite3_bind_text64(
                    handle, index, $0, sqlite3_uint64(utf8.count), SQLITE_TRANSIENT_DESTRUCTOR,
                    UInt8(SQLITE_UTF8))
            }
        }
    }
    /// Binds a blob (an empty `Data` binds a zero-length blob, not NULL).
    package func bind(_ value: Data, at index: Int32) throws(SQLiteError) {
        try check(Statement.bindBlob(handle, index, value))
    }
    /// Binds a blob given as bytes.
    package func bind(_ value: [UInt8], at index: Int32) throws(SQLiteError) {
        try check(Statement.bindBlob(handle, index, Data(value)))
    }
    /// Binds NULL.
    package func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, index))
    }

    private static func bindBlob(_ handle: OpaquePointer, _ index: Int32, _ value: Data) -> Int32 {
        // A nil pointer would bind NULL; an empty blob must stay a (zero-length) blob so that
        // `col = X''` matches and NOT NULL columns accept it.
        if value.isEmpty { return sqlite3_bind_zeroblob(handle, index, 0) }
        return value.withUnsafeBytes { raw in
            sqlite3_bind_blob64(handle, index, raw.baseAddress, sqlite3_uint64(raw.count), SQLITE_TRANSIENT_DESTRUCTOR)
        }
    }

    // MARK: Stepping

    /// Advances to the next row. Returns `true` when a row is available, `false` when done.
    @discardableResult
    package func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            // Resetting here returns the statement to a reusable state; the error stays in `rc`.
            sqlite3_reset(handle)
            throw SQLiteError(connection: connection, rc: rc, sql: sql)
        }
    }

    /// Steps until done, ignoring rows (for INSERT/UPDATE/DELETE), then resets.
    package func run() throws(SQLiteError) {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Resets the statement so it can be stepped again (bindings are kept).
    package func reset() {
        sqlite3_reset(handle)
    }

    /// Sets every parameter back to NULL.
    package func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    // MARK: Columns

    /// The number of result columns.
    package var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The name of result column `index`.
    package func columnName(at index: Int32) -> String {
        guard let name = sqlite3_column_name(handle, index) else { return "" }
        return String(cString: name)
    }

    /// The 0-based index of the result column called `name`, or `nil`.
    package func columnIndex(named name: String) -> Int32? {
        if columnIndexCache == nil {
            var map: [String: Int32] = [:]
            for i in 0..<columnCount where map[columnName(at: i)] == nil { map[columnName(at: i)] = i }
            columnIndexCache = map
        }
        return columnIndexCache?[name]
    }

    /// The storage class of column `index` in the current row.
    package func columnType(at index: Int32) -> ColumnType {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: .integer
        case SQLITE_FLOAT: .real
        case SQLITE_TEXT: .text
        case SQLITE_BLOB: .blob
        default: .null
        }
    }

    /// SQLite's five storage classes.
    package enum ColumnType: Sendable {
        case null, integer, real, text, blob
    }

    /// `true` when column `index` of the current row is NULL.
    package func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// The current row's column as an integer (NULL → 0, SQLite's conversion rules).
    package func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// The current row's column as a double (NULL → 0.0).
    package func double(at index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// The current row's column as text, or `nil` when NULL.
    package func string(at index: Int32) -> String? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL,
            let text = sqlite3_column_text(handle, index)
        else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The current row's column as bytes, or `nil` when NULL (a zero-length blob gives empty `Data`).
    package func data(at index: Int32) -> Data? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL else { return nil }
        guard let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        let count = Int(sqlite3_column_bytes(handle, index))
        return Data(bytes: bytes, count: count)
    }

    /// Appends the bytes of a BLOB or TEXT column to a byte array (nothing for other types); returns the count.
    @discardableResult
    package func appendBytes(at index: Int32, to bytes: inout [UInt8]) -> Int {
        let pointer: UnsafeRawPointer?
        switch sqlite3_column_type(handle, index) {
        case SQLITE_BLOB: pointer = sqlite3_column_blob(handle, index)
        case SQLITE_TEXT: pointer = sqlite3_column_text(handle, index).map { UnsafeRawPointer($0) }
        default: return 0
        }
        guard let pointer else { return 0 }
        let count = Int(sqlite3_column_bytes(handle, index))
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: pointer, count: count))
        return count
    }

    /// Appends the current row's column bytes (a blob's bytes, a text's UTF-8; nothing for NULL or numbers) to
    /// `data` without an intermediate copy, and returns how many were appended. For hot paths that build one buffer
    /// from several columns.
    @discardableResult
    package func appendBytes(at index: Int32, to data: inout Data) -> Int {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_BLOB:
            guard let bytes = sqlite3_column_blob(handle, index) else { return 0 }
            let count = Int(sqlite3_column_bytes(handle, index))
            data.append(bytes.assumingMemoryBound(to: UInt8.self), count: count)
            return count
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(handle, index) else { return 0 }
            let count = Int(sqlite3_column_bytes(handle, index))
            data.append(text, count: count)
            return count
        default:
            return 0
        }
    }

    /// The byte length of the current row's column (`sqlite3_column_bytes`: a blob's or text's length).
    package func byteCount(at index: Int32) -> Int {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_BLOB:
            _ = sqlite3_column_blob(handle, index)
        case SQLITE_TEXT:
            _ = sqlite3_column_text(handle, index)
        default:
            return 0
        }
        return Int(sqlite3_column_bytes(handle, index))
    }

    /// The current row's column as bytes, or `nil` when NULL.
    package func bytes(at index: Int32) -> [UInt8]? {
        data(at: index).map { [UInt8]($0) }
    }

    /// The current row's column with its storage class.
    package func value(at index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT: string(at: index).map(SQLiteValue.text) ?? .null
        case SQLITE_BLOB: data(at: index).map(SQLiteValue.blob) ?? .null
        default: .null
        }
    }

    /// The current row's column called `name`, or `.null` when there is no such column.
    package func value(named name: String) -> SQLiteValue {
        guard let index = columnIndex(named: name) else { return .null }
        return value(at: index)
    }

    /// All columns of the current row, keyed by name.
    package func row() -> [String: SQLiteValue] {
        var result: [String: SQLiteValue] = [:]
        for i in 0..<columnCount { result[columnName(at: i)] = value(at: i) }
        return result
    }

    private func check(_ rc: Int32) throws(SQLiteError) {
        guard rc == SQLITE_OK else { throw SQLiteError(connection: connection, rc: rc, sql: sql) }
    }
}

// `SQLITE_TRANSIENT` is `((sqlite3_destructor_type)-1)`, a macro Swift cannot import.
// It tells SQLite to copy the bytes before the bind call returns.
let SQLITE_TRANSIENT_DESTRUCTOR = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension SQLiteError {
    /// Builds an error from a failed call on `connection`.
    init(connection: OpaquePointer?, rc: Int32, sql: String? = nil, fallback: String? = nil) {
        var extended = rc
        var message = fallback ?? String(cString: sqlite3_errstr(rc))
        if let connection {
            let connectionCode = sqlite3_extended_errcode(connection)
            // Use the connection's extended code only when it belongs to this failure.
            if connectionCode & 0xFF == rc & 0xFF { extended = connectionCode }
            if fallback == nil, let text = sqlite3_errmsg(connection) { message = String(cString: text) }
        }
        self.init(extendedCode: extended, message: message, sql: sql)
    }
}
