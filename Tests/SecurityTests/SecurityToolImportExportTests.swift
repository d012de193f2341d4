import Foundation
import OSecTestSupport
import Testing

/// `import` of files made by openssl and keytool in every key and certificate encoding, and `export` in every
/// format, read back by the real openssl command.
@Suite(.enabled(if: SecurityTool.executable != nil && OpenSSLCLI.isAvailable, "needs security and openssl"))
struct SecurityToolImportExportTests {
    let sandbox: SecurityToolSandbox
    init() throws { sandbox = try SecurityToolSandbox("osec-tool-impexp") }

    private func path(_ name: String) -> String { sandbox.directory.path(name) }

    /// The public key of a key file as openssl prints it (SPKI PEM), for comparisons.
    private func publicKey(_ file: String, passphrase: String? = nil, inform: String = "PEM") throws -> String {
        var args = ["pkey", "-in", file, "-inform", inform, "-pubout"]
        if let passphrase { args += ["-passin", "pass:\(passphrase)"] }
        return try OpenSSLCLI.check(args).stdoutText
    }

    @Test func importsKeysInEveryEncodingOpenSSLWrites() throws {
        try OpenSSLCLI.check([
            "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", path("rsa8.pem"),
        ])
        try OpenSSLCLI.check(["rsa", "-in", path("rsa8.pem"), "-traditional", "-out", path("rsa1.pem")])
        try OpenSSLCLI.check([
            "rsa", "-in", path("rsa8.pem"), "-traditional", "-outform", "DER", "-out", path("rsa1.der"),
        ])
        try OpenSSLCLI.check([
            "pkcs8", "-topk8", "-in", path("rsa8.pem"), "-v2", "aes-256-cbc", "-passout", "pass:k3y",
            "-out", path("rsa8enc.pem"),
        ])
        try OpenSSLCLI.check([
            "pkcs8", "-topk8", "-in", path("rsa8.pem"), "-v2", "aes-128-cbc", "-passout", "pass:k3y", "-outform", "DER",
            "-out", path("rsa8enc.der"),
        ])
        try OpenSSLCLI.check([
            "rsa", "-in", path("rsa8.pem"), "-traditional", "-aes128", "-passout", "pass:k3y", "-out",
            path("legacy.pem"),
        ])
        try OpenSSLCLI.check([
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", path("ec8.pem"),
        ])
        try OpenSSLCLI.check(["ec", "-in", path("ec8.pem"), "-out", path("sec1.pem")])
        try OpenSSLCLI.check(["ec", "-in", path("ec8.pem"), "-outform", "DER", "-out", path("sec1.der")])
        try OpenSSLCLI.check(["pkey", "-in", path("ec8.pem"), "-pubout", "-out", path("spki.pem")])
        try OpenSSLCLI.check(["pkey", "-in", path("ec8.pem"), "-pubout", "-outform", "DER", "-out", path("spki.der")])

        // Each file into a keychain of its own (several files hold the same key, which a keychain stores once).
        let imports: [(file: String, options: [String], stdin: String?)] = [
            ("rsa8.pem", [], nil), ("rsa1.pem", [], nil), ("ec8.pem", [], nil), ("rsa1.der", ["-f", "openssl"], nil),
            ("sec1.pem", [], nil), ("sec1.der", [], nil), ("spki.pem", ["-t", "pub"], nil), ("spki.der", [], nil),
            ("rsa8enc.pem", ["-P", "k3y", "-f", "pkcs8"], nil), ("rsa8enc.der", ["-P", "k3y"], nil),
            ("legacy.pem", [], "k3y\n"),  // the passphrase from standard input
        ]
        for item in imports {
            let kc = path("\(item.file).keychain-db")
            try sandbox.check(["create-keychain", kc])
            let run = try sandbox.check(["import", path(item.file), "-k", kc] + item.options, stdin: item.stdin)
            #expect(run.lines == ["1 key imported."], "\(item.file)")
        }
        // The same key again: errSecDuplicateItem, status 1.
        let duplicate = try sandbox.run(["import", path("rsa1.pem"), "-k", path("rsa8.pem.keychain-db")])
        #expect(duplicate.status == 1 && duplicate.stderr.contains("already exists"))
        let other = path("other.keychain-db")
        try sandbox.check(["create-keychain", other])
        // Wrong or missing passphrase: macOS's import fails with status 1, nothing imported.
        let wrong = try sandbox.run(["import", path("rsa8enc.pem"), "-k", other, "-P", "nope"])
        #expect(
            wrong.status == 1 && wrong.stdout.isEmpty && wrong.stderr.hasPrefix("security: SecKeychainItemImport: "))
        let none = try sandbox.run(["import", path("legacy.pem"), "-k", other], stdin: "")
        #expect(none.status == 1 && none.stderr.contains("passphrase"), "no passphrase: no empty-passphrase default")
        // Public keys export as SubjectPublicKeyInfo.
        let spki = try sandbox.check(["export", "-k", path("spki.pem.keychain-db"), "-t", "pubKeys", "-p"])
        #expect(spki.stdout == String(decoding: try sandbox.directory.read("spki.pem"), as: UTF8.self))
        // The imported key is the same key: exported again, openssl derives the same public key.
        let exported = try sandbox.check([
            "export", "-k", path("ec8.pem.keychain-db"), "-t", "privKeys", "-f", "pkcs8", "-p",
        ])
        try sandbox.directory.write("back.pem", exported.stdoutData)
        #expect(try publicKey(path("back.pem")) == publicKey(path("ec8.pem")))
    }

    @Test func importsPEMBundlesAndKeytoolStores() throws {
        try OpenSSLCLI.check([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("b.key"), "-out", path("b.crt"),
            "-subj", "/CN=Bundle Leaf", "-days", "3",
        ])
        try OpenSSLCLI.check([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("x.key"),
            "-out", path("x.crt"), "-subj", "/CN=Bundle Extra", "-days", "3",
        ])
        let bundle =
            try sandbox.directory.read("b.crt") + sandbox.directory.read("b.key") + sandbox.directory.read("x.crt")
        try sandbox.directory.write("bundle.pem", bundle)
        #expect(
            try sandbox.check(["import", path("bundle.pem"), "-f", "pemseq"]).lines
                == ["1 identity imported.", "1 certificate imported."])
        #expect(try sandbox.check(["find-identity"]).stdout.contains("\"Bundle Leaf\""))
        // -t cert takes only the certificates.
        let certsOnly = path("certs.keychain-db")
        try sandbox.check(["create-keychain", certsOnly])
        #expect(
            try sandbox.check(["import", path("bundle.pem"), "-k", certsOnly, "-t", "cert"]).lines == [
                "2 certificates imported."
            ])

        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/keytool") else { return }
        let store = path("keytool.p12")
        let keytool = Process()
        keytool.executableURL = URL(fileURLWithPath: "/usr/bin/keytool")
        keytool.arguments = [
            "-genkeypair", "-keystore", store, "-storetype", "PKCS12", "-storepass", "changeit", "-keypass", "changeit",
            "-alias", "signer", "-dname", "CN=Keytool Signer", "-keyalg", "EC", "-groupname", "secp256r1", "-validity",
            "3",
        ]
        keytool.standardOutput = Pipe()
        keytool.standardError = Pipe()
        try keytool.run()
        keytool.waitUntilExit()
        #expect(keytool.terminationStatus == 0)
        let kc = path("keytool.keychain-db")
        try sandbox.check(["create-keychain", kc])
        // Without -P the passphrase is read from standard input (it is not a terminal here).
        #expect(try sandbox.check(["import", store, "-k", kc], stdin: "changeit\n").lines == ["1 identity imported."])
        #expect(try sandbox.check(["find-identity", kc]).stdout.contains("\"Keytool Signer\""))
        let eof = try sandbox.run(["import", store, "-k", kc], stdin: "")
        #expect(eof.status == 1 && eof.stderr.contains("passphrase"))
    }

    @Test func everyExportFormatIsReadByOpenSSL() throws {
        try OpenSSLCLI.check([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("e.key"), "-out", path("e.crt"),
            "-subj", "/CN=Export Me", "-days", "3",
        ])
        try OpenSSLCLI.check([
            "pkcs12", "-export", "-in", path("e.crt"), "-inkey", path("e.key"), "-out", path("e.p12"),
            "-passout", "pass:pw", "-name", "Export Me",
        ])
        let kc = path("export.keychain-db")
        try sandbox.check(["create-keychain", kc])
        try sandbox.check(["import", path("e.p12"), "-k", kc, "-P", "pw"])
        let originalKey = try publicKey(path("e.key"))

        // PKCS#12 of the identity: openssl -info reads it with the passphrase.
        try sandbox.check(["export", "-k", kc, "-t", "identities", "-f", "pkcs12", "-P", "out", "-o", path("out.p12")])
        let info = try OpenSSLCLI.run(args: [
            "pkcs12", "-in", path("out.p12"), "-info", "-noout", "-passin", "pass:out",
        ])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stderr.contains("Shrouded Keybag") && info.stderr.contains("Certificate bag"))
        let attributes = try FileManager.default.attributesOfItem(atPath: path("out.p12"))
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let keyFromP12 = try OpenSSLCLI.check([
            "pkcs12", "-in", path("out.p12"), "-nocerts", "-nodes", "-passin", "pass:out",
        ]).stdoutText
        try sandbox.directory.write("p12key.pem", Data(keyFromP12.utf8))
        #expect(try publicKey(path("p12key.pem")) == originalKey)
        // The passphrase from standard input (not a terminal here).
        try sandbox.check(
            ["export", "-k", kc, "-t", "identities", "-f", "pkcs12", "-o", path("stdin.p12")], stdin: "piped\n")
        #expect(
            try OpenSSLCLI.run(args: ["pkcs12", "-in", path("stdin.p12"), "-noout", "-passin", "pass:piped"]).status
                == 0)

        // One certificate: x509 DER by default, PEM with -p.
        let der = try sandbox.check(["export", "-k", kc, "-t", "certs"])
        let subject = try OpenSSLCLI.check(["x509", "-inform", "DER", "-noout", "-subject"], stdin: der.stdoutData)
        #expect(subject.stdoutText.contains("Export Me"))
        let pem = try sandbox.check(["export", "-k", kc, "-t", "certs", "-f", "x509", "-p"])
        #expect(pem.stdout == String(decoding: try sandbox.directory.read("e.crt"), as: UTF8.self))

        // Private key: openssl (PKCS#1), pkcs8, and wrapped pkcs8 under a passphrase.
        let pkcs1 = try sandbox.check(["export", "-k", kc, "-t", "privKeys", "-p"])
        #expect(pkcs1.stdout.hasPrefix("-----BEGIN RSA PRIVATE KEY-----\n"))
        try sandbox.directory.write("pkcs1.pem", pkcs1.stdoutData)
        #expect(try publicKey(path("pkcs1.pem")) == originalKey)
        try sandbox.check(["export", "-k", kc, "-t", "privKeys", "-f", "pkcs8", "-o", path("pkcs8.der")])
        #expect(try publicKey(path("pkcs8.der"), inform: "DER") == originalKey)
        let wrapped = try sandbox.check(["export", "-k", kc, "-t", "privKeys", "-f", "pkcs8", "-w", "-p", "-P", "wrap"])
        #expect(wrapped.stdout.hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----\n"))
        try sandbox.directory.write("wrapped.pem", wrapped.stdoutData)
        #expect(try publicKey(path("wrapped.pem"), passphrase: "wrap") == originalKey)

        // Everything: a PEM sequence of the certificate and the key.
        let all = try sandbox.check(["export", "-k", kc])
        #expect(
            all.stdout.hasPrefix("-----BEGIN CERTIFICATE-----\n")
                && all.stdout.contains("-----BEGIN RSA PRIVATE KEY-----\n"))
        try sandbox.directory.write("all.pem", all.stdoutData)
        #expect(
            try OpenSSLCLI.check(["x509", "-in", path("all.pem"), "-noout", "-subject"]).stdoutText.contains(
                "Export Me"))
        #expect(try publicKey(path("all.pem")) == originalKey)

        // Formats macOS has and we do not, and impossible combinations.
        #expect(try sandbox.run(["export", "-k", kc, "-f", "openssh2"]).status == exitStatus(-25256))
        #expect(try sandbox.run(["export", "-k", kc, "-f", "x509"]).status == exitStatus(-25256), "two items as x509")
        #expect(try sandbox.run(["export", "-k", kc, "-t", "everything"]).status == 2)
    }

    @Test func nonExtractableKeysAreNotExported() throws {
        try OpenSSLCLI.check([
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path("nx.pem"),
        ])
        let kc = path("nx.keychain-db")
        try sandbox.check(["create-keychain", kc])
        try sandbox.check(["import", path("nx.pem"), "-k", kc, "-x"])
        #expect(try sandbox.run(["export", "-k", kc, "-t", "privKeys"]).status == exitStatus(-25258))
    }
}
