import Foundation
import OSecTestSupport
import Security
import Testing

/// Keychain management commands against macOS's documented formats, line by line: create, delete, list, default,
/// login, lock, unlock, settings, info, password, dump; the dispatcher's usage and exit status rules.
@Suite(.enabled(if: SecurityTool.executable != nil, "needs the security executable (swift build)"))
struct SecurityToolKeychainTests {
    let sandbox: SecurityToolSandbox
    init() throws { sandbox = try SecurityToolSandbox("osec-tool-keychain") }

    private func path(_ name: String) -> String { sandbox.directory.path(name) }

    @Test func noCommandIsAUsageErrorOnStandardError() throws {
        let run = try sandbox.run([])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("Usage: security [-h] [-i] [-l] [-p prompt] [-q] [-v] [command] [opt ...]\n"))
        #expect(run.stderr.contains("\n    unlock-keychain"))
        #expect(try sandbox.run(["-Q"]).status == 2, "an unknown global option")
    }

    @Test func unknownCommandsExitOneAndCommandsMayBeAbbreviated() throws {
        let unknown = try sandbox.run(["no-such-command"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasPrefix("security: unknown command \"no-such-command\"\n"))
        // macOS matches a prefix of a command name, first in table order.
        #expect(try sandbox.run(["default-key"]).stdout == "    \"\(sandbox.keychainPath)\"\n")
    }

    @Test func optionErrorsPrintTheCommandsUsageAndExitTwo() throws {
        let illegal = try sandbox.run(["find-generic-password", "-Z"])
        #expect(illegal.status == 2)
        let lines = illegal.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "security: illegal option -- Z")
        #expect(lines.dropFirst().first?.hasPrefix("Usage: find-generic-password [-a account]") == true)
        let missing = try sandbox.run(["unlock-keychain", "-p"])
        #expect(missing.status == 2 && missing.stderr.hasPrefix("security: option requires an argument -- p\n"))
        // -h prints the usage, as macOS's commands do (status 2).
        let help = try sandbox.run(["lock-keychain", "-h"])
        #expect(help.status == 2 && help.stderr.hasPrefix("Usage: lock-keychain [-a | keychain]\n"))
        // Extra operands are a usage error, not ignored.
        #expect(try sandbox.run(["show-keychain-info", "a", "b"]).status == 2)
        #expect(try sandbox.run(["unlock-keychain", "-p", "x", "a", "b"]).status == 2)
        #expect(try sandbox.run(["add-generic-password", "-a", "x", "-s", "y", "-w", "z", "k1", "k2"]).status == 2)
    }

    @Test func helpShowsTheCommandListOrOneCommandsUsage() throws {
        let all = try sandbox.check(["help"])
        #expect(all.lines.contains { $0.hasPrefix("    verify-cert ") })
        #expect(all.lines.count > 30)
        #expect(try sandbox.check(["help", "import"]).stdout.hasPrefix("Usage: import inputfile [-k keychain]"))
        #expect(try sandbox.check(["-h", "export"]).stdout.hasPrefix("Usage: export [-k keychain]"))
        #expect(try sandbox.run(["help", "nonesuch"]).status == 1)
    }

    @Test func errorPrintsEachCodeInHexAndDecimalWithItsMessageAndExitsOne() throws {
        // macOS: `Error: 0x%08X %d <message>` per code on standard output, decimal or 0x-hex operands, status 1.
        let run = try sandbox.run(["error", "-25300", "0xFFFF9D28", "-25308", "0"])
        #expect(run.status == 1)
        #expect(run.lines.count == 4)
        let expected: [(hex: String, decimal: Int32)] = [
            ("0xFFFF9D2C", -25300), ("0xFFFF9D28", -25304), ("0xFFFF9D24", -25308), ("0x00000000", 0),
        ]
        for (line, code) in zip(run.lines, expected) {
            let message = (SecCopyErrorMessageString(code.decimal, nil) as String?) ?? ""
            #expect(!message.isEmpty)
            #expect(line == "Error: \(code.hex) \(code.decimal) \(message)")
        }
        // No code, or one that is not a number: a usage error.
        #expect(try sandbox.run(["error"]).status == 2)
        let bad = try sandbox.run(["error", "xyz"])
        #expect(bad.status == 2 && bad.stdout.isEmpty)
    }

    @Test func createListDefaultAndDeleteKeychains() throws {
        let work = path("work.keychain-db")
        try sandbox.check(["create-keychain", "-p", "pw", work])
        #expect(try sandbox.run(["create-keychain", "-p", "pw", work]).status == exitStatus(-25296))
        // A name without a slash lives in the default keychain's directory.
        try sandbox.check(["create-keychain", "-p", "pw", "named"])
        #expect(FileManager.default.fileExists(atPath: path("named.keychain-db")))
        let listed = try sandbox.check(["list-keychains"]).lines
        #expect(
            listed == ["    \"\(sandbox.keychainPath)\"", "    \"\(work)\"", "    \"\(path("named.keychain-db"))\""])
        #expect(try sandbox.check(["list-keychains", "-d", "user"]).lines == listed)
        #expect(try sandbox.check(["list-keychains", "-d", "dynamic"]).lines == [])
        #expect(try sandbox.run(["list-keychains", "-d", "bogus"]).status == 2)
        let json = SecurityToolSandbox.json(try sandbox.check(["list-keychains", "--json"]))
        #expect(json["keychains"] as? [String] == [sandbox.keychainPath, work, path("named.keychain-db")])

        // list-keychains -s replaces the search list (persistently).
        try sandbox.check(["list-keychains", "-d", "user", "-s", work])
        #expect(try sandbox.check(["list-keychains"]).lines == ["    \"\(work)\""])
        try sandbox.check(["list-keychains", "-s", work, sandbox.keychainPath])
        #expect(try sandbox.check(["list-keychains"]).lines == ["    \"\(work)\"", "    \"\(sandbox.keychainPath)\""])

        // default-keychain -s changes the default for later commands (OPENSECURITY_KEYCHAIN still wins).
        try sandbox.check(["default-keychain", "-s", work])
        let defaultWithoutOverride = try sandbox.run(
            ["default-keychain"], environment: ["OPENSECURITY_KEYCHAIN": ""])
        #expect(defaultWithoutOverride.stdout == "    \"\(work)\"\n")
        #expect(try sandbox.check(["default-keychain"]).stdout == "    \"\(sandbox.keychainPath)\"\n")
        #expect(try sandbox.run(["default-keychain", "-s", "a", "b"]).status == 2)
        try sandbox.check(["default-keychain", "-s"])  // no operand: unset
        #expect(
            try sandbox.run(["default-keychain"], environment: ["OPENSECURITY_KEYCHAIN": ""]).stdout
                == "    \"\(path("data"))/opensecurity/keychains/login.keychain-db\"\n")
        #expect(
            try sandbox.check(["login-keychain"]).stdout
                == "    \"\(path("data"))/opensecurity/keychains/login.keychain-db\"\n")
        try sandbox.check(["login-keychain", "-s", work])
        #expect(try sandbox.check(["login-keychain"]).stdout == "    \"\(work)\"\n")

        // delete-keychain removes the files and the search-list entry; a missing keychain is errSecNoSuchKeychain.
        try sandbox.check(["delete-keychain", work])
        #expect(!FileManager.default.fileExists(atPath: work))
        #expect(try sandbox.check(["list-keychains"]).lines == ["    \"\(sandbox.keychainPath)\""])
        let again = try sandbox.run(["delete-keychain", work])
        #expect(again.status == exitStatus(-25294))
        #expect(again.stderr == "security: SecKeychainDelete \(work): The specified keychain could not be found.\n")
        #expect(try sandbox.run(["delete-keychain"]).status == 2)
    }

    @Test func showKeychainInfoPrintsTheRealSettingsOnStandardError() throws {
        let kc = path("info.keychain-db")
        try sandbox.check(["create-keychain", "-p", "pw", kc])
        // A new password-protected keychain has macOS's defaults.
        let fresh = try sandbox.check(["show-keychain-info", kc])
        #expect(fresh.stdout.isEmpty)
        #expect(fresh.stderr == "Keychain \"\(kc)\" lock-on-sleep timeout=300s\n")
        try sandbox.check(["set-keychain-settings", "-u", "-t", "3600", kc])
        #expect(
            try sandbox.check(["show-keychain-info", kc]).stderr
                == "Keychain \"\(kc)\" use-lock-interval timeout=3600s\n")
        try sandbox.check(["set-keychain-settings", "-l", kc])
        #expect(
            try sandbox.check(["show-keychain-info", kc]).stderr == "Keychain \"\(kc)\" lock-on-sleep no-timeout\n")
        try sandbox.check(["set-keychain-settings", kc])
        #expect(try sandbox.check(["show-keychain-info", kc]).stderr == "Keychain \"\(kc)\" no-timeout\n")
        // The keychain is named as given: a name, not the path.
        try sandbox.check(["create-keychain", "-p", "pw", "short"])
        #expect(
            try sandbox.check(["show-keychain-info", "short"]).stderr
                == "Keychain \"short\" lock-on-sleep timeout=300s\n")
        // No operand: the default keychain, named <NULL> as macOS does (a passwordless keychain never locks).
        #expect(try sandbox.check(["show-keychain-info"]).stderr == "Keychain \"<NULL>\" no-timeout\n")
        let json = SecurityToolSandbox.json(try sandbox.check(["show-keychain-info", "--json", kc]))
        #expect(json["keychain"] as? String == kc && json["timeout"] is NSNull && json["lockOnSleep"] as? Bool == false)
        let missing = try sandbox.run(["show-keychain-info", path("none.keychain-db")])
        #expect(missing.status == exitStatus(-25294))
        #expect(try sandbox.run(["set-keychain-settings", "-t", "soon", kc]).status == 2)
    }

    @Test func unlockWithAWrongPasswordFailsAsOnMacOS() throws {
        let kc = path("wrong.keychain-db")
        try sandbox.check(["create-keychain", "-p", "right", kc])
        try sandbox.check(["lock-keychain", kc])
        let wrong = try sandbox.run(["unlock-keychain", "-p", "nope", kc])
        #expect(wrong.status == 51)
        #expect(
            wrong.stderr
                == "security: SecKeychainUnlock \(kc): The user name or passphrase you entered is not correct.\n")
        // Without -p the password comes from standard input when it is not a terminal.
        try sandbox.check(["unlock-keychain", kc], stdin: "right\n")
        #expect(try sandbox.run(["unlock-keychain", kc], stdin: "").status == exitStatus(-128), "no input: canceled")
        // -u (no password) succeeds only when already unlocked.
        try sandbox.check(["unlock-keychain", "-u", kc])
        try sandbox.check(["lock-keychain", kc])
        #expect(try sandbox.run(["unlock-keychain", "-u", kc]).status == 36)
        #expect(
            try sandbox.run(["unlock-keychain", "-p", "x", path("missing.keychain-db")]).status == exitStatus(-25294))
    }

    @Test func setKeychainPasswordReWrapsTheKeychain() throws {
        let kc = path("change.keychain-db")
        try sandbox.check(["create-keychain", "-p", "old", kc])
        try sandbox.check(["add-generic-password", "-a", "a", "-s", "s", "-w", "kept", kc])
        #expect(try sandbox.run(["set-keychain-password", "-o", "bad", "-p", "new", kc]).status == 51)
        try sandbox.check(["set-keychain-password", "-o", "old", "-p", "new", kc])
        try sandbox.check(["lock-keychain", kc])
        #expect(try sandbox.run(["unlock-keychain", "-p", "old", kc]).status == 51)
        try sandbox.check(["unlock-keychain", "-p", "new", kc])
        #expect(try sandbox.check(["find-generic-password", "-s", "s", "-w", kc]).stdout == "kept\n")
        // Passwords from standard input: old, then new.
        try sandbox.check(["set-keychain-password", kc], stdin: "new\nnewer\n")
        try sandbox.check(["lock-keychain", kc])
        try sandbox.check(["unlock-keychain", "-p", "newer", kc])
    }

    @Test func dumpKeychainListsEveryItemInMacOSsBlocks() throws {
        let kc = path("dump.keychain-db")
        try sandbox.check(["create-keychain", "-p", "pw", kc])
        try sandbox.check(["add-generic-password", "-a", "alice", "-s", "mail", "-w", "s3cret", kc])
        try sandbox.check(["add-internet-password", "-a", "bob", "-s", "example.com", "-P", "80", "-w", "pw", kc])
        let dump = try sandbox.check(["dump-keychain", kc]).lines
        #expect(dump.filter { $0 == "keychain: \"\(kc)\"" }.count == 2)
        let generic = dump.firstIndex(of: "class: \"genp\"") ?? 0
        #expect(dump[generic - 1] == "version: 512" && dump[generic + 1] == "attributes:")
        #expect(dump[generic + 2] == "    0x00000007 <blob>=\"mail\"")
        #expect(dump[generic + 3] == "    0x00000008 <blob>=<NULL>")
        #expect(dump[generic + 4] == "    \"acct\"<blob>=\"alice\"")
        #expect(dump.contains("class: \"inet\""))
        // Port 80 is 0x00000050, whose last byte is printable: both forms, as macOS prints it.
        #expect(dump.contains("    \"port\"<uint32>=0x00000050  \"\\000\\000\\000P\""))
        #expect(dump.contains("    \"atyp\"<blob>=\"dflt\""))
        #expect(!dump.contains("data:"))
        let withData = try sandbox.check(["dump-keychain", "-d", kc]).lines
        #expect(withData.filter { $0 == "data:" }.count == 2)
        #expect(withData.contains("\"s3cret\""))
        let json = SecurityToolSandbox.json(try sandbox.check(["dump-keychain", "-d", "--json", kc]))
        let items = json["items"] as? [[String: Any]] ?? []
        #expect(items.count == 2)
        #expect(items.contains { ($0["data"] as? String) == Data("s3cret".utf8).base64EncodedString() })
        #expect(items.contains { ($0["attributes"] as? [String: Any])?["acct"] as? String == "alice" })
        // Locked: attributes are listed, the data fails with errSecInteractionNotAllowed.
        try sandbox.check(["lock-keychain", kc])
        let locked = try sandbox.run(["dump-keychain", "-d", kc])
        #expect(locked.status == 36 && locked.stdout.contains("\"acct\"<blob>=\"alice\""))
    }
}
