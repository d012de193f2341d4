import Foundation
import OSecCrypto
import OSecX509
import OpenSSLBaseline
@_spi(OpenSecurityInternal) import Security

/// Trust evaluation of a 3-certificate chain (root → intermediate → leaf, SSL server policy with host name) against
/// OpenSSL's X509_verify_cert in the same run.
///
/// cold: new SecCertificates are parsed from the DER bytes and a new SecTrust evaluated each time — against OpenSSL
///       decoding with d2i_X509 each time. "first sight" empties every shared cache first (every signature verified,
///       every key built) except the anchor's, which the caller holds parsed just as OpenSSL's X509_STORE holds the
///       pre-parsed root; "DER seen before" is a client seeing the same chain again (a reconnecting TLS client):
///       decoded certificates, issuer keys and signature verdicts are found by DER content.
/// warm: the same SecTrust re-evaluated after a setter invalidated it, and the same SecCertificates in a new
///       SecTrust (decoded certificates, issuer keys and signature verdicts are reused) — against OpenSSL with
///       pre-parsed X509 objects.
enum TrustBenchmarks {
    struct Fixture {
        let leafDER: NSData, intermediateDER: NSData
        let leaf: SecCertificate, intermediate: SecCertificate, root: SecCertificate
        let paths: (leaf: String, intermediate: String, root: String)
        let date: Date
    }

    static let host = "www.example.com"

