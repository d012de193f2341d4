import Foundation
import OSecTestSupport
import OSecTrust
import OSecX509
import Testing

/// Chains made by the real `openssl` CLI (`req` / `x509 -req` with extension files, `ca -gencrl`), verified both by
/// `openssl verify` and by OSecTrust at the same instant. Where the verdicts differ on purpose, the case says why.
final class OpenSSLPKI: @unchecked Sendable {  // immutable after init
    let directory: TemporaryDirectory
    /// Whole seconds; certificates are issued "now" by the CLI, so tests evaluate relative to this.
    private(set) var now: Int64 = 0

    static let extensions = """
        [ca]
        basicConstraints = critical, CA:true
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        [int]
        basicConstraints = critical, CA:true
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid:always
        [int_pathlen0]
        basicConstraints = critical, CA:true, pathlen:0
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid:always
        [int_noncritical_bc]
        basicConstraints = CA:true
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid:always
        [int_no_certsign]
        basicConstraints = critical, CA:true
        keyUsage = critical, digitalSignature, cRLSign
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid:always
        [leaf]
        basicConstraints = critical, CA:false
        keyUsage = critical, digitalSignature, keyEncipherment
        extendedKeyUsage = serverAuth
        subjectAltName = DNS:www.example.com, DNS:*.wild.example.com, IP:192.0.2.10
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid:always
        [leaf_client]
        basicConstraints = critical, CA:false
        keyUsage = critical, digitalSignature
        extendedKeyUsage = clientAuth
        subjectAltName = DNS:www.example.com
        authorityKeyIdentifier = keyid:always
        [leaf_nosan]
        basicConstraints = critical, CA:false
        keyUsage = critical, digitalSignature
        extendedKeyUsage = serverAuth
        authorityKeyIdentifier = keyid:always
        """

    /// The key type of every certificate in the PKI.
    enum Keys {
        case rsa, p256, ed25519

