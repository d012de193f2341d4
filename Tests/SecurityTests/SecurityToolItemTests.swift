import Foundation
import OSecTestSupport
import Testing

/// Item commands beyond the password basics: -X and -U, required options, find-key and create-keypair,
/// add-certificates, delete-certificate and delete-identity, and `--json` on the listing commands.
@Suite(.enabled(if: SecurityTool.executable != nil, "needs the security executable (swift build)"))
struct SecurityToolItemTests {
    let sandbox: SecurityToolSandbox
    init() throws { sandbox = try SecurityToolSandbox("osec-tool-items") }

    private func path(_ name: String) -> String { sandbox.directory.path(name) }

    @Test func addRequiresAccountAndServiceAndTakesHexAndUpdates() throws {
        #expect(try sandbox.run(["add-generic-password", "-s", "only-service", "-w", "x"]).status == 2)
        #expect(try sandbox.run(["add-internet-password", "-a", "only-account", "-w", "x"]).status == 2)
        try sandbox.check(["add-generic-password", "-a", "a", "-s", "hex", "-X", "e282ac00"])
        #expect(try sandbox.check(["find-generic-password", "-s", "hex", "-w"]).stdout == "e282ac00\n")
        #expect(try sandbox.run(["add-generic-password", "-a", "a", "-s", "hex", "-X", "zz"]).status == 2)
        #expect(try sandbox.run(["add-generic-password", "-a", "a", "-s", "hex", "-w", "dup"]).status == 45)
        try sandbox.check(["add-generic-password", "-U", "-a", "a", "-s", "hex", "-w", "now text"])
        #expect(try sandbox.check(["find-generic-password", "-s", "hex", "-w"]).stdout == "now text\n")
        // -p is the legacy form of -w for generic passwords.
        try sandbox.check(["add-generic-password", "-a", "a", "-s", "legacy", "-p", "old-style"])
        #expect(try sandbox.check(["find-generic-password", "-s", "legacy", "-w"]).stdout == "old-style\n")
        // -j is the comment (not JSON) in the password commands.
        try sandbox.check(["add-generic-password", "-a", "a", "-s", "commented", "-j", "a note", "-w", "x"])
        let found = try sandbox.check(["find-generic-password", "-j", "a note"])
        #expect(found.lines.contains("    \"icmt\"<blob>=\"a note\""))
    }

    @Test func findPasswordJSONIsOneDocument() throws {
        try sandbox.check(["add-generic-password", "-a", "alice", "-s", "json", "-w", "pa55"])
        let plain = SecurityToolSandbox.json(try sandbox.check(["find-generic-password", "-s", "json", "--json"]))
        let attributes = plain["attributes"] as? [String: Any] ?? [:]
        #expect(plain["class"] as? String == "genp" && plain["keychain"] as? String == sandbox.keychainPath)
        #expect(attributes["acct"] as? String == "alice" && attributes["svce"] as? String == "json")
        #expect((attributes["cdat"] as? String)?.hasSuffix("Z") == true)
        #expect(plain["password"] == nil)
        let withPassword = SecurityToolSandbox.json(
            try sandbox.check(["find-generic-password", "-s", "json", "-g", "--json"]))
        #expect(withPassword["password"] as? String == Data("pa55".utf8).base64EncodedString())
        let missing = try sandbox.run(["find-generic-password", "-s", "nothing", "--json"])
        #expect(missing.status == 44)
    }