    static func fixture(_ name: String, keys: [AsymmetricKey]) throws -> Fixture {
        let now = Int64(Date().timeIntervalSince1970)
        func builder(_ cn: String, _ key: AsymmetricKey, _ days: Int64) throws -> CertificateBuilder {
            try CertificateBuilder(
                subject: try DistinguishedName([(X509OID.commonName, cn)]), publicKey: try SubjectPublicKeyInfo(key),
                notBefore: X509Time(secondsSinceEpoch: now - 86_400),
                notAfter: X509Time(secondsSinceEpoch: now + days * 86_400))
        }
        var root = try builder("Bench Root \(name)", keys[0], 3650)
        root.basicConstraints = BasicConstraints(isCertificateAuthority: true)
        root.keyUsage = [.keyCertSign, .cRLSign]
        let rootCert = try root.selfSigned(with: keys[0])
        var intermediate = try builder("Bench Intermediate \(name)", keys[1], 1000)
        intermediate.basicConstraints = BasicConstraints(isCertificateAuthority: true)
        intermediate.keyUsage = [.keyCertSign, .cRLSign]
        let intermediateCert = try intermediate.issued(by: rootCert, issuerKey: keys[0])
        var leaf = try builder(host, keys[2], 365)
        leaf.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        leaf.keyUsage = [.digitalSignature]
        leaf.extendedKeyUsage = [X509OID.serverAuth]
        leaf.subjectAlternativeNames = [.dnsName(host)]
        let leafCert = try leaf.issued(by: intermediateCert, issuerKey: keys[1])

        let directory = URL(fileURLWithPath: BenchScratch.directory("trust-\(name)"), isDirectory: true)
        func write(_ file: String, _ certificate: Certificate) throws -> String {
            let path = directory.appendingPathComponent(file).path
            try Data(certificate.pemString.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let paths = (
            try write("leaf.pem", leafCert), try write("intermediate.pem", intermediateCert),
            try write("root.pem", rootCert)
        )
        let leafDER = Data(leafCert.derBytes) as NSData
        let intermediateDER = Data(intermediateCert.derBytes) as NSData
        guard let l = SecCertificateCreateWithData(nil, leafDER),
            let i = SecCertificateCreateWithData(nil, intermediateDER),
            let r = SecCertificateCreateWithData(nil, Data(rootCert.derBytes) as NSData)
        else { throw BenchFailure() }
        return Fixture(
            leafDER: leafDER, intermediateDER: intermediateDER, leaf: l, intermediate: i, root: r,
            paths: paths, date: Date())
    }

    static func evaluate(_ leaf: SecCertificate, _ intermediate: SecCertificate, _ fixture: Fixture) throws {
        var trust: SecTrust?
        let policy = SecPolicyCreateSSL(true, host as CFString)
        guard SecTrustCreateWithCertificates([leaf, intermediate] as NSArray, policy, &trust) == errSecSuccess,
            let trust
        else {
            throw BenchFailure()
        }
        _ = SecTrustSetAnchorCertificates(trust, [fixture.root] as NSArray)
        _ = SecTrustSetVerifyDate(trust, fixture.date as NSDate)
        guard SecTrustEvaluateWithError(trust, nil) else { throw BenchFailure() }
    }

    /// New SecCertificates from the DER bytes, then a new SecTrust evaluated.
    static func parseAndEvaluate(_ fixture: Fixture) throws {
        guard let leaf = SecCertificateCreateWithData(nil, fixture.leafDER),
            let intermediate = SecCertificateCreateWithData(nil, fixture.intermediateDER)
        else { throw BenchFailure() }
        try evaluate(leaf, intermediate, fixture)
    }

    static func rows(_ name: String, _ fixture: Fixture) -> [BenchRow] {
        let at = Int64(fixture.date.timeIntervalSince1970)
        let p = fixture.paths
        var reused: SecTrust?
        _ = SecTrustCreateWithCertificates(
            [fixture.leaf, fixture.intermediate] as NSArray, SecPolicyCreateSSL(true, host as CFString), &reused)
        guard let trust = reused else { return [] }
        _ = SecTrustSetAnchorCertificates(trust, [fixture.root] as NSArray)
        let policy = SecPolicyCreateSSL(true, host as CFString)
        return [
            BenchRow(
                name: "trust \(name) cold, first sight", unit: "eval/s", opensslLabel: "d2i_X509 ×2 + X509_verify_cert",
                ours: { s in
                    measure(s) {
                        SecTrustPurgeSharedCaches(keeping: [fixture.root])
                        try parseAndEvaluate(fixture)
                    }
                },
                openssl: { osec_baseline_x509_verify_files(p.leaf, p.intermediate, p.root, host, at, 1, $0) }),
            BenchRow(
                name: "trust \(name) cold, DER seen before", unit: "eval/s",
                opensslLabel: "d2i_X509 ×2 + X509_verify_cert",
                ours: { s in measure(s) { try parseAndEvaluate(fixture) } },
                openssl: { osec_baseline_x509_verify_files(p.leaf, p.intermediate, p.root, host, at, 1, $0) }),
            BenchRow(
                name: "trust \(name) warm (same certs, new SecTrust)", unit: "eval/s",
                opensslLabel: "X509_verify_cert (pre-parsed)",
                ours: { s in measure(s) { try evaluate(fixture.leaf, fixture.intermediate, fixture) } },
                openssl: { osec_baseline_x509_verify_files(p.leaf, p.intermediate, p.root, host, at, 0, $0) }),
            BenchRow(
                name: "trust \(name) warm (same SecTrust re-evaluated)", unit: "eval/s",
                opensslLabel: "X509_verify_cert (pre-parsed)",
                ours: { s in
                    measure(s) {
                        // A setter invalidates the cached result, so every call really evaluates again.
                        _ = SecTrustSetPolicies(trust, policy)
                        _ = SecTrustSetVerifyDate(trust, fixture.date as NSDate)
                        guard SecTrustEvaluateWithError(trust, nil) else { throw BenchFailure() }
                    }
                },
                openssl: { osec_baseline_x509_verify_files(p.leaf, p.intermediate, p.root, host, at, 0, $0) }),
        ]
    }

    static func rows() -> [BenchRow] {
        do {
            let rsaKeys = try (0..<3).map { _ in try AsymmetricKey.generateRSA(bits: 2048) }
            let ecKeys = try (0..<3).map { _ in try AsymmetricKey.generateEC(.p256) }
            return rows("RSA-2048", try fixture("rsa", keys: rsaKeys))
                + rows("P-256", try fixture("p256", keys: ecKeys))
        } catch {
            print("trust benchmark setup failed: \(error)")
            return []
        }
    }
}
