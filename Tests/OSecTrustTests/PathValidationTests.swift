import Foundation
import OSecASN1
import OSecCrypto
import OSecTrust
import OSecX509
import Testing

@Suite struct PathValidationTests {
    @Test func validChainIsTrusted() {
        let (root, intermediate, leaf) = TestPKI.chain()
        let result = TestPKI.evaluate(leaf, intermediates: [intermediate], anchors: [root])
        #expect(result.isTrusted, "\(result.failures)")
        #expect(result.chain == [leaf.certificate, intermediate.certificate, root.certificate])
        #expect(result.isAnchored)
    }

    @Test func intermediatesInAnyOrderAndExtrasIgnored() {
        let (root, intermediate, leaf) = TestPKI.chain()
        let unrelated = TestPKI.root("Unrelated", key: TestPKI.ecKeys[5])
        let result = TestPKI.evaluate(leaf, intermediates: [unrelated, intermediate, leaf], anchors: [root])
        #expect(result.isTrusted, "\(result.failures)")
        #expect(result.chain.count == 3)
    }

    @Test func expiredAndNotYetValid() {
        let (root, intermediate, leaf) = TestPKI.chain()
        let later = TestPKI.evaluate(
            leaf, intermediates: [intermediate], anchors: [root],
            options: TestPKI.serverOptions(time: TestPKI.now + 400 * TestPKI.day))
        #expect(later.checks == [.temporalValidity])
        #expect(later.failures.first?.index == 0)
        #expect(!later.failures.hasFatal)
        let earlier = TestPKI.evaluate(
            leaf, intermediates: [intermediate], anchors: [root],
            options: TestPKI.serverOptions(time: TestPKI.now - 60 * TestPKI.day))
        #expect(earlier.checks == [.temporalValidity])
        #expect(earlier.failures.first?.reason.contains("not valid before") == true)
    }

    @Test func untrustedRootAndMissingIntermediate() {
        let (root, intermediate, leaf) = TestPKI.chain()
        let other = TestPKI.root("Other Root", key: TestPKI.ecKeys[6])
        let untrusted = TestPKI.evaluate(leaf, intermediates: [intermediate, root], anchors: [other])
        #expect(untrusted.checks == [.anchorTrusted])
        #expect(untrusted.failures.first?.index == 2)
        #expect(untrusted.chain.count == 3)
        let missing = TestPKI.evaluate(leaf, intermediates: [], anchors: [root])
        #expect(missing.checks == [.missingIntermediate])
        #expect(!missing.isAnchored)
    }

    @Test func leafThatIsAnAnchorIsTrusted() {
        let (_, _, leaf) = TestPKI.chain()
        let result = TestPKI.evaluate(leaf, anchors: [leaf])
        #expect(result.isTrusted, "\(result.failures)")
        #expect(result.chain.count == 1)
    }

    @Test func badSignatureIsFatal() {
        let (root, intermediate, _) = TestPKI.chain()
        // Same issuer name, signed by an impostor key.
        let impostor = TestPKI.intermediate(key: TestPKI.ecKeys[7], issuer: root)
        let forged = TestPKI.leaf(issuer: impostor)
        let result = TestPKI.evaluate(forged, intermediates: [intermediate], anchors: [root])
        #expect(result.checks.contains(.signature))
        #expect(result.failures.hasFatal)
    }

    @Test func issuerMustBeCA() {
        let root = TestPKI.root()
        let notCA = TestPKI.intermediate(issuer: root) {
            $0.basicConstraints = BasicConstraints(isCertificateAuthority: false)
            $0.keyUsage = [.digitalSignature]
        }
        let leaf = TestPKI.leaf(issuer: notCA)
        #expect(TestPKI.evaluate(leaf, intermediates: [notCA], anchors: [root]).checks.contains(.basicConstraintsCA))
        let noBC = TestPKI.intermediate(issuer: root) { $0.basicConstraints = nil }
        let leaf2 = TestPKI.leaf(issuer: noBC)
        #expect(TestPKI.evaluate(leaf2, intermediates: [noBC], anchors: [root]).checks.contains(.basicConstraints))
    }

