import Foundation
import OSecTestSupport
import Testing

/// The keychain agent end to end: unlock state shared by separate processes until lock, timeout or the agent's
/// death; memory that is locked and kept out of core dumps; stale sockets; concurrent readers; other users refused.
/// Every step is a separate `security` process, as in a CI job.
@Suite(.enabled(if: SecurityTool.executable != nil, "needs the security executable (swift build)"))
struct SecurityToolAgentTests {
    let sandbox: SecurityToolSandbox
    init() throws { sandbox = try SecurityToolSandbox("osec-tool-agent") }

    private func path(_ name: String) -> String { sandbox.directory.path(name) }
    private var socketPath: String { sandbox.runtimeDirectory + "/opensecurity/keychain-agent.sock" }

    /// A keychain with one password item, unlocked through the agent.
    private func unlockedKeychain(_ name: String = "agent.keychain-db") throws -> String {
        let kc = path(name)
        try sandbox.check(["create-keychain", "-p", "pw", kc])
        try sandbox.check(["add-generic-password", "-a", "ci", "-s", "deploy", "-w", "token-123", kc])
        try sandbox.check(["lock-keychain", kc])
        try sandbox.check(["unlock-keychain", "-p", "pw", kc])
        return kc
    }

    private func agentPID() throws -> Int32 {
        let listing = SecurityToolSandbox.json(try sandbox.check(["keychain-agent", "-l", "--json"]))
        return Int32((listing["pid"] as? Int) ?? -1)
    }

