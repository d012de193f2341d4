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
    /// ``OpenSSLPKI`` with Ed25519 keys, plus a P-256 leaf under its Ed25519 intermediate and the leaf with one bit
    /// of its signature flipped.
    static let pki: OpenSSLPKI? = OpenSSLCLI.isAvailable ? try? makePKI() : nil

    private static func makePKI() throws -> OpenSSLPKI {
        let pki = try OpenSSLPKI(keys: .ed25519)
        try OpenSSLCLI.check(
            ["genpkey"] + OpenSSLPKI.Keys.p256.genpkeyArgs + ["-out", pki.directory.path("ecleaf.key")])
        try pki.issue("ecleaf", cn: "www.example.com", key: "ecleaf", by: "int", section: "leaf", days: 30)
        var der = [UInt8](try pki.certificate("leaf").derBytes)  // the signature is the DER's last bytes
        der[der.count - 1] ^= 0x01
        try pki.directory.write("leaf_badsig.pem", Data(Certificate(derEncoded: der).pemString.utf8))
        return pki
    }

    private func verdicts(
        _ pki: OpenSSLPKI, leaf: String, root: String = "root", host: String = "www.example.com",
        crl: String? = nil
    ) throws -> (openssl: Bool, ours: TrustEvaluation) {
        (
            try pki.opensslVerify(leaf: leaf, intermediates: ["int"], root: root, at: pki.now, host: host, crl: crl).0,
            try pki.ourVerify(leaf: leaf, intermediates: ["int"], root: root, at: pki.now, host: host, crl: crl)
        )
    }

    @Test(
        .enabled(if: OpenSSLCLI.isAvailable),
        arguments: [
            ("all-Ed25519 chain", "leaf", "root", "www.example.com", true),
            ("P-256 leaf under an Ed25519 intermediate", "ecleaf", "root", "www.example.com", true),
            ("leaf signature altered", "leaf_badsig", "root", "www.example.com", false),
            ("untrusted root", "leaf", "other", "www.example.com", false),
            ("host name mismatch", "leaf", "root", "www.example.org", false),
        ])
    func sameVerdictAsOpenSSL(_ name: String, _ leaf: String, _ root: String, _ host: String, _ trusted: Bool) throws {
        let (openssl, ours) = try verdicts(try #require(Ed25519ChainTests.pki), leaf: leaf, root: root, host: host)
        #expect(openssl == trusted, "\(name): openssl")
        #expect(ours.isTrusted == trusted, "\(name): \(ours.failures)")
    }

    @Test(.enabled(if: OpenSSLCLI.isAvailable), arguments: [("crl_revoked", false), ("crl_empty", true)])
    func ed25519SignedCRLs(_ crl: String, _ trusted: Bool) throws {
        let (openssl, ours) = try verdicts(try #require(Ed25519ChainTests.pki), leaf: "leaf", crl: crl)
        #expect(openssl == trusted)
        #expect(ours.isTrusted == trusted, "\(crl): \(ours.failures)")
        if !trusted { #expect(ours.failures.mostImportant?.check == .revocation, "\(ours.failures)") }
    }

    @Test(.enabled(if: OpenSSLCLI.isAvailable)) func signaturesAndKeysAreEd25519() throws {
        let pki = try #require(Ed25519ChainTests.pki)
        let leaf = try pki.certificate("leaf")
        let int = try pki.certificate("int")
        #expect(try leaf.signatureAlgorithm.kind == .ed25519)
        #expect(leaf.publicKeyInfo.kind == .ed25519)
        #expect(try leaf.publicKeyInfo.makeKey().algorithm == .ed25519)
        #expect(leaf.isSigned(by: int))
        #expect(try !pki.certificate("leaf_badsig").isSigned(by: int))
        #expect(!leaf.isSigned(by: try pki.certificate("root")))
    }

    /// Certificates we build and sign with Ed25519 keys verify under openssl too.
    @Test(.enabled(if: OpenSSLCLI.isAvailable)) func ourEd25519CertificatesVerifyInOpenSSL() throws {
        let rootKey = try AsymmetricKey.generateEd25519()
        let leafKey = try AsymmetricKey.generateEd25519()
        let start = Int64(Date().timeIntervalSince1970) - 3600
        var root = try CertificateBuilder(
            subject: try DistinguishedName([(X509OID.commonName, "Built Ed25519 Root")]),
            publicKey: try SubjectPublicKeyInfo(rootKey), notBefore: X509Time(secondsSinceEpoch: start),
            notAfter: X509Time(secondsSinceEpoch: start + 86_400))
        root.basicConstraints = BasicConstraints(isCertificateAuthority: true)
        root.keyUsage = [.keyCertSign, .cRLSign]
        let rootCert = try root.selfSigned(with: rootKey)
        var leaf = try CertificateBuilder(
            subject: try DistinguishedName([(X509OID.commonName, "built.example.com")]),
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
        let result = try OpenSSLCLI.run(args: [
            "verify", "-CAfile", rootPath, "-verify_hostname", "built.example.com", leafPath,
        ])
        #expect(result.status == 0, "\(result.stdoutText) \(result.stderr)")
    }
}
