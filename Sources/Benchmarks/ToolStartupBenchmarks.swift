import Foundation
import OSecSystem
import Security

/// Start-up cost of the `security` tool: whole processes of `security find-generic-password -w` (read one password
/// from a keychain and print it) per second, beside whole processes of `openssl version`, spawned the same way:
/// `posix_spawn` and `waitpid`, nothing else in the loop (Foundation's `Process` costs more per spawn on Linux than
/// either process and hid the difference). Each command's output is checked once before it is measured.
/// Needs the `security` product built next to this executable (`swift build -c release --product security`).
enum ToolStartupBenchmarks {
    static func rows() -> [BenchRow] {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let tool = directory.appendingPathComponent("security").path
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
        return [
            BenchRow(
                name: "security find-generic-password -w (process)", unit: "proc/s",
                opensslLabel: "openssl version (process)",
                ours: { seconds in spawnRate(tool, findArguments, environment, seconds, expect: "s3cret\n") },
                openssl: { seconds in spawnRate(openssl, ["version"], environment, seconds, expect: nil) })
        ]
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
