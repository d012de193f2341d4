import Foundation
import Testing

@testable import OSecSQLite

@Suite struct StatementTests {
    let dir = TemporaryDirectory()

    func makeDB() throws -> Database {
        let db = try Database(path: dir.file("t.db"))
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, i INTEGER, r REAL, s TEXT, b BLOB)")
        return db
    }

    @Test func typedBindsByIndexRoundTrip() throws {
        let db = try makeDB()
        let insert = try db.prepare("INSERT INTO t (i, r, s, b) VALUES (?1, ?2, ?3, ?4)")
        try insert.bind(Int64.max, at: 1)
        try insert.bind(2.5, at: 2)
        try insert.bind("héllo ✓", at: 3)
        try insert.bind([0x00, 0xFF, 0x10], at: 4)
        try insert.run()
        #expect(db.changes == 1)
        let rowid = db.lastInsertRowID
        #expect(rowid == 1)

        let rows = try db.query("SELECT i, r, s, b FROM t WHERE id = ?", [.integer(rowid)]) { s in
            (s.int64(at: 0), s.double(at: 1), s.string(at: 2), s.bytes(at: 3))
        }
        #expect(rows.count == 1)
        #expect(rows[0].0 == Int64.max)
        #expect(rows[0].1 == 2.5)
        #expect(rows[0].2 == "héllo ✓")
        #expect(rows[0].3 == [0x00, 0xFF, 0x10])
    }

    @Test func namedBindsAndColumnsByName() throws {
        let db = try makeDB()
        try db.withStatement("INSERT INTO t (i, s, b) VALUES (:i, :s, :b)") { st in
            try st.bind(.integer(7), named: ":i")
            try st.bind(.text("seven"), named: ":s")
            try st.bind(.blob(Data([1, 2])), named: ":b")
            try st.run()
        }
        #expect(throws: SQLiteError.self) {
            try db.withStatement("INSERT INTO t (i) VALUES (:i)") { st in try st.bind(.integer(1), named: ":nope") }
        }
        try db.withStatement("SELECT id, i, s, b, r FROM t") { st in
            let first = try st.step()
            #expect(first)
            #expect(st.value(named: "i") == .integer(7))
            #expect(st.value(named: "s") == .text("seven"))
            #expect(st.value(named: "b") == .blob(Data([1, 2])))
            #expect(st.value(named: "r") == .null)
            #expect(st.value(named: "missing") == .null)
            #expect(st.columnIndex(named: "b") == 3)
            #expect(st.row()["s"] == .text("seven"))
            let second = try st.step()
            #expect(second == false)
        }
    }

    @Test func emptyBlobIsNotNull() throws {
        let db = try makeDB()
        try db.run("INSERT INTO t (b) VALUES (?)", [.blob(Data())])
        try db.run("INSERT INTO t (b) VALUES (?)", [.null])
        #expect(try db.scalar("SELECT count(*) FROM t WHERE b = X''") == .integer(1))
        #expect(try db.scalar("SELECT count(*) FROM t WHERE b IS NULL") == .integer(1))
        let values = try db.query("SELECT b FROM t ORDER BY id") { $0.data(at: 0) }
        #expect(values == [Data(), nil])
    }

    @Test func resetAndClearBindingsAllowReuse() throws {
        let db = try makeDB()
        let insert = try db.prepare("INSERT INTO t (i, s) VALUES (?, ?)")
        for n in 0..<5 {
            try insert.bind([.integer(Int64(n)), .text("n\(n)")])
            try insert.run()
        }
        try insert.bind(.integer(99), at: 1)
        insert.clearBindings()
        try insert.run()  // both NULL now
        #expect(try db.scalar("SELECT count(*) FROM t") == .integer(6))
        #expect(try db.scalar("SELECT count(*) FROM t WHERE i IS NULL AND s IS NULL") == .integer(1))

        let select = try db.prepare("SELECT count(*) FROM t")
        #expect(try select.step())
        select.reset()
        #expect(try select.step())
        #expect(select.int64(at: 0) == 6)
    }

    @Test func statementCacheReusesAndSurvivesNesting() throws {
        let db = try makeDB()
        let before = db.cachedStatementCount
        for n in 0..<10 { try db.run("INSERT INTO t (i) VALUES (?)", [.integer(Int64(n))]) }
        #expect(db.cachedStatementCount == before + 1)
        // Nested use of the same SQL text gets a fresh statement and leaves the outer one intact.
        let sql = "SELECT i FROM t WHERE i < ? ORDER BY i"
        let pairs = try db.query(sql, [.integer(3)]) { outer in
            (outer.int64(at: 0), try db.query(sql, [.integer(2)]) { $0.int64(at: 0) }.count)
        }
        #expect(pairs.map(\.0) == [0, 1, 2])
        #expect(pairs.allSatisfy { $0.1 == 2 })
        db.clearStatementCache()
        #expect(db.cachedStatementCount == 0)
    }

    @Test func errorsCarryPrimaryAndExtendedCodes() throws {
        let db = try makeDB()
        try db.execute("CREATE TABLE u (k TEXT UNIQUE NOT NULL)")
        try db.run("INSERT INTO u VALUES ('a')")
        do {
            try db.run("INSERT INTO u VALUES ('a')")
            Issue.record("expected a constraint violation")
        } catch let error as SQLiteError {
            #expect(error.code == .constraint)
            #expect(error.extendedCode == SQLITE_CONSTRAINT_UNIQUE_CODE)
            #expect(error.isUniqueViolation)
            #expect(!error.message.isEmpty)
        }
        do {
            try db.run("INSERT INTO u VALUES (NULL)")
            Issue.record("expected NOT NULL violation")
        } catch let error as SQLiteError {
            #expect(error.code == .constraint)
            #expect(!error.isUniqueViolation)
        }
        #expect(throws: SQLiteError(extendedCode: 1, message: "")) { try db.execute("SELEKT 1") }
        #expect(throws: SQLiteError.self) { _ = try db.prepare("SELECT * FROM nowhere") }
    }

    @Test func openFailuresAndNotADatabase() throws {
        #expect(throws: SQLiteError.self) {
            _ = try Database(path: dir.file("missing/dir/x.db"))
        }
        do {
            _ = try Database(path: dir.file("absent.db"), options: [.readWrite])
            Issue.record("opening a missing file without .create must fail")
        } catch {
            #expect(error.code == .cantOpen)
        }
        let junk = dir.file("junk.db")
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: junk))
        let db = try Database(path: junk)
        do {
            _ = try db.userVersion
            Issue.record("a non-database file must not read")
        } catch let error as SQLiteError {
            #expect(error.code == .notADatabase)
        }
    }

    @Test func forEachRowAndColumnTypes() throws {
        let db = try makeDB()
        try db.run("INSERT INTO t (i, r, s, b) VALUES (1, 1.5, 'x', X'01'), (2, NULL, '', X'')")
        var seen: [[Statement.ColumnType]] = []
        try db.forEachRow("SELECT i, r, s, b FROM t WHERE i >= ? ORDER BY i", [.integer(1)]) { row in
            seen.append((0..<4).map { row.columnType(at: $0) })
        }
        #expect(seen == [[.integer, .real, .text, .blob], [.integer, .null, .text, .blob]])
        // An empty string binds as '' (not NULL) through the zero-copy path.
        try db.run("INSERT INTO t (s) VALUES (?)", [.text("")])
        #expect(try db.scalar("SELECT count(*) FROM t WHERE s = ''") == .integer(2))
        // Text compares equal to a blob of the same bytes only through CAST, which the keychain relies on.
        #expect(try db.scalar("SELECT count(*) FROM t WHERE b = CAST(? AS BLOB)", [.text("\u{01}")]) == .integer(1))
        #expect(try db.scalar("SELECT count(*) FROM t WHERE b = ?", [.text("\u{01}")]) == .integer(0))
    }

    @Test func keyedStatementCacheReusesAndNests() throws {
        let db = try makeDB()
        try db.run("INSERT INTO t (i, s) VALUES (1, 'one'), (2, 'two'), (3, 'three')")
        let cache = KeyedStatementCache<Int>()
        var built = 0
        func sql() -> String {
            built += 1
            return "SELECT s FROM t WHERE i >= ? ORDER BY i"
        }
        var seen: [String] = []
        try db.forEachRow(keyed: cache, 7, sql: sql, [.integer(2)]) { seen.append($0.string(at: 0) ?? "") }
        #expect(seen == ["two", "three"])
        // Reused: no new SQL text, and fresh bindings apply.
        seen = []
        try db.forEachRow(keyed: cache, 7, sql: sql, [.integer(3)]) { seen.append($0.string(at: 0) ?? "") }
        #expect(seen == ["three"])
        #expect(built == 1)
        // Nested use of the same key gets its own statement; the outer one keeps stepping.
        var pairs: [String] = []
        try db.forEachRow(keyed: cache, 7, sql: sql, [.integer(1)]) { outer in
            let o = outer.string(at: 0) ?? ""
            try db.forEachRow(keyed: cache, 7, sql: sql, [.integer(3)]) { inner in
                pairs.append(o + "/" + (inner.string(at: 0) ?? ""))
            }
        }
        #expect(pairs == ["one/three", "two/three", "three/three"])
        db.withLock { #expect(cache.count == 1) }
        // A statement left mid-iteration by an error is reset, so the next use starts over.
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try db.forEachRow(keyed: cache, 7, sql: sql, [.integer(1)]) { _ in throw Stop() }
        }
        seen = []
        try db.forEachRow(keyed: cache, 7, sql: sql, [.integer(1)]) { seen.append($0.string(at: 0) ?? "") }
        #expect(seen == ["one", "two", "three"])
        #expect(db.isAutocommit, "no read transaction is left open")
    }

    @Test func transactionsCommitThroughCachedStatements() throws {
        let db = try makeDB()
        for i in 0..<3 { try db.transaction { try db.run("INSERT INTO t (i) VALUES (?)", [.integer(Int64(i))]) } }
        #expect(try db.scalar("SELECT count(*) FROM t") == .integer(3))
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.run("INSERT INTO t (i) VALUES (9)")
                throw Boom()
            }
        }
        #expect(try db.scalar("SELECT count(*) FROM t") == .integer(3))
        #expect(db.isAutocommit)
    }
}
