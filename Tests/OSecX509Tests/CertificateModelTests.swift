import Foundation
import OSecASN1
import OSecCrypto
import XCTest

@testable import OSecX509

final class CertificateModelTests: XCTestCase {
    func testBuiltChainFieldsAndSignatures() throws {
        let rootKey = X509TestPKI.p256Key
        let root = try X509TestPKI.root(key: rootKey)
        let leaf = try X509TestPKI.leaf(key: X509TestPKI.rsaKey, issuer: root, issuerKey: rootKey)
        XCTAssertEqual(root.version, .v3)
        XCTAssertTrue(root.isSelfIssued)
        XCTAssertFalse(leaf.isSelfIssued)
        XCTAssertEqual(leaf.issuer, root.subject)
        XCTAssertEqual(leaf.subject.rfc4514String, "CN=www.example.com,O=OpenSecurity Tests,C=US")
        XCTAssertEqual(leaf.notBefore.iso8601, "2024-01-01T00:00:00Z")
        XCTAssertEqual(leaf.notAfter, X509TestPKI.notAfter)
        XCTAssertTrue(leaf.isValid(atSecondsSinceEpoch: 1_750_000_000))
        XCTAssertFalse(leaf.isValid(atSecondsSinceEpoch: 1_600_000_000))
        XCTAssertEqual(try leaf.signatureAlgorithm.kind, .ecdsa(.sha256))
        XCTAssertEqual(leaf.publicKeyInfo.kind, .rsa)
        XCTAssertEqual(root.publicKeyInfo.kind, .ec(.p256))
        XCTAssertTrue(leaf.isSigned(by: root))
        XCTAssertTrue(root.isSigned(by: root))
        XCTAssertFalse(root.isSigned(by: leaf))
        XCTAssertFalse(leaf.isSignature(validFor: X509TestPKI.p384Key))

        let ext = leaf.extensions
        XCTAssertEqual(try ext.basicConstraints, BasicConstraints(isCertificateAuthority: false))
        XCTAssertEqual(try ext.keyUsage, [.digitalSignature, .keyEncipherment])
        XCTAssertEqual(try ext.extendedKeyUsage?.usages, [X509OID.serverAuth])
        XCTAssertEqual(
            try ext.subjectAlternativeNames,
            [.dnsName("www.example.com"), .ipAddress([192, 0, 2, 7]), .rfc822Name("admin@example.com")])
        XCTAssertEqual(try ext.authorityKeyIdentifier?.keyIdentifier, try root.extensions.subjectKeyIdentifier)
        XCTAssertEqual(try ext.subjectKeyIdentifier.map(Array.init), Array(leaf.publicKeyInfo.publicKeyHash))
        XCTAssertNil(try ext.nameConstraints)
        XCTAssertEqual(ext[oid: X509OID.basicConstraints]?.critical, true)
        XCTAssertEqual(ext[oid: X509OID.extKeyUsage]?.critical, false)
        XCTAssertEqual(try leaf.reencoded(), leaf.derBytes)
        XCTAssertEqual(try Certificate(derEncoded: leaf.derBytes), leaf)
        XCTAssertEqual(Set([leaf, try Certificate(derEncoded: leaf.derBytes)]).count, 1)
    }