    @Test func issuerNeedsKeyCertSign() {
        let root = TestPKI.root()
        let intermediate = TestPKI.intermediate(issuer: root) { $0.keyUsage = [.digitalSignature, .cRLSign] }
        let leaf = TestPKI.leaf(issuer: intermediate)
        #expect(TestPKI.evaluate(leaf, intermediates: [intermediate], anchors: [root]).checks.contains(.keyUsage))
    }

    @Test func pathLengthConstraint() {
        let root = TestPKI.root(pathLength: 0)
        let intermediate = TestPKI.intermediate(issuer: root)
        let leaf = TestPKI.leaf(issuer: intermediate)
        let result = TestPKI.evaluate(leaf, intermediates: [intermediate], anchors: [root])
        #expect(result.checks == [.basicConstraintsPathLen])
        #expect(result.failures.first?.index == 2)
        // pathLen 0 still allows issuing leaves directly.
        let direct = TestPKI.leaf(issuer: root)
        #expect(TestPKI.evaluate(direct, anchors: [root]).isTrusted)
    }

    @Test func maximumIntermediates() {
        let (root, intermediate, leaf) = TestPKI.chain()
        var options = TestPKI.serverOptions()
        options.maximumIntermediates = 0
        let result = TestPKI.evaluate(leaf, intermediates: [intermediate], anchors: [root], options: options)
        #expect(!result.isTrusted)
        options.maximumIntermediates = 1
        #expect(TestPKI.evaluate(leaf, intermediates: [intermediate], anchors: [root], options: options).isTrusted)
    }

