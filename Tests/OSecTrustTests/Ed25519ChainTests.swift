import Foundation
import OSecCrypto
import OSecTestSupport
import OSecTrust
import OSecX509
import Testing

/// Ed25519 chains (RFC 8410) made by the `openssl` CLI, verified by `openssl verify` and by OSecTrust at the same
/// instant: an all-Ed25519 chain, a P-256 leaf under an Ed25519 intermediate, and the failures a bad signature,
/// a wrong root or a wrong host name must cause.
@Suite(.serialized) struct Ed25519ChainTests {
    final class PKI: @unchecked Sendable {  // immutable after init
        let directory: TemporaryDirectory
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
            [leaf]
            basicConstraints = critical, CA:false
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:www.example.com
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid:always
            """

        init() throws {
            directory = try TemporaryDirectory(prefix: "osec-trust-ed25519")
            try directory.write("ext.cnf", Data(PKI.extensions.utf8))
            for name in ["root", "other", "int", "leaf"] {
                try OpenSSLCLI.check(["genpkey", "-algorithm", "ED25519", "-out", directory.path("\(name).key")])
            }
            try OpenSSLCLI.check(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", directory.path("ecleaf.key")])
            for (name, cn) in [("root", "Ed25519 Test Root"), ("other", "Ed25519 Other Root")] {
                // No -sha256: Ed25519 hashes internally and openssl refuses a digest option with it.
                try OpenSSLCLI.check(["req", "-x509", "-new", "-key", directory.path("\(name).key"), "-subj", "/CN=\(cn)",
                                      "-days", "3650", "-config", directory.path("ext.cnf"), "-extensions", "ca",
                                      "-out", directory.path("\(name).pem")])
            }
            try issue("int", key: "int", cn: "Ed25519 Test Intermediate", by: "root", section: "int")
            try issue("leaf", key: "leaf", cn: "www.example.com", by: "int", section: "leaf")
            try issue("ecleaf", key: "ecleaf", cn: "www.example.com", by: "int", section: "leaf")
            // The leaf with one bit of its signature flipped (the signature is the DER's last bytes).
            var der = [UInt8](try certificate("leaf").derBytes)
            der[der.count - 1] ^= 0x01
            try directory.write("leaf_badsig.pem", Data(Certificate(derEncoded: der).pemString.utf8))
            try makeCRLs()
            now = Int64(Date().timeIntervalSince1970) + 60
        }

        /// `crl_revoked.pem` revokes `leaf`, `crl_empty.pem` revokes nothing; both signed by `int` with Ed25519.
        private func makeCRLs() throws {
            for variant in ["revoked", "empty"] {
                let base = directory.path("ca-\(variant)")
                try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
                try Data().write(to: URL(fileURLWithPath: base + "/index.txt"))
                try Data("01\n".utf8).write(to: URL(fileURLWithPath: base + "/crlnumber"))
                let config = "[ca]\ndefault_ca = d\n[d]\ndatabase = \(base)/index.txt\ncrlnumber = \(base)/crlnumber\n"
                    + "default_md = default\ndefault_crl_days = 30\n"
                try Data(config.utf8).write(to: URL(fileURLWithPath: base + "/ca.cnf"))
                let common = ["-config", base + "/ca.cnf", "-keyfile", directory.path("int.key"), "-cert", directory.path("int.pem")]
                if variant == "revoked" { try OpenSSLCLI.check(["ca", "-revoke", directory.path("leaf.pem")] + common) }
                try OpenSSLCLI.check(["ca", "-gencrl", "-out", directory.path("crl_\(variant).pem")] + common)
            }
        }

        private func issue(_ name: String, key: String, cn: String, by issuer: String, section: String) throws {
            try OpenSSLCLI.check(["req", "-new", "-key", directory.path("\(key).key"), "-subj", "/CN=\(cn)",
                                  "-out", directory.path("\(name).csr")])
            try OpenSSLCLI.check(["x509", "-req", "-in", directory.path("\(name).csr"), "-CA", directory.path("\(issuer).pem"),
                                  "-CAkey", directory.path("\(issuer).key"), "-set_serial", "\(name.utf8.count + 100)",
                                  "-days", "30", "-extfile", directory.path("ext.cnf"), "-extensions", section,
                                  "-out", directory.path("\(name).pem")])
        }

        func certificate(_ name: String) throws -> Certificate {
            try Certificate(pemEncoded: String(decoding: try directory.read("\(name).pem"), as: UTF8.self))
        }

        func opensslVerify(leaf: String, root: String, host: String, crl: String? = nil) throws -> Bool {
            var args = ["verify", "-CAfile", directory.path("\(root).pem"), "-untrusted", directory.path("int.pem"),
                        "-attime", "\(now)", "-purpose", "sslserver", "-verify_hostname", host]
            if let crl { args += ["-CRLfile", directory.path("\(crl).pem"), "-crl_check"] }
            return try OpenSSLCLI.run(args: args + [directory.path("\(leaf).pem")]).status == 0
        }

        func ourVerify(leaf: String, root: String, host: String, crl: String? = nil) throws -> TrustEvaluation {
            var options = ValidationOptions(time: now)
            options.purpose = .serverAuth
            options.peerNames = [PeerName.host(host)]
            if let crl {
                options.revocation = RevocationMode(enabled: true)
                options.crls = try CertificateRevocationList.crls(fromPEM: String(decoding: try directory.read("\(crl).pem"), as: UTF8.self))
            }
            let builder = ChainBuilder(anchors: [AnchorStore([try certificate(root)])],
                                       intermediates: [try certificate("int")], options: options)
            return builder.evaluate(try certificate(leaf))
        }
    }

    static let pki: PKI? = OpenSSLCLI.isAvailable ? try? PKI() : nil

    @Test(.enabled(if: OpenSSLCLI.isAvailable), arguments: [
        ("all-Ed25519 chain", "leaf", "root", "www.example.com", true),
        ("P-256 leaf under an Ed25519 intermediate", "ecleaf", "root", "www.example.com", true),
        ("leaf signature altered", "leaf_badsig", "root", "www.example.com", false),
        ("untrusted root", "leaf", "other", "www.example.com", false),
        ("host name mismatch", "leaf", "root", "www.example.org", false),
    ])
    func sameVerdictAsOpenSSL(_ name: String, _ leaf: String, _ root: String, _ host: String, _ trusted: Bool) throws {
        let pki = try #require(Ed25519ChainTests.pki)
        #expect(try pki.opensslVerify(leaf: leaf, root: root, host: host) == trusted, "\(name): openssl")
        let ours = try pki.ourVerify(leaf: leaf, root: root, host: host)
        #expect(ours.isTrusted == trusted, "\(name): \(ours.failures)")
    }

    @Test(.enabled(if: OpenSSLCLI.isAvailable), arguments: [("crl_revoked", false), ("crl_empty", true)])
    func ed25519SignedCRLs(_ crl: String, _ trusted: Bool) throws {
        let pki = try #require(Ed25519ChainTests.pki)
        #expect(try pki.opensslVerify(leaf: "leaf", root: "root", host: "www.example.com", crl: crl) == trusted)
        let ours = try pki.ourVerify(leaf: "leaf", root: "root", host: "www.example.com", crl: crl)
        #expect(ours.isTrusted == trusted, "\(crl): \(ours.failures)")
        if !trusted { #expect(ours.failures.mostImportant?.check == .revocation, "\(ours.failures)") }
    }

    @Test(.enabled(if: OpenSSLCLI.isAvailable)) func signaturesAndKeysAreEd25519() throws {
        let pki = try #require(Ed25519ChainTests.pki)
        let leaf = try pki.certificate("leaf"), int = try pki.certificate("int")
        #expect(try leaf.signatureAlgorithm.kind == .ed25519)
        #expect(leaf.publicKeyInfo.kind == .ed25519)
        #expect(try leaf.publicKeyInfo.makeKey().algorithm == .ed25519)
        #expect(leaf.isSigned(by: int))
        #expect(try !pki.certificate("leaf_badsig").isSigned(by: int))
        #expect(!leaf.isSigned(by: try pki.certificate("root")))
    }

    /// Certificates we build and sign with Ed25519 keys verify under openssl too.
    @Test(.enabled(if: OpenSSLCLI.isAvailable)) func ourEd25519CertificatesVerifyInOpenSSL() throws {
        let rootKey = try AsymmetricKey.generateEd25519(), leafKey = try AsymmetricKey.generateEd25519()
        let start = Int64(Date().timeIntervalSince1970) - 3600
        var root = try CertificateBuilder(subject: try DistinguishedName([(X509OID.commonName, "Built Ed25519 Root")]),
                                          publicKey: try SubjectPublicKeyInfo(rootKey), notBefore: X509Time(secondsSinceEpoch: start),
                                          notAfter: X509Time(secondsSinceEpoch: start + 86_400))
        root.basicConstraints = BasicConstraints(isCertificateAuthority: true)
        root.keyUsage = [.keyCertSign, .cRLSign]
        let rootCert = try root.selfSigned(with: rootKey)
        var leaf = try CertificateBuilder(subject: try DistinguishedName([(X509OID.commonName, "built.example.com")]),
                                          publicKey: try SubjectPublicKeyInfo(leafKey), notBefore: X509Time(secondsSinceEpoch: start),
                                          notAfter: X509Time(secondsSinceEpoch: start + 86_400))
        leaf.keyUsage = [.digitalSignature]
        leaf.extendedKeyUsage = [X509OID.serverAuth]
        leaf.subjectAlternativeNames = [.dnsName("built.example.com")]
        let leafCert = try leaf.issued(by: rootCert, issuerKey: rootKey)
        #expect(try leafCert.signatureAlgorithm.kind == .ed25519)
        #expect(leafCert.isSigned(by: rootCert))

        let dir = try TemporaryDirectory(prefix: "osec-trust-ed25519-built")
        let rootPath = try dir.write("root.pem", Data(rootCert.pemString.utf8))
        let leafPath = try dir.write("leaf.pem", Data(leafCert.pemString.utf8))
        let result = try OpenSSLCLI.run(args: ["verify", "-CAfile", rootPath, "-verify_hostname", "built.example.com", leafPath])
        #expect(result.status == 0, "\(result.stdoutText) \(result.stderr)")
    }
}
