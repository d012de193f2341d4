import Foundation
import OSecKeychain
import OSecPostgres
import OSecSync
import OpenSSLBaseline

/// `--suite scale-sync`: how the keychain sync grows with the circle and with the keychain, against one throwaway
/// PostgreSQL (`scripts/pg-test-server.sh`, fsync off, Unix socket; as root the server runs as the `osecpg` user
/// from a directory of its own, so the suite runs from any directory, a 0700 one included).
///
/// Every member is a separate process on this machine: the benchmark binary itself in its member mode
/// (`opensecurity-bench --scale-sync-member …`, see ``ScaleSyncMember``), with its own keychain, driven one command
/// a line over standard input; it times its own push and sync and prints the figures.
/// - Members, 2 → 20 (500 items each): every member adds its items, all push at once, then all sync at once. Push
///   and pull throughput (items per second over all members), convergence time (the push and the sync phases),
///   and what one more member costs: a fresh member's join and initial sync of the whole circle.
/// - Items, 1k → 100k: one member pushes n items, a fresh member pulls them: push and pull throughput and the
///   fresh member's convergence time.
/// - At every point, the server's row count and the sizes of `osec_items` and its indexes (pg_relation_size,
///   pg_indexes_size).
///
/// Bounded in time: 5.5 minutes on the loaded 2-core development machine; points still to run are skipped once
/// 9 minutes have passed, and a watchdog stops every member process at 12 minutes. It cleans up: the members quit,
/// the database it created is dropped, the server is destroyed, the scratch directories are removed.
enum ScaleSyncBenchmarks {
    static let memberCounts = [2, 5, 10, 20]
    static let itemsPerMember = 500
    static let itemCounts = [1_000, 10_000, 100_000]
    static let softLimit: TimeInterval = 9 * 60
    static let hardLimit: TimeInterval = 12 * 60
    static let database = "osec_scale_sync"

    static let suite = ScaleSuite(name: "scale-sync") { _ in run() }

