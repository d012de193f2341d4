import Foundation
import OSecASN1
import OSecCrypto
import Testing

@testable import OSecX509

/// CSRs and certificates we make are accepted by the `openssl` CLI, and CSRs/certificates it makes are read here.
@Suite(.enabled(if: X509TestData.hasOpenSSL, "needs the openssl CLI"))
final class OpenSSLInteropTests {
    let directory: URL

    init() throws {
        directory = try X509TestData.temporaryDirectory()
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    @Test func ourCSRsVerifyInOpenSSLAndGetSignedByIt() throws {
        let keys: [(String, AsymmetricKey)] = [
            ("rsa", X509TestPKI.rsaKey), ("p256", X509TestPKI.p256Key), ("p384", X509TestPKI.p384Key),
            ("p521", X509TestPKI.p521Key),
        ]
        // An openssl-made CA signs our CSRs.
        try X509TestData.shell(
            "cd '\(directory.path)' && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "
                + "ca.key -out ca.pem -subj '/CN=OpenSSL CA' -days 30 2>/dev/null"
        )
        for (label, key) in keys {
            let csr = try CertificateSigningRequest.create(
                subject: X509TestPKI.name("csr-\(label).example.com"),
                subjectAlternativeNames: [.dnsName("csr-\(label).example.com"), GeneralName.ipAddress("2001:db8::1")!],
                extensions: [
                    Extension(
                        oid: X509OID.extKeyUsage, critical: false,
                        value: try ExtendedKeyUsage([X509OID.clientAuth]).encodedValue())
                ],
                privateKey: key)
            #expect(csr.isSignatureValid)
            try X509TestPKI.write(csr.pemString, to: directory.appendingPathComponent("\(label).csr"))
            let verify = try X509TestData.shell(
                "cd '\(directory.path)' && openssl req -in \(label).csr -verify -noout 2>&1; echo rc=$?")
            #expect(verify.output.contains("rc=0"), "\(label): \(verify.output)")
            let text = try X509TestData.shell("openssl req -in '\(path("\(label).csr"))' -noout -text").output
            #expect(text.contains("DNS:csr-\(label).example.com, IP Address:2001:DB8:0:0:0:0:0:1"), "\(text)")
            #expect(text.contains("TLS Web Client Authentication"), "\(text)")
            let signed = try X509TestData.shell(
                "cd '\(directory.path)' && openssl x509 -req -in \(label).csr -CA ca.pem -CAkey ca.key "
                    + "-CAcreateserial -days 10 -copy_extensions copy -out \(label).pem 2>/dev/null; echo rc=$?"
            )
            #expect(signed.output.contains("rc=0"), "\(label): \(signed.output)")
            let issued = try Certificate(pemEncoded: String(contentsOfFile: path("\(label).pem"), encoding: .utf8))
            let ca = try Certificate(pemEncoded: String(contentsOfFile: path("ca.pem"), encoding: .utf8))
            #expect(issued.isSigned(by: ca))
            #expect(issued.subject == csr.subject)
            #expect(issued.publicKeyInfo == csr.publicKeyInfo)
            #expect(try issued.extensions.subjectAlternativeNames?.first == .dnsName("csr-\(label).example.com"))
        }
    }

    @Test func ourCertificatesPassOpenSSLVerify() throws {
        for (label, caKey, leafKey) in [
            ("ec", X509TestPKI.p384Key, X509TestPKI.p256Key), ("rsa", X509TestPKI.rsaKey, X509TestPKI.p521Key),
        ] {
            let root = try X509TestPKI.root(key: caKey, cn: "Root \(label)")
            var intermediateBuilder = try CertificateBuilder(
                subject: X509TestPKI.name("Intermediate \(label)"),
                publicKey: SubjectPublicKeyInfo(X509TestPKI.p256Key),
                notBefore: X509TestPKI.notBefore, notAfter: X509TestPKI.notAfter)
            intermediateBuilder.basicConstraints = BasicConstraints(
                isCertificateAuthority: true, pathLengthConstraint: 0)
            intermediateBuilder.keyUsage = [.keyCertSign, .cRLSign, .digitalSignature]
            intermediateBuilder.nameConstraints = NameConstraints(permittedSubtrees: [.dnsName("example.com")])
            let intermediate = try intermediateBuilder.issued(by: root, issuerKey: caKey)
            let leaf = try X509TestPKI.leaf(
                key: leafKey, issuer: intermediate, issuerKey: X509TestPKI.p256Key, cn: "www.example.com")
            try X509TestPKI.write(root.pemString, to: directory.appendingPathComponent("root-\(label).pem"))
            try X509TestPKI.write(intermediate.pemString, to: directory.appendingPathComponent("int-\(label).pem"))
            try X509TestPKI.write(leaf.pemString, to: directory.appendingPathComponent("leaf-\(label).pem"))
            let result = try X509TestData.shell(
                "cd '\(directory.path)' && openssl verify -attime 1750000000 -x509_strict -CAfile root-\(label).pem "
                    + "-untrusted int-\(label).pem -verify_hostname www.example.com leaf-\(label).pem 2>&1"
            )
            #expect(
                result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "leaf-\(label).pem: OK", "\(label)")
            let rootOnly = try X509TestData.shell(
                "cd '\(directory.path)' && openssl verify -attime 1750000000 -x509_strict -CAfile root-\(label).pem "
                    + "root-\(label).pem 2>&1"
            )
            #expect(rootOnly.output.contains("OK"), "\(rootOnly.output)")
            // A leaf outside the name constraints must be rejected by OpenSSL too (sanity check of our encoding).
            let outside = try X509TestPKI.leaf(
                key: leafKey, issuer: intermediate, issuerKey: X509TestPKI.p256Key, cn: "www.example.org")
            try X509TestPKI.write(outside.pemString, to: directory.appendingPathComponent("outside-\(label).pem"))
            let rejected = try X509TestData.shell(
                "cd '\(directory.path)' && openssl verify -attime 1750000000 -CAfile root-\(label).pem -untrusted "
                    + "int-\(label).pem outside-\(label).pem 2>&1"
            )
            #expect(rejected.output.contains("permitted subtree violation"), "\(rejected.output)")
        }
    }