        var genpkeyArgs: [String] {
            switch self {
            case .rsa: ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]
            case .p256: ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]
            case .ed25519: ["-algorithm", "ED25519"]
            }
        }

        /// Ed25519 hashes internally: openssl refuses a digest option with it.
        var digestArgs: [String] { self == .ed25519 ? [] : ["-sha256"] }
    }

    let keys: Keys

    convenience init(rsa: Bool) throws {
        try self.init(keys: rsa ? .rsa : .p256)
    }

    init(keys: Keys) throws {
        self.keys = keys
        directory = try TemporaryDirectory(prefix: "osec-trust-openssl")
        try directory.write("ext.cnf", Data(OpenSSLPKI.extensions.utf8))
        for name in ["root", "other", "int", "leaf"] {
            try OpenSSLCLI.check(["genpkey"] + keys.genpkeyArgs + ["-out", directory.path("\(name).key")])
        }
        try selfSigned("root", cn: "OpenSSL Test Root")
        try selfSigned("other", cn: "OpenSSL Other Root")
        try issue("int", cn: "OpenSSL Test Intermediate", key: "int", by: "root", section: "int", days: 365)
        try issue(
            "int_pathlen0", cn: "OpenSSL Test Intermediate", key: "int", by: "root", section: "int_pathlen0", days: 365)
        try issue(
            "int_noncritical_bc", cn: "OpenSSL Test Intermediate", key: "int", by: "root",
            section: "int_noncritical_bc", days: 365)
        try issue(
            "int_no_certsign", cn: "OpenSSL Test Intermediate", key: "int", by: "root", section: "int_no_certsign",
            days: 365)
        try issue("leaf", cn: "www.example.com", key: "leaf", by: "int", section: "leaf", days: 30)
        try issue("leaf_client", cn: "www.example.com", key: "leaf", by: "int", section: "leaf_client", days: 30)
        try issue("leaf_nosan", cn: "www.example.com", key: "leaf", by: "int", section: "leaf_nosan", days: 30)
        // A second-level intermediate under the pathlen:0 intermediate.
        try issue(
            "sub", cn: "OpenSSL Sub Intermediate", key: "other", by: "int_pathlen0", signerKey: "int", section: "int",
            days: 365)
        try issue(
            "leaf_under_sub", cn: "www.example.com", key: "leaf", by: "sub", signerKey: "other", section: "leaf",
            days: 30)
        try makeCRLs()
        // `openssl ocsp` signs responses with a digest, which Ed25519 keys refuse; those tests use CRLs only.
        if keys != .ed25519 { try makeOCSPResponses() }
        // Everything above was issued during the last seconds; evaluate a minute later.
        now = Int64(Date().timeIntervalSince1970) + 60
    }

    private func selfSigned(_ name: String, cn: String) throws {
        try OpenSSLCLI.check(
            [
                "req", "-x509", "-new", "-key", directory.path("\(name).key"), "-subj", "/CN=\(cn)", "-days", "3650",
                "-config", directory.path("ext.cnf"), "-extensions", "ca", "-out", directory.path("\(name).pem"),
            ] + keys.digestArgs)
    }

    /// Issues `<name>.pem` for `<key>.key`, signed by `issuer` (with `signerKey`, default the issuer's key).
    func issue(
        _ name: String, cn: String, key: String, by issuer: String, signerKey: String? = nil,
        section: String, days: Int
    ) throws {
        try OpenSSLCLI.check([
            "req", "-new", "-key", directory.path("\(key).key"), "-subj", "/CN=\(cn)",
            "-config", directory.path("ext.cnf"), "-out", directory.path("\(name).csr"),
        ])
        try OpenSSLCLI.check(
            [
                "x509", "-req", "-in", directory.path("\(name).csr"), "-CA", directory.path("\(issuer).pem"),
                "-CAkey", directory.path("\(signerKey ?? issuer).key"), "-set_serial",
                "\(abs(name.hashValue % 1_000_000) + 1)",
                "-days", "\(days)", "-extfile", directory.path("ext.cnf"), "-extensions", section,
                "-out", directory.path("\(name).pem"),
            ] + keys.digestArgs)
    }

    /// `crl_revoked.pem` revokes `leaf`; `crl_empty.pem` revokes nothing. Both issued by `int`.
    private func makeCRLs() throws {
        for variant in ["revoked", "empty"] {
            let base = directory.path("ca-\(variant)")
            try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
            try Data().write(to: URL(fileURLWithPath: base + "/index.txt"))
            try Data("01\n".utf8).write(to: URL(fileURLWithPath: base + "/crlnumber"))
            let config = """
                [ca]
                default_ca = d
                [d]
                database = \(base)/index.txt
                crlnumber = \(base)/crlnumber
                default_md = \(keys == .ed25519 ? "default" : "sha256")
                default_crl_days = 30
                """
            try Data(config.utf8).write(to: URL(fileURLWithPath: base + "/ca.cnf"))
            let common = [
                "-config", base + "/ca.cnf", "-keyfile", directory.path("int.key"), "-cert", directory.path("int.pem"),
            ]
            if variant == "revoked" { try OpenSSLCLI.check(["ca", "-revoke", directory.path("leaf.pem")] + common) }
            try OpenSSLCLI.check(["ca", "-gencrl", "-out", directory.path("crl_\(variant).pem")] + common)
        }
    }

    /// `ocsp_revoked.der` (from the CRL database that revokes `leaf`) and `ocsp_good.der`, signed by `int`.
    private func makeOCSPResponses() throws {
        let serial = try OpenSSLCLI.check(["x509", "-in", directory.path("leaf.pem"), "-noout", "-serial"]).stdoutText
            .trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "serial=", with: "")
        let goodIndex = "V\t491231235959Z\t\t\(serial)\tunknown\t/CN=www.example.com\n"
        try directory.write("ocsp-good-index.txt", Data(goodIndex.utf8))
        try OpenSSLCLI.check([
            "ocsp", "-issuer", directory.path("int.pem"), "-cert", directory.path("leaf.pem"), "-no_nonce",
            "-reqout", directory.path("ocsp-req.der"),
        ])
        for (name, index) in [
            ("ocsp_good", directory.path("ocsp-good-index.txt")),
            ("ocsp_revoked", directory.path("ca-revoked") + "/index.txt"),
        ] {
            try OpenSSLCLI.check([
                "ocsp", "-index", index, "-rsigner", directory.path("int.pem"), "-rkey", directory.path("int.key"),
                "-CA", directory.path("int.pem"), "-reqin", directory.path("ocsp-req.der"),
                "-respout", directory.path("\(name).der"), "-ndays", "2",
            ])
        }
    }

    /// `openssl ocsp`'s reading of a response for `leaf` ("good", "revoked", …).
    func opensslOCSPStatus(_ response: String) throws -> String {
        let result = try OpenSSLCLI.run(args: [
            "ocsp", "-respin", directory.path("\(response).der"), "-issuer", directory.path("int.pem"),
            "-cert", directory.path("leaf.pem"), "-VAfile", directory.path("int.pem"), "-no_nonce",
        ])
        return result.stdoutText
    }

    func certificate(_ name: String) throws -> Certificate {
        try Certificate(pemEncoded: String(decoding: try directory.read("\(name).pem"), as: UTF8.self))
    }

    /// `openssl verify` verdict.
    func opensslVerify(
        leaf: String, intermediates: [String], root: String, at time: Int64, host: String?,
        crl: String? = nil
    ) throws -> (Bool, String) {
        var args = ["verify", "-CAfile", directory.path("\(root).pem"), "-attime", "\(time)", "-purpose", "sslserver"]
        if !intermediates.isEmpty {
            let bundle = try intermediates.map { try directory.read("\($0).pem") }.reduce(Data(), +)
            args += [
                "-untrusted", try directory.write("untrusted-\(intermediates.joined(separator: "-")).pem", bundle),
            ]
        }
        if let host {
            args += [host.contains(":") || host.first?.isNumber == true ? "-verify_ip" : "-verify_hostname", host]
        }
        if let crl { args += ["-CRLfile", directory.path("\(crl).pem"), "-crl_check"] }
        args.append(directory.path("\(leaf).pem"))
        let result = try OpenSSLCLI.run(args: args)
        return (result.status == 0, result.stdoutText + result.stderr)
    }

    /// OSecTrust verdict with the same inputs.
    func ourVerify(
        leaf: String, intermediates: [String], root: String, at time: Int64, host: String?,
        crl: String? = nil, ocsp: String? = nil
    ) throws -> TrustEvaluation {
        var options = ValidationOptions(time: time)
        options.purpose = .serverAuth
        if let host { options.peerNames = [PeerName.host(host)] }
        if let ocsp {
            options.revocation = RevocationMode(enabled: true)
            options.ocspResponses = [[UInt8](try directory.read("\(ocsp).der"))]
        }
        if let crl {
            options.revocation = RevocationMode(enabled: true)
            options.crls = try CertificateRevocationList.crls(
                fromPEM: String(decoding: try directory.read("\(crl).pem"), as: UTF8.self))
        }
        let builder = ChainBuilder(
            anchors: [AnchorStore([try certificate(root)])],
            intermediates: try intermediates.map(certificate), options: options)
        return builder.evaluate(try certificate(leaf))
    }
}

