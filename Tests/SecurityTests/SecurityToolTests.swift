import Foundation
import OSecTestSupport
import Testing

/// The `security` command line: password items added, found and deleted with macOS security(1)'s options,
/// output and exit codes, on a keychain chosen through OPENSECURITY_KEYCHAIN or a keychain operand.
@Suite(.enabled(if: SecurityTool.executable != nil, "needs the security executable (swift build)"))
struct SecurityToolTests {
    let sandbox: SecurityToolSandbox
    var directory: TemporaryDirectory { sandbox.directory }
    var keychainPath: String { sandbox.keychainPath }

    init() throws { sandbox = try SecurityToolSandbox() }

    typealias Run = SecurityToolSandbox.Run

    func security(_ arguments: [String], stdin: String? = nil) throws -> Run {
        try sandbox.run(arguments, stdin: stdin)
    }

    @Test func genericPasswordLifecycle() throws {
        #expect(try security(["add-generic-password", "-a", "alice", "-s", "myapp", "-w", "s3cret!"]).status == 0)
        let duplicate = try security(["add-generic-password", "-a", "alice", "-s", "myapp", "-w", "other"])
        #expect(duplicate.status == 45)
        #expect(
            duplicate.stderr
                == "security: SecKeychainItemCreateFromContent (<default>): The specified item already exists in "
                + "the keychain.\n"
        )
        #expect(try security(["find-generic-password", "-a", "alice", "-s", "myapp", "-w"]).stdout == "s3cret!\n")
        #expect(
            try security(["add-generic-password", "-U", "-a", "alice", "-s", "myapp", "-w", "updated"]).status == 0)

        let found = try security(["find-generic-password", "-s", "myapp", "-g"])
        #expect(found.status == 0)
        #expect(found.stderr == "password: \"updated\"\n")
        let lines = found.stdout.split(separator: "\n").map(String.init)
        #expect(lines.prefix(4) == ["keychain: \"\(keychainPath)\"", "version: 512", "class: \"genp\"", "attributes:"])
        #expect(lines.contains("    0x00000007 <blob>=\"myapp\""), "the label defaults to the service")
        #expect(lines.contains("    \"acct\"<blob>=\"alice\""))
        #expect(lines.contains("    \"svce\"<blob>=\"myapp\""))
        #expect(lines.contains("    \"gena\"<blob>=<NULL>"))
        #expect(lines.contains { $0.hasPrefix("    \"cdat\"<timedate>=0x") && $0.hasSuffix("Z\\000\"") })
        #expect(lines.count == 4 + 16, "every genp attribute is listed")

        let missing = try security(["find-generic-password", "-s", "nothere"])
        #expect(missing.status == 44)
        #expect(
            missing.stderr
                == "security: SecKeychainSearchCopyNext: The specified item could not be found in the keychain.\n")

        let deleted = try security(["delete-generic-password", "-a", "alice", "-s", "myapp"])
        // macOS prints the deleted item on stdout and "password has been deleted." on stderr (issue 16).
        #expect(deleted.status == 0 && deleted.stderr.hasSuffix("password has been deleted.\n"))
        #expect(deleted.stdout.hasPrefix("keychain: \"\(keychainPath)\"\n"))
        #expect(try security(["find-generic-password", "-a", "alice", "-s", "myapp"]).status == 44)
        #expect(try security(["delete-generic-password", "-a", "alice", "-s", "myapp"]).status == 44)
    }

    @Test func passwordsFromStandardInputAndInHex() throws {
        #expect(
            try security(["add-generic-password", "-a", "bob", "-s", "prompted", "-w"], stdin: "from stdin\n").status
                == 0)
        #expect(try security(["find-generic-password", "-a", "bob", "-s", "prompted", "-w"]).stdout == "from stdin\n")
        #expect(try security(["add-generic-password", "-a", "bob", "-s", "binary", "-X", "00ff10"]).status == 0)
        #expect(try security(["find-generic-password", "-a", "bob", "-s", "binary", "-w"]).stdout == "00ff10\n")
        #expect(
            try security(["find-generic-password", "-a", "bob", "-s", "binary", "-g"]).stderr
                == "password: 0x00FF10  \"\\000\\377\\020\"\n")
    }

    @Test func internetPasswords() throws {
        #expect(
            try security([
                "add-internet-password", "-a", "carol", "-s", "example.com", "-r", "htps", "-P", "443",
                "-p", "/login", "-w", "pw",
            ]).status == 0)
        let found = try security(["find-internet-password", "-s", "example.com", "-a", "carol"])
        #expect(found.status == 0)
        let lines = found.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("class: \"inet\""))
        #expect(lines.contains("    \"ptcl\"<uint32>=\"htps\""))
        #expect(lines.contains("    \"port\"<uint32>=0x000001BB "))
        #expect(lines.contains("    \"path\"<blob>=\"/login\""))
        #expect(lines.contains("    \"srvr\"<blob>=\"example.com\""))
        #expect(try security(["find-internet-password", "-s", "example.com", "-w"]).stdout == "pw\n")
        #expect(try security(["find-internet-password", "-s", "example.com", "-P", "8443"]).status == 44)
        #expect(try security(["delete-internet-password", "-s", "example.com"]).status == 0)
    }

    @Test func keychainOperandsAndManagement() throws {
        let other = directory.path("work.keychain-db")
        #expect(try security(["create-keychain", "-p", "pw", other]).status == 0)
        #expect(
            try security(["create-keychain", other]).status == Int32(UInt32(bitPattern: -25296) & 0xFF),
            "errSecDuplicateKeychain")
        // A passwordless keychain named by path: items go there, not to the default keychain.
        let plain = directory.path("plain.keychain-db")
        #expect(try security(["create-keychain", plain]).status == 0)
        #expect(try security(["add-generic-password", "-a", "dave", "-s", "svc", "-w", "x", plain]).status == 0)
        #expect(try security(["find-generic-password", "-a", "dave", "-s", "svc", "-w", plain]).stdout == "x\n")
        #expect(
            try security(["find-generic-password", "-a", "dave", "-s", "svc", keychainPath]).status == 44,
            "the item is not in the default keychain")
        // create-keychain put `plain` on the search list (as on macOS), which commands without operands search.
        #expect(try security(["find-generic-password", "-a", "dave", "-s", "svc", "-w"]).stdout == "x\n")
        #expect(try security(["default-keychain"]).stdout == "    \"\(keychainPath)\"\n")
        let listed = try security(["list-keychains"]).stdout
        #expect(listed.hasPrefix("    \"\(keychainPath)\"\n") && listed.contains(plain) && listed.contains(other))
        // macOS prints the settings on stderr, naming the keychain as given (issue 16).
        #expect(try security(["show-keychain-info", plain]).stderr == "Keychain \"\(plain)\" no-timeout\n")
        #expect(try security(["delete-keychain", plain]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: plain))
        #expect(
            try security(["delete-keychain", plain]).status == Int32(UInt32(bitPattern: -25294) & 0xFF),
            "errSecNoSuchKeychain")
    }

    @Test(.enabled(if: OpenSSLCLI.isAvailable)) func importAndFindIdentitiesAndCertificates() throws {
        try OpenSSLCLI.check([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", directory.path("k.pem"),
            "-out", directory.path("c.pem"), "-subj", "/CN=Tool Test/emailAddress=t@example.com", "-days", "5",
        ])
        try OpenSSLCLI.check([
            "pkcs12", "-export", "-in", directory.path("c.pem"), "-inkey", directory.path("k.pem"),
            "-out", directory.path("id.p12"), "-passout", "pass:pw", "-name", "My Identity",
        ])
        let wrong = try security(["import", directory.path("id.p12"), "-P", "nope"])
        // macOS's import exits with 1 on every failure (issue 16: "import failures exit as macOS's do").
        #expect(wrong.status == 1 && wrong.stdout.isEmpty)
        #expect(wrong.stderr.hasPrefix("security: SecKeychainItemImport: "))
        let imported = try security(["import", directory.path("id.p12"), "-P", "pw", "-T", "/usr/bin/codesign"])
        #expect(imported.status == 0 && imported.stdout == "1 identity imported.\n", "\(imported.stderr)")

        let sha1 =
            try OpenSSLCLI.check(["x509", "-in", directory.path("c.pem"), "-noout", "-fingerprint", "-sha1"]).stdoutText
            .split(separator: "=").last.map {
                $0.replacingOccurrences(of: ":", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
            } ?? ""
        let identities = try security(["find-identity"])
        #expect(identities.stdout.contains("  1) \(sha1) \"Tool Test\""), "\(identities.stdout)")
        #expect(
            identities.stdout.contains("     1 identities found")
                && identities.stdout.contains("     0 valid identities found"),
            "a self-signed certificate is not trusted")
        #expect(try security(["find-identity", "-v"]).stdout == "     0 valid identities found\n")

        let hashes = try security(["find-certificate", "-c", "Tool", "-Z"])
        #expect(hashes.stdout.contains("SHA-1 hash: \(sha1)\n"))
        #expect(hashes.stdout.contains("    \"labl\"<blob>=\"My Identity\"\n"))
        #expect(hashes.stdout.contains("    \"alis\"<blob>=\"t@example.com\"\n"))
        let pem = try security(["find-certificate", "-e", "t@example.com", "-p"]).stdout
        #expect(pem == String(decoding: try directory.read("c.pem"), as: UTF8.self))
        #expect(try security(["find-certificate", "-c", "Nobody"]).status == 44)

        // A PEM certificate file.
        try OpenSSLCLI.check([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
            directory.path("k2.pem"), "-out", directory.path("c2.pem"), "-subj", "/CN=Second", "-days", "5",
        ])
        #expect(try security(["import", directory.path("c2.pem")]).stdout == "1 certificate imported.\n")
        #expect(try security(["find-certificate", "-a"]).stdout.components(separatedBy: "version: 256").count == 3)
    }

    @Test func badUsage() throws {
        #expect(try security(["find-generic-password", "-Z"]).status == 2)
        #expect(try security(["add-internet-password", "-s", "x", "-P", "notaport", "-w", "p"]).status == 2)
        #expect(try security(["no-such-command"]).status == 1)
    }
}

/// The `security` executable built next to the test bundle.
enum SecurityTool {
    static var executable: String? { BuiltExecutable.path("security") }
    /// The full tool the front end runs for everything it does not answer itself.
    static var fullTool: String? { BuiltExecutable.path("security-tool") }
}