    @Test func openSSLMadeCSRsParseAndVerify() throws {
        let specs = [
            "-newkey rsa:2048", "-newkey ec -pkeyopt ec_paramgen_curve:P-256",
            "-newkey ec -pkeyopt ec_paramgen_curve:P-384",
            "-newkey ec -pkeyopt ec_paramgen_curve:P-521", "-newkey rsa:2048 -sigopt rsa_padding_mode:pss -sha256",
            "-newkey rsa:2048 -sha512", "-newkey ec -pkeyopt ec_paramgen_curve:P-256 -sha384",
        ]
        for (index, spec) in specs.enumerated() {
            let result = try X509TestData.shell(
                "cd '\(directory.path)' && openssl req -new \(spec) -nodes -keyout k\(index).pem -out r\(index).csr "
                    + "-subj '/C=DE/O=Test+OU=Multi/CN=req\(index).example.com'"
                    + " -addext 'subjectAltName=DNS:req\(index).example.com,IP:10.0.0.1,"
                    + "email:a@example.com,URI:https://example.com/'"
                    + " -addext 'keyUsage=critical,digitalSignature' 2>&1; echo rc=$?"
            )
            #expect(result.output.contains("rc=0"), "\(result.output)")
            let pem = try String(contentsOfFile: path("r\(index).csr"), encoding: .utf8)
            let csr = try CertificationRequestParsing.parse(pem)
            #expect(csr.isSignatureValid, "\(spec)")
            #expect(csr.subject.rfc4514String == "CN=req\(index).example.com,O=Test+OU=Multi,C=DE")
            let extensions = try csr.requestedExtensions
            #expect(
                try extensions.subjectAlternativeNames == [
                    .dnsName("req\(index).example.com"), .ipAddress([10, 0, 0, 1]), .rfc822Name("a@example.com"),
                    .uniformResourceIdentifier("https://example.com/"),
                ])
            #expect(try extensions.keyUsage == .digitalSignature)
            // Corrupting the signed info must break verification.
            var der = csr.derBytes
            if let index = der.lastIndex(of: UInt8(ascii: "q")) { der[index] = UInt8(ascii: "Q") }
            #expect(!(try CertificateSigningRequest(derEncoded: der).isSignatureValid))
        }
    }

    @Test func openSSLMadePSSAndSHA1CertificatesVerify() throws {
        let specs = [
            "-newkey rsa:2048 -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:32 -sha256",
            "-newkey rsa:2048 -sha1", "-newkey rsa:2048 -sha224",
            "-newkey ec -pkeyopt ec_paramgen_curve:P-521 -sha512", "-newkey ec -pkeyopt ec_paramgen_curve:P-384 -sha1",
        ]
        for (index, spec) in specs.enumerated() {
            let result = try X509TestData.shell(
                "cd '\(directory.path)' && openssl req -x509 \(spec) -nodes -keyout k\(index).pem -out "
                    + "c\(index).pem -subj '/CN=self\(index)' -days 5 2>&1; echo rc=$?"
            )
            #expect(result.output.contains("rc=0"), "\(result.output)")
            let cert = try Certificate(pemEncoded: String(contentsOfFile: path("c\(index).pem"), encoding: .utf8))
            #expect(throws: Never.self, "\(spec)") { try cert.signatureAlgorithm.kind }
            #expect(cert.isSigned(by: cert), "\(spec)")
        }
        // Ed25519 (RFC 8410): parsed, re-encoded byte for byte, and its signature verifies; one flipped bit breaks it.
        let ed = try X509TestData.shell(
            "cd '\(directory.path)' && openssl req -x509 -newkey ed25519 -nodes -keyout ed.pem -out ed.crt -subj "
                + "'/CN=ed' -days 5 2>&1; echo rc=$?"
        )
        #expect(ed.output.contains("rc=0"))
        let edCert = try Certificate(pemEncoded: String(contentsOfFile: path("ed.crt"), encoding: .utf8))
        #expect(edCert.publicKeyInfo.kind == .ed25519)
        #expect(try edCert.signatureAlgorithm.kind == .ed25519)
        #expect(try edCert.reencoded() == edCert.derBytes)
        #expect(edCert.isSigned(by: edCert))
        var tampered = edCert.derBytes
        tampered[tampered.count - 1] ^= 0x01
        #expect(!(try Certificate(derEncoded: tampered).isSigned(by: edCert)))
    }
}

enum CertificationRequestParsing {
    static func parse(_ pem: String) throws -> CertificateSigningRequest {
        try CertificateSigningRequest(pemEncoded: pem)
    }
}
