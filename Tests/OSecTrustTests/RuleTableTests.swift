import Foundation
import OSecASN1
import OSecCrypto
import OSecTrust
import OSecX509
import Testing

/// One row of docs/trust.md's rule table: a certificate built for the rule, the policy, and the verdict the rule
/// gives (nil: trusted; else a check that must be among the failures).
struct RuleCase: Sendable, CustomTestStringConvertible {
    /// The rule's id in docs/trust.md (e.g. `5280-4.2.1.1a`) and what this case varies.
    let rule: String
    let variant: String
    let policies: [RulePolicy]
    let expected: TrustCheck?
    let scenario: @Sendable () throws -> RuleScenario

    var testDescription: String { "\(rule) \(variant) [\(policies.map(\.rawValue).joined(separator: ", "))]" }

    init(
        _ rule: String, _ variant: String, _ policies: [RulePolicy], _ expected: TrustCheck?,
        _ scenario: @escaping @Sendable () throws -> RuleScenario
    ) {
        self.rule = rule
        self.variant = variant
        self.policies = policies
        self.expected = expected
        self.scenario = scenario
    }
}

/// The usual chain for rule cases: root (ecKeys[0]) → intermediate (ecKeys[1]) → leaf (ecKeys[2]); the leaf names
/// www.example.com in its CN and SAN and allows serverAuth and clientAuth.
enum RuleChains {
    static let all = RulePolicy.allCases
    static let eku = [X509OID.serverAuth, X509OID.clientAuth]

    static func chain(
        root configureRoot: (inout CertificateBuilder) -> Void = { _ in },
        intermediate configureIntermediate: (inout CertificateBuilder) -> Void = { _ in },
        leaf configureLeaf: (inout CertificateBuilder) -> Void = { _ in }, host: String? = "www.example.com"
    ) -> RuleScenario {
        let root = TestPKI.root(configure: configureRoot)
        let intermediate = TestPKI.intermediate(issuer: root, configure: configureIntermediate)
        let leaf = TestPKI.leaf(issuer: intermediate, eku: eku, configure: configureLeaf)
        return RuleScenario(
            leaf: leaf.certificate, intermediates: [intermediate.certificate], anchors: [root.certificate], host: host)
    }

    /// root → leaf directly.
    static func direct(
        root configureRoot: (inout CertificateBuilder) -> Void = { _ in },
        leaf configureLeaf: (inout CertificateBuilder) -> Void = { _ in }, host: String? = "www.example.com"
    ) -> RuleScenario {
        let root = TestPKI.root(configure: configureRoot)
        let leaf = TestPKI.leaf(issuer: root, eku: eku, configure: configureLeaf)
        return RuleScenario(leaf: leaf.certificate, anchors: [root.certificate], host: host)
    }

    /// The intermediate of `chain()` (for edits that need its issuer).
    static var defaultRoot: TestPKI.Node { TestPKI.root() }
}

@Suite struct RuleTableTests {
    static let cases: [RuleCase] = rfc5280Cases + nameCases + baselineCases + appleCases