    @Test func extendedKeyUsage() {
        let (root, intermediate, _) = TestPKI.chain()
        let clientOnly = TestPKI.leaf(issuer: intermediate, eku: [X509OID.clientAuth])
        #expect(
            TestPKI.evaluate(clientOnly, intermediates: [intermediate], anchors: [root]).checks == [.extendedKeyUsage])
        var clientOptions = TestPKI.serverOptions(nil)
        clientOptions.purpose = .clientAuth
        #expect(
            TestPKI.evaluate(clientOnly, intermediates: [intermediate], anchors: [root], options: clientOptions)
                .isTrusted)
        // anyExtendedKeyUsage: accepted as Apple does, rejected in the webpki profile.
        let any = TestPKI.leaf(issuer: intermediate, eku: [X509OID.anyExtendedKeyUsage])
        #expect(TestPKI.evaluate(any, intermediates: [intermediate], anchors: [root]).isTrusted)
        var strict = TestPKI.serverOptions()
        strict.rejectAnyExtendedKeyUsage = true
        #expect(
            TestPKI.evaluate(any, intermediates: [intermediate], anchors: [root], options: strict).checks.contains(
                .extendedKeyUsage))
        // No EKU: allowed by RFC 5280, refused when the server-auth EKU is required (our SSL policy).
        let none = TestPKI.leaf(issuer: intermediate, eku: nil)
        #expect(TestPKI.evaluate(none, intermediates: [intermediate], anchors: [root]).isTrusted)
        var ssl = TestPKI.serverOptions()
        ssl.requireServerAuthEKU = true
        #expect(
            TestPKI.evaluate(none, intermediates: [intermediate], anchors: [root], options: ssl).checks == [
                .serverAuthEKU
            ])
        // An intermediate restricted to clientAuth cannot issue server certificates.
        let clientCA = TestPKI.intermediate("Client CA", key: TestPKI.ecKeys[3], issuer: root) {
            $0.extendedKeyUsage = [X509OID.clientAuth]
        }
        let leaf = TestPKI.leaf(issuer: clientCA)
        #expect(TestPKI.evaluate(leaf, intermediates: [clientCA], anchors: [root]).checks == [.extendedKeyUsage])
    }

    @Test func requiredKeyUsage() {
        let (root, intermediate, leaf) = TestPKI.chain()
        var options = TestPKI.serverOptions()
        options.requiredKeyUsage = [.keyEncipherment]
        #expect(
            TestPKI.evaluate(leaf, intermediates: [intermediate], anchors: [root], options: options).checks == [
                .keyUsage
            ])
        options.requiredKeyUsage = [.digitalSignature]
        #expect(TestPKI.evaluate(leaf, intermediates: [intermediate], anchors: [root], options: options).isTrusted)
    }

    @Test func hostnameChecks() {
        let (root, intermediate, _) = TestPKI.chain()
        let wildcard = TestPKI.leaf(["*.example.com"], issuer: intermediate)
        #expect(
            TestPKI.evaluate(
                wildcard, intermediates: [intermediate], anchors: [root],
                options: TestPKI.serverOptions("a.example.com")
            ).isTrusted)
        #expect(
            TestPKI.evaluate(
                wildcard, intermediates: [intermediate], anchors: [root],
                options: TestPKI.serverOptions("a.b.example.com")
            ).checks == [.sslHostname])
        #expect(
            TestPKI.evaluate(
                wildcard, intermediates: [intermediate], anchors: [root], options: TestPKI.serverOptions("example.com")
            ).checks == [.sslHostname])
        // No CN fallback: a leaf without SAN never matches.
        let noSAN = TestPKI.leaf(issuer: intermediate) { $0.subjectAlternativeNames = nil }
        #expect(TestPKI.evaluate(noSAN, intermediates: [intermediate], anchors: [root]).checks == [.sslHostname])
        // IP addresses compare against iPAddress SANs only.
        let ip = TestPKI.leaf(issuer: intermediate) {
            $0.subjectAlternativeNames = [GeneralName.ipAddress("192.0.2.7")!, .dnsName("192.0.2.8")]
        }
        #expect(
            TestPKI.evaluate(
                ip, intermediates: [intermediate], anchors: [root], options: TestPKI.serverOptions("192.0.2.7")
            ).isTrusted)
        #expect(
            TestPKI.evaluate(
                ip, intermediates: [intermediate], anchors: [root], options: TestPKI.serverOptions("192.0.2.8")
            ).checks == [.sslHostname])
    }

    @Test func unknownCriticalExtension() {
        let (root, intermediate, _) = TestPKI.chain()
        let leaf = TestPKI.leaf(issuer: intermediate) {
            $0.additionalExtensions = [
                Extension(oid: [1, 3, 6, 1, 4, 1, 55738, 666, 1], critical: true, value: [0x05, 0x00])
            ]
        }
        #expect(TestPKI.evaluate(leaf, intermediates: [intermediate], anchors: [root]).checks == [.criticalExtensions])
        let known = TestPKI.leaf(issuer: intermediate) {
            $0.additionalExtensions = [
                Extension(oid: [1, 3, 6, 1, 4, 1, 55738, 666, 1], critical: false, value: [0x05, 0x00])
            ]
        }
        #expect(TestPKI.evaluate(known, intermediates: [intermediate], anchors: [root]).isTrusted)
    }

    @Test func nameConstraintsDNS() {
        let root = TestPKI.root()
        let constrained = TestPKI.intermediate(issuer: root) {
            $0.nameConstraints = NameConstraints(
                permittedSubtrees: [.dnsName("example.com")], excludedSubtrees: [.dnsName("bad.example.com")])
        }
        let good = TestPKI.leaf(["www.example.com"], issuer: constrained)
        #expect(TestPKI.evaluate(good, intermediates: [constrained], anchors: [root]).isTrusted)
        let outside = TestPKI.leaf(["www.example.org"], issuer: constrained)
        let result = TestPKI.evaluate(
            outside, intermediates: [constrained], anchors: [root], options: TestPKI.serverOptions("www.example.org"))
        #expect(result.checks == [.nameConstraints])
        #expect(result.failures.hasFatal)
        let excluded = TestPKI.leaf(["x.bad.example.com"], issuer: constrained)
        #expect(
            TestPKI.evaluate(
                excluded, intermediates: [constrained], anchors: [root],
                options: TestPKI.serverOptions("x.bad.example.com")
            ).checks == [.nameConstraints])
        // A wildcard that could expand into an excluded name is excluded.
        let wildcard = TestPKI.leaf(["*.example.com"], issuer: constrained)
        #expect(
            TestPKI.evaluate(
                wildcard, intermediates: [constrained], anchors: [root],
                options: TestPKI.serverOptions("bad.example.com")
            ).checks.contains(.nameConstraints))
    }

    @Test func nameConstraintsIPEmailAndDirectory() {
        let root = TestPKI.root()
        let ipCA = TestPKI.intermediate(issuer: root) {
            $0.nameConstraints = NameConstraints(permittedSubtrees: [.ipAddress([192, 0, 2, 0, 255, 255, 255, 0])])
        }
        let inside = TestPKI.leaf(issuer: ipCA) { $0.subjectAlternativeNames = [GeneralName.ipAddress("192.0.2.1")!] }
        #expect(
            TestPKI.evaluate(
                inside, intermediates: [ipCA], anchors: [root], options: TestPKI.serverOptions("192.0.2.1")
            ).isTrusted)
        let outside = TestPKI.leaf(issuer: ipCA) {
            $0.subjectAlternativeNames = [GeneralName.ipAddress("198.51.100.1")!]
        }
        #expect(
            TestPKI.evaluate(
                outside, intermediates: [ipCA], anchors: [root], options: TestPKI.serverOptions("198.51.100.1")
            ).checks == [.nameConstraints])

        let emailCA = TestPKI.intermediate(issuer: root) {
            $0.nameConstraints = NameConstraints(permittedSubtrees: [.rfc822Name("example.com")])
        }
        let mail = TestPKI.leaf(issuer: emailCA, eku: nil) {
            $0.subjectAlternativeNames = [.rfc822Name("alice@example.com")]
        }
        var emailOptions = ValidationOptions(time: TestPKI.now)
        emailOptions.peerNames = [.email("alice@example.com")]
        #expect(TestPKI.evaluate(mail, intermediates: [emailCA], anchors: [root], options: emailOptions).isTrusted)
        let foreign = TestPKI.leaf(issuer: emailCA, eku: nil) {
            $0.subjectAlternativeNames = [.rfc822Name("eve@example.org")]
        }
        emailOptions.peerNames = [.email("eve@example.org")]
        #expect(
            TestPKI.evaluate(foreign, intermediates: [emailCA], anchors: [root], options: emailOptions).checks == [
                .nameConstraints
            ])

        let org = try! DistinguishedName([(X509OID.countryName, "US"), (X509OID.organizationName, "Good")])
        let dirCA = TestPKI.intermediate(issuer: root) {
            $0.nameConstraints = NameConstraints(permittedSubtrees: [.directoryName(org)])
        }
        let member = TestPKI.leaf(issuer: dirCA) {
            $0.subject = try! DistinguishedName([
                (X509OID.countryName, "US"), (X509OID.organizationName, "Good"),
                (X509OID.commonName, "www.example.com"),
            ])
        }
        #expect(TestPKI.evaluate(member, intermediates: [dirCA], anchors: [root]).isTrusted)
        let stranger = TestPKI.leaf(issuer: dirCA) {
            $0.subject = try! DistinguishedName([
                (X509OID.countryName, "US"), (X509OID.organizationName, "Evil"),
                (X509OID.commonName, "www.example.com"),
            ])
        }
        #expect(TestPKI.evaluate(stranger, intermediates: [dirCA], anchors: [root]).checks == [.nameConstraints])
    }

    @Test func backtracksPastExpiredCrossSign() {
        // Two intermediates with the same name and key: one expired, one valid. The expired one is listed first.
        let root = TestPKI.root()
        let expired = TestPKI.intermediate(issuer: root) {
            $0.notAfter = X509Time(secondsSinceEpoch: TestPKI.now - TestPKI.day)
        }
        let valid = TestPKI.intermediate(issuer: root)
        let leaf = TestPKI.leaf(issuer: valid)
        let result = TestPKI.evaluate(leaf, intermediates: [expired, valid], anchors: [root])
        #expect(result.isTrusted, "\(result.failures)")
        #expect(result.chain[1] == valid.certificate)
        // Cross-signed: the intermediate's issuer is reachable through an untrusted root or a trusted one.
        let oldRoot = TestPKI.root("Old Root", key: TestPKI.ecKeys[4])
        let newRoot = TestPKI.root("New Root", key: TestPKI.ecKeys[5])
        let crossByOld = TestPKI.intermediate("New Root", key: TestPKI.ecKeys[5], issuer: oldRoot)
        let ica = TestPKI.intermediate("ICA", key: TestPKI.ecKeys[6], issuer: newRoot)
        let leaf2 = TestPKI.leaf(issuer: ica)
        #expect(TestPKI.evaluate(leaf2, intermediates: [ica, crossByOld], anchors: [oldRoot]).isTrusted)
        #expect(TestPKI.evaluate(leaf2, intermediates: [ica, crossByOld], anchors: [newRoot]).isTrusted)
    }

    @Test func loopsTerminate() {
        // A and B cross-sign each other; neither is trusted.
        let a = TestPKI.root("Loop A", key: TestPKI.ecKeys[3])
        let b = TestPKI.root("Loop B", key: TestPKI.ecKeys[4])
        let aByB = TestPKI.intermediate("Loop A", key: TestPKI.ecKeys[3], issuer: b)
        let bByA = TestPKI.intermediate("Loop B", key: TestPKI.ecKeys[4], issuer: a)
        let leaf = TestPKI.leaf(issuer: aByB)
        let unrelated = TestPKI.root("Elsewhere", key: TestPKI.ecKeys[7])
        let result = TestPKI.evaluate(leaf, intermediates: [aByB, bByA], anchors: [unrelated])
        #expect(!result.isTrusted)
        #expect(result.steps < 100)
    }

    @Test func weakAlgorithmsAndKeys() {
        let root = TestPKI.root("RSA Root", key: TestPKI.rsaKey)
        let sha1 = TestPKI.leaf(issuer: root) { $0.signatureAlgorithm = SignatureAlgorithm(.rsaPKCS1(.sha1)) }
        let sha1Result = TestPKI.evaluate(sha1, anchors: [root])
        #expect(sha1Result.checks == [.signatureHashAlgorithms])
        #expect(!sha1Result.failures.hasFatal)
        let small = TestPKI.leaf(key: TestPKI.rsa1024Key, issuer: root)
        #expect(TestPKI.evaluate(small, anchors: [root]).isTrusted)
        var ssl = TestPKI.serverOptions()
        ssl.sslRules = true
        #expect(TestPKI.evaluate(small, anchors: [root], options: ssl).checks == [.keySize])
        let pss = TestPKI.leaf(issuer: root) {
            $0.signatureAlgorithm = SignatureAlgorithm(.rsaPSS(digest: .sha256, saltLength: 32))
        }
        #expect(TestPKI.evaluate(pss, anchors: [root]).isTrusted)
    }

    @Test func appleLeafLifetimeLimitWithCustomAnchors() {
        let (root, intermediate, _) = TestPKI.chain()
        let long = TestPKI.leaf(issuer: intermediate) {
            $0.notAfter = X509Time(secondsSinceEpoch: TestPKI.now + 900 * TestPKI.day)
        }
        var ssl = TestPKI.serverOptions()
        ssl.sslRules = true
        #expect(
            TestPKI.evaluate(long, intermediates: [intermediate], anchors: [root], options: ssl).checks == [
                .validityPeriodMaximums
            ])
        #expect(TestPKI.evaluate(long, intermediates: [intermediate], anchors: [root]).isTrusted)
    }

    @Test func failureRanking() {
        let failures = [
            TrustFailure(0, .temporalValidity, "expired"), TrustFailure(2, .anchorTrusted, "untrusted"),
            TrustFailure(0, .sslHostname, "name"),
        ]
        #expect(failures.mostImportant?.check == .anchorTrusted)
        #expect(
            [TrustFailure(0, .temporalValidity, ""), TrustFailure(0, .sslHostname, "")].mostImportant?.check
                == .sslHostname)
        #expect(
            [TrustFailure(1, .temporalValidity, ""), TrustFailure(0, .temporalValidity, "")].mostImportant?.index == 0)
        #expect(TrustCheck.revocation.isFatal && !TrustCheck.temporalValidity.isFatal)
    }

    @Test func signatureVerdictsAreCached() {
        let (root, intermediate, leaf) = TestPKI.chain()
        _ = TestPKI.evaluate(leaf, intermediates: [intermediate], anchors: [root])
        let info = CertificateInfo.make(leaf.certificate)
        #expect(info.cachedVerdict(CertificateInfo.make(intermediate.certificate)) == true)
    }
}

