import Foundation
import Testing

@testable import Security

@Suite struct SecCertificateCreationTests {
    @Test func derRoundTripsAndTrailingBytesAreDropped() throws {
        let der = SecCertificateCopyData(CertificateFixtures.root) as Data
        let again = try #require(SecCertificateCreateWithData(nil, der as CFData))
        #expect(again == CertificateFixtures.root)
        #expect(Set([again, CertificateFixtures.root]).count == 1)
        let withTrailing = try #require(
            SecCertificateCreateWithData(kCFAllocatorDefault, (der + Data([0, 1, 2, 3])) as CFData))
        #expect(SecCertificateCopyData(withTrailing) as Data == der)
    }

    @Test func nonDERInputGivesNil() throws {
        let pem = OpenSecurityCertificates.pemRepresentation(of: CertificateFixtures.root)
        #expect(SecCertificateCreateWithData(nil, Data(pem.utf8) as CFData) == nil)
        #expect(SecCertificateCreateWithData(nil, Data() as CFData) == nil)
        #expect(SecCertificateCreateWithData(nil, Data([0x30, 0x03, 0x02, 0x01, 0x01]) as CFData) == nil)
        let der = SecCertificateCopyData(CertificateFixtures.root) as Data
        #expect(SecCertificateCreateWithData(nil, der.prefix(der.count - 1) as CFData) == nil)
    }

    @Test(.enabled(if: CertificateFixtures.hasOpenSSL)) func serialLengthLimitIs37Bytes() throws {
        let dir = try CertificateFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (bytes, accepted) in [(37, true), (38, false)] {
            let serial = "7" + String(repeating: "1", count: bytes * 2 - 1)
            let result = try CertificateFixtures.shell(
                "cd '\(dir.path)' && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "
                    + "k.pem -subj /CN=s -set_serial 0x\(serial) -outform DER -out c\(bytes).der 2>&1"
            )
            #expect(result.status == 0, "\(result.output)")
            let der = try Data(contentsOf: dir.appendingPathComponent("c\(bytes).der"))
            let cert = SecCertificateCreateWithData(nil, der as CFData)
            #expect((cert != nil) == accepted, "serial of \(bytes) bytes")
            if let cert {
                var error: Unmanaged<CFError>?
                #expect((SecCertificateCopySerialNumberData(cert, &error) as Data?)?.count == bytes)
            }
        }
    }

    @Test func caBundleLoadsThroughPEMExtras() throws {
        let text = try String(contentsOfFile: "/etc/ssl/certs/ca-certificates.crt", encoding: .utf8)
        let certs = try OpenSecurityCertificates.certificates(fromPEM: text)
        #expect(certs.count == text.components(separatedBy: "-----BEGIN CERTIFICATE-----").count - 1)
        for cert in certs.prefix(20) {
            let pem = OpenSecurityCertificates.pemRepresentation(of: cert)
            #expect(try OpenSecurityCertificates.certificates(fromPEM: pem) == [cert])
            #expect(SecCertificateCopySubjectSummary(cert) != nil)
            #expect(SecCertificateCopyKey(cert) != nil)
        }
        #expect(throws: (any Error).self) {
            try OpenSecurityCertificates.certificates(
                fromPEM: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
        }
    }
}

@Suite struct SecCertificateAccessorTests {
    @Test func commonNameIsTheLastOne() throws {
        let cert = try CertificateFixtures.leaf(subject: [("CN", "first"), ("O", "Org"), ("CN", "second")])
        var cn: CFString?
        #expect(SecCertificateCopyCommonName(cert, &cn) == errSecSuccess)
        #expect(cn as String? == "second")
        #expect(SecCertificateCopySubjectSummary(cert) as String? == "second, first")
    }

    @Test func missingCommonNameIsErrSecInternal() throws {
        let cert = try CertificateFixtures.leaf(subject: [("O", "Org"), ("OU", "Unit")])
        var cn: CFString? = "stale" as CFString
        #expect(SecCertificateCopyCommonName(cert, &cn) == -26276)
        #expect(cn == nil)
    }

    @Test func subjectSummaryRules() throws {
        // CN wins; a description attribute is appended in parentheses.
        let described = try CertificateFixtures.leaf(subject: [("O", "Org"), ("CN", "Name"), ("2.5.4.13", "Desc")])
        #expect(SecCertificateCopySubjectSummary(described) as String? == "Name (Desc)")
        // Without CN: first email (SAN before subject emailAddress), then DNS name, then OU > O > others.
        let email = try CertificateFixtures.leaf(
            subject: [("O", "Org"), ("emailAddress", "subject@example.com")],
            names: [.email("san@example.com"), .dns("host.example.com")])
        #expect(SecCertificateCopySubjectSummary(email) as String? == "san@example.com")
        let subjectEmail = try CertificateFixtures.leaf(subject: [
            ("O", "Org"), ("emailAddress", "subject@example.com"),
        ])
        #expect(SecCertificateCopySubjectSummary(subjectEmail) as String? == "subject@example.com")
        let dns = try CertificateFixtures.leaf(subject: [("O", "Org")], names: [.dns("host.example.com")])
        #expect(SecCertificateCopySubjectSummary(dns) as String? == "host.example.com")
        let units = try CertificateFixtures.leaf(subject: [("C", "US"), ("O", "Org"), ("OU", "One"), ("OU", "Two")])
        #expect(SecCertificateCopySubjectSummary(units) as String? == "Two, One")
        let orgOnly = try CertificateFixtures.leaf(subject: [("C", "US"), ("L", "Town"), ("O", "Org")])
        #expect(SecCertificateCopySubjectSummary(orgOnly) as String? == "Org")
        let other = try CertificateFixtures.leaf(subject: [("C", "US"), ("L", "Town")])
        #expect(SecCertificateCopySubjectSummary(other) as String? == "Town, US")
    }

