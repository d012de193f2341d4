import Foundation
import OSecTestSupport

/// A private session bus (`dbus-daemon` with its own configuration and socket in a temporary directory), the
/// `security secret-service` provider on it, and helpers to run clients against them. Stopped by ``stop()``.
final class SecretServiceBus: @unchecked Sendable {  // used by one test at a time
    let directory: TemporaryDirectory
    let keychain: String
    let lockedKeychain: String
    let lockedPassword = "locked-keychain-password"
    private var daemon: Process?
    private var provider: Process?

    /// Why the interop tests cannot run here, or `nil`.
    static var missingPeer: String? {
        if SecurityTool.executable == nil { return "needs the security executable (swift build)" }
        for tool in [
            "/usr/bin/dbus-daemon", "/usr/bin/dbus-send", "/usr/bin/secret-tool", "/usr/bin/gdbus", "/usr/bin/python3",
        ]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            return "needs \(tool) (scripts/install-deps.sh --with-test-peers)"
        }
        return nil
    }

    /// Whether the processes use a keychain agent (in the private runtime directory; stopped by ``stop()``).
    let usesAgent: Bool

    /// - Parameters:
    ///   - allowOtherUsers: let every Unix user connect to the bus (to test that the service refuses them).
    ///   - agent: let `security unlock-keychain` share unlocked keychains through a keychain agent.
    init(allowOtherUsers: Bool = false, agent: Bool = false) throws {
        usesAgent = agent
        directory = try TemporaryDirectory(prefix: "osec-secret-service")
        keychain = directory.path("keychains/login.keychain-db")
        lockedKeychain = directory.path("keychains/vault.keychain-db")
        for name in ["home", "config", "data", "run", "keychains"] {
            try FileManager.default.createDirectory(
                atPath: directory.path(name), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(directory.path("bus"))</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">\(allowOtherUsers ? "\n    <allow user=\"*\"/>" : "")
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        try directory.write("session.conf", Data(config.utf8))
        // The askpass program prints the locked keychain's password (a wrong one when ASKPASS_WRONG exists). While
        // ASKPASS_HOLD exists it first creates ASKPASS_WAITING and waits (at most 60 s) until the test removes the
        // hold: a prompt that is certainly still running, without any timing.
        let askpass = try directory.write(
            "askpass.sh",
            Data(
                """
                #!/bin/sh
                if [ -e "\(directory.path("ASKPASS_HOLD"))" ]; then
                    : > "\(directory.path("ASKPASS_WAITING"))"
                    n=0
                    while [ -e "\(directory.path("ASKPASS_HOLD"))" ] && [ "$n" -lt 600 ]; do
                        sleep 0.1
                        n=$((n + 1))
                    done
                fi
                if [ -e "\(directory.path("ASKPASS_WRONG"))" ]; then echo wrong; else echo '\(lockedPassword)'; fi

                """.utf8))
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: askpass)

        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=\(directory.path("session.conf"))", "--nofork", "--nopidfile"]
        daemon.environment = environment
        daemon.standardOutput = FileHandle.nullDevice
        try daemon.run()
        self.daemon = daemon
        try waitFor { FileManager.default.fileExists(atPath: self.directory.path("bus")) }

        try expectSetup(
            try run(SecurityTool.executable ?? "", ["create-keychain", "-p", lockedPassword, lockedKeychain]))
        try startProvider()
    }

    /// The environment of every process of the test: the private bus, private keychains and settings.
    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(directory.path("bus"))"
        env["HOME"] = directory.path("home")
        env["XDG_CONFIG_HOME"] = directory.path("config")
        env["XDG_DATA_HOME"] = directory.path("data")
        env["XDG_RUNTIME_DIR"] = directory.path("run")
        env["OPENSECURITY_KEYCHAIN"] = keychain
        env["OPENSECURITY_KEYCHAIN_PREFERENCES"] = directory.path("config/keychain-preferences.plist")
        env["OPENSECURITY_KEYCHAIN_AGENT"] = usesAgent ? "on" : "off"
        env["OPENSECURITY_ASKPASS"] = directory.path("askpass.sh")
        env["NO_AT_BRIDGE"] = "1"
        env.removeValue(forKey: "DISPLAY")
        env.removeValue(forKey: "SSH_ASKPASS")
        return env
    }

    /// Starts `security secret-service -k login -k vault` and waits until it owns the name.
    func startProvider(replace: Bool = false) throws {
        let provider = Process()
        provider.executableURL = URL(fileURLWithPath: SecurityTool.executable ?? "")
        provider.arguments = ["secret-service", "-k", keychain, "-k", lockedKeychain] + (replace ? ["--replace"] : [])
        provider.environment = environment
        provider.standardOutput = FileHandle.nullDevice
        try provider.run()
        self.provider = provider
        try waitFor {
            let result = try? self.gdbus([
                "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                "--method", "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.secrets",
            ])
            return result?.stdout.contains("true") == true
        }
    }

    /// The provider process.
    var providerProcess: Process? { provider }

    /// Stops the provider (SIGTERM) and starts it again on the same bus and keychains.
    func restartProvider() throws {
        if let provider, provider.isRunning {
            provider.terminate()
            provider.waitUntilExit()
        }
        try startProvider()
    }

    /// Starts `executable` in the background with the test environment, its standard output going to `output`.
    func start(_ executable: String, _ arguments: [String], output: String) throws -> Process {
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Stops the provider (SIGTERM, which it handles) and the bus daemon. Children of a test runner may inherit a
    /// signal mask that blocks SIGTERM (dbus-daemon does not unblock it), so whatever is still running after a
    /// grace period gets SIGKILL.
    func stop() {
        if usesAgent { _ = try? security(["keychain-agent", "-s"]) }
        if let provider, provider.isRunning { provider.terminate() }
        for process in [provider, daemon].compactMap({ $0 }) {
            let deadline = Date().addingTimeInterval(process === provider ? 5 : 0)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning {
                _ = try? run("/bin/kill", ["-KILL", String(process.processIdentifier)])
                process.waitUntilExit()
            }
        }
        provider = nil
        daemon = nil
    }

    deinit { stop() }

    // MARK: Running clients

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `executable` with the test environment; `input` goes to its standard input.
    func run(_ executable: String, _ arguments: [String], input: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        // Read both pipes concurrently so a chatty process cannot block on a full pipe.
        nonisolated(unsafe) var errorData = Data()
        let done = DispatchSemaphore(value: 0)
        let errorHandle = errors.fileHandleForReading
        DispatchQueue.global().async {
            errorData = errorHandle.readDataToEndOfFile()
            done.signal()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self))
    }

    func security(_ arguments: [String], input: String? = nil) throws -> Result {
        try run(SecurityTool.executable ?? "", arguments, input: input)
    }

    func secretTool(_ arguments: [String], input: String? = nil) throws -> Result {
        try run("/usr/bin/secret-tool", arguments, input: input)
    }

    func gdbus(_ arguments: [String]) throws -> Result { try run("/usr/bin/gdbus", arguments) }

    /// A `dbus-send` method call on the service (no introspection: any argument types go through).
    func dbusSend(_ path: String, _ method: String, _ arguments: [String] = []) throws -> Result {
        try run(
            "/usr/bin/dbus-send",
            ["--session", "--print-reply", "--dest=org.freedesktop.secrets", path, method] + arguments)
    }

    /// Runs a Python script (Debian's python3, which has secretstorage and keyring).
    func python(_ script: String, _ arguments: [String] = []) throws -> Result {
        let path = try directory.write("script-\(UUID().uuidString).py", Data(script.utf8))
        return try run("/usr/bin/python3", [path] + arguments)
    }

    /// A `gdbus call` on the service.
    func call(_ path: String, _ method: String, _ arguments: [String] = []) throws -> Result {
        try gdbus(
            ["call", "--session", "--dest", "org.freedesktop.secrets", "--object-path", path, "--method", method]
                + arguments)
    }

    private func waitFor(_ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if try condition() { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw SetupError(message: "timed out waiting for the bus or the provider")
    }

    struct SetupError: Error { let message: String }
}

/// Fails setup when a command fails.
private func expectSetup(_ result: SecretServiceBus.Result) throws {
    guard result.status == 0 else { throw SecretServiceBus.SetupError(message: result.stderr) }
}

/// The `security` executable built next to the test bundle.
enum SecurityTool {
    static var executable: String? { BuiltExecutable.path("security") }
}