    static func run() -> [ScalePoint] {
        let started = Date()
        let directory = BenchScratch.directory("scale-sync")
        let serverDirectory = directory + "/pg"
        let script = SyncFixture.repository.appendingPathComponent("scripts/pg-test-server.sh").path
        let (status, output) = SyncFixture.run(
            [script, "start", serverDirectory, "5432", "--owner", "\(ProcessInfo.processInfo.processIdentifier)"])
        guard status == 0 else {
            FileHandle.standardError.write(Data("scale-sync: no PostgreSQL server (\(output))\n".utf8))
            return []
        }
        defer { _ = SyncFixture.run([script, "destroy", serverDirectory]) }
        let adminURL = output.trimmingCharacters(in: .whitespacesAndNewlines)
        var points: [ScalePoint] = []
        do {
            let admin = try PGConnection(adminURL)
            try admin.execute("CREATE DATABASE \(database)")
            defer { _ = try? admin.execute("DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
            let url = adminURL.replacingOccurrences(of: "dbname=postgres", with: "dbname=\(database)")
            let run = ScaleSyncRun(url: url, directory: directory, started: started)
            defer { run.stopAll() }
            for count in memberCounts where Date().timeIntervalSince(started) < softLimit {
                points += try run.members(count)
            }
            for count in itemCounts where Date().timeIntervalSince(started) < softLimit {
                points += try run.items(count)
            }
        } catch {
            FileHandle.standardError.write(Data("scale-sync failed: \(error)\n".utf8))
        }
        return points
    }
}

/// One run of the suite: the members it started, the server connection that measures sizes.
final class ScaleSyncRun {
    let url: String
    let directory: String
    let started: Date
    private var members: [ScaleSyncMemberProcess] = []
    private var circleNumber = 0
    /// Members started so far: each gets a keychain of its own name.
    private var spawned = 0
    private let watchdog: DispatchWorkItem

    init(url: String, directory: String, started: Date) {
        self.url = url
        self.directory = directory
        self.started = started
        let live = ScaleSyncProcessList()
        self.liveList = live
        watchdog = DispatchWorkItem { live.terminateAll() }
        DispatchQueue.global().asyncAfter(
            deadline: .now() + ScaleSyncBenchmarks.hardLimit - Date().timeIntervalSince(started), execute: watchdog)
    }

    private let liveList: ScaleSyncProcessList

    func stopAll() {
        watchdog.cancel()
        for member in members { member.quit() }
        members.removeAll()
        liveList.terminateAll()
    }

    private func spawn(_ count: Int, circle: String) throws -> [ScaleSyncMemberProcess] {
        var made: [ScaleSyncMemberProcess] = []
        for _ in 0..<count {
            let name = "m\(spawned)"
            spawned += 1
            let member = try ScaleSyncMemberProcess(
                url: url, circle: circle, keychain: directory + "/\(name).keychain-db", name: name)
            liveList.add(member.process)
            members.append(member)
            made.append(member)
        }
        for member in made { try member.expect("ready") }
        return made
    }

    private func retire(_ finished: [ScaleSyncMemberProcess]) {
        for member in finished { member.quit() }
        members.removeAll { member in finished.contains { $0 === member } }
    }

    private func nextCircle() -> String {
        circleNumber += 1
        return "scale-\(circleNumber)"
    }

    /// Sends `command` to every member at once and waits for every reply; returns the replies and the wall time.
    private func all(_ group: [ScaleSyncMemberProcess], _ command: String) throws -> ([[String]], Double) {
        let start = Date()
        for member in group { try member.send(command) }
        var replies: [[String]] = []
        for member in group { replies.append(try member.reply()) }
        return (replies, Date().timeIntervalSince(start))
    }

    /// Empties the server's tables, so the sizes measured belong to one point.
    private func resetServer() throws {
        let connection = try PGConnection(url)
        _ = try? connection.execute("TRUNCATE osec_items, osec_members, osec_circles")
    }

    private func serverSize(_ series: String, x: Double, xLabel: String) throws -> [ScalePoint] {
        let connection = try PGConnection(url)
        let rows = try connection.execute("SELECT count(*) FROM osec_items").scalar().integerValue ?? 0
        let table =
            try connection.execute(
                "SELECT pg_relation_size('osec_items') + pg_relation_size(reltoastrelid) "
                    + "FROM pg_class WHERE relname = 'osec_items'"
            ).scalar().integerValue ?? 0
        let indexes = try connection.execute("SELECT pg_indexes_size('osec_items')").scalar().integerValue ?? 0
        let mib = 1024.0 * 1024.0
        return [
            ScalePoint(
                suite: "scale-sync", series: "\(series): server rows", xLabel: xLabel, x: x, value: Double(rows),
                unit: "rows", note: "one row per item and circle: versions replace each other in place"),
            ScalePoint(
                suite: "scale-sync", series: "\(series): osec_items size", xLabel: xLabel, x: x,
                value: Double(table) / mib, unit: "MiB", note: "heap and TOAST of osec_items (pg_relation_size)"),
            ScalePoint(
                suite: "scale-sync", series: "\(series): index size", xLabel: xLabel, x: x,
                value: Double(indexes) / mib, unit: "MiB",
                note: "primary key (circle_id, item_id) and (circle_id, seq) (pg_indexes_size)"),
        ]
    }

    /// `count` members of one circle, 500 items each.
    func members(_ count: Int) throws -> [ScalePoint] {
        try resetServer()
        let perMember = ScaleSyncBenchmarks.itemsPerMember
        let group = try spawn(count, circle: nextCircle())
        defer { retire(group) }
        _ = try all(group, "add \(perMember)")
        let (_, pushWall) = try all(group, "push")
        let (syncReplies, syncWall) = try all(group, "sync")
        let total = count * perMember
        for reply in syncReplies where reply.count < 3 || Int(reply[2]) != total {
            throw SyncError(.internal, "a member did not converge: \(reply.joined(separator: " ")) of \(total)")
        }
        // One more member: joins the circle of `total` items and syncs it all.
        let joinStart = Date()
        let extra = try spawn(1, circle: "scale-\(circleNumber)")
        defer { retire(extra) }
        let (extraReplies, _) = try all(extra, "sync")
        let joinSeconds = Date().timeIntervalSince(joinStart)
        guard let extraReply = extraReplies.first, extraReply.count >= 3, Int(extraReply[2]) == total else {
            throw SyncError(.internal, "the extra member did not converge")
        }
        let x = Double(count)
        let series = "members"
        var points = [
            ScalePoint(
                suite: "scale-sync", series: "members: push (all at once)", xLabel: "members", x: x,
                value: Double(total) / pushWall, unit: "items/s",
                note: "\(perMember) new items per member, every member pushing at the same time"),
            ScalePoint(
                suite: "scale-sync", series: "members: pull (all at once)", xLabel: "members", x: x,
                value: Double(total * (count - 1)) / syncWall, unit: "items/s",
                note: "items applied over all members: each pulls everyone else's"),
            ScalePoint(
                suite: "scale-sync", series: "members: convergence", xLabel: "members", x: x,
                value: (pushWall + syncWall) * 1000, unit: "ms",
                note: "from every member holding its own new items to every member holding all of them"),
            ScalePoint(
                suite: "scale-sync", series: "members: one more member (join + initial sync)", xLabel: "members", x: x,
                value: joinSeconds * 1000, unit: "ms",
                note: "a fresh process joins the circle of \(perMember) items per member and pulls them all"),
        ]
        points += try serverSize(series, x: x, xLabel: "members")
        return points
    }

    /// One member pushes `count` items; a fresh one pulls them.
    func items(_ count: Int) throws -> [ScalePoint] {
        try resetServer()
        let circle = nextCircle()
        let writer = try spawn(1, circle: circle)
        defer { retire(writer) }
        _ = try all(writer, "add \(count)")
        let (pushReplies, _) = try all(writer, "push")
        let reader = try spawn(1, circle: circle)
        defer { retire(reader) }
        let (syncReplies, _) = try all(reader, "sync")
        guard let push = pushReplies.first, push.count >= 2, let pushSeconds = Double(push[1]),
            let sync = syncReplies.first, sync.count >= 3, let syncSeconds = Double(sync[1]), Int(sync[2]) == count
        else {
            throw SyncError(.internal, "the items point of \(count) did not converge")
        }
        let x = Double(count)
        var points = [
            ScalePoint(
                suite: "scale-sync", series: "items: push", xLabel: "items", x: x, value: Double(count) / pushSeconds,
                unit: "items/s", note: "one member pushes every item of its keychain"),
            ScalePoint(
                suite: "scale-sync", series: "items: pull (fresh member)", xLabel: "items", x: x,
                value: Double(count) / syncSeconds, unit: "items/s", note: "a fresh member pulls and applies them all"),
            ScalePoint(
                suite: "scale-sync", series: "items: fresh member converges", xLabel: "items", x: x,
                value: syncSeconds * 1000, unit: "ms", note: "the fresh member's whole sync"),
        ]
        points += try serverSize("items", x: x, xLabel: "items")
        return points
    }
}

/// The member processes still running, for the watchdog.
final class ScaleSyncProcessList: @unchecked Sendable {  // sendable: guarded by `lock`
    private let lock = NSLock()
    private var processes: [Process] = []

    func add(_ process: Process) { lock.withLock { processes.append(process) } }

    func terminateAll() {
        let running = lock.withLock { processes }
        for process in running where process.isRunning { process.terminate() }
    }
}

/// One member process, seen from the suite.
final class ScaleSyncMemberProcess {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()

    init(url: String, circle: String, keychain: String, name: String) throws {
        process.executableURL = URL(fileURLWithPath: ScaleSyncMember.executable)
        process.arguments = [ScaleSyncMember.flag, url, circle, keychain, name]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
    }

    func send(_ command: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((command + "\n").utf8))
    }

    /// The member's next line, split at spaces; an `error …` line or the member's end throws.
    func reply() throws -> [String] {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer = Data(buffer[(newline + 1)...])
                let words = line.split(separator: " ").map(String.init)
                if words.first == "error" { throw SyncError(.internal, "member: \(line)") }
                return words
            }
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { throw SyncError(.internal, "a member process ended early") }
            buffer.append(more)
        }
    }

    func expect(_ word: String) throws {
        let words = try reply()
        guard words.first == word else { throw SyncError(.internal, "member said \(words), expected \(word)") }
    }

    func quit() {
        try? send("quit")
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.waitUntilExit() }
    }
}