    func testAllKeyAndSignatureKinds() throws {
        let keys: [(AsymmetricKey, SignatureAlgorithm.Kind)] = [
            (X509TestPKI.rsaKey, .rsaPKCS1(.sha256)), (X509TestPKI.p256Key, .ecdsa(.sha256)),
            (X509TestPKI.p384Key, .ecdsa(.sha384)), (X509TestPKI.p521Key, .ecdsa(.sha512)),
        ]
        for (key, expected) in keys {
            let cert = try X509TestPKI.root(key: key)
            XCTAssertEqual(try cert.signatureAlgorithm.kind, expected)
            XCTAssertTrue(cert.isSignature(validFor: key.publicKey))
        }
        for digest in [DigestAlgorithm.sha1, .sha224, .sha384, .sha512] {
            var builder = try CertificateBuilder(
                subject: X509TestPKI.name("rsa-\(digest)"), publicKey: SubjectPublicKeyInfo(X509TestPKI.rsaKey),
                notBefore: X509TestPKI.notBefore, notAfter: X509TestPKI.notAfter)
            builder.signatureAlgorithm = SignatureAlgorithm(.rsaPKCS1(digest))
            let cert = try builder.selfSigned(with: X509TestPKI.rsaKey)
            XCTAssertTrue(cert.isSignature(validFor: X509TestPKI.rsaKey), "\(digest)")
            builder.signatureAlgorithm = SignatureAlgorithm(.rsaPSS(digest: digest, saltLength: digest.outputSize))
            let pss = try builder.selfSigned(with: X509TestPKI.rsaKey)
            XCTAssertEqual(try pss.signatureAlgorithm.kind, .rsaPSS(digest: digest, saltLength: digest.outputSize))
            XCTAssertTrue(pss.isSignature(validFor: X509TestPKI.rsaKey), "PSS \(digest)")
        }
    }

    func testTamperedSignatureFails() throws {
        let cert = try X509TestPKI.root(key: X509TestPKI.p256Key)
        var der = cert.derBytes
        der[der.count - 5] ^= 0x01
        if let tampered = try? Certificate(derEncoded: der) {
            XCTAssertFalse(tampered.isSignature(validFor: X509TestPKI.p256Key))
        }
        // A changed TBS byte (inside the subject CN) breaks the signature too.
        var tbsChanged = cert.derBytes
        let cnIndex = tbsChanged.lastIndex(of: UInt8(ascii: "R"))!
        tbsChanged[cnIndex] = UInt8(ascii: "X")
        let changed = try Certificate(derEncoded: tbsChanged)
        XCTAssertFalse(changed.isSignature(validFor: X509TestPKI.p256Key))
    }

    func testDuplicateExtensionIsRejected() throws {
        let san = Extension(oid: X509OID.subjectAltName, critical: false, value: [0x30, 0x03, 0x82, 0x01, 0x61])
        XCTAssertThrowsError(try Extensions([san, san])) {
            XCTAssertEqual(($0 as? X509Error)?.code, .duplicateExtension)
        }
        var builder = try CertificateBuilder(
            subject: X509TestPKI.name("dup"), publicKey: SubjectPublicKeyInfo(X509TestPKI.p256Key),
            notBefore: X509TestPKI.notBefore, notAfter: X509TestPKI.notAfter)
        builder.subjectAlternativeNames = [.dnsName("a")]
        builder.additionalExtensions = [san]
        XCTAssertThrowsError(try builder.selfSigned(with: X509TestPKI.p256Key)) {
            XCTAssertEqual(($0 as? X509Error)?.code, .duplicateExtension)
        }
    }

    func testUnknownCriticalExtensionIsKeptRaw() throws {
        let unknown = Extension(oid: [1, 3, 6, 1, 4, 1, 99999, 1], critical: true, value: [0x05, 0x00])
        var builder = try CertificateBuilder(
            subject: X509TestPKI.name("unknown"), publicKey: SubjectPublicKeyInfo(X509TestPKI.p256Key),
            notBefore: X509TestPKI.notBefore, notAfter: X509TestPKI.notAfter)
        builder.additionalExtensions = [unknown]
        let cert = try builder.selfSigned(with: X509TestPKI.p256Key)
        XCTAssertEqual(cert.extensions[oid: unknown.oid]?.critical, true)
        XCTAssertEqual(cert.extensions[oid: unknown.oid]?.value, [0x05, 0x00])
        XCTAssertEqual(cert.extensions.criticalOIDs.last, unknown.oid)
    }

