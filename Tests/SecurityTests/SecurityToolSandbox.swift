import Foundation
import OSecTestSupport

/// Runs the `security` executable as a separate process in a sandbox of its own: a temporary directory holding the
/// default keychain, the keychain preferences and trust settings, and a private runtime directory for the keychain
/// agent — so tests never touch the user's files or agent, and run in parallel.
final class SecurityToolSandbox: @unchecked Sendable {  // immutable after init
    let directory: TemporaryDirectory
    /// The default keychain (`OPENSECURITY_KEYCHAIN`).
    var keychainPath: String { directory.path("login.keychain-db") }
    /// `XDG_RUNTIME_DIR`: where the agent's socket goes.
    var runtimeDirectory: String { directory.path("run") }

    init(_ prefix: String = "osec-security-tool") throws {
        directory = try TemporaryDirectory(prefix: prefix)
        try FileManager.default.createDirectory(
            atPath: directory.path("run"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit {
        // Stop an agent a test started (it would also exit once its socket directory is removed).
        _ = try? run(["keychain-agent", "-s"])
    }

    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
        /// Standard output as bytes (binary formats such as DER).
        let stdoutData: Data
        /// Standard output split into lines (without the final empty one).
        var lines: [String] {
            stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
    }

    /// The environment of every run.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["OPENSECURITY_KEYCHAIN"] = keychainPath
        environment["OPENSECURITY_ACCESS_GROUPS"] = nil
        environment["OPENSECURITY_KEYCHAIN_AGENT"] = nil
        environment["XDG_CONFIG_HOME"] = directory.path("config")
        environment["XDG_DATA_HOME"] = directory.path("data")
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["OPENSECURITY_USER_TRUST_SETTINGS"] = directory.path("trust/user.plist")
        environment["OPENSECURITY_ADMIN_TRUST_SETTINGS"] = directory.path("trust/admin.plist")
        return environment
    }

    /// Runs `security arguments…` with `stdin` on its standard input (closed when nil) and waits for it;
    /// `executable` runs another build of it (the full tool `security-tool` instead of the front end).
    func run(
        _ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:],
        executable: String? = nil
    ) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable ?? SecurityTool.executable ?? "/nonexistent")
        process.arguments = arguments
        process.environment = environment.merging(extra) { _, new in new }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self), stdoutData: stdout)
    }

    /// Runs and returns the result, recording what happened when the status is not `expected`.
    @discardableResult
    func check(_ arguments: [String], stdin: String? = nil, expect expected: Int32 = 0) throws -> Run {
        let result = try run(arguments, stdin: stdin)
        guard result.status == expected else {
            throw ToolFailure(
                description:
                    "security \(arguments.joined(separator: " ")) exited \(result.status), expected \(expected): "
                    + result.stderr)
        }
        return result
    }

    struct ToolFailure: Error, CustomStringConvertible { let description: String }

    /// The first JSON document on standard output.
    static func json(_ run: Run) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any]) ?? [:]
    }
}

/// macOS's exit status for an OSStatus: its low byte.
func exitStatus(_ status: Int32) -> Int32 { Int32(UInt32(bitPattern: status) & 0xFF) }