    @Test func aCIStyleScriptRunsAsOnMacOS() throws {
        // The workflow CI jobs run on macOS, one process per step.
        guard OpenSSLCLI.isAvailable else { return }
        let kc = path("build.keychain-db")
        try OpenSSLCLI.check([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", path("ca.key"), "-out", path("ca.pem"), "-subj", "/CN=CI Root", "-days", "30",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
        try OpenSSLCLI.check([
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("id.key"),
            "-out", path("id.csr"), "-subj", "/CN=CI Signer",
        ])
        try sandbox.directory.write("ext.cnf", Data("extendedKeyUsage=clientAuth\nkeyUsage=digitalSignature\n".utf8))
        try OpenSSLCLI.check([
            "x509", "-req", "-in", path("id.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
            "-CAcreateserial", "-out", path("id.pem"), "-days", "10", "-extfile", path("ext.cnf"),
        ])
        try OpenSSLCLI.check([
            "pkcs12", "-export", "-in", path("id.pem"), "-inkey", path("id.key"), "-certfile", path("ca.pem"),
            "-out", path("id.p12"), "-passout", "pass:p12pass", "-name", "CI Signer",
        ])
        try sandbox.check(["create-keychain", "-p", "kcpass", kc])
        try sandbox.check(["set-keychain-settings", "-lut", "21600", kc])
        try sandbox.check(["list-keychains", "-d", "user", "-s", kc, sandbox.keychainPath])
        try sandbox.check(["default-keychain", "-s", kc])
        try sandbox.check(["lock-keychain", kc])
        try sandbox.check(["unlock-keychain", "-p", "kcpass", kc])
        let imported = try sandbox.check([
            "import", path("id.p12"), "-k", kc, "-P", "p12pass", "-T", "/usr/bin/codesign",
        ])
        #expect(imported.lines == ["1 identity imported.", "1 certificate imported."])
        try sandbox.check(["add-trusted-cert", "-r", "trustRoot", "-k", kc, path("ca.pem")])
        let identities = try sandbox.check(["find-identity", "-v", "-p", "ssl-client", kc])
        #expect(identities.lines.count == 2)
        #expect(
            identities.lines.first?.hasPrefix("  1) ") == true
                && identities.lines.first?.hasSuffix(" \"CI Signer\"") == true)
        #expect(identities.lines.last == "     1 valid identities found")
        try sandbox.check(["add-generic-password", "-a", "ci", "-s", "api-token", "-w", "t0k3n", kc])
        #expect(try sandbox.check(["find-generic-password", "-s", "api-token", "-w"]).stdout == "t0k3n\n")
        try sandbox.check(["lock-keychain", kc])
        let locked = try sandbox.run(["find-generic-password", "-s", "api-token", "-w", kc])
        #expect(locked.status == 36)
        #expect(locked.stdout.isEmpty)
        #expect(locked.stderr == "security: SecKeychainItemCopyContent: User interaction is not allowed.\n")
        try sandbox.check(["delete-keychain", kc])
        #expect(!FileManager.default.fileExists(atPath: kc))
    }

    @Test func anUnlockServesLaterProcessesUntilALockFromAnyProcess() throws {
        let kc = try unlockedKeychain()
        for _ in 0..<2 {
            #expect(try sandbox.check(["find-generic-password", "-s", "deploy", "-w", kc]).stdout == "token-123\n")
        }
        // Writes work through the agent too.
        try sandbox.check(["add-generic-password", "-a", "ci", "-s", "second", "-w", "two", kc])
        #expect(try sandbox.check(["find-generic-password", "-s", "second", "-w", kc]).stdout == "two\n")
        let listing = SecurityToolSandbox.json(try sandbox.check(["keychain-agent", "-l", "--json"]))
        let held = listing["keychains"] as? [[String: Any]] ?? []
        #expect(held.count == 1 && held.first?["path"] as? String == kc)
        // lock-keychain -a in another process locks it for everyone.
        try sandbox.check(["lock-keychain", "-a"])
        #expect(try sandbox.run(["find-generic-password", "-s", "deploy", "-w", kc]).status == 36)
        #expect(try sandbox.run(["add-generic-password", "-a", "x", "-s", "third", "-w", "3", kc]).status == 36)
    }

    @Test func theInactivityTimeoutLocksTheAgentsCopy() throws {
        let kc = try unlockedKeychain()
        try sandbox.check(["set-keychain-settings", "-t", "2", kc])
        #expect(try sandbox.check(["show-keychain-info", kc]).stderr == "Keychain \"\(kc)\" timeout=2s\n")
        // Eventually (2 s after the last read) every process sees it locked; the guard is generous.
        var status: Int32 = 0
        for _ in 0..<60 {
            status = try sandbox.run(["find-generic-password", "-s", "deploy", "-w", kc]).status
            if status != 0 { break }
            Thread.sleep(forTimeInterval: 0.5)  // reads reset the inactivity timer: leave gaps
            Thread.sleep(forTimeInterval: 2.5)
        }
        #expect(status == 36)
        // Without a timeout it stays unlocked.
        try sandbox.check(["set-keychain-settings", kc])
        try sandbox.check(["unlock-keychain", "-p", "pw", kc])
        Thread.sleep(forTimeInterval: 3)
        #expect(try sandbox.check(["find-generic-password", "-s", "deploy", "-w", kc]).stdout == "token-123\n")
    }

    @Test func anAgentKilledWithSIGKILLLosesOnlyTheUnlockStateAndItsStaleSocketIsReplaced() throws {
        let kc = try unlockedKeychain()
        let pid = try agentPID()
        #expect(pid > 0)
        #expect(kill(pid, SIGKILL) == 0)
        for _ in 0..<100 where kill(pid, 0) == 0 { Thread.sleep(forTimeInterval: 0.05) }
        #expect(FileManager.default.fileExists(atPath: socketPath), "SIGKILL leaves a stale socket behind")
        // Locked again, nothing lost: the item is there and readable after the next unlock.
        #expect(try sandbox.run(["find-generic-password", "-s", "deploy", "-w", kc]).status == 36)
        #expect(
            try sandbox.check(["find-generic-password", "-s", "deploy", kc]).stdout.contains("\"acct\"<blob>=\"ci\""))
        try sandbox.check(["unlock-keychain", "-p", "pw", kc])
        #expect(try agentPID() != pid, "a new agent replaced the stale socket")
        #expect(try sandbox.check(["find-generic-password", "-s", "deploy", "-w", kc]).stdout == "token-123\n")
    }

    @Test func eightProcessesReadThroughTheAgentAtOnce() throws {
        let kc = try unlockedKeychain()
        let results = Mutex8()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let output = try? sandbox.run(["find-generic-password", "-s", "deploy", "-w", kc])
            results.set(index, output?.status == 0 && output?.stdout == "token-123\n")
        }
        #expect(results.all)
    }

