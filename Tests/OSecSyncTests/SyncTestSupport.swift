import Foundation
import OSecPostgres
import OSecTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL server started with `scripts/pg-test-server.sh` (initdb + pg_ctl, Unix socket only, as
/// the unprivileged `osecpg` user when the tests run as root), destroyed when the test process exits (at exit, or
/// by the script's watcher when the process was killed).
final class PGTestServer: @unchecked Sendable {  // immutable after init
    let directory: String
    let url: String

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let script = repository.appendingPathComponent("scripts/pg-test-server.sh").path
    /// `true` when PostgreSQL's server binaries are installed (scripts/install-deps.sh --with-test-peers).
    static var isAvailable: Bool {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        return versions.contains {
            FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb")
        }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var started: [PGTestServer] = []
    nonisolated(unsafe) private static var sharedServer: PGTestServer?

    /// The server most tests share (circles keep them apart).
    static func shared() throws -> PGTestServer {
        lock.lock()
        defer { lock.unlock() }
        if let sharedServer { return sharedServer }
        let server = try PGTestServer(registered: false)
        started.append(server)
        sharedServer = server
        return server
    }

    /// A server of the caller's own (for tests that stop it).
    convenience init() throws {
        try self.init(registered: false)
        PGTestServer.lock.lock()
        PGTestServer.started.append(self)
        PGTestServer.lock.unlock()
    }

    private init(registered: Bool) throws {
        directory = NSTemporaryDirectory() + "osec-sync-pg-pid\(getpid())-\(UUID().uuidString)"
        let output = try PGTestServer.runSeparately(
            [PGTestServer.script, "start", directory, "5432", "--owner", "\(getpid())"])
        guard output.status == 0 else {
            throw TestFailure("pg-test-server start failed: \(output.output)\(output.errors)")
        }
        url = output.output.trimmingCharacters(in: .whitespacesAndNewlines)
        PGTestServer.registerExitHandler()
    }

    func stop() throws {
        guard try PGTestServer.run([PGTestServer.script, "stop", directory]).status == 0 else {
            throw TestFailure("pg-test-server stop failed")
        }
    }

    func restart() throws {
        guard try PGTestServer.run([PGTestServer.script, "restart", directory]).status == 0 else {
            throw TestFailure("pg-test-server restart failed")
        }
    }

    func destroy() {
        _ = try? PGTestServer.run([PGTestServer.script, "destroy", directory])
    }

    func connect() throws -> PGConnection { try PGConnection(url) }

    nonisolated(unsafe) private static var exitHandlerRegistered = false
    /// Caller may hold `lock` (the handler itself only takes it at exit).
    private static let exitLock = NSLock()
    private static func registerExitHandler() {
        exitLock.lock()
        defer { exitLock.unlock() }
        guard !exitHandlerRegistered else { return }
        exitHandlerRegistered = true
        atexit {
            PGTestServer.lock.lock()
            let servers = PGTestServer.started
            PGTestServer.lock.unlock()
            for server in servers { server.destroy() }
        }
    }

    /// Runs `arguments` (from `currentDirectory` when given); returns the exit status and standard output and
    /// standard error together (for messages and `contains` checks; parse values with ``runSeparately(_:)``).
    static func run(
        _ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil,
        currentDirectory: String? = nil
    ) throws
        -> (status: Int32, text: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try? input.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

extension PGTestServer {
    /// Runs `arguments` with standard output and standard error apart: the value a caller parses (the connection
    /// string) comes from standard output alone, whatever a tool warns about.
    static func runSeparately(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let errorPath = NSTemporaryDirectory() + "osec-pg-stderr-\(getpid())-\(UUID().uuidString)"
        guard FileManager.default.createFile(atPath: errorPath, contents: nil),
            let errors = FileHandle(forWritingAtPath: errorPath)
        else { throw TestFailure("cannot create \(errorPath)") }
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? errors.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let message = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        return (process.terminationStatus, String(decoding: data, as: UTF8.self), message)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One "machine": a keychain file of its own, driven by separate `SyncStress` / `security` processes.
struct Machine {
    let keychain: String
    let url: String
    let circle: String

    static var helper: String? { BuiltExecutable.path("SyncStress") }
    static var tool: String? { BuiltExecutable.path("security") }
    static var available: Bool { helper != nil && tool != nil && PGTestServer.isAvailable }

    /// Cheap scrypt for circles created by tests; HOME inside the test directory.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("OPENSECURITY_") { environment[key] = nil }
        environment["OPENSECURITY_SYNC_SCRYPT_N"] = "1024"
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    init(_ directory: TemporaryDirectory, _ name: String, server: PGTestServer, circle: String) {
        keychain = directory.path("\(name).keychain-db")
        url = server.url
        self.circle = circle
    }

    /// Runs `SyncStress <command> <keychain> <args…>`.
    @discardableResult
    func run(_ command: String, _ args: String..., environment: [String: String] = [:]) throws -> (Int32, String) {
        try PGTestServer.run(
            [Machine.helper ?? "/nonexistent", command, keychain] + args, environment: Machine.environment(environment))
    }

    /// Runs a command and requires exit 0.
    @discardableResult
    func must(_ command: String, _ args: String...) throws -> String {
        let (status, text) = try PGTestServer.run(
            [Machine.helper ?? "/nonexistent", command, keychain] + args, environment: Machine.environment())
        guard status == 0 else { throw TestFailure("SyncStress \(command) \(args) exited \(status): \(text)") }
        return text
    }

    func join(passphrase: String = "correct horse") throws {
        try must("join", url, circle, passphrase)
    }

    func sync() throws { try must("sync") }

    /// The synchronizable passwords, as "account=value" lines.
    func items() throws -> [String] {
        try must("dump").split(separator: "\n").map(String.init)
    }

    /// Runs the `security` tool on this machine's keychain.
    func security(_ args: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> (Int32, String) {
        try PGTestServer.run(
            [Machine.tool ?? "/nonexistent"] + args, stdin: stdin, environment: Machine.environment(environment))
    }
}

/// Syncs machines in order, `rounds` times (a change needs its author's push and the others' pulls).
func syncAll(_ machines: [Machine], rounds: Int = 2) throws {
    for _ in 0..<rounds {
        for machine in machines { try machine.sync() }
    }
}
