import Foundation
import OSecASN1
import OSecCrypto
import Testing

@testable import OSecX509

@Suite struct CertificateModelTests {
    @Test func builtChainFieldsAndSignatures() throws {
        let rootKey = X509TestPKI.p256Key
        let root = try X509TestPKI.root(key: rootKey)
        let leaf = try X509TestPKI.leaf(key: X509TestPKI.rsaKey, issuer: root, issuerKey: rootKey)
        #expect(root.version == .v3)
        #expect(root.isSelfIssued)
        #expect(!leaf.isSelfIssued)
        #expect(leaf.issuer == root.subject)
        #expect(leaf.subject.rfc4514String == "CN=www.example.com,O=OpenSecurity Tests,C=US")
        #expect(leaf.notBefore.iso8601 == "2024-01-01T00:00:00Z")
        #expect(leaf.notAfter == X509TestPKI.notAfter)
        #expect(leaf.isValid(atSecondsSinceEpoch: 1_750_000_000))
        #expect(!leaf.isValid(atSecondsSinceEpoch: 1_600_000_000))
        #expect(try leaf.signatureAlgorithm.kind == .ecdsa(.sha256))
        #expect(leaf.publicKeyInfo.kind == .rsa)
        #expect(root.publicKeyInfo.kind == .ec(.p256))
        #expect(leaf.isSigned(by: root))
        #expect(root.isSigned(by: root))
        #expect(!root.isSigned(by: leaf))
        #expect(!leaf.isSignature(validFor: X509TestPKI.p384Key))

        let ext = leaf.extensions
        #expect(try ext.basicConstraints == BasicConstraints(isCertificateAuthority: false))
        #expect(try ext.keyUsage == [.digitalSignature, .keyEncipherment])
        #expect(try ext.extendedKeyUsage?.usages == [X509OID.serverAuth])
        #expect(
            try ext.subjectAlternativeNames == [
                .dnsName("www.example.com"), .ipAddress([192, 0, 2, 7]), .rfc822Name("admin@example.com"),
            ])
        #expect(try ext.authorityKeyIdentifier?.keyIdentifier == root.extensions.subjectKeyIdentifier)
        #expect(try ext.subjectKeyIdentifier.map(Array.init) == Array(leaf.publicKeyInfo.publicKeyHash))
        #expect(try ext.nameConstraints == nil)
        #expect(ext[oid: X509OID.basicConstraints]?.critical == true)
        #expect(ext[oid: X509OID.extKeyUsage]?.critical == false)
        #expect(try leaf.reencoded() == leaf.derBytes)
        #expect(try Certificate(derEncoded: leaf.derBytes) == leaf)
        #expect(Set([leaf, try Certificate(derEncoded: leaf.derBytes)]).count == 1)
    }

    @Test func allKeyAndSignatureKinds() throws {
        let keys: [(AsymmetricKey, SignatureAlgorithm.Kind)] = [
            (X509TestPKI.rsaKey, .rsaPKCS1(.sha256)), (X509TestPKI.p256Key, .ecdsa(.sha256)),
            (X509TestPKI.p384Key, .ecdsa(.sha384)), (X509TestPKI.p521Key, .ecdsa(.sha512)),
        ]
        for (key, expected) in keys {
            let cert = try X509TestPKI.root(key: key)
            #expect(try cert.signatureAlgorithm.kind == expected)
            #expect(cert.isSignature(validFor: key.publicKey))
        }
        for digest in [DigestAlgorithm.sha1, .sha224, .sha384, .sha512] {
            var builder = try CertificateBuilder(
                subject: X509TestPKI.name("rsa-\(digest)"), publicKey: SubjectPublicKeyInfo(X509TestPKI.rsaKey),
                notBefore: X509TestPKI.notBefore, notAfter: X509TestPKI.notAfter)
            builder.signatureAlgorithm = SignatureAlgorithm(.rsaPKCS1(digest))
            let cert = try builder.selfSigned(with: X509TestPKI.rsaKey)
            #expect(cert.isSignature(validFor: X509TestPKI.rsaKey), "\(digest)")
            builder.signatureAlgorithm = SignatureAlgorithm(.rsaPSS(digest: digest, saltLength: digest.outputSize))
            let pss = try builder.selfSigned(with: X509TestPKI.rsaKey)
            #expect(try pss.signatureAlgorithm.kind == .rsaPSS(digest: digest, saltLength: digest.outputSize))
            #expect(pss.isSignature(validFor: X509TestPKI.rsaKey), "PSS \(digest)")
        }
    }

    @Test func tamperedSignatureFails() throws {
        let cert = try X509TestPKI.root(key: X509TestPKI.p256Key)
        var der = cert.derBytes
        der[der.count - 5] ^= 0x01
        if let tampered = try? Certificate(derEncoded: der) {
            #expect(!tampered.isSignature(validFor: X509TestPKI.p256Key))
        }
        // A changed TBS byte (inside the subject CN) breaks the signature too.
        var tbsChanged = cert.derBytes
        let cnIndex = tbsChanged.lastIndex(of: UInt8(ascii: "R"))!
        tbsChanged[cnIndex] = UInt8(ascii: "X")
        let changed = try Certificate(derEncoded: tbsChanged)
        #expect(!changed.isSignature(validFor: X509TestPKI.p256Key))
    }

    @Test func duplicateExtensionIsRejected() throws {
        let san = Extension(oid: X509OID.subjectAltName, critical: false, value: [0x30, 0x03, 0x82, 0x01, 0x61])
        let duplicate = #expect(throws: X509Error.self) { try Extensions([san, san]) }
        #expect(duplicate?.code == .duplicateExtension)
        var builder = try CertificateBuilder(
            subject: X509TestPKI.name("dup"), publicKey: SubjectPublicKeyInfo(X509TestPKI.p256Key),
            notBefore: X509TestPKI.notBefore, notAfter: X509TestPKI.notAfter)
        builder.subjectAlternativeNames = [.dnsName("a")]
        builder.additionalExtensions = [san]
        let built = #expect(throws: X509Error.self) { try builder.selfSigned(with: X509TestPKI.p256Key) }
        #expect(built?.code == .duplicateExtension)
    }

    @Test func unknownCriticalExtensionIsKeptRaw() throws {
        let unknown = Extension(oid: [1, 3, 6, 1, 4, 1, 99999, 1], critical: true, value: [0x05, 0x00])
        var builder = try CertificateBuilder(
            subject: X509TestPKI.name("unknown"), publicKey: SubjectPublicKeyInfo(X509TestPKI.p256Key),
            notBefore: X509TestPKI.notBefore, notAfter: X509TestPKI.notAfter)
        builder.additionalExtensions = [unknown]
        let cert = try builder.selfSigned(with: X509TestPKI.p256Key)
        #expect(cert.extensions[oid: unknown.oid]?.critical == true)
        #expect(cert.extensions[oid: unknown.oid]?.value == [0x05, 0x00])
        #expect(cert.extensions.criticalOIDs.last == unknown.oid)
    }

    @Test func nameConstraintsAndPoliciesRoundTrip() throws {
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
        #expect(try ext.basicConstraints?.pathLengthConstraint == 0)
        #expect(try ext.nameConstraints == builder.nameConstraints)
        #expect(try ext.certificatePolicies?.map(\.policyIdentifier) == [[2, 23, 140, 1, 2, 1]])
        #expect(try ext.inhibitAnyPolicy == 0)
        #expect(try ext.policyConstraints == PolicyConstraints(requireExplicitPolicy: 2))
        #expect(
            try ext.policyMappings == [PolicyMapping(issuerDomainPolicy: [1, 2, 3], subjectDomainPolicy: [1, 2, 4])])
        #expect(ext[oid: X509OID.nameConstraints]?.critical == true)
    }

    @Test func caBundleExtensionAccessorsAndAIA() throws {
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
            #expect(cert.publicKeyInfo.publicKeyHash.count == 20)
            #expect(cert.publicKeyInfo.kind != .unsupported, "\(cert.subject.rfc4514String)")
            #expect(
                try DistinguishedName(derEncoded: cert.subject.normalizedDERBytes).rdns.count == cert.subject.rdns.count
            )
        }
        #expect(withCRLDP > 0)
        #expect(withAIA > 0)
        #expect(withPolicies > 0)
    }

    @Test func selfSignedCABundleRootsVerify() throws {
        var verified = 0
        var selfIssued = 0
        for (_, der) in try X509TestData.caBundleCertificates() {
            let cert = try Certificate(derEncoded: der)
            guard cert.isSelfIssued else { continue }
            selfIssued += 1
            if cert.isSigned(by: cert) { verified += 1 }
        }
        // Every self-issued root in the bundle is self-signed with RSA/ECDSA (MD5/SHA-1 roots included).
        #expect(verified == selfIssued)
        #expect(verified > 100)
    }

    @Test func normalizationUppercasesOnlyPrintableStrings() throws {
        let name = DistinguishedName([
            RelativeDistinguishedName([try AttributeTypeAndValue(type: X509OID.countryName, printableString: "us")]),
            RelativeDistinguishedName([
                try AttributeTypeAndValue(type: X509OID.organizationName, printableString: "  Example   corp  ")
            ]),
            RelativeDistinguishedName([AttributeTypeAndValue(type: X509OID.commonName, utf8String: "mixed Case")]),
        ])
        let normalized = try DistinguishedName(derEncoded: name.normalizedDERBytes)
        #expect(normalized.attributes.map { $0.stringValue } == ["US", "EXAMPLE CORP", "mixed Case"])
        #expect(normalized.attributes.map(\.valueTag) == [.printableString, .printableString, .utf8String])
        #expect(Array(name.normalizedDERBytes.dropFirst(2)) == name.normalizedContentBytes)
    }

    @Test func rfc4514Escaping() throws {
        let name = DistinguishedName([
            RelativeDistinguishedName([
                AttributeTypeAndValue(type: X509OID.commonName, utf8String: " a,b+c\"d\\e<f>g;h ")
            ]),
            RelativeDistinguishedName([
                AttributeTypeAndValue(type: X509OID.organizationalUnitName, utf8String: "#x"),
                AttributeTypeAndValue(type: X509OID.organizationName, utf8String: "Zürich"),
            ]),
        ])
        #expect(name.rfc4514String == "OU=\\#x+O=Zürich,CN=\\ a\\,b\\+c\\\"d\\\\e\\<f\\>g\\;h\\ ")
    }

    @Test func pemBundle() throws {
        let text = try String(contentsOfFile: X509TestData.caBundlePath, encoding: .utf8)
        let certs = try Certificate.certificates(
            fromPEM: "garbage before\n" + text + "\n-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
        #expect(certs.count == X509TestData.pemBlocks(text).count)
        let first = try #require(certs.first)
        #expect(try Certificate(pemEncoded: first.pemString) == first)
        #expect(first.pemString.split(separator: "\n").dropFirst().dropLast().allSatisfy { $0.count <= 64 })
        #expect(throws: (any Error).self) {
            try Certificate.certificates(fromPEM: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
        }
        #expect(try Certificate.certificates(fromPEM: "no pem here") == [])
    }

    @Test func version1CertificatesCanBeBuiltWithoutExtensions() throws {
        var builder = try CertificateBuilder(
            subject: X509TestPKI.name("v1 root"), publicKey: SubjectPublicKeyInfo(X509TestPKI.rsaKey),
            notBefore: X509TestPKI.notBefore, notAfter: X509TestPKI.notAfter)
        builder.version = .v1
        let withoutIdentifiersOff = #expect(throws: X509Error.self) { try builder.selfSigned(with: X509TestPKI.rsaKey) }
        #expect(withoutIdentifiersOff?.code == .invalidValue)
        builder.includesSubjectKeyIdentifier = false
        builder.includesAuthorityKeyIdentifier = false
        let cert = try builder.selfSigned(with: X509TestPKI.rsaKey)
        #expect(cert.version == .v1)
        #expect(cert.extensions.isEmpty)
        #expect(cert.isSigned(by: cert))
        #expect(try cert.reencoded() == cert.derBytes)
        // the TBS starts with the serial INTEGER, no [0] version
        #expect(cert.tbsBytes.dropFirst(4).first == 0x02)
    }

    @Test func trailingBytesAreForbiddenExceptInPrefixMode() throws {
        let cert = try X509TestPKI.root(key: X509TestPKI.p256Key)
        #expect(throws: (any Error).self) { try Certificate(derEncoded: cert.derBytes + [0x00]) }
        #expect(try Certificate(derEncodedPrefixOf: cert.derBytes + [0x00, 0x01]) == cert)
    }
}
