import Foundation
import OSecKeychain
import OSecPostgres
import OSecSync
import OpenSSLBaseline

/// The keychain sync against a throwaway local PostgreSQL (`scripts/pg-test-server.sh`, fsync off, Unix socket):
/// the push rate next to the floor of one C libpq client writing the same rows with COPY, plus figures without a C
/// counterpart — the initial sync of 10,000 and of 100,000 items on a fresh member, steady-state push and pull rates,
/// and the propagation latency through LISTEN/NOTIFY (median and 99th percentile). The 100,000-item figure is taken
/// at the end of the run (after the push rows), so the push rows see the same server as before.
///
/// Circles use the test scrypt parameters (N = 2^10): joining is not what is measured.
enum SyncBenchmarks {
    static let initialItems = 10_000
    static let largeInitialItems = 100_000
    static let steadyItems = 1_000
    static let pushRoundItems = 2_000
    static let latencyRounds = 100

    static func rows() -> [BenchRow] {
        [
            BenchRow(
                name: "sync push (CAS, \(pushRoundItems) items/round)", unit: "items/s",
                opensslLabel: "C libpq COPY of the same rows, one transaction",
                ours: { _ in fixture.map { $0.pushRound() } ?? -1 },
                openssl: { _ in
                    guard let fixture else { return -1 }
                    return osec_baseline_pg_copy(fixture.url, Int32(pushRoundItems), Int32(fixture.blobLength))
                })
        ]
    }

    /// Set up on first use (only when a sync row is selected): the server, two members, the one-off figures.
    nonisolated(unsafe) private static var fixtureStorage: SyncFixture??
    static var fixture: SyncFixture? {
        if let fixtureStorage { return fixtureStorage }
        let made = SyncFixture.make()
        fixtureStorage = .some(made)
        return made
    }

    /// Measures the initial sync of 100,000 items, then stops the server (end of the run).
    static func finish() {
        if case .some(.some(let fixture)) = fixtureStorage {
            fixture.largeInitialSync()
            fixture.destroy()
        }
    }
}

final class SyncFixture: @unchecked Sendable {  // used by the benchmark's one thread, plus the latency listener
    let url: String
    let serverDirectory: String
    let writer: SyncEngine
    let reader: SyncEngine
    private(set) var blobLength = 0
    private var nextAccount = 0

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private init(url: String, serverDirectory: String, writer: SyncEngine, reader: SyncEngine) {
        self.url = url
        self.serverDirectory = serverDirectory
        self.writer = writer
        self.reader = reader
    }

