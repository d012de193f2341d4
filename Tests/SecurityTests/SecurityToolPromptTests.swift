import Foundation
import OSecTestSupport
import Testing

/// Issue 12 item 9: secrets typed at a prompt are not echoed (checked on a real pseudo-terminal), and import asks
/// for a passphrase instead of assuming an empty one.
@Suite(
    .enabled(
        if: SecurityTool.executable != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
        "needs security and python3 (for a pseudo-terminal)"))
struct SecurityToolPromptTests {
    let sandbox: SecurityToolSandbox
    init() throws { sandbox = try SecurityToolSandbox("osec-tool-prompt") }

    /// Runs `security arguments…` on a pseudo-terminal, answering each prompt (a line ending in ": ") with the
    /// next of `answers`; returns the exit status and everything the terminal showed.
    private func onTerminal(_ arguments: [String], answers: [String]) throws -> (status: Int32, transcript: String) {
        let script = """
            import json, os, pty, select, sys, time
            argv, answers = json.loads(sys.argv[1]), json.loads(sys.argv[2])
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(argv[0], argv)
            out, buffer, deadline = b"", b"", time.time() + 60
            while time.time() < deadline:
                ready, _, _ = select.select([fd], [], [], 0.2)
                if ready:
                    try:
                        data = os.read(fd, 4096)
                    except OSError:
                        break
                    if not data:
                        break
                    out += data
                    buffer += data
                    if answers and buffer.rstrip(b" ").endswith(b":"):
                        time.sleep(0.2)
                        os.write(fd, answers.pop(0).encode() + b"\\n")
                        buffer = b""
            done, status = os.waitpid(pid, os.WNOHANG)
            if done == 0:
                # Still running at the deadline (blocked writing to a terminal nobody reads?): a failure, not a hang.
                os.kill(pid, 9)
                out += b"\\n[no exit within 60 s: killed]"
                _, status = os.waitpid(pid, 0)
            result = {"status": os.waitstatus_to_exitcode(status), "out": out.decode("utf-8", "replace")}
            sys.stdout.write(json.dumps(result))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let argv = [SecurityTool.executable ?? ""] + arguments
        let encode = { (value: [String]) in
            String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self)
        }
        process.arguments = ["-c", script, try encode(argv), try encode(answers)]
        process.environment = sandbox.environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let result = (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
        return (Int32(result["status"] as? Int ?? -1), result["out"] as? String ?? "")
    }

    @Test func unlockKeychainPromptsWithoutEcho() throws {
        let kc = sandbox.directory.path("tty.keychain-db")
        try sandbox.check(["create-keychain", "-p", "Sup3r-S3cret", kc])
        try sandbox.check(["lock-keychain", kc])
        let (status, transcript) = try onTerminal(["unlock-keychain", kc], answers: ["Sup3r-S3cret"])
        #expect(status == 0, "\(transcript)")
        #expect(transcript.contains("password to unlock \(kc): "))
        #expect(!transcript.contains("Sup3r-S3cret"), "the typed password was echoed: \(transcript)")
        // The unlock reached the agent: another process reads the keychain.
        try sandbox.check(["add-generic-password", "-a", "a", "-s", "s", "-w", "v", kc])
    }

    @Test func addPasswordPromptsTwiceWithoutEcho() throws {
        let (status, transcript) = try onTerminal(
            ["add-generic-password", "-a", "me", "-s", "typed", "-w"], answers: ["t0p-s3cret", "t0p-s3cret"])
        #expect(status == 0, "\(transcript)")
        #expect(
            transcript.contains("password data for new item: ") && transcript.contains("retype password for new item: ")
        )
        #expect(!transcript.contains("t0p-s3cret"))
        #expect(try sandbox.check(["find-generic-password", "-s", "typed", "-w"]).stdout == "t0p-s3cret\n")
        // Two different entries three times: refused.
        let (mismatch, text) = try onTerminal(
            ["add-generic-password", "-a", "me", "-s", "other", "-w"], answers: ["a", "b", "a", "b", "a", "b"])
        #expect(mismatch == 1 && text.contains("passwords don't match"))
    }

    @Test(.enabled(if: OpenSSLCLI.isAvailable)) func importWithoutPassphrasePromptsWithoutEcho() throws {
        let directory = sandbox.directory
        try OpenSSLCLI.check([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
            directory.path("k.pem"), "-out", directory.path("c.pem"), "-subj", "/CN=Prompted", "-days", "3",
        ])
        try OpenSSLCLI.check([
            "pkcs12", "-export", "-in", directory.path("c.pem"), "-inkey", directory.path("k.pem"), "-out",
            directory.path("p.p12"), "-passout", "pass:pfx-Pass",
        ])
        let (status, transcript) = try onTerminal(["import", directory.path("p.p12")], answers: ["pfx-Pass"])
        #expect(status == 0, "\(transcript)")
        #expect(transcript.contains("Enter passphrase: ") && transcript.contains("1 identity imported."))
        #expect(!transcript.contains("pfx-Pass"))
        // Not a terminal and no input: no silent empty passphrase.
        let piped = try sandbox.run(["import", directory.path("p.p12")], stdin: "")
        #expect(piped.status == 1 && piped.stderr.contains("passphrase"))
    }
}