@Suite(.serialized) struct OpenSSLChainTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        var leaf = "leaf"
        var intermediates = ["int"]
        var root = "root"
        var offset: Int64 = 0
        var host: String? = "www.example.com"
        var crl: String? = nil
        /// Expected verdict (both tools unless `opensslDiffers`).
        let trusted: Bool
        /// Our expected failing check when not trusted.
        var check: TrustCheck? = nil
        /// Set when OpenSSL's verdict differs on purpose; the text says who is right and why.
        var opensslDiffers: String? = nil
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "valid chain", trusted: true),
        Case(name: "IP address SAN", host: "192.0.2.10", trusted: true),
        Case(name: "wildcard SAN", host: "a.wild.example.com", trusted: true),
        Case(name: "wildcard spans one label only", host: "a.b.wild.example.com", trusted: false, check: .sslHostname),
        Case(name: "expired (at +60 days)", offset: 60 * 86_400, trusted: false, check: .temporalValidity),
        Case(name: "not yet valid (at -2 days)", offset: -2 * 86_400, trusted: false, check: .temporalValidity),
        Case(name: "hostname mismatch", host: "www.example.org", trusted: false, check: .sslHostname),
        Case(name: "untrusted root", root: "other", trusted: false, check: .missingIntermediate),
        Case(name: "missing intermediate", intermediates: [], trusted: false, check: .missingIntermediate),
        Case(name: "CRL revokes the leaf", crl: "crl_revoked", trusted: false, check: .revocation),
        Case(name: "CRL without the leaf", crl: "crl_empty", trusted: true),
        Case(
            name: "pathlen:0 exceeded", leaf: "leaf_under_sub", intermediates: ["sub", "int_pathlen0"], trusted: false,
            check: .basicConstraintsPathLen),
        Case(
            name: "intermediate without keyCertSign", intermediates: ["int_no_certsign"], trusted: false,
            check: .keyUsage),
        Case(name: "clientAuth-only leaf for a server", leaf: "leaf_client", trusted: false, check: .extendedKeyUsage),
        Case(
            name: "non-critical basicConstraints in a CA", intermediates: ["int_noncritical_bc"], trusted: false,
            check: .basicConstraints,
            opensslDiffers:
                "OpenSSL accepts; RFC 5280 §4.2.1.9 says conforming CAs MUST mark basicConstraints critical in CA "
                + "certificates"
        ),
        Case(
            name: "no SAN, host only in CN", leaf: "leaf_nosan", trusted: false, check: .sslHostname,
            opensslDiffers:
                "OpenSSL falls back to the subject CN; Apple (and RFC 6125 §6.4.4 / CA/B Forum) use SAN only"),
    ]

    static let pkis: [Bool: OpenSSLPKI] = {
        guard OpenSSLCLI.isAvailable else { return [:] }
        return [true: try! OpenSSLPKI(rsa: true), false: try! OpenSSLPKI(rsa: false)]
    }()

    @Test(.enabled(if: OpenSSLCLI.isAvailable), arguments: [true, false], cases)
    func sameVerdictAsOpenSSL(rsa: Bool, testCase: Case) throws {
        let pki = try #require(OpenSSLChainTests.pkis[rsa])
        let time = pki.now + testCase.offset
        let (opensslOK, opensslText) = try pki.opensslVerify(
            leaf: testCase.leaf, intermediates: testCase.intermediates,
            root: testCase.root, at: time, host: testCase.host, crl: testCase.crl)
        let ours = try pki.ourVerify(
            leaf: testCase.leaf, intermediates: testCase.intermediates, root: testCase.root,
            at: time, host: testCase.host, crl: testCase.crl)
        #expect(ours.isTrusted == testCase.trusted, "\(testCase.name): \(ours.failures)")
        if let check = testCase.check {
            #expect(
                ours.failures.mostImportant?.check == check || ours.checks.contains(check),
                "\(testCase.name): \(ours.failures)")
        }
        if testCase.opensslDiffers == nil {
            #expect(opensslOK == testCase.trusted, "\(testCase.name): openssl said \(opensslText)")
        } else {
            #expect(opensslOK != testCase.trusted, "\(testCase.name): openssl was expected to differ: \(opensslText)")
        }
    }

    /// OCSP responses made by `openssl ocsp`: same status as `openssl ocsp -respin` reports.
    @Test(
        .enabled(if: OpenSSLCLI.isAvailable), arguments: [true, false], [("ocsp_good", true), ("ocsp_revoked", false)])
    func ocspResponses(rsa: Bool, response: (String, Bool)) throws {
        let pki = try #require(OpenSSLChainTests.pkis[rsa])
        let text = try pki.opensslOCSPStatus(response.0)
        #expect(text.contains(response.1 ? ": good" : ": revoked"), "\(text)")
        let ours = try pki.ourVerify(
            leaf: "leaf", intermediates: ["int"], root: "root", at: pki.now, host: "www.example.com",
            ocsp: response.0)
        #expect(ours.isTrusted == response.1, "\(ours.failures)")
        if !response.1 { #expect(ours.checks.contains(.revocation)) }
        // Outside the response's validity the answer is ignored (and nothing else covers the leaf).
        let later = try pki.ourVerify(
            leaf: "leaf", intermediates: ["int"], root: "root", at: pki.now + 5 * 86_400, host: "www.example.com",
            ocsp: response.0)
        #expect(later.isTrusted)
    }
}
