import Foundation
import OSecSystem

/// The secret-service suite: our Secret Service provider (`security secret-service`) beside gnome-keyring-daemon
/// (Debian's `gnome-keyring`), measured in the same run with the same clients. Each provider runs on its own private
/// session bus (`dbus-daemon` with a configuration in a scratch directory) with 1,000 items in its default
/// collection; gnome-keyring is started headless (`--foreground --unlock --components=secrets`, the login keyring's
/// password on standard input), so its collection is unlocked as ours is.
///
/// - `secret-tool lookup` (process): whole `secret-tool lookup bench yes n 500` processes per second (libsecret:
///   connect, read the service's properties, open a DH session, SearchItems, GetSecrets), spawned with
///   `posix_spawn` + `waitpid` only; the output is checked once before measuring.
/// - SearchItems + GetSecrets, 1,000 items: one Python `secretstorage` connection with a DH session searching for
///   the 1,000 items and fetching their secrets in one GetSecrets, repeated (operations per second, measured inside
///   the client so that Python's start-up is not counted).
///
/// The "OpenSSL" column holds gnome-keyring's figure; the ratio above 1 means we are faster. Needs the `security`
/// product next to this executable, `dbus-daemon`, `secret-tool` (libsecret-tools), `gnome-keyring-daemon`
/// (gnome-keyring) and Debian's python3 with `secretstorage`; the rows are skipped with the reason otherwise.
enum SecretServiceBenchmarks {
    static let itemCount = 1_000

    static func rows() -> [BenchRow] {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let tool = directory.appendingPathComponent("security").path
        if let missing = missingPeer(tool: tool) {
            print("secret-service benchmark: skipped, needs \(missing)")
            return []
        }
        let ours: ProviderBus
        let gnome: ProviderBus
        do {
            ours = try ProviderBus(name: "ss-ours", provider: .openSecurity(tool))
            gnome = try ProviderBus(name: "ss-gkr", provider: .gnomeKeyring)
            for bus in [ours, gnome] { try bus.populate(itemCount) }
        } catch {
            print("secret-service benchmark: skipped, cannot set up the providers: \(error)")
            return []
        }
        let label = "gnome-keyring-daemon \(gnomeKeyringVersion()) (same client)"
        let lookup = ["lookup", "bench", "yes", "n", "500"]
        return [
            BenchRow(
                name: "Secret Service: secret-tool lookup (process)", unit: "proc/s", opensslLabel: label,
                ours: { seconds in ours.spawnRate(secretTool, lookup, seconds, expect: "secret-500") },
                openssl: { seconds in gnome.spawnRate(secretTool, lookup, seconds, expect: "secret-500") }),
            BenchRow(
                name: "Secret Service: SearchItems + GetSecrets, 1,000 items", unit: "op/s", opensslLabel: label,
                ours: { seconds in ours.bulkRate(seconds, items: itemCount) },
                openssl: { seconds in gnome.bulkRate(seconds, items: itemCount) }),
        ]
    }

    static let secretTool = "/usr/bin/secret-tool"
    static let python = "/usr/bin/python3"

    /// What is missing to run the suite, or `nil`.
    static func missingPeer(tool: String) -> String? {
        if !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) (swift build -c release --product security)"
        }
        let tools = [
            ("/usr/bin/dbus-daemon", "dbus-daemon (apt-get install dbus-daemon)"),
            (secretTool, "secret-tool (apt-get install libsecret-tools)"),
            ("/usr/bin/gnome-keyring-daemon", "gnome-keyring-daemon (apt-get install gnome-keyring)"),
            ("/usr/bin/dbus-send", "dbus-send (apt-get install dbus-bin)"),
            (python, "Debian's python3 (apt-get install python3-secretstorage)"),
        ]
        for (path, what) in tools where !FileManager.default.isExecutableFile(atPath: path) { return what }
        guard (try? ProviderBus.run(python, ["-c", "import secretstorage"], environment: [:]))?.status == 0 else {
            return "python3-secretstorage (apt-get install python3-secretstorage)"
        }
        return nil
    }

    static func gnomeKeyringVersion() -> String {
        let output = (try? ProviderBus.run("/usr/bin/gnome-keyring-daemon", ["--version"], environment: [:]))?.output
        let first = output?.split(separator: "\n").first.map(String.init) ?? ""
        return first.split(separator: " ").last.map(String.init) ?? ""
    }
}

/// A private session bus with one Secret Service provider on it; both processes are stopped when it goes away.
final class ProviderBus {
    enum Provider {
        /// `security secret-service` (the path of `security`).
        case openSecurity(String)
        /// gnome-keyring-daemon, headless, its login keyring unlocked with a password from standard input.
        case gnomeKeyring
    }

    let name: String
    let directory: String
    let environment: [String: String]
    private var processes: [Process] = []
    /// Whether the directory is removed here (else by `BenchScratch`).
    private let ownsDirectory: Bool

    struct SetupError: Error, CustomStringConvertible { let description: String }

