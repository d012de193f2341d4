import Foundation
import OSecCrypto
import OSecX509
// Certificate parsing: OSecX509 `Certificate(derEncoded:)` next to OpenSSL's `d2i_X509` on the same DER file.
import OpenSSLBaseline

enum X509Benchmarks {
    /// Two certificates: the first RSA certificate of the system CA bundle and a P-256 leaf built here
    /// (SAN, EKU, SKI/AKI, key usage). Each is written to a temporary DER file that the C baseline reads.
    static func rows() -> [BenchRow] {
        var rows: [BenchRow] = []
        let directory = BenchScratch.directory("x509")
        for (name, der) in samples() {
            let path = directory + "/\(name).der"
            guard FileManager.default.createFile(atPath: path, contents: Data(der)) else { continue }
            rows.append(
                BenchRow(
                    name: "x509 parse \(name) (\(der.count) B)", unit: "certs/s", opensslLabel: "d2i_X509",
                    ours: { seconds in measure(seconds) { _ = try Certificate(derEncoded: der) } },
                    openssl: { seconds in osec_baseline_d2i_x509_file(path, seconds) }))
            rows.append(
                BenchRow(
                    name: "x509 parse+extensions \(name)", unit: "certs/s", opensslLabel: "d2i_X509+check_purpose",
                    ours: { seconds in
                        measure(seconds) {
                            let cert = try Certificate(derEncoded: der)
                            _ = try cert.extensions.basicConstraints
                            _ = try cert.extensions.keyUsage
                            _ = try cert.extensions.extendedKeyUsage
                            _ = try cert.extensions.subjectKeyIdentifier
                            _ = try cert.extensions.authorityKeyIdentifier
                            _ = try cert.extensions.subjectAlternativeNames
                            _ = try cert.extensions.nameConstraints
                        }
                    },
                    openssl: { seconds in osec_baseline_d2i_x509_cached_extensions_file(path, seconds) }))
        }
        return rows
    }

    static func samples() -> [(String, [UInt8])] {
        var result: [(String, [UInt8])] = []
        if let text = try? String(contentsOfFile: "/etc/ssl/certs/ca-certificates.crt", encoding: .utf8),
            let certs = try? Certificate.certificates(fromPEM: text),
            let rsa = certs.first(where: { $0.publicKeyInfo.kind == .rsa })
        {
            result.append(("rsa-ca", rsa.derBytes))
        }
        if let leaf = try? makeP256Leaf() { result.append(("p256-leaf", leaf.derBytes)) }
        return result
    }

    static func makeP256Leaf() throws -> Certificate {
        let caKey = try AsymmetricKey.generateEC(.p256)
        let leafKey = try AsymmetricKey.generateEC(.p256)
        let start = X509Time(secondsSinceEpoch: 1_700_000_000)
        let end = X509Time(secondsSinceEpoch: 1_800_000_000)
        var ca = try CertificateBuilder(
            subject: try DistinguishedName([
                (X509OID.countryName, "US"), (X509OID.organizationName, "OpenSecurity"),
                (X509OID.commonName, "Bench CA"),
            ]),
            publicKey: try SubjectPublicKeyInfo(caKey), notBefore: start, notAfter: end)
        ca.basicConstraints = BasicConstraints(isCertificateAuthority: true)
        ca.keyUsage = [.keyCertSign, .cRLSign]
        let caCert = try ca.selfSigned(with: caKey)
        var leaf = try CertificateBuilder(
            subject: try DistinguishedName([
                (X509OID.countryName, "US"), (X509OID.organizationName, "OpenSecurity"),
                (X509OID.commonName, "www.example.com"),
            ]),
            publicKey: try SubjectPublicKeyInfo(leafKey), notBefore: start, notAfter: end)
        leaf.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        leaf.keyUsage = [.digitalSignature]
        leaf.extendedKeyUsage = [X509OID.serverAuth, X509OID.clientAuth]
        leaf.subjectAlternativeNames = [
            .dnsName("www.example.com"), .dnsName("example.com"), .ipAddress([192, 0, 2, 1]),
        ]
        return try leaf.issued(by: caCert, issuerKey: caKey)
    }
}
