import Foundation
import Testing

@testable import OSecSQLite

@Suite struct DatabaseTests {
    let dir = TemporaryDirectory()

    @Test func pragmasWALSynchronousUserVersion() throws {
        let db = try Database(path: dir.file("p.db"))
        #expect(try db.setJournalMode(.wal) == .wal)
        #expect(try db.journalMode == .wal)
        try db.setSynchronous(.full)
        #expect(try db.synchronous == .full)
        try db.setSynchronous(.normal)
        #expect(try db.synchronous == .normal)
        #expect(try db.userVersion == 0)
        try db.setUserVersion(42)
        #expect(try db.userVersion == 42)
        try db.setApplicationID(0x4F53_4B43)
        #expect(try db.applicationID == 0x4F53_4B43)
        #expect(throws: SQLiteError.self) { try db.setPragma("user_version; DROP TABLE x", .integer(1)) }
        #expect(throws: SQLiteError.self) { try db.setPragma("journal_mode", .text("wal; --")) }
        let reopened = try Database(path: dir.file("p.db"))
        #expect(try reopened.userVersion == 42)
        #expect(try reopened.journalMode == .wal)  // WAL is persistent
    }

    @Test func transactionCommitsAndRollsBack() throws {
        let db = try Database(path: dir.file("tx.db"))
        try db.execute("CREATE TABLE t (v INTEGER)")
        let value = try db.transaction {
            try db.run("INSERT INTO t VALUES (1)")
            return 5
        }
        #expect(value == 5)
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.run("INSERT INTO t VALUES (2)")
                throw Boom()
            }
        }
        #expect(db.isAutocommit)
        #expect(try db.scalar("SELECT group_concat(v) FROM t") == .text("1"))
    }

    @Test func nestedTransactionUsesSavepoint() throws {
        let db = try Database(path: dir.file("sp.db"))
        try db.execute("CREATE TABLE t (v INTEGER)")
        struct Boom: Error {}
        try db.transaction {
            try db.run("INSERT INTO t VALUES (1)")
            try? db.transaction {
                try db.run("INSERT INTO t VALUES (2)")
                throw Boom()
            }
            try db.transaction { try db.run("INSERT INTO t VALUES (3)") }
        }
        #expect(try db.scalar("SELECT group_concat(v) FROM t") == .text("1,3"))
    }

    @Test func busyTimeoutExpiresWithBusyError() throws {
        let path = dir.file("busy.db")
        let a = try Database(path: path)
        try a.setJournalMode(.wal)
        try a.execute("CREATE TABLE t (v INTEGER)")
        let b = try Database(path: path, busyTimeout: .milliseconds(50))
        try a.execute("BEGIN IMMEDIATE")
        let start = ContinuousClock.now
        do {
            try b.transaction { try b.run("INSERT INTO t VALUES (1)") }
            Issue.record("expected SQLITE_BUSY")
        } catch let error as SQLiteError {
            #expect(error.code == .busy)
        }
        #expect(ContinuousClock.now - start >= .milliseconds(40))
        // Readers are not blocked by a WAL writer.
        #expect(try b.scalar("SELECT count(*) FROM t") == .integer(0))
        try a.execute("COMMIT")
    }

    @Test func writerWaitsForOtherConnectionWithinTimeout() throws {
        let path = dir.file("wait.db")
        let a = try Database(path: path)
        try a.setJournalMode(.wal)
        try a.execute("CREATE TABLE t (v INTEGER)")
        let b = try Database(path: path, busyTimeout: .seconds(5))
        try a.execute("BEGIN IMMEDIATE")
        try a.run("INSERT INTO t VALUES (1)")
        let released = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.2)
            try? a.execute("COMMIT")
            released.signal()
        }
        let start = ContinuousClock.now
        let count = try b.transaction {
            try b.run("INSERT INTO t VALUES (2)")
            return try b.scalar("SELECT count(*) FROM t")
        }
        #expect(count == .integer(2))
        #expect(ContinuousClock.now - start >= .milliseconds(150))
        released.wait()
    }

    @Test func threadsWithOwnConnectionsAllCommit() throws {
        let path = dir.file("many.db")
        let setup = try Database(path: path)
        try setup.setJournalMode(.wal)
        try setup.execute("CREATE TABLE t (thread INTEGER, n INTEGER, UNIQUE(thread, n))")
        let threads = 4
        let perThread = 150
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            do {
                let db = try Database(path: path, busyTimeout: .seconds(20))
                try db.setSynchronous(.normal)
                for n in 0..<perThread {
                    try db.transaction {
                        try db.run("INSERT INTO t VALUES (?, ?)", [.integer(Int64(t)), .integer(Int64(n))])
                    }
                    _ = try db.scalar("SELECT count(*) FROM t WHERE thread = ?", [.integer(Int64(t))])
                }
            } catch {
                failures.increment()
            }
        }
        #expect(failures.value == 0)
        #expect(try setup.scalar("SELECT count(*) FROM t") == .integer(Int64(threads * perThread)))
    }

    @Test func sharedConnectionIsSerializedAcrossThreads() throws {
        let db = try Database(path: dir.file("shared.db"))
        try db.execute("CREATE TABLE t (v INTEGER)")
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { t in
            for n in 0..<200 {
                do {
                    try db.transaction {
                        try db.run("INSERT INTO t VALUES (?)", [.integer(Int64(t * 1000 + n))])
                        _ = try db.query("SELECT v FROM t WHERE v = ?", [.integer(Int64(n))]) { $0.int64(at: 0) }
                    }
                } catch { failures.increment() }
            }
        }
        #expect(failures.value == 0)
        #expect(try db.scalar("SELECT count(*) FROM t") == .integer(800))
    }

    /// A second *process* (the sqlite3 CLI) holds the write lock; our transaction waits and then succeeds.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")))
    func otherProcessHoldingWriteLockIsWaitedFor() throws {
        let path = dir.file("proc.db")
        let db = try Database(path: path, busyTimeout: .seconds(10))
        try db.setJournalMode(.wal)
        try db.execute("CREATE TABLE t (v INTEGER)")

        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = [
            "-c",
            "(echo 'BEGIN IMMEDIATE; INSERT INTO t VALUES (1);'; sleep 0.6; echo 'COMMIT;') | /usr/bin/sqlite3 "
                + "'\(path)'",
        ]
        try child.run()

        // Wait until the child holds the write lock: a zero-timeout probe starts failing with BUSY.
        let probe = try Database(path: path, busyTimeout: .zero)
        let locked = try Self.waitUntilLocked(probe)
        #expect(locked)
        try db.transaction { try db.run("INSERT INTO t VALUES (2)") }
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
        #expect(try db.scalar("SELECT group_concat(v) FROM (SELECT v FROM t ORDER BY v)") == .text("1,2"))
    }

    static func waitUntilLocked(_ probe: Database) throws -> Bool {
        for _ in 0..<300 {
            do {
                try probe.execute("BEGIN IMMEDIATE")
                try probe.execute("ROLLBACK")
            } catch {
                if error.isBusy { return true }
                throw error
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    @Test func checkpointAndChanges() throws {
        let db = try Database(path: dir.file("ck.db"))
        try db.setJournalMode(.wal)
        try db.execute("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1), (2), (3)")
        try db.run("UPDATE t SET v = v + 1 WHERE v >= 2")
        #expect(db.changes == 2)
        #expect(db.totalChanges >= 5)
        let result = try db.checkpoint(.truncate)
        #expect(result.busy == false)
        db.busyTimeout = .milliseconds(1234)
        #expect(db.busyTimeout == .milliseconds(1234))
    }
}

/// A thread-safe counter for concurrency tests.
final class Counter: @unchecked Sendable {  // sendable: guarded by `lock`
    private let lock = NSLock()
    private var count = 0
    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