    @Test func createKeypairAndFindKey() throws {
        try sandbox.check(["create-keypair", "-a", "ec", "-s", "256", "Build signing key"])
        try sandbox.check(["create-keypair", "-a", "rsa", "-s", "2048", "RSA pair"])
        #expect(try sandbox.run(["create-keypair", "-a", "dsa", "x"]).status == 2)
        #expect(try sandbox.run(["create-keypair"]).status == 2)
        let privateKeys = try sandbox.check(["find-key", "-t", "private"]).stdout
        #expect(privateKeys.components(separatedBy: "class: 0x00000010 \n").count == 3)
        let labelled = try sandbox.check(["find-key", "-l", "Build signing key", "-t", "private"]).lines
        #expect(
            labelled.prefix(4) == [
                "keychain: \"\(sandbox.keychainPath)\"", "version: 512", "class: 0x00000010 ", "attributes:",
            ])
        #expect(labelled.contains("    0x00000000 <uint32>=0x00000010 "))
        #expect(labelled.contains("    0x00000001 <blob>=\"Build signing key\""))
        #expect(labelled.contains("    0x00000009 <uint32>=0x00000049  \"\\000\\000\\000I\""), "CSSM_ALGID_ECDSA (73)")
        #expect(labelled.contains("    0x0000000A <uint32>=0x00000100 "), "256 bits")
        #expect(labelled.count == 4 + 27, "the 27 attributes of a CSSM key record")
        let publicKeys = try sandbox.check(["find-key", "-t", "public", "-l", "RSA pair"]).lines
        #expect(publicKeys.contains("class: 0x0000000F "))
        #expect(publicKeys.contains("    0x00000009 <uint32>=0x0000002A  \"\\000\\000\\000*\""), "CSSM_ALGID_RSA (42)")
        #expect(try sandbox.run(["find-key", "-l", "no such key"]).status == 44)
        let json = SecurityToolSandbox.json(try sandbox.check(["find-key", "--json", "-t", "private"]))
        #expect((json["keys"] as? [Any])?.count == 2)
        #expect(try sandbox.run(["find-key", "-t", "weird"]).status == 2)
    }

    @Test(.enabled(if: OpenSSLCLI.isAvailable)) func addAndDeleteCertificatesAndIdentities() throws {
        for name in ["one", "two"] {
            try OpenSSLCLI.check([
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                path("\(name).key"), "-out", path("\(name).pem"), "-subj", "/CN=Shared Name \(name)", "-days", "3",
            ])
        }
        try OpenSSLCLI.check(["x509", "-in", path("one.pem"), "-outform", "DER", "-out", path("one.der")])
        let added = try sandbox.run(["add-certificates", path("one.der"), path("two.pem")])
        #expect(added.status == 0 && added.stdout.isEmpty)
        let duplicate = try sandbox.run(["add-certificates", path("one.der")])
        #expect(duplicate.status == 1)
        #expect(duplicate.stderr == "security: \(path("one.der")): already in default keychain\n")
        #expect(try sandbox.run(["add-certificates"]).status == 2)
        // -c must match exactly one certificate.
        let ambiguous = try sandbox.run(["delete-certificate", "-c", "Shared Name"])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stderr == "security: \"Shared Name\" is ambiguous, matches more than one certificate\n")
        let sha1 =
            try OpenSSLCLI.check(["x509", "-in", path("one.pem"), "-noout", "-fingerprint", "-sha1"]).stdoutText
            .split(separator: "=").last.map {
                $0.replacingOccurrences(of: ":", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
            } ?? ""
        try sandbox.check(["delete-certificate", "-Z", sha1])
        #expect(try sandbox.run(["find-certificate", "-c", "Shared Name one"]).status == 44)
        try sandbox.check(["delete-certificate", "-c", "shared name TWO"])  // case-insensitive
        #expect(try sandbox.run(["delete-certificate", "-c", "Shared"]).status == 44)

        // An identity: certificate and private key go together.
        try OpenSSLCLI.check([
            "pkcs12", "-export", "-in", path("one.pem"), "-inkey", path("one.key"), "-out", path("one.p12"),
            "-passout", "pass:pw",
        ])
        try sandbox.check(["import", path("one.p12"), "-P", "pw"])
        #expect(try sandbox.check(["find-identity"]).stdout.contains("     1 identities found"))
        try sandbox.check(["delete-identity", "-c", "Shared Name one", "-t"])
        #expect(try sandbox.check(["find-identity"]).stdout.contains("     0 identities found"))
        #expect(try sandbox.run(["find-key", "-t", "private"]).status == 44, "the private key went with it")
        #expect(try sandbox.run(["delete-identity"]).status == 2)
    }

    @Test(.enabled(if: OpenSSLCLI.isAvailable)) func findCertificateOptionsAndJSON() throws {
        try OpenSSLCLI.check([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("m.key"),
            "-out", path("m.pem"), "-subj", "/CN=Mail Cert", "-days", "3",
            "-addext", "subjectAltName=email:a@example.com,email:b@example.com",
        ])
        try sandbox.check(["add-certificates", path("m.pem")])
        let mail = try sandbox.check(["find-certificate", "-c", "mail cert", "-m"]).lines
        #expect(mail.last == "email addresses: a@example.com, b@example.com")
        #expect(mail.contains("    \"alis\"<blob>=\"a@example.com\""))
        #expect(
            try sandbox.check(["find-certificate", "-a", "-c", "absent"]).stdout.isEmpty, "-a: no match is not an error"
        )
        let json = SecurityToolSandbox.json(try sandbox.check(["find-certificate", "-j", "-e", "b@example.com"]))
        let certificates = json["certificates"] as? [[String: Any]] ?? []
        #expect(certificates.count == 1)
        #expect(certificates.first?["subject"] as? String == "Mail Cert")
        let der = Data(base64Encoded: certificates.first?["der"] as? String ?? "") ?? Data()
        let pem = try OpenSSLCLI.check(["x509", "-inform", "DER", "-noout", "-subject"], stdin: der).stdoutText
        #expect(pem.contains("Mail Cert"))
        let identities = SecurityToolSandbox.json(try sandbox.check(["find-identity", "--json"]))
        #expect((identities["policies"] as? [[String: Any]])?.first?["policy"] as? String == "X.509 Basic")
    }
}
