import Foundation
import OSecTestSupport
import Security
import Testing

/// `verify-cert` (its verdicts equal SecTrustEvaluateWithError's, with macOS's result lines) and the trust settings
/// commands, on chains made by openssl.
@Suite(.enabled(if: SecurityTool.executable != nil && OpenSSLCLI.isAvailable, "needs security and openssl"))
struct SecurityToolTrustTests {
    let sandbox: SecurityToolSandbox
    init() throws { sandbox = try SecurityToolSandbox("osec-tool-trust") }

    private func path(_ name: String) -> String { sandbox.directory.path(name) }

    /// root → intermediate → leaf (serverAuth, SAN www.example.test), plus an expired leaf, all EC P-256.
    private func makeChain() throws {
        func write(_ name: String, _ text: String) throws { try sandbox.directory.write(name, Data(text.utf8)) }
        try write(
            "ca.cnf",
            "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\n")
        try write(
            "leaf.cnf",
            "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n"
                + "subjectAltName=DNS:www.example.test\nauthorityKeyIdentifier=keyid\n")
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try OpenSSLCLI.check(
            ["req", "-x509"] + ec + [
                "-keyout", path("root.key"), "-out", path("root.pem"), "-subj", "/CN=Test Root", "-days", "60",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])
        try OpenSSLCLI.check(
            ["req"] + ec + ["-keyout", path("int.key"), "-out", path("int.csr"), "-subj", "/CN=Test Intermediate"])
        try OpenSSLCLI.check([
            "x509", "-req", "-in", path("int.csr"), "-CA", path("root.pem"), "-CAkey", path("root.key"),
            "-CAcreateserial", "-out", path("int.pem"), "-days", "50", "-extfile", path("ca.cnf"),
        ])
        try OpenSSLCLI.check(
            ["req"] + ec + ["-keyout", path("leaf.key"), "-out", path("leaf.csr"), "-subj", "/CN=www.example.test"])
        try OpenSSLCLI.check([
            "x509", "-req", "-in", path("leaf.csr"), "-CA", path("int.pem"), "-CAkey", path("int.key"),
            "-CAcreateserial", "-out", path("leaf.pem"), "-days", "40", "-extfile", path("leaf.cnf"),
        ])
    }

    private func certificate(_ name: String) throws -> SecCertificate? {
        let pem = String(decoding: try sandbox.directory.read(name), as: UTF8.self)
        return try OpenSecurityCertificates.certificates(fromPEM: pem).first
    }

    /// SecTrustEvaluateWithError's verdict and error code for the same question.
    private func library(
        _ chain: [String], roots: [String], ssl: String? = nil, date: Date? = nil
    ) throws -> (Bool, Int) {
        let certificates = try chain.compactMap(certificate)
        let policy = ssl.map { SecPolicyCreateSSL(true, $0 as CFString) } ?? SecPolicyCreateBasicX509()
        var trust: SecTrust?
        _ = SecTrustCreateWithCertificates(certificates as NSArray, policy, &trust)
        guard let trust else { return (false, 0) }
        if !roots.isEmpty { _ = SecTrustSetAnchorCertificates(trust, try roots.compactMap(certificate) as NSArray) }
        if let date { _ = SecTrustSetVerifyDate(trust, date as NSDate) }
        var error: CFError?
        let ok = SecTrustEvaluateWithError(trust, &error)
        return (ok, error?.code ?? 0)
    }