/// The member mode of the benchmark binary (`opensecurity-bench --scale-sync-member URL CIRCLE KEYCHAIN NAME`):
/// creates the keychain, joins the circle (test scrypt parameters) and answers one command a line:
/// `add N` (N new synchronizable passwords, not timed) → `ok`; `push` → `push SECONDS`; `sync` →
/// `sync SECONDS ITEMS` (the synchronizable items it then holds); `copy N LENGTH` → `copy RATE` (the C libpq COPY
/// floor of the sync push, so that callgrind sees both sides in one process); `quit`.
enum ScaleSyncMember {
    static let flag = "--scale-sync-member"

    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Runs the member mode and exits when the arguments ask for it; returns otherwise.
    static func serveIfRequested() {
        let arguments = CommandLine.arguments
        guard arguments.count == 6, arguments[1] == flag else { return }
        exit(serve(url: arguments[2], circle: arguments[3], keychain: arguments[4], name: arguments[5]))
    }

    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private static func serve(url: String, circle: String, keychain: String, name: String) -> Int32 {
        let engine: SyncEngine
        do {
            let store = try KeychainStore.openOrCreate(at: keychain)
            engine = try SyncEngine.join(
                store: store, settings: try SyncSettings(url: url, circle: circle),
                passphrase: Data("scale passphrase".utf8), parameters: .testing)
        } catch {
            say("error join \(error)")
            return 1
        }
        say("ready")
        var added = 0
        while let line = readLine() {
            let words = line.split(separator: " ")
            do {
                switch words.first {
                case "add":
                    let count = words.count > 1 ? Int(words[1]) ?? 0 : 0
                    var items: [NewItem] = []
                    items.reserveCapacity(count)
                    for _ in 0..<count {
                        added += 1
                        let account = "\(name)-\(added)"
                        items.append(
                            NewItem(
                                itemClass: .genericPassword,
                                attributes: [
                                    "svce": .string("scale.example.com"), "acct": .string(account),
                                    "labl": .string("scale item \(account)"),
                                ],
                                accessGroup: "bench", accessibility: .afterFirstUnlock, isSynchronizable: true,
                                secret: Data("secret of \(account) padded to sixty-four bytes ............".utf8)))
                    }
                    _ = try engine.store.add(contentsOf: items)
                    say("ok")
                case "push":
                    let start = Date()
                    _ = try engine.pushPending()
                    say("push \(Date().timeIntervalSince(start))")
                case "sync":
                    let start = Date()
                    try engine.sync()
                    let seconds = Date().timeIntervalSince(start)
                    say("sync \(seconds) \(try engine.store.syncItemCount().live)")
                case "copy":  // the C floor of the push, for profiling both sides in one process
                    let count = words.count > 1 ? Int32(words[1]) ?? 0 : 0
                    let length = words.count > 2 ? Int32(words[2]) ?? 0 : 0
                    say("copy \(osec_baseline_pg_copy(url, count, length))")
                case "quit":
                    return 0
                default:
                    say("error unknown command \(line)")
                }
            } catch {
                say("error \(error)")
            }
        }
        return 0
    }
}