    static func make() -> SyncFixture? {
        let directory = BenchScratch.directory("sync")
        let serverDirectory = directory + "/pg"
        let script = repository.appendingPathComponent("scripts/pg-test-server.sh").path
        let (status, output) = run(
            [script, "start", serverDirectory, "5432", "--owner", "\(ProcessInfo.processInfo.processIdentifier)"])
        guard status == 0 else {
            FileHandle.standardError.write(Data("sync benchmark: no PostgreSQL server (\(output))\n".utf8))
            return nil
        }
        let url = output.trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            let settings = try SyncSettings(url: url, circle: "bench")
            let writerStore = try KeychainStore.openOrCreate(at: directory + "/writer.keychain-db")
            let writer = try SyncEngine.join(
                store: writerStore, settings: settings, passphrase: Data("bench passphrase".utf8),
                parameters: .testing)
            let fixture = SyncFixture(url: url, serverDirectory: serverDirectory, writer: writer, reader: writer)
            // Initial push of 10,000 items from the writer.
            try fixture.add(SyncBenchmarks.initialItems)
            let pushStart = Date()
            _ = try writer.pushPending()
            let pushSeconds = Date().timeIntervalSince(pushStart)
            // A fresh member converges.
            let readerStore = try KeychainStore.openOrCreate(at: directory + "/reader.keychain-db")
            let reader = try SyncEngine.join(
                store: readerStore, settings: settings, passphrase: Data("bench passphrase".utf8),
                parameters: .testing)
            let initialStart = Date()
            try reader.sync()
            let initialSeconds = Date().timeIntervalSince(initialStart)
            let ready = SyncFixture(url: url, serverDirectory: serverDirectory, writer: writer, reader: reader)
            ready.nextAccount = fixture.nextAccount
            ready.blobLength = try averageBlobLength(url)
            report(
                "sync initial push, \(SyncBenchmarks.initialItems) items",
                "\(rate(SyncBenchmarks.initialItems, pushSeconds)) items/s (\(seconds(pushSeconds)))")
            report(
                "sync initial sync of a fresh member, \(SyncBenchmarks.initialItems) items",
                "\(seconds(initialSeconds)) to converge (\(rate(SyncBenchmarks.initialItems, initialSeconds)) items/s)")
            try ready.steadyState()
            try ready.latency()
            return ready
        } catch {
            FileHandle.standardError.write(Data("sync benchmark failed: \(error)\n".utf8))
            _ = run([script, "destroy", serverDirectory])
            return nil
        }
    }

    /// The writer grows to ``SyncBenchmarks/largeInitialItems`` items and pushes them (not timed); a fresh member
    /// then syncs them all.
    func largeInitialSync() {
        do {
            let missing = SyncBenchmarks.largeInitialItems - nextAccount
            if missing > 0 { try add(missing) }
            while try writer.store.pendingSyncChangeCount() > 0 { _ = try writer.pushPending() }
            let directory = BenchScratch.directory("sync-large")
            let store = try KeychainStore.openOrCreate(at: directory + "/fresh.keychain-db")
            let fresh = try SyncEngine.join(
                store: store, settings: try SyncSettings(url: url, circle: "bench"),
                passphrase: Data("bench passphrase".utf8), parameters: .testing)
            let start = Date()
            try fresh.sync()
            let elapsed = Date().timeIntervalSince(start)
            let items = try store.syncItemCount().live
            report(
                "sync initial sync of a fresh member, \(items) items",
                "\(SyncFixture.seconds(elapsed)) to converge (\(SyncFixture.rate(items, elapsed)) items/s)")
        } catch {
            FileHandle.standardError.write(Data("sync large initial sync failed: \(error)\n".utf8))
        }
    }

    func destroy() {
        let script = SyncFixture.repository.appendingPathComponent("scripts/pg-test-server.sh").path
        _ = SyncFixture.run([script, "destroy", serverDirectory])
    }

    /// Adds `count` synchronizable passwords to the writer (one transaction), each with a 64-byte secret.
    func add(_ count: Int) throws {
        var items: [NewItem] = []
        items.reserveCapacity(count)
        for _ in 0..<count {
            nextAccount += 1
            items.append(item(account: "account-\(nextAccount)", value: "secret value \(nextAccount)"))
        }
        _ = try writer.store.add(contentsOf: items)
    }

    private func item(account: String, value: String) -> NewItem {
        let secret = Data((value + String(repeating: "x", count: max(0, 64 - value.utf8.count))).utf8)
        return NewItem(
            itemClass: .genericPassword,
            attributes: [
                "svce": .string("bench.example.com"), "acct": .string(account),
                "labl": .string("bench item \(account)"),
            ],
            accessGroup: "bench", accessibility: .afterFirstUnlock, isSynchronizable: true, secret: secret)
    }

    /// One measured push of ``SyncBenchmarks/pushRoundItems`` new items (adding them is not timed).
    func pushRound() -> Double {
        do {
            try add(SyncBenchmarks.pushRoundItems)
            let start = Date()
            _ = try writer.pushPending()
            return Double(SyncBenchmarks.pushRoundItems) / Date().timeIntervalSince(start)
        } catch {
            FileHandle.standardError.write(Data("sync push failed: \(error)\n".utf8))
            return -1
        }
    }

    /// Steady state: the writer updates 1,000 items and pushes them; the reader pulls them.
    private func steadyState() throws {
        let count = SyncBenchmarks.steadyItems
        var updated = 0
        for index in 1...count {  // one transaction each, as applications update items
            updated += try writer.store.update(
                ItemQuery(
                    itemClass: .genericPassword,
                    attributes: ["svce": .string("bench.example.com"), "acct": .string("account-\(index)")],
                    accessGroups: ["bench"], isSynchronizable: true),
                with: ItemChanges(attributes: ["labl": .string("updated")], secret: Data("new secret \(index)".utf8)))
        }
        let pushStart = Date()
        _ = try writer.pushPending()
        let pushSeconds = Date().timeIntervalSince(pushStart)
        let pullStart = Date()
        try reader.sync()
        let pullSeconds = Date().timeIntervalSince(pullStart)
        report("sync steady push, \(updated) updates", "\(SyncFixture.rate(updated, pushSeconds)) items/s")
        report("sync steady pull, \(updated) updates", "\(SyncFixture.rate(updated, pullSeconds)) items/s")
    }

    /// One item added on the writer, pushed; the reader waits on NOTIFY and pulls: time from the add to the item
    /// being in the reader's keychain.
    private func latency() throws {
        let arrived = DispatchSemaphore(value: 0)
        let stop = ManagedFlag()
        let reader = self.reader
        let listener = Thread {
            while !stop.isSet {
                do {
                    if try reader.waitForRemoteChange(timeout: .milliseconds(200)) {
                        try reader.sync()
                        arrived.signal()
                    }
                } catch {
                    FileHandle.standardError.write(Data("sync latency listener: \(error)\n".utf8))
                    return
                }
            }
        }
        _ = try reader.waitForRemoteChange(timeout: .milliseconds(1))  // LISTEN before the first change
        listener.start()
        defer { stop.set() }
        var samples: [Double] = []
        for _ in 0..<SyncBenchmarks.latencyRounds {
            let start = Date()
            try add(1)
            _ = try writer.pushPending()
            guard arrived.wait(timeout: .now() + 10) == .success else {
                throw SyncError(.internal, "a change did not arrive within 10 s")
            }
            samples.append(Date().timeIntervalSince(start))
        }
        samples.sort()
        let median = samples[samples.count / 2]
        let p99 = samples[min(samples.count - 1, Int(Double(samples.count) * 0.99))]
        report(
            "sync propagation latency (NOTIFY), \(samples.count) changes",
            String(format: "median %.1f ms, p99 %.1f ms", median * 1000, p99 * 1000))
    }

    private static func averageBlobLength(_ url: String) throws -> Int {
        let connection = try PGConnection(url)
        let value = try connection.execute("SELECT avg(length(blob))::bigint FROM osec_items").scalar().integerValue
        return Int(value ?? 128)
    }

    private func report(_ name: String, _ value: String) { SyncFixture.report(name, value) }

    private static func report(_ name: String, _ value: String) {
        Swift.print(BenchTable.pad(name, 60) + value)
    }

    private static func rate(_ count: Int, _ seconds: Double) -> String {
        String(format: "%.0f", seconds > 0 ? Double(count) / seconds : 0)
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.2f s", value) }

    /// Runs `arguments`; returns the exit status and standard output, or on failure standard output and standard
    /// error together (for the message). A tool's warnings never mix into the value parsed from a success.
    static func run(_ arguments: [String]) -> (Int32, String) {
        let errorPath = BenchScratch.directory("stderr") + "/stderr"
        guard FileManager.default.createFile(atPath: errorPath, contents: nil),
            let errors = FileHandle(forWritingAtPath: errorPath)
        else { return (-1, "cannot create \(errorPath)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return (-1, "\(error)") }
        try? errors.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            let message = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            return (process.terminationStatus, output + message)
        }
        return (0, output)
    }
}

/// A flag set once from one thread and read from another.
final class ManagedFlag: @unchecked Sendable {  // sendable: guarded by `lock`
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