    func testNameConstraintsAndPoliciesRoundTrip() throws {
        var builder = try CertificateBuilder(
            subject: X509TestPKI.name("Constrained CA"), publicKey: SubjectPublicKeyInfo(X509TestPKI.p256Key),
            notBefore: X509TestPKI.notBefore, notAfter: X509TestPKI.notAfter)
        builder.basicConstraints = BasicConstraints(isCertificateAuthority: true, pathLengthConstraint: 0)
        builder.nameConstraints = NameConstraints(
            permittedSubtrees: [.dnsName("example.com"), .ipAddress([10, 0, 0, 0, 255, 0, 0, 0])],
            excludedSubtrees: [.directoryName(try X509TestPKI.name("Evil"))])
        let policies = try PolicyInformation.encodedValue([PolicyInformation(policyIdentifier: [2, 23, 140, 1, 2, 1])])
        builder.additionalExtensions = [
            Extension(oid: X509OID.certificatePolicies, critical: false, value: policies),
            Extension(oid: X509OID.inhibitAnyPolicy, critical: true, value: [0x02, 0x01, 0x00]),
            Extension(oid: X509OID.policyConstraints, critical: true, value: [0x30, 0x03, 0x80, 0x01, 0x02]),
            Extension(
                oid: X509OID.policyMappings, critical: true,
                value: try {
                    var coder = DER.Serializer()
                    try coder.appendConstructedNode(identifier: .sequence) { coder in
                        try coder.appendConstructedNode(identifier: .sequence) { coder in
                            try coder.serialize(ASN1ObjectIdentifier(arcs: [1, 2, 3]))
                            try coder.serialize(ASN1ObjectIdentifier(arcs: [1, 2, 4]))
                        }
                    }
                    return coder.serializedBytes
                }()),
        ]
        let cert = try builder.selfSigned(with: X509TestPKI.p256Key)
        let ext = cert.extensions
        XCTAssertEqual(try ext.basicConstraints?.pathLengthConstraint, 0)
        XCTAssertEqual(try ext.nameConstraints, builder.nameConstraints)
        XCTAssertEqual(try ext.certificatePolicies?.map(\.policyIdentifier), [[2, 23, 140, 1, 2, 1]])
        XCTAssertEqual(try ext.inhibitAnyPolicy, 0)
        XCTAssertEqual(try ext.policyConstraints, PolicyConstraints(requireExplicitPolicy: 2))
        XCTAssertEqual(
            try ext.policyMappings, [PolicyMapping(issuerDomainPolicy: [1, 2, 3], subjectDomainPolicy: [1, 2, 4])])
        XCTAssertEqual(ext[oid: X509OID.nameConstraints]?.critical, true)
    }

    func testCABundleExtensionAccessorsAndAIA() throws {
        var withCRLDP = 0
        var withAIA = 0
        var withPolicies = 0
        for (_, der) in try X509TestData.caBundleCertificates() {
            let cert = try Certificate(derEncoded: der)
            if try cert.extensions.crlDistributionPoints != nil { withCRLDP += 1 }
            if try cert.extensions.authorityInformationAccess != nil { withAIA += 1 }
            if try cert.extensions.certificatePolicies != nil { withPolicies += 1 }
            _ = try cert.extensions.authorityKeyIdentifier
            _ = try cert.extensions.nameConstraints
            _ = try cert.extensions.issuerAlternativeNames
            XCTAssertEqual(cert.publicKeyInfo.publicKeyHash.count, 20)
            XCTAssertNotEqual(cert.publicKeyInfo.kind, .unsupported, cert.subject.rfc4514String)
            XCTAssertEqual(
                try DistinguishedName(derEncoded: cert.subject.normalizedDERBytes).rdns.count, cert.subject.rdns.count)
        }
        XCTAssertGreaterThan(withCRLDP, 0)
        XCTAssertGreaterThan(withAIA, 0)
        XCTAssertGreaterThan(withPolicies, 0)
    }

    func testSelfSignedCABundleRootsVerify() throws {
        var verified = 0
        var selfIssued = 0
        for (_, der) in try X509TestData.caBundleCertificates() {
            let cert = try Certificate(derEncoded: der)
            guard cert.isSelfIssued else { continue }
            selfIssued += 1
            if cert.isSigned(by: cert) { verified += 1 }
        }
        // Every self-issued root in the bundle is self-signed with RSA/ECDSA (MD5/SHA-1 roots included).
        XCTAssertEqual(verified, selfIssued)
        XCTAssertGreaterThan(verified, 100)
    }