    @Test func emailAddressesComeFromSANThenSubject() throws {
        let cert = try CertificateFixtures.leaf(
            subject: [("CN", "x"), ("emailAddress", "subject@example.com")],
            names: [.email("a@example.com"), .dns("d.example.com"), .email("b@example.com")])
        var emails: CFArray?
        #expect(SecCertificateCopyEmailAddresses(cert, &emails) == errSecSuccess)
        #expect(emails as? [String] == ["a@example.com", "b@example.com", "subject@example.com"])
        var none: CFArray?
        #expect(SecCertificateCopyEmailAddresses(CertificateFixtures.root, &none) == errSecSuccess)
        #expect((none as? [String])?.isEmpty == true)
    }

    @Test func serialNumberKeepsLeadingZero() throws {
        let cert = try CertificateFixtures.leaf(subject: [("CN", "serial")], serial: Data([0x80, 0x01]))
        var error: Unmanaged<CFError>?
        #expect(SecCertificateCopySerialNumberData(cert, &error) as Data? == Data([0x00, 0x80, 0x01]))
        #expect(error == nil)
    }

    @Test func normalizedSequencesUppercasePrintableStrings() throws {
        let subject = try #require(SecCertificateCopyNormalizedSubjectSequence(CertificateFixtures.root) as Data?)
        let issuer = try #require(SecCertificateCopyNormalizedIssuerSequence(CertificateFixtures.root) as Data?)
        #expect(subject == issuer)
        #expect(subject.first == 0x30)
        // C=us is a PrintableString → "US"; O and CN are UTF8Strings → unchanged (double blank kept).
        #expect(subject.range(of: Data("US".utf8)) != nil)
        #expect(subject.range(of: Data("us".utf8)) == nil)
        #expect(subject.range(of: Data("OpenSecurity  Tests".utf8)) != nil)
        let raw = SecCertificateCopyData(CertificateFixtures.root) as Data
        #expect(raw.range(of: Data("us".utf8)) != nil)
    }

    @Test func copyKeyMatchesTheKeyPair() throws {
        for key in [KeyFixtures.rsa2048, KeyFixtures.p256, KeyFixtures.p521] {
            let cert = try CertificateFixtures.leaf(subject: [("CN", "key")], key: key)
            let copied = try #require(SecCertificateCopyKey(cert))
            #expect(copied == KeyFixtures.publicKey(key))
            #expect((DeprecatedAPI() as any DeprecatedCalls).certificateCopyPublicKey(cert) == copied)
        }
    }

    @Test func descriptionShowsSummaries() throws {
        let cert = try CertificateFixtures.leaf(subject: [("CN", "desc.example.com")])
        #expect(cert.description.hasSuffix("s: desc.example.com i: Test Root CA>"))
    }
}

@Suite struct SecIdentityTests {
    @Test func identityReturnsItsParts() throws {
        let identity = CertificateFixtures.rootIdentity
        var cert: SecCertificate?
        var key: SecKey?
        #expect(SecIdentityCopyCertificate(identity, &cert) == errSecSuccess)
        #expect(SecIdentityCopyPrivateKey(identity, &key) == errSecSuccess)
        #expect(cert == CertificateFixtures.root)
        #expect(key == CertificateFixtures.rootKey)
    }

    @Test func mismatchedKeyIsRejected() throws {
        #expect(throws: (any Error).self) {
            try SecIdentity(certificate: CertificateFixtures.root, privateKey: KeyFixtures.p256)
        }
        #expect(throws: (any Error).self) {
            try SecIdentity(certificate: CertificateFixtures.root, privateKey: KeyFixtures.publicKey(KeyFixtures.p384))
        }
        let error = #expect(throws: NSError.self) {
            try OpenSecurityCertificates.createIdentity(
                certificate: CertificateFixtures.root, privateKey: KeyFixtures.rsa2048)
        }
        #expect(error?.code == Int(errSecParam))
    }
}