@Suite struct PolicyProcessingTests {
    static let p1: ASN1ObjectIdentifier = [2, 23, 140, 1, 2, 1]
    static let p2: ASN1ObjectIdentifier = [2, 23, 140, 1, 2, 2]

    static func policies(_ oids: [ASN1ObjectIdentifier]) -> Extension {
        Extension(
            oid: X509OID.certificatePolicies, critical: false,
            value: try! PolicyInformation.encodedValue(oids.map { PolicyInformation(policyIdentifier: $0) }))
    }
    /// policyConstraints { requireExplicitPolicy 0 }.
    static let requireExplicit = Extension(
        oid: X509OID.policyConstraints, critical: true, value: [0x30, 0x03, 0x80, 0x01, 0x00])

    func evaluate(intermediate: [Extension], leaf: [Extension]) -> TrustEvaluation {
        let root = TestPKI.root()
        let ica = TestPKI.intermediate(issuer: root) { $0.additionalExtensions = intermediate }
        let ee = TestPKI.leaf(issuer: ica) { $0.additionalExtensions = leaf }
        return TestPKI.evaluate(ee, intermediates: [ica], anchors: [root])
    }

    @Test func noConstraintsNoPoliciesIsFine() {
        #expect(evaluate(intermediate: [], leaf: []).isTrusted)
        #expect(evaluate(intermediate: [Self.policies([Self.p1])], leaf: [Self.policies([Self.p2])]).isTrusted)
    }