    func testNormalizationUppercasesOnlyPrintableStrings() throws {
        let name = DistinguishedName([
            RelativeDistinguishedName([try AttributeTypeAndValue(type: X509OID.countryName, printableString: "us")]),
            RelativeDistinguishedName([
                try AttributeTypeAndValue(type: X509OID.organizationName, printableString: "  Example   corp  ")
            ]),
            RelativeDistinguishedName([AttributeTypeAndValue(type: X509OID.commonName, utf8String: "mixed Case")]),
        ])
        let normalized = try DistinguishedName(derEncoded: name.normalizedDERBytes)
        XCTAssertEqual(normalized.attributes.map { $0.stringValue }, ["US", "EXAMPLE CORP", "mixed Case"])
        XCTAssertEqual(normalized.attributes.map(\.valueTag), [.printableString, .printableString, .utf8String])
        XCTAssertEqual(Array(name.normalizedDERBytes.dropFirst(2)), name.normalizedContentBytes)
    }

    func testRFC4514Escaping() throws {
        let name = DistinguishedName([
            RelativeDistinguishedName([
                AttributeTypeAndValue(type: X509OID.commonName, utf8String: " a,b+c\"d\\e<f>g;h ")
            ]),
            RelativeDistinguishedName([
                AttributeTypeAndValue(type: X509OID.organizationalUnitName, utf8String: "#x"),
                AttributeTypeAndValue(type: X509OID.organizationName, utf8String: "Zürich"),
            ]),
        ])
        XCTAssertEqual(name.rfc4514String, "OU=\\#x+O=Zürich,CN=\\ a\\,b\\+c\\\"d\\\\e\\<f\\>g\\;h\\ ")
    }

    func testPEMBundle() throws {
        let text = try String(contentsOfFile: X509TestData.caBundlePath, encoding: .utf8)
        let certs = try Certificate.certificates(
            fromPEM: "garbage before\n" + text + "\n-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
        XCTAssertEqual(certs.count, X509TestData.pemBlocks(text).count)
        let first = try XCTUnwrap(certs.first)
        XCTAssertEqual(try Certificate(pemEncoded: first.pemString), first)
        XCTAssertTrue(first.pemString.split(separator: "\n").dropFirst().dropLast().allSatisfy { $0.count <= 64 })
        XCTAssertThrowsError(
            try Certificate.certificates(fromPEM: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"))
        XCTAssertEqual(try Certificate.certificates(fromPEM: "no pem here"), [])
    }

    func testVersion1CertificatesCanBeBuiltWithoutExtensions() throws {
        var builder = try CertificateBuilder(
            subject: X509TestPKI.name("v1 root"), publicKey: SubjectPublicKeyInfo(X509TestPKI.rsaKey),
            notBefore: X509TestPKI.notBefore, notAfter: X509TestPKI.notAfter)
        builder.version = .v1
        XCTAssertThrowsError(try builder.selfSigned(with: X509TestPKI.rsaKey)) {
            XCTAssertEqual(($0 as? X509Error)?.code, .invalidValue)
        }
        builder.includesSubjectKeyIdentifier = false
        builder.includesAuthorityKeyIdentifier = false
        let cert = try builder.selfSigned(with: X509TestPKI.rsaKey)
        XCTAssertEqual(cert.version, .v1)
        XCTAssertTrue(cert.extensions.isEmpty)
        XCTAssertTrue(cert.isSigned(by: cert))
        XCTAssertEqual(try cert.reencoded(), cert.derBytes)
        // the TBS starts with the serial INTEGER, no [0] version
        XCTAssertEqual(cert.tbsBytes.dropFirst(4).first, 0x02)
    }

    func testTrailingBytesAreForbiddenExceptInPrefixMode() throws {
        let cert = try X509TestPKI.root(key: X509TestPKI.p256Key)
        XCTAssertThrowsError(try Certificate(derEncoded: cert.derBytes + [0x00]))
        XCTAssertEqual(try Certificate(derEncodedPrefixOf: cert.derBytes + [0x00, 0x01]), cert)
    }
}
