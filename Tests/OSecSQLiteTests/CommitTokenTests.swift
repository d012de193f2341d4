import Foundation
import Testing

@testable import OSecSQLite

/// `Database.commitToken()`: read from the WAL-index header without a transaction; it must change with
/// every commit by any connection and stay put otherwise, or a cache built on it would serve stale rows.
@Suite struct CommitTokenTests {
    let dir = TemporaryDirectory()

    private func open(_ name: String) throws -> Database {
        let db = try Database(path: dir.file(name))
        #expect(try db.setJournalMode(.wal) == .wal)
        return db
    }

    @Test func changesWithEveryCommitFromAnyConnection() throws {
        let a = try open("t.db")
        try a.execute("CREATE TABLE t (v INTEGER)")
        let b = try open("t.db")
        _ = try b.scalar("SELECT count(*) FROM t")
        let first = try #require(a.commitToken())
        #expect(b.commitToken() == first)  // one shared index

        // Reads do not move it.
        _ = try a.scalar("SELECT count(*) FROM t")
        _ = try b.scalar("SELECT count(*) FROM t")
        #expect(a.commitToken() == first)

        // A commit on the other connection does, and both see the same new value.
        try b.run("INSERT INTO t VALUES (1)")
        let second = try #require(a.commitToken())
        #expect(second != first)
        #expect(b.commitToken() == second)

        // So does this connection's own commit, every time.
        var seen = [first, second]
        for i in 2..<20 {
            try a.transaction { try a.run("INSERT INTO t VALUES (?)", [.integer(Int64(i))]) }
            let token = try #require(a.commitToken())
            #expect(!seen.contains(token))
            seen.append(token)
        }
    }

    @Test func rolledBackTransactionLeavesItAlone() throws {
        let db = try open("r.db")
        try db.execute("CREATE TABLE t (v INTEGER)")
        let before = try #require(db.commitToken())
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.run("INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        #expect(db.commitToken() == before)
    }

    @Test func checkpointAndWALRestartStillChangeIt() throws {
        let a = try open("c.db")
        try a.execute("CREATE TABLE t (v INTEGER)")
        let b = try open("c.db")
        try a.run("INSERT INTO t VALUES (1)")
        let before = try #require(a.commitToken())
        // Copy everything into the database file and truncate the WAL: no data change.
        _ = try b.checkpoint(.truncate)
        let afterCheckpoint = a.commitToken()
        // The next write starts a fresh WAL (new salts, frame count from zero): the token must differ
        // from every value it had before.
        try b.run("INSERT INTO t VALUES (2)")
        let afterRestart = try #require(a.commitToken())
        #expect(afterRestart != before)
        #expect(afterRestart != afterCheckpoint)
    }

    @Test func nilWithoutWAL() throws {
        let db = try Database(path: dir.file("d.db"))
        try db.execute("CREATE TABLE t (v INTEGER)")
        #expect(try db.journalMode == .delete)
        #expect(db.commitToken() == nil)
    }
}