@Suite struct SecCertificateKeychainAttributeTests {
    @Test func attributesFollowApple() throws {
        for key in [KeyFixtures.rsa2048, KeyFixtures.p256] {
            let cert = try CertificateFixtures.leaf(subject: [("C", "de"), ("CN", "kc.example.com")], key: key)
            let attributes = cert.keychainAttributes()
            #expect(attributes["class"] as? String == "cert")
            #expect((attributes["ctyp"] as? NSNumber)?.intValue == 3)
            #expect((attributes["cenc"] as? NSNumber)?.intValue == 3)
            #expect(attributes["slnr"] as? Data == Data([0x00, 0x80, 0x01]))
            #expect(attributes["labl"] as? String == "kc.example.com")
            #expect(attributes["v_Data"] as? Data == SecCertificateCopyData(cert) as Data)
            let subject = try #require(attributes["subj"] as? Data)
            let normalized = try #require(SecCertificateCopyNormalizedSubjectSequence(cert) as Data?)
            #expect(normalized.suffix(subject.count) == subject)
            #expect(subject.count == normalized.count - 2)
            #expect(
                attributes["issr"] as? Data
                    == SecCertificateCopyNormalizedIssuerSequence(cert).map { ($0 as Data).dropFirst(2) }.map {
                        Data($0)
                    })
            // pkhh joins with the private key's klbl (kSecAttrApplicationLabel) in the identity query.
            let keyAttributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
            #expect(attributes["pkhh"] as? Data == keyAttributes["klbl"] as? Data)
            #expect((attributes["skid"] as? Data)?.count == 20)
            #expect(SecCertificate.normalizedNameContents(fromDER: normalized) == subject)
        }
    }
}

@Suite(.enabled(if: CertificateFixtures.hasOpenSSL)) struct CertificateRequestExtrasTests {
    @Test func csrRoundTripThroughOpenSSL() throws {
        let dir = try CertificateFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for key in [KeyFixtures.rsa2048, KeyFixtures.p256, KeyFixtures.p384] {
            let (der, pem) = try OpenSecurityCertificates.createCertificateSigningRequest(
                subject: [("C", "US"), ("O", "Example"), ("CN", "csr.example.com")], privateKey: key,
                extensions: .init(
                    keyUsage: [.digitalSignature],
                    extendedKeyUsage: [OpenSecurityCertificates.ExtendedKeyUsage.clientAuth],
                    alternativeNames: [.dns("csr.example.com"), .ipAddress("192.0.2.9")]))
            #expect(OpenSecurityCertificates.verifyCertificateSigningRequest(der))
            #expect(OpenSecurityCertificates.verifyCertificateSigningRequest(Data(pem.utf8)))
            var tampered = der
            tampered[tampered.count / 3] ^= 0x01
            #expect(!OpenSecurityCertificates.verifyCertificateSigningRequest(tampered))
            try pem.write(to: dir.appendingPathComponent("r.csr"), atomically: false, encoding: .utf8)
            let verify = try CertificateFixtures.shell("openssl req -in '\(dir.path)/r.csr' -verify -noout")
            #expect(verify.status == 0, "\(verify.output)")
            // Issue from the CSR with our root identity, then let openssl verify the chain.
            let issued = try OpenSecurityCertificates.issueCertificate(
                fromRequest: der, issuer: CertificateFixtures.rootIdentity, notBefore: CertificateFixtures.notBefore,
                notAfter: CertificateFixtures.notAfter)
            #expect(SecCertificateCopySubjectSummary(issued) as String? == "csr.example.com")
            #expect(SecCertificateCopyKey(issued) == KeyFixtures.publicKey(key))
            try OpenSecurityCertificates.pemRepresentation(of: issued).write(
                to: dir.appendingPathComponent("leaf.pem"), atomically: false, encoding: .utf8)
            try OpenSecurityCertificates.pemRepresentation(of: CertificateFixtures.root).write(
                to: dir.appendingPathComponent("root.pem"), atomically: false, encoding: .utf8)
            let chain = try CertificateFixtures.shell(
                "cd '\(dir.path)' && openssl verify -attime 1750000000 -purpose sslclient -CAfile root.pem leaf.pem")
            #expect(chain.output.contains("leaf.pem: OK"), "\(chain.output)")
        }
    }

    @Test func badCSRIsRefusedForIssuing() throws {
        #expect(!OpenSecurityCertificates.verifyCertificateSigningRequest(Data("nonsense".utf8)))
        let error = #expect(throws: NSError.self) {
            try OpenSecurityCertificates.issueCertificate(
                fromRequest: Data([0x30, 0x00]), issuer: CertificateFixtures.rootIdentity,
                notBefore: CertificateFixtures.notBefore, notAfter: CertificateFixtures.notAfter)
        }
        #expect(error?.code == Int(errSecDecode))
    }
}

/// Apple's deprecated functions, called through a protocol so the tests that cover them build without
/// deprecation warnings (the build treats warnings as errors).
protocol DeprecatedCalls {
    func certificateCopyPublicKey(_ certificate: SecCertificate) -> SecKey?
}

struct DeprecatedAPI: DeprecatedCalls {
    @available(*, deprecated)
    func certificateCopyPublicKey(_ certificate: SecCertificate) -> SecKey? {
        SecCertificateCopyPublicKey(certificate)
    }
}