    @Test func requireExplicitPolicy() {
        #expect(evaluate(intermediate: [Self.requireExplicit], leaf: []).checks == [.policyConstraints])
        #expect(
            evaluate(intermediate: [Self.requireExplicit, Self.policies([Self.p1])], leaf: [Self.policies([Self.p1])])
                .isTrusted)
        #expect(
            evaluate(intermediate: [Self.requireExplicit, Self.policies([Self.p1])], leaf: [Self.policies([Self.p2])])
                .checks == [.policyConstraints])
        #expect(
            evaluate(
                intermediate: [Self.requireExplicit, Self.policies([X509OID.anyPolicy])],
                leaf: [Self.policies([Self.p2])]
            ).isTrusted)
        #expect(
            evaluate(intermediate: [Self.requireExplicit, Self.policies([Self.p1])], leaf: [Self.policies([Self.p1])])
                .failures.hasFatal == false)
    }
}

@Suite struct EvaluationCacheTests {
    @Test func rememberedOutcomeNeverHidesExpiryOrANameChange() {
        let (root, intermediate, leaf) = TestPKI.chain()
        #expect(TestPKI.evaluate(leaf, intermediates: [intermediate], anchors: [root]).isTrusted)
        #expect(TestPKI.evaluate(leaf, intermediates: [intermediate], anchors: [root]).isTrusted)  // memo hit
        let later = TestPKI.evaluate(
            leaf, intermediates: [intermediate], anchors: [root],
            options: TestPKI.serverOptions(time: TestPKI.now + 400 * TestPKI.day))
        #expect(later.checks == [.temporalValidity])
        let otherName = TestPKI.evaluate(
            leaf, intermediates: [intermediate], anchors: [root], options: TestPKI.serverOptions("other.example.com"))
        #expect(otherName.checks == [.sslHostname])
        let otherAnchor = TestPKI.root("Another Root", key: TestPKI.ecKeys[6])
        #expect(!TestPKI.evaluate(leaf, intermediates: [intermediate], anchors: [otherAnchor]).isTrusted)
    }

    @Test func purgedCachesGiveTheSameVerdicts() {
        let (root, intermediate, leaf) = TestPKI.chain()
        let before = TestPKI.evaluate(leaf, intermediates: [intermediate], anchors: [root])
        CertificateInfo.purgeCache()
        let after = TestPKI.evaluate(leaf, intermediates: [intermediate], anchors: [root])
        #expect(before.isTrusted && after.isTrusted)
        #expect(before.chain == after.chain)
    }

    @Test func byteKeyComparesEveryByte() {
        let a: [UInt8] = [1, 2, 3] + [UInt8](repeating: 9, count: 32)
        var b = a
        b[0] = 7  // differs outside the hashed tail
        #expect(ByteKey(a).hashValue == ByteKey(b).hashValue)
        #expect(ByteKey(a) != ByteKey(b))
        #expect(ByteKey(a) == ByteKey(Array(a)))
    }
}