    @Test(arguments: cases)
    func ruleGivesItsVerdict(_ rule: RuleCase) throws {
        let scenario = try rule.scenario()
        for policy in rule.policies {
            let result = scenario.evaluate(policy)
            if let expected = rule.expected {
                #expect(
                    result.checks.contains(expected),
                    "\(rule.testDescription) under \(policy.rawValue): expected \(expected), got \(result.failures)")
            } else {
                #expect(
                    result.isTrusted, "\(rule.testDescription) under \(policy.rawValue): \(result.failures)")
            }
        }
    }

    /// A root of the system store that predates the profile (no keyUsage, or a non-critical basicConstraints) is
    /// grandfathered: the profile rules do not apply to it as an anchor; the same properties in a custom root fail.
    @Test(.enabled(if: !AnchorStore.system.isEmpty))
    func systemStoreRootsAreGrandfathered() throws {
        let legacy = AnchorStore.system.anchors.filter { info in
            info.keyUsage == nil || info.certificate.extensions[oid: X509OID.basicConstraints]?.critical == false
        }
        guard let root = legacy.first(where: { $0.subjectKeyIdentifier != nil && $0.isCA }) else { return }
        // A leaf naming the legacy root's key (its signature is not what this test is about: PathValidator checks
        // profiles, the chain builder signatures).
        let issuer = TestPKI.intermediate(issuer: TestPKI.root())
        let leaf = TestPKI.leaf(issuer: issuer, eku: RuleChains.eku) {
            $0.includesAuthorityKeyIdentifier = false
            $0.additionalExtensions = [
                Extension(
                    oid: X509OID.authorityKeyIdentifier, critical: false,
                    value: try! AuthorityKeyIdentifier(keyIdentifier: Array(root.subjectKeyIdentifier ?? []))
                        .encodedValue())
            ]
        }
        let time = max(TestPKI.now, root.certificate.notBefore.secondsSinceEpoch + TestPKI.day)
        for policy in RulePolicy.allCases {
            var options = policy.options(
                host: "www.example.com", time: min(time, leaf.certificate.notAfter.secondsSinceEpoch))
            options.time = min(time, leaf.certificate.notAfter.secondsSinceEpoch)
            let validator = PathValidator(
                path: [CertificateInfo.make(leaf.certificate), root], anchored: true, options: options)
            let failures = validator.validate().failures.filter { $0.check != .temporalValidity }
            #expect(failures.isEmpty, "\(root.subject.rfc4514String) under \(policy.rawValue): \(failures)")
        }
    }

    // MARK: RFC 5280 §4.1 and §4.2 (every policy)

    static let rfc5280Cases: [RuleCase] = [
        // §4.1.2.2 serial number.
        RuleCase("5280-4.1.2.2", "20-octet serial", RuleChains.all, nil) {
            RuleChains.chain(leaf: { $0.serialNumber = [0x7F] + [UInt8](repeating: 0x11, count: 19) })
        },
        RuleCase("5280-4.1.2.2", "21 octets with a sign octet (20 significant)", RuleChains.all, nil) {
            RuleChains.chain(leaf: { $0.serialNumber = [0x00, 0x80] + [UInt8](repeating: 0x11, count: 19) })
        },
        RuleCase("5280-4.1.2.2", "21 significant octets", RuleChains.all, .malformed) {
            RuleChains.chain(leaf: { $0.serialNumber = [0x01] + [UInt8](repeating: 0x11, count: 20) })
        },
        RuleCase("5280-4.1.2.2", "negative leaf serial", RuleChains.all, .malformed) {
            RuleChains.chain(leaf: { $0.serialNumber = [0x80, 0x01] })
        },
        RuleCase("5280-4.1.2.2", "zero intermediate serial", RuleChains.all, .malformed) {
            RuleChains.chain(intermediate: { $0.serialNumber = [0x00] })
        },
        RuleCase("5280-4.1.2.2", "zero serial in a custom root", RuleChains.all, .malformed) {
            RuleChains.chain(root: { $0.serialNumber = [0x00] })
        },
        // §4.1.1.2 / §4.1.2.3 signature algorithm fields.
        RuleCase("5280-4.1.1.2", "outer algorithm differs from the TBS one", RuleChains.all, .malformed) {
            var scenario = RuleChains.chain()
            let intermediate = TestPKI.intermediate(issuer: TestPKI.root())
            // ecdsa-with-SHA384 outside, ecdsa-with-SHA256 inside.
            scenario.leaf = try Craft.resign(
                scenario.leaf, key: intermediate.key,
                outerAlgorithm: [0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x03]
            ) { _ in }
            return scenario
        },
        RuleCase("5280-4.1.1.2", "re-signed with identical fields", RuleChains.all, nil) {
            var scenario = RuleChains.chain()
            let intermediate = TestPKI.intermediate(issuer: TestPKI.root())
            scenario.leaf = try Craft.resign(scenario.leaf, key: intermediate.key) { _ in }
            return scenario
        },
        // §4.1.2.4 issuer / §4.1.2.6 subject.
        RuleCase("5280-4.1.2.6", "CA with an empty subject", RuleChains.all, .nonEmptySubject) {
            let root = TestPKI.root { $0.subject = DistinguishedName([RelativeDistinguishedName]()) }
            let leaf = TestPKI.leaf(issuer: root, eku: RuleChains.eku)
            return RuleScenario(leaf: leaf.certificate, anchors: [root.certificate])
        },
        RuleCase("5280-4.1.2.4", "empty issuer name", RuleChains.all, .malformed) {
            let root = TestPKI.root { $0.subject = DistinguishedName([RelativeDistinguishedName]()) }
            let leaf = TestPKI.leaf(issuer: root, eku: RuleChains.eku)
            return RuleScenario(leaf: leaf.certificate, anchors: [root.certificate])
        },
        RuleCase("5280-4.1.2.6", "empty leaf subject, critical SAN", [.basic, .sslClient], nil) {
            RuleChains.chain(leaf: { $0.subject = DistinguishedName([RelativeDistinguishedName]()) })
        },
        RuleCase("5280-4.1.2.6", "empty leaf subject, non-critical SAN", RuleChains.all, .nonEmptySubject) {
            RuleChains.chain(leaf: {
                $0.subject = DistinguishedName([RelativeDistinguishedName]())
                Craft.editExtensions(&$0, issuer: TestPKI.intermediate(issuer: TestPKI.root())) { list in
                    Craft.setCritical(X509OID.subjectAltName, false)(&list)
                }
            })
        },
        // §4.2 critical extensions.
        RuleCase("5280-4.2", "unknown critical extension in the leaf", RuleChains.all, .criticalExtensions) {
            RuleChains.chain(leaf: {
                $0.additionalExtensions = [
                    Extension(oid: [1, 3, 6, 1, 4, 1, 55738, 666, 1], critical: true, value: [5, 0])
                ]
            })
        },
        RuleCase("5280-4.2", "unknown critical extension in the intermediate", RuleChains.all, .criticalExtensions) {
            RuleChains.chain(intermediate: {
                $0.additionalExtensions = [
                    Extension(oid: [1, 3, 6, 1, 4, 1, 55738, 666, 1], critical: true, value: [5, 0])
                ]
            })
        },
        RuleCase("5280-4.2", "unknown critical extension in the anchor", RuleChains.all, .criticalExtensions) {
            RuleChains.chain(root: {
                $0.additionalExtensions = [
                    Extension(oid: [1, 3, 6, 1, 4, 1, 55738, 666, 1], critical: true, value: [5, 0])
                ]
            })
        },
        RuleCase("5280-4.2", "unknown non-critical extension", RuleChains.all, nil) {
            RuleChains.chain(leaf: {
                $0.additionalExtensions = [
                    Extension(oid: [1, 3, 6, 1, 4, 1, 55738, 666, 1], critical: false, value: [5, 0])
                ]
            })
        },
        RuleCase("5280-4.2", "known extension that does not decode", RuleChains.all, .unparseableExtension) {
            RuleChains.chain(leaf: {
                $0.additionalExtensions = [
                    Extension(oid: X509OID.authorityInfoAccess, critical: false, value: Array("malformed".utf8))
                ]
            })
        },
        RuleCase("5280-4.2.2.1", "critical authorityInfoAccess", RuleChains.all, .criticalExtensions) {
            RuleChains.chain(leaf: {
                // SEQUENCE { SEQUENCE { caIssuers, [6] "http://x.example/ca" } }
                let uri = Array("http://x.example/ca".utf8)
                let description: [UInt8] =
                    [0x06, 0x08, 0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x30, 0x02, 0x86, UInt8(uri.count)] + uri
                let value = [0x30, UInt8(description.count + 2), 0x30, UInt8(description.count)] + description
                $0.additionalExtensions = [Extension(oid: X509OID.authorityInfoAccess, critical: true, value: value)]
            })
        },
        // §4.2.1.1 authorityKeyIdentifier.
        RuleCase("5280-4.2.1.1a", "leaf without AKI", RuleChains.all, .idLinkage) {
            RuleChains.chain(leaf: { $0.includesAuthorityKeyIdentifier = false })
        },
        RuleCase("5280-4.2.1.1a", "intermediate without AKI", RuleChains.all, .idLinkage) {
            RuleChains.chain(intermediate: { $0.includesAuthorityKeyIdentifier = false })
        },
        RuleCase("5280-4.2.1.1a", "self-signed root without AKI", RuleChains.all, nil) {
            RuleChains.chain(root: { $0.includesAuthorityKeyIdentifier = false })
        },
        RuleCase("5280-4.2.1.1a", "cross-signed anchor without AKI", RuleChains.all, .idLinkage) {
            let other = TestPKI.root("Cross Signer", key: TestPKI.ecKeys[5])
            let anchor = TestPKI.intermediate("Test Root", key: TestPKI.ecKeys[0], issuer: other) {
                $0.includesAuthorityKeyIdentifier = false
            }
            let leaf = TestPKI.leaf(issuer: anchor, eku: RuleChains.eku)
            return RuleScenario(leaf: leaf.certificate, anchors: [anchor.certificate])
        },
        RuleCase("5280-4.2.1.1a", "anchor signed by its own key under another issuer name", RuleChains.all, nil) {
            // The issuer name differs from the subject, but the signature verifies under the certificate's own key:
            // the form in which a CA distributes its key, which may omit the AKI.
            let otherName = TestPKI.root("Another Issuer Name", key: TestPKI.ecKeys[0])
            let anchor = TestPKI.intermediate("Test Root", key: TestPKI.ecKeys[0], issuer: otherName) {
                $0.includesAuthorityKeyIdentifier = false
            }
            let leaf = TestPKI.leaf(issuer: anchor, eku: RuleChains.eku)
            return RuleScenario(leaf: leaf.certificate, anchors: [anchor.certificate])
        },
        RuleCase("5280-4.2.1.1a", "AKI with issuer and serial but no keyIdentifier", RuleChains.all, .idLinkage) {
            RuleChains.chain(leaf: {
                $0.includesAuthorityKeyIdentifier = false
                $0.additionalExtensions = [
                    Extension(
                        oid: X509OID.authorityKeyIdentifier, critical: false,
                        value: try! Craft.authorityKeyIdentifier(
                            keyID: nil, issuer: TestPKI.name("Test Root"), serial: [1]))
                ]
            })
        },
        RuleCase("5280-4.2.1.1b", "critical AKI in the anchor", RuleChains.all, .criticalExtensions) {
            RuleChains.direct(root: {
                Craft.editExtensions(&$0, issuer: nil, Craft.setCritical(X509OID.authorityKeyIdentifier, true))
            })
        },
        RuleCase("5280-4.2.1.1c", "AKI naming another key", RuleChains.all, .idLinkage) {
            RuleChains.chain(leaf: {
                $0.includesAuthorityKeyIdentifier = false
                $0.additionalExtensions = [
                    Extension(
                        oid: X509OID.authorityKeyIdentifier, critical: false,
                        value: try! AuthorityKeyIdentifier(keyIdentifier: [UInt8](repeating: 7, count: 20))
                            .encodedValue())
                ]
            })
        },
        // §4.2.1.2 subjectKeyIdentifier.
        RuleCase("5280-4.2.1.2a", "intermediate without SKI", RuleChains.all, .idLinkage) {
            RuleChains.chain(intermediate: { $0.includesSubjectKeyIdentifier = false })
        },
        RuleCase("5280-4.2.1.2a", "custom root without SKI", RuleChains.all, .idLinkage) {
            RuleChains.chain(root: { $0.includesSubjectKeyIdentifier = false })
        },
        RuleCase("5280-4.2.1.2a", "leaf without SKI", RuleChains.all, nil) {
            RuleChains.chain(leaf: { $0.includesSubjectKeyIdentifier = false })
        },
        RuleCase("5280-4.2.1.2b", "critical SKI in the anchor", RuleChains.all, .criticalExtensions) {
            RuleChains.direct(root: {
                Craft.editExtensions(&$0, issuer: nil, Craft.setCritical(X509OID.subjectKeyIdentifier, true))
            })
        },
        // §4.2.1.3 keyUsage.
        RuleCase(
            "5280-4.2.1.3a", "keyUsage with no bit set (refused as it decodes)", RuleChains.all, .unparseableExtension
        ) {
            RuleChains.chain(leaf: { $0.keyUsage = [] })
        },
        RuleCase("5280-4.2.1.3a", "keyUsage BIT STRING with every bit zero", RuleChains.all, .unparseableExtension) {
            RuleChains.chain(leaf: {
                $0.keyUsage = nil
                $0.additionalExtensions = [
                    Extension(oid: X509OID.keyUsage, critical: true, value: [0x03, 0x02, 0x00, 0x00])
                ]
            })
        },
        RuleCase("5280-4.2.1.3b", "keyCertSign in a leaf with cA false", RuleChains.all, .basicConstraints) {
            RuleChains.chain(leaf: { $0.keyUsage = [.digitalSignature, .keyCertSign] })
        },
        RuleCase("5280-4.2.1.3b", "keyCertSign in a leaf without basicConstraints", RuleChains.all, .basicConstraints) {
            RuleChains.chain(leaf: {
                $0.basicConstraints = nil
                $0.keyUsage = [.digitalSignature, .keyCertSign]
            })
        },
        RuleCase("5280-4.2.1.3c", "intermediate keyUsage without keyCertSign", RuleChains.all, .keyUsage) {
            RuleChains.chain(intermediate: { $0.keyUsage = [.cRLSign, .digitalSignature] })
        },
        RuleCase("5280-4.2.1.3c", "custom root keyUsage without keyCertSign", RuleChains.all, .keyUsage) {
            RuleChains.direct(root: { $0.keyUsage = [.cRLSign] })
        },
        RuleCase("5280-4.2.1.3d", "intermediate without keyUsage", RuleChains.all, .keyUsage) {
            RuleChains.chain(intermediate: { $0.keyUsage = nil })
        },
        RuleCase("5280-4.2.1.3d", "custom root without keyUsage", RuleChains.all, .keyUsage) {
            RuleChains.direct(root: { $0.keyUsage = nil })
        },
        RuleCase("5280-4.2.1.3d", "leaf without keyUsage", RuleChains.all, nil) {
            RuleChains.chain(leaf: { $0.keyUsage = nil })
        },
        // §4.2.1.4 certificatePolicies.
        RuleCase("5280-4.2.1.4", "a policy listed twice", RuleChains.all, .unparseableExtension) {
            RuleChains.chain(leaf: {
                $0.additionalExtensions = [
                    Extension(
                        oid: X509OID.certificatePolicies, critical: false,
                        value: try! Craft.certificatePolicies([[2, 23, 140, 1, 2, 1], [2, 23, 140, 1, 2, 1]]))
                ]
            })
        },
        RuleCase("5280-4.2.1.4", "two different policies", RuleChains.all, nil) {
            RuleChains.chain(leaf: {
                $0.additionalExtensions = [
                    Extension(
                        oid: X509OID.certificatePolicies, critical: false,
                        value: try! Craft.certificatePolicies([[2, 23, 140, 1, 2, 1], [2, 23, 140, 1, 2, 2]]))
                ]
            })
        },
        // §4.2.1.5 policyMappings.
        RuleCase("5280-4.2.1.5", "mapping to anyPolicy", RuleChains.all, .policyConstraints) {
            RuleChains.chain(intermediate: {
                // SEQUENCE { SEQUENCE { 2.23.140.1.2.1, anyPolicy (2.5.29.32.0) } }
                let corrected: [UInt8] = [
                    0x30, 0x10, 0x30, 0x0E, 0x06, 0x06, 0x67, 0x81, 0x0C, 0x01, 0x02, 0x01, 0x06, 0x04, 0x55, 0x1D,
                    0x20, 0x00,
                ]
                $0.additionalExtensions = [Extension(oid: X509OID.policyMappings, critical: true, value: corrected)]
            })
        },
        // §4.2.1.9 basicConstraints.
        RuleCase("5280-4.2.1.9a", "intermediate without basicConstraints", RuleChains.all, .basicConstraints) {
            RuleChains.chain(intermediate: { $0.basicConstraints = nil })
        },
        RuleCase("5280-4.2.1.9a", "intermediate with cA false", RuleChains.all, .basicConstraintsCA) {
            RuleChains.chain(intermediate: {
                $0.basicConstraints = BasicConstraints(isCertificateAuthority: false)
                $0.keyUsage = [.digitalSignature]
            })
        },
        RuleCase("5280-4.2.1.9a", "custom root without basicConstraints", RuleChains.all, .basicConstraints) {
            RuleChains.direct(root: { $0.basicConstraints = nil })
        },
        RuleCase("5280-4.2.1.9b", "non-critical basicConstraints in an intermediate", RuleChains.all, .basicConstraints)
        {
            RuleChains.chain(intermediate: {
                Craft.editExtensions(&$0, issuer: TestPKI.root(), Craft.setCritical(X509OID.basicConstraints, false))
            })
        },
        RuleCase("5280-4.2.1.9b", "non-critical basicConstraints in a custom root", RuleChains.all, .basicConstraints) {
            RuleChains.direct(root: {
                Craft.editExtensions(&$0, issuer: nil, Craft.setCritical(X509OID.basicConstraints, false))
            })
        },
        RuleCase("5280-4.2.1.9b", "non-critical basicConstraints in a leaf", RuleChains.all, nil) {
            RuleChains.chain(leaf: {
                Craft.editExtensions(
                    &$0, issuer: TestPKI.intermediate(issuer: TestPKI.root()),
                    Craft.setCritical(X509OID.basicConstraints, false))
            })
        },
        RuleCase("5280-4.2.1.9c", "pathLenConstraint with cA false", RuleChains.all, .basicConstraints) {
            RuleChains.chain(leaf: {
                $0.basicConstraints = BasicConstraints(isCertificateAuthority: false, pathLengthConstraint: 0)
            })
        },
        RuleCase("5280-4.2.1.9c", "pathLenConstraint without keyCertSign", RuleChains.all, .basicConstraints) {
            RuleChains.chain(intermediate: {
                $0.basicConstraints = BasicConstraints(isCertificateAuthority: true, pathLengthConstraint: 0)
                $0.keyUsage = [.cRLSign]
            })
        },
        RuleCase(
            "5280-4.2.1.9d", "pathLenConstraint 0 exceeded by an intermediate", RuleChains.all, .basicConstraintsPathLen
        ) {
            let root = TestPKI.root(pathLength: 0)
            let intermediate = TestPKI.intermediate(issuer: root)
            let leaf = TestPKI.leaf(issuer: intermediate, eku: RuleChains.eku)
            return RuleScenario(
                leaf: leaf.certificate, intermediates: [intermediate.certificate], anchors: [root.certificate])
        },
        RuleCase("5280-4.2.1.9d", "pathLenConstraint 0 with a leaf below", RuleChains.all, nil) {
            RuleChains.chain(intermediate: {
                $0.basicConstraints = BasicConstraints(isCertificateAuthority: true, pathLengthConstraint: 0)
            })
        },
        RuleCase("5280-4.2.1.9d", "pathLenConstraint never counts the leaf, even a CA leaf", [.basic, .sslClient], nil)
        {
            let root = TestPKI.root()
            let first = TestPKI.intermediate(issuer: root, pathLength: 0)
            let second = TestPKI.intermediate("Second CA", key: TestPKI.ecKeys[3], issuer: first, pathLength: 0)
            return RuleScenario(
                leaf: second.certificate, intermediates: [first.certificate], anchors: [root.certificate], host: nil)
        },
        RuleCase("5280-4.2.1.9d", "self-issued intermediates are not counted", RuleChains.all, nil) {
            let root = TestPKI.root()
            let first = TestPKI.intermediate(issuer: root, pathLength: 1)
            let rollover = TestPKI.intermediate(key: TestPKI.ecKeys[3], issuer: first, pathLength: 1)
            let last = TestPKI.intermediate("Issuing CA", key: TestPKI.ecKeys[4], issuer: rollover, pathLength: 0)
            let leaf = TestPKI.leaf(issuer: last, eku: RuleChains.eku)
            return RuleScenario(
                leaf: leaf.certificate, intermediates: [first.certificate, rollover.certificate, last.certificate],
                anchors: [root.certificate])
        },
        RuleCase("5280-6.1.4k", "v1 certificate as an issuer", RuleChains.all, .basicConstraints) {
            let root = TestPKI.root { b in
                b.version = .v1
                b.basicConstraints = nil
                b.keyUsage = nil
                b.includesSubjectKeyIdentifier = false
                b.includesAuthorityKeyIdentifier = false
            }
            let leaf = TestPKI.leaf(issuer: root, eku: RuleChains.eku)
            return RuleScenario(leaf: leaf.certificate, anchors: [root.certificate])
        },
        // §4.2.1.11 / §4.2.1.14 policyConstraints, inhibitAnyPolicy.
        RuleCase("5280-4.2.1.11", "non-critical policyConstraints", RuleChains.all, .policyConstraints) {
            RuleChains.chain(intermediate: {
                $0.additionalExtensions = [
                    Extension(oid: X509OID.policyConstraints, critical: false, value: [0x30, 0x03, 0x81, 0x01, 0x02])
                ]
            })
        },
        RuleCase("5280-4.2.1.14", "non-critical inhibitAnyPolicy", RuleChains.all, .policyConstraints) {
            RuleChains.chain(intermediate: {
                $0.additionalExtensions = [
                    Extension(oid: X509OID.inhibitAnyPolicy, critical: false, value: [0x02, 0x01, 0x02])
                ]
            })
        },
        // §4.2.1.12 extKeyUsage.
        RuleCase("5280-4.2.1.12", "empty extKeyUsage", RuleChains.all, .unparseableExtension) {
            RuleChains.chain(leaf: {
                $0.extendedKeyUsage = nil
                $0.additionalExtensions = [Extension(oid: X509OID.extKeyUsage, critical: false, value: [0x30, 0x00])]
            })
        },
        RuleCase("5280-4.2.1.12", "leaf without the purpose", [.sslServer], .extendedKeyUsage) {
            RuleChains.chain(leaf: { $0.extendedKeyUsage = [X509OID.clientAuth] })
        },
        RuleCase("5280-4.2.1.12", "leaf without the client purpose", [.sslClient], .extendedKeyUsage) {
            RuleChains.chain(leaf: { $0.extendedKeyUsage = [X509OID.serverAuth] })
        },
        RuleCase("5280-4.2.1.12", "issuer EKU excludes the purpose", [.sslServer, .sslClient], .extendedKeyUsage) {
            RuleChains.chain(intermediate: { $0.extendedKeyUsage = [X509OID.codeSigning] })
        },
        // §4.2.1.13 cRLDistributionPoints.
        RuleCase("5280-4.2.1.13", "distribution point with only reasons", RuleChains.all, .unparseableExtension) {
            RuleChains.chain(leaf: {
                // SEQUENCE { SEQUENCE { [1] BIT STRING } }
                $0.additionalExtensions = [
                    Extension(
                        oid: X509OID.crlDistributionPoints, critical: false,
                        value: [0x30, 0x06, 0x30, 0x04, 0x81, 0x02, 0x07, 0x80])
                ]
            })
        },
    ]
}