    @Test func verifyCertVerdictsEqualSecTrustEvaluateWithError() throws {
        try makeChain()
        let future = Date().addingTimeInterval(100 * 86_400)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let cases: [(args: [String], chain: [String], roots: [String], ssl: String?, date: Date?, cssm: String?)] = [
            (
                ["-c", path("leaf.pem"), "-c", path("int.pem"), "-r", path("root.pem")], ["leaf.pem", "int.pem"],
                ["root.pem"], nil, nil, nil
            ),
            (
                [
                    "-c", path("leaf.pem"), "-c", path("int.pem"), "-r", path("root.pem"), "-p", "ssl", "-s",
                    "www.example.test",
                ],
                ["leaf.pem", "int.pem"], ["root.pem"], "www.example.test", nil, nil
            ),
            (
                [
                    "-c", path("leaf.pem"), "-c", path("int.pem"), "-r", path("root.pem"), "-p", "ssl", "-s",
                    "other.test",
                ],
                ["leaf.pem", "int.pem"], ["root.pem"], "other.test", nil, "CSSMERR_APPLETP_HOSTNAME_MISMATCH"
            ),
            (
                ["-c", path("leaf.pem"), "-c", path("int.pem")], ["leaf.pem", "int.pem"], [], nil, nil,
                "CSSMERR_TP_NOT_TRUSTED"
            ),
            (
                ["-c", path("leaf.pem"), "-r", path("root.pem")], ["leaf.pem"], ["root.pem"], nil, nil,
                "CSSMERR_TP_NOT_TRUSTED"
            ),
            (
                [
                    "-c", path("leaf.pem"), "-c", path("int.pem"), "-r", path("root.pem"), "-d",
                    formatter.string(from: future),
                ],
                ["leaf.pem", "int.pem"], ["root.pem"], nil, future, "CSSMERR_TP_CERT_EXPIRED"
            ),
            (["-r", path("root.pem")], ["root.pem"], ["root.pem"], nil, nil, nil),
        ]
        for item in cases {
            let run = try sandbox.run(["verify-cert", "-L"] + item.args)
            let (ok, code) = try library(item.chain, roots: item.roots, ssl: item.ssl, date: item.date)
            #expect((run.status == 0) == ok, "\(item.args)")
            if let cssm = item.cssm {
                #expect(run.status == 1 && run.stdout.isEmpty)
                let lines = run.stderr.split(separator: "\n").map(String.init)
                #expect(lines.first == "Cert Verify Result: \(cssm)", "\(item.args): \(run.stderr)")
                // The failure names the certificate and the check.
                #expect(lines.dropFirst().contains { $0.hasPrefix("Certificate ") && $0.contains("has errors:") })
                let json = SecurityToolSandbox.json(try sandbox.run(["verify-cert", "--json"] + item.args))
                #expect(json["trusted"] as? Bool == false && json["status"] as? Int == code)
                #expect((json["failures"] as? [[String: Any]])?.isEmpty == false)
            } else {
                #expect(
                    run.stdout == "...certificate verification successful.\n" && run.stderr.isEmpty, "\(run.stderr)")
            }
        }
        // -q: no output either way; -v: the chain and each certificate's errors on stdout.
        let quiet = try sandbox.run(["verify-cert", "-q", "-c", path("leaf.pem")])
        #expect(quiet.status == 1 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)
        let verbose = try sandbox.run(["verify-cert", "-v", "-c", path("leaf.pem"), "-c", path("int.pem")])
        #expect(
            verbose.lines.prefix(4) == ["---", "Certificate chain", " 0: www.example.test", " 1: Test Intermediate"])
        #expect(verbose.stdout.contains("---\nCertificate errors\n"))
        #expect(
            verbose.stdout.contains(
                " 1: Test Intermediate\n    Unable to find next certificate in the chain [MissingIntermediate]"))
        let selfSigned = try sandbox.run(["verify-cert", "-v", "-c", path("root.pem")])
        #expect(selfSigned.stdout.contains("    The root of the certificate chain is not trusted [AnchorTrusted]"))
        // Usage errors.
        #expect(try sandbox.run(["verify-cert", "-c", path("leaf.pem"), "-d", "yesterday"]).status == 2)
        #expect(try sandbox.run(["verify-cert", "-c", path("leaf.pem"), "-p", "smime"]).status == 2)
        #expect(try sandbox.run(["verify-cert"]).status == 2)
        #expect(try sandbox.run(["verify-cert", "-c", path("missing.pem")]).status == 1)
    }

    @Test func trustSettingsAnchorDenyAndRoundTrip() throws {
        try makeChain()
        let chain = ["-c", path("leaf.pem"), "-c", path("int.pem")]
        #expect(try sandbox.run(["verify-cert"] + chain).status == 1)
        let none = try sandbox.run(["dump-trust-settings"])
        #expect(
            none.status == 1
                && none.stderr == "security: SecTrustSettingsCopyCertificates: No Trust Settings were found.\n")

        // trustRoot in the user domain: the chain is trusted, with user intent.
        try sandbox.check(["add-trusted-cert", "-r", "trustRoot", "-p", "basic", "-p", "ssl", path("root.pem")])
        #expect(try sandbox.check(["verify-cert"] + chain).stdout == "...certificate verification successful.\n")
        let json = SecurityToolSandbox.json(try sandbox.check(["verify-cert", "-j"] + chain))
        #expect(json["result"] as? String == "kSecTrustResultProceed")
        let dump = try sandbox.check(["dump-trust-settings"]).lines
        #expect(
            dump == [
                "Number of trusted certs = 1", "Cert 0: Test Root", "   Number of trust settings : 2",
                "   Trust Setting 0:",
                "      Policy OID            : Apple X509 Basic",
                "      Result Type           : kSecTrustSettingsResultTrustRoot", "   Trust Setting 1:",
                "      Policy OID            : SSL", "      Result Type           : kSecTrustSettingsResultTrustRoot",
            ])
        // Export in Apple's format, remove, import back.
        try sandbox.check(["trust-settings-export", path("exported.plist")])
        let plist = try PropertyListSerialization.propertyList(
            from: try sandbox.directory.read("exported.plist"), format: nil)
        let list = (plist as? [String: Any])?["trustList"] as? [String: Any] ?? [:]
        #expect(list.count == 1 && (plist as? [String: Any])?["trustVersion"] as? Int == 1)
        let record = list.values.first as? [String: Any] ?? [:]
        #expect(record["issuerName"] is Data && record["serialNumber"] is Data && record["modDate"] is Date)
        #expect(record["certificate"] == nil, "Apple's format has no certificate")
        try sandbox.check(["remove-trusted-cert", path("root.pem")])
        #expect(try sandbox.run(["remove-trusted-cert", path("root.pem")]).status == 1)
        #expect(try sandbox.run(["verify-cert"] + chain).status == 1)
        try sandbox.check(["trust-settings-import", path("exported.plist")])
        // The imported record has no certificate, so the root must be given to anchor the chain.
        #expect(
            try sandbox.check(["verify-cert", "-c", path("leaf.pem"), "-c", path("int.pem"), "-c", path("root.pem")])
                .status == 0)
        #expect(try sandbox.run(["trust-settings-import", path("leaf.pem")]).status == 1, "not a trust settings file")

        // deny on the intermediate: Deny even though the root is trusted.
        try sandbox.check(["add-trusted-cert", path("root.pem")])
        try sandbox.check(["add-trusted-cert", "-r", "deny", path("int.pem")])
        let denied = try sandbox.run(["verify-cert"] + chain)
        #expect(denied.status == 1 && denied.stderr.hasPrefix("SecTrustEvaluate result: kSecTrustResultDeny\n"))
        // The admin domain is separate.
        try sandbox.check(["remove-trusted-cert", path("int.pem")])
        try sandbox.check(["add-trusted-cert", "-d", "-r", "deny", path("int.pem")])
        #expect(try sandbox.check(["dump-trust-settings", "-d"]).lines.first == "Number of trusted certs = 1")
        #expect(try sandbox.run(["verify-cert"] + chain).status == 1)
        // trustAsRoot on the intermediate alone anchors the chain there.
        try sandbox.check(["remove-trusted-cert", "-d", path("int.pem")])
        try sandbox.check(["remove-trusted-cert", path("root.pem")])
        try sandbox.check(["add-trusted-cert", "-r", "trustAsRoot", path("int.pem")])
        #expect(try sandbox.check(["verify-cert"] + chain).status == 0)
        #expect(try sandbox.run(["add-trusted-cert", "-r", "trustRoot", path("leaf.pem")]).status == 1, "not a root")
        #expect(try sandbox.run(["add-trusted-cert", "-r", "sometimes", path("leaf.pem")]).status == 2)
    }

    @Test func aTrustSettingAnchorsChainsOnlyForThePoliciesItNames() throws {
        try makeChain()
        let chain = ["-c", path("leaf.pem"), "-c", path("int.pem")]
        let ssl = ["-p", "ssl", "-s", "www.example.test"]
        try sandbox.check(["add-trusted-cert", "-r", "trustRoot", "-p", "ssl", path("root.pem")])
        #expect(try sandbox.run(["verify-cert"] + chain + ssl).status == 0)
        #expect(try sandbox.run(["verify-cert"] + chain + ["-p", "basic"]).status == 1, "not trusted for basic")
        #expect(try sandbox.run(["verify-cert"] + chain + ["-p", "ssl", "-s", "other.test"]).status == 1)
        // Without a policy the setting covers every policy.
        try sandbox.check(["remove-trusted-cert", path("root.pem")])
        try sandbox.check(["add-trusted-cert", path("root.pem")])
        #expect(try sandbox.run(["verify-cert"] + chain + ["-p", "basic"]).status == 0)
        #expect(try sandbox.run(["verify-cert"] + chain + ssl).status == 0)
    }

    @Test func dumpTrustSettingsOfTheSystemDomainListsTheSystemAnchors() throws {
        guard FileManager.default.fileExists(atPath: "/etc/ssl/certs/ca-certificates.crt") else { return }
        let run = try sandbox.check(["dump-trust-settings", "-s"])
        let count = Int(run.lines.first?.split(separator: "=").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
        #expect(count > 10)
        #expect(run.lines.dropFirst().first?.hasPrefix("Cert 0: ") == true)
        #expect(run.lines.contains("   Number of trust settings : 0"))
        #expect(try sandbox.run(["add-trusted-cert", "-d", "-s", "x"]).status == 2)
        // A Deny setting wins over the system store: a system root verified as itself.
        let bundle = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: "/etc/ssl/certs/ca-certificates.crt")), as: UTF8.self)
        guard let end = bundle.range(of: "-----END CERTIFICATE-----") else { return }
        let first = String(bundle[bundle.startIndex..<end.upperBound]) + "\n"
        try sandbox.directory.write("system-root.pem", Data(first.utf8))
        #expect(try sandbox.run(["verify-cert", "-c", path("system-root.pem")]).status == 0)
        try sandbox.check(["add-trusted-cert", "-r", "deny", path("system-root.pem")])
        let denied = try sandbox.run(["verify-cert", "-c", path("system-root.pem")])
        #expect(denied.status == 1 && denied.stderr.hasPrefix("SecTrustEvaluate result: kSecTrustResultDeny\n"))
        let json = SecurityToolSandbox.json(try sandbox.run(["verify-cert", "--json", "-c", path("system-root.pem")]))
        #expect(json["result"] as? String == "kSecTrustResultDeny" && json["status"] as? Int == -67654)
    }
}