    init(name: String, provider: Provider) throws {
        self.name = name
        // On tmpfs when there is one: both providers write their 1,000 items durably (one fsync per item here,
        // gnome-keyring's file rewrites there), which would only lengthen the setup; the rows read only.
        if FileManager.default.isWritableFile(atPath: "/dev/shm") {
            directory = "/dev/shm/osec-bench-\(name)-\(ProcessInfo.processInfo.processIdentifier)"
            ownsDirectory = true
        } else {
            directory = BenchScratch.directory(name)
            ownsDirectory = false
        }
        for sub in ["home", "config", "data", "run", "keychains"] {
            try FileManager.default.createDirectory(
                atPath: directory + "/" + sub, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(directory)/bus"
        env["HOME"] = directory + "/home"
        env["XDG_CONFIG_HOME"] = directory + "/config"
        env["XDG_DATA_HOME"] = directory + "/data"
        env["XDG_RUNTIME_DIR"] = directory + "/run"
        env["OPENSECURITY_KEYCHAIN"] = directory + "/keychains/login.keychain-db"
        env["OPENSECURITY_KEYCHAIN_PREFERENCES"] = directory + "/config/keychain-preferences.plist"
        env["OPENSECURITY_KEYCHAIN_AGENT"] = "off"
        env["NO_AT_BRIDGE"] = "1"
        env.removeValue(forKey: "DISPLAY")
        environment = env
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(directory)/bus</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: directory + "/session.conf"))
        try start("/usr/bin/dbus-daemon", ["--config-file=\(directory)/session.conf", "--nofork", "--nopidfile"])
        try waitFor("the bus") { FileManager.default.fileExists(atPath: self.directory + "/bus") }
        switch provider {
        case .openSecurity(let tool):
            try start(tool, ["secret-service"])
        case .gnomeKeyring:
            try start(
                "/usr/bin/gnome-keyring-daemon", ["--foreground", "--unlock", "--components=secrets"],
                input: "bench-password")
        }
        try waitFor("the provider") {
            let owner = try? Self.run(
                "/usr/bin/dbus-send",
                [
                    "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                    "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.secrets",
                ], environment: self.environment)
            return owner?.output.contains("boolean true") == true
        }
    }

    deinit {
        for process in processes.reversed() where process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(3)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning {
                _ = try? Self.run("/bin/kill", ["-KILL", "\(process.processIdentifier)"], environment: [:])
            }
        }
        if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) }
    }

    private func start(_ executable: String, _ arguments: [String], input: String? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : pipe
        try process.run()
        processes.append(process)
        if let input {
            pipe.fileHandleForWriting.write(Data(input.utf8))
            try pipe.fileHandleForWriting.close()
        }
    }

    private func waitFor(_ what: String, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if condition() { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw SetupError(description: "\(name): timed out waiting for \(what)")
    }

    /// Runs a command to its end; its status and standard output.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], input: String? = nil
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty { process.environment = environment }
        let output = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Adds `count` items (`bench = yes`, `n = <i>`, secret `secret-<i>`) to the default collection.
    func populate(_ count: Int) throws {
        let script = """
            import sys, secretstorage
            conn = secretstorage.dbus_init()
            col = secretstorage.get_default_collection(conn)
            if col.is_locked():
                col.unlock()
            for i in range(int(sys.argv[1])):
                col.create_item('bench %d' % i, {'bench': 'yes', 'n': str(i)}, ('secret-%d' % i).encode())
            print('ok')
            """
        let result = try Self.run(
            SecretServiceBenchmarks.python, ["-c", script, "\(count)"], environment: environment)
        guard result.output == "ok\n" else { throw SetupError(description: "\(name): cannot add the items") }
    }

    /// Whole processes per second of `executable arguments` on this bus, after one checked run.
    func spawnRate(_ executable: String, _ arguments: [String], _ seconds: Double, expect: String) -> Double {
        guard let checked = try? Self.run(executable, arguments, environment: environment), checked.status == 0,
            checked.output == expect
        else {
            FileHandle.standardError.write(Data("secret-service benchmark: \(name): \(executable) failed\n".utf8))
            return -1
        }
        let command = PreparedCommand(executable, arguments: arguments, environment: environment)
        return measure(seconds) {
            guard try command.run() == 0 else { throw SetupError(description: "\(executable) failed") }
        }
    }

    /// SearchItems for every item + GetSecrets of all of them per second, one connection and DH session.
    func bulkRate(_ seconds: Double, items: Int) -> Double {
        let script = """
            import sys, time, secretstorage
            from secretstorage.util import DBusAddressWrapper, open_session
            seconds, items = float(sys.argv[1]), int(sys.argv[2])
            conn = secretstorage.dbus_init()
            service = DBusAddressWrapper('/org/freedesktop/secrets', 'org.freedesktop.Secret.Service', conn)
            session = open_session(conn)
            count, start = 0, time.perf_counter()
            while True:
                unlocked, locked = service.call('SearchItems', 'a{ss}', {'bench': 'yes'})
                secrets, = service.call('GetSecrets', 'aoo', unlocked, session.object_path)
                assert len(secrets) == items, len(secrets)
                count += 1
                elapsed = time.perf_counter() - start
                if elapsed >= seconds:
                    break
            print(count / elapsed)
            """
        guard
            let result = try? Self.run(
                SecretServiceBenchmarks.python, ["-c", script, "\(seconds)", "\(items)"], environment: environment),
            result.status == 0, let rate = Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            FileHandle.standardError.write(Data("secret-service benchmark: \(name): the bulk client failed\n".utf8))
            return -1
        }
        return rate
    }
}
