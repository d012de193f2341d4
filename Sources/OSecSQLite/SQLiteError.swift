internal import CSQLite

/// The one error type thrown by `OSecSQLite`.
///
/// Carries SQLite's primary result code (``code``), the extended result code (``extendedCode``)
/// and the connection's message at the time of failure. Equality compares only the extended code,
/// so tests can assert on codes and never on message strings.
package struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// A primary SQLite result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`, …). Open set of static members.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The numeric primary result code (the low 8 bits of an extended code).
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue & 0xFF }

        package static let error = Code(rawValue: SQLITE_ERROR)
        package static let `internal` = Code(rawValue: SQLITE_INTERNAL)
        package static let permission = Code(rawValue: SQLITE_PERM)
        package static let abort = Code(rawValue: SQLITE_ABORT)
        package static let busy = Code(rawValue: SQLITE_BUSY)
        package static let locked = Code(rawValue: SQLITE_LOCKED)
        package static let noMemory = Code(rawValue: SQLITE_NOMEM)
        package static let readOnly = Code(rawValue: SQLITE_READONLY)
        package static let interrupt = Code(rawValue: SQLITE_INTERRUPT)
        package static let ioError = Code(rawValue: SQLITE_IOERR)
        package static let corrupt = Code(rawValue: SQLITE_CORRUPT)
        package static let full = Code(rawValue: SQLITE_FULL)
        package static let cantOpen = Code(rawValue: SQLITE_CANTOPEN)
        package static let constraint = Code(rawValue: SQLITE_CONSTRAINT)
        package static let mismatch = Code(rawValue: SQLITE_MISMATCH)
        package static let misuse = Code(rawValue: SQLITE_MISUSE)
        package static let range = Code(rawValue: SQLITE_RANGE)
        package static let notADatabase = Code(rawValue: SQLITE_NOTADB)

        package var description: String {
            String(cString: sqlite3_errstr(rawValue))
        }
    }

    /// The primary result code.
    package var code: Code { Code(rawValue: extendedCode) }
    /// The extended result code (e.g. 2067 = `SQLITE_CONSTRAINT_UNIQUE`). Equals ``code`` when SQLite gave no
    /// extension.
    package let extendedCode: Int32
    /// SQLite's message (`sqlite3_errmsg`) or a description of a wrapper-level misuse.
    package let message: String
    /// The SQL text involved, when known (never contains bound values).
    package let sql: String?

    package init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// `true` for `SQLITE_BUSY` and `SQLITE_LOCKED` (another connection holds a conflicting lock).
    package var isBusy: Bool { code == .busy || code == .locked }

    /// `true` for a UNIQUE or PRIMARY KEY constraint violation.
    package var isUniqueViolation: Bool {
        extendedCode == SQLITE_CONSTRAINT_UNIQUE_CODE || extendedCode == SQLITE_CONSTRAINT_PRIMARYKEY_CODE
    }

    package var description: String {
        var text = "SQLite error \(code.rawValue)"
        if extendedCode != code.rawValue { text += "/\(extendedCode)" }
        text += " (\(code)): \(message)"
        if let sql { text += " [\(sql)]" }
        return text
    }
}

extension SQLiteError: Equatable {
    package static func == (lhs: SQLiteError, rhs: SQLiteError) -> Bool { lhs.extendedCode == rhs.extendedCode }
}

// The extended-code macros are function-like in sqlite3.h and do not import into Swift.
/// `SQLITE_CONSTRAINT_UNIQUE` = SQLITE_CONSTRAINT | (8 << 8).
package let SQLITE_CONSTRAINT_UNIQUE_CODE: Int32 = 19 | (8 << 8)
/// `SQLITE_CONSTRAINT_PRIMARYKEY` = SQLITE_CONSTRAINT | (6 << 8).
package let SQLITE_CONSTRAINT_PRIMARYKEY_CODE: Int32 = 19 | (6 << 8)