    @Test func theAgentsMemoryIsLockedAndItCannotBeDumped() throws {
        _ = try unlockedKeychain()
        let pid = try agentPID()
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let locked = status.split(separator: "\n").first { $0.hasPrefix("VmLck:") }
        let kilobytes = locked.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        #expect(kilobytes >= 4, "the key memory is mlocked: \(locked ?? "no VmLck")")
        // /proc files report no size: read to the end through a file handle.
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(pid)/smaps"))
        let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        try handle.close()
        let flags = smaps.split(separator: "\n").filter { $0.hasPrefix("VmFlags:") }
        #expect(flags.contains { $0.contains(" lo") && $0.contains(" dd") }, "a locked region excluded from dumps")
        let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        #expect(limits.split(separator: "\n").contains { $0.hasPrefix("Max core file size") && $0.contains(" 0 ") })
        // PR_SET_DUMPABLE 0: no core file, no ptrace by the user's other processes (the kernel then makes
        // /proc/<pid>/ owned by root).
        let listing = SecurityToolSandbox.json(try sandbox.check(["keychain-agent", "-l", "--json"]))
        #expect(listing["dumpable"] as? Bool == false)
        let attributes = try FileManager.default.attributesOfItem(atPath: "/proc/\(pid)/mem")
        #expect((attributes[.ownerAccountID] as? NSNumber)?.intValue == 0)
    }

    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func aPeerOfAnotherUserIsRefused() throws {
        _ = try unlockedKeychain()
        // Open the way for another user to reach the socket (the 0700 directory would stop it first).
        let directory = sandbox.runtimeDirectory + "/opensecurity"
        for (file, mode) in [
            (sandbox.directory.url.path, 0o755), (sandbox.runtimeDirectory, 0o755), (directory, 0o755),
            (socketPath, 0o777),
        ] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
        }
        // A raw client as uid 65534 connects; before any request the agent answers status 3 (refused) and hangs up.
        let script = """
            import socket, struct, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(10)
            s.connect(sys.argv[1])
            print(s.recv(16).hex())
            try:
                s.sendall(b"OSA1" + bytes([1]) + struct.pack(">I", 0))
                print(s.recv(16).hex())
            except OSError:
                print("closed")
            """
        let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let python else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", python, "-c", script, socketPath]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        let answer = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = answer.split(separator: "\n").map(String.init)
        #expect(lines.first == "0300000000", "refused: \(answer)")
        #expect(lines.dropFirst().first.map { $0 == "closed" || $0.isEmpty } ?? true, "nothing served after: \(answer)")
        // The agent's own user is still served (once the directory is private again: clients refuse it otherwise).
        for file in [sandbox.runtimeDirectory, directory] {
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: file)
        }
        #expect(try agentPID() > 0)
    }

    @Test func anUnsafeRuntimeDirectoryIsRefused() throws {
        let kc = path("unsafe.keychain-db")
        try sandbox.check(["create-keychain", "-p", "pw", kc])
        let directory = sandbox.runtimeDirectory + "/opensecurity"
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory)
        try sandbox.check(["lock-keychain", kc])
        let run = try sandbox.run(["unlock-keychain", "-p", "pw", kc])
        #expect(run.status == exitStatus(-25291), "errSecNotAvailable: no agent in a directory others can write")
        #expect(run.stderr.contains("refusing \(directory)"))
        #expect(try sandbox.run(["find-generic-password", "-s", "x", "-w", kc]).status != 0)
    }
}

/// Eight results filled in from concurrent closures.
final class Mutex8: @unchecked Sendable {
    private let lock = NSLock()
    private var values = [Bool](repeating: false, count: 8)
    func set(_ index: Int, _ value: Bool) { lock.withLock { values[index] = value } }
    var all: Bool { lock.withLock { values.allSatisfy { $0 } } }
}
