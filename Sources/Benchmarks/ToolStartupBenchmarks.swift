import Foundation
import OSecSystem
import Security

/// Start-up cost of the `security` tool: whole processes of `security find-generic-password -w` (read one password
/// from a keychain and print it) per second, beside whole processes of `openssl version`, spawned the same way:
/// `posix_spawn` and `waitpid`, nothing else in the loop (Foundation's `Process` costs more per spawn on Linux than
/// either process and hid the difference). Each command's output is checked once before it is measured.
/// Needs the `security` product built next to this executable (`swift build -c release --product security`) or the
/// installed one named by `OPENSECURITY_BENCH_SECURITY`, and
/// `security-tool` beside it for the first row: there the keychain agent answers the reads (the front end starts it
/// after its first read, as for any user; it is stopped afterwards); the second row turns the agent off
/// (`OPENSECURITY_KEYCHAIN_AGENT=off`), so each process reads the keychain itself.
enum ToolStartupBenchmarks {
    static func rows() -> [BenchRow] {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // `OPENSECURITY_BENCH_SECURITY`: the installed command instead (`scripts/install.sh`: the Swift runtime
        // linked statically, as users run it; a plain `swift build` links it dynamically, which loads a dozen
        // more libraries per process).
        let tool =
            ProcessInfo.processInfo.environment["OPENSECURITY_BENCH_SECURITY"]
            ?? directory.appendingPathComponent("security").path
        let openssl = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard FileManager.default.isExecutableFile(atPath: tool), let openssl else {
            print("tool benchmark: needs \(tool) (swift build -c release --product security) and openssl")
            return []
        }
        let scratch = BenchScratch.directory("tool")
        let keychainPath = scratch + "/startup.keychain-db"
        var keychain: SecKeychain?
        guard SecKeychainCreate(keychainPath, 0, nil, false, nil, &keychain) == errSecSuccess, let keychain else {
            print("tool benchmark: cannot create a keychain in \(scratch)")
            return []
        }
        let item: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "startup",
            kSecAttrAccount as String: "bench", kSecValueData as String: Data("s3cret".utf8),
            kSecUseKeychain as String: keychain,
        ]
        guard SecItemAdd(item as CFDictionary, nil) == errSecSuccess else { return [] }
        var environment = ProcessInfo.processInfo.environment
        environment["OPENSECURITY_KEYCHAIN"] = keychainPath
        environment["XDG_CONFIG_HOME"] = scratch + "/config"
        environment["XDG_RUNTIME_DIR"] = scratch + "/run"
        let findArguments = ["find-generic-password", "-a", "bench", "-s", "startup", "-w", keychainPath]
        var alone = environment
        alone["OPENSECURITY_KEYCHAIN_AGENT"] = "off"
        return [
            BenchRow(
                name: "security find-generic-password -w (process)", unit: "proc/s",
                opensslLabel: "openssl version (process)",
                ours: { seconds in
                    defer { stopAgent(tool, environment) }
                    guard startAgent(tool, findArguments, environment) else { return -1 }
                    return spawnRate(tool, findArguments, environment, seconds, expect: "s3cret\n")
                },
                openssl: { seconds in spawnRate(openssl, ["version"], environment, seconds, expect: nil) }),
            BenchRow(
                name: "  same, agent off (the process reads the keychain)", unit: "proc/s",
                opensslLabel: "openssl version (process)",
                ours: { seconds in spawnRate(tool, findArguments, alone, seconds, expect: "s3cret\n") },
                openssl: { seconds in spawnRate(openssl, ["version"], alone, seconds, expect: nil) }),
        ]
    }

    /// One read, which starts the agent, then up to 5 s for it to answer (`keychain-agent -l` succeeds).
    private static func startAgent(_ tool: String, _ find: [String], _ environment: [String: String]) -> Bool {
        let first = PreparedCommand(tool, arguments: find, environment: environment)
        guard (try? first.run()) == 0 else { return false }
        let listing = PreparedCommand(tool, arguments: ["keychain-agent", "-l"], environment: environment)
        for _ in 0..<100 {
            if (try? listing.run()) == 0 { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        FileHandle.standardError.write(Data("tool benchmark: the keychain agent did not start\n".utf8))
        return false
    }

    private static func stopAgent(_ tool: String, _ environment: [String: String]) {
        _ = try? PreparedCommand(tool, arguments: ["keychain-agent", "-s"], environment: environment).run()
    }

    /// Whole processes per second: `posix_spawn` + `waitpid` of a prepared command (output to /dev/null), after
    /// one checked run through Foundation's `Process` (exit status 0 and, when given, the expected output).
    private static func spawnRate(
        _ executable: String, _ arguments: [String], _ environment: [String: String], _ seconds: Double,
        expect: String?
    ) -> Double {
        let failure = BenchFailure(description: "\(executable) \(arguments.joined(separator: " ")) failed")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return 0 }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, expect.map({ Data($0.utf8) == data }) ?? true else {
            FileHandle.standardError.write(Data("tool benchmark: \(failure)\n".utf8))
            return 0
        }
        let command = PreparedCommand(executable, arguments: arguments, environment: environment)
        return measure(seconds) {
            guard try command.run() == 0 else { throw failure }
        }
    }

    struct BenchFailure: Error, CustomStringConvertible { let description: String }
}
