import Foundation
import OSecASN1
import OSecCrypto
import OSecX509
import Security
import Testing

/// A PKI built in code at fixed times: root → intermediate → leaf (www.example.com), leaf valid during 2024.
enum TrustFixture {
    static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
    static func time(_ text: String) -> X509Time {
        X509Time(secondsSinceEpoch: Int64(date(text).timeIntervalSince1970))
    }
    static let inside = date("2024-06-01T00:00:00Z")
    static let after = date("2025-06-01T00:00:00Z")

    struct Node {
        let certificate: Certificate
        let key: AsymmetricKey
    }
    static let keys = (0..<4).map { _ in try! AsymmetricKey.generateEC(.p256) }

    static func make(
        _ cn: String, key: AsymmetricKey, ca: Bool, from: String, to: String, issuer: Node?,
        configure: (inout CertificateBuilder) -> Void = { _ in }
    ) -> Node {
        var b = try! CertificateBuilder(
            subject: try! DistinguishedName([(X509OID.commonName, cn)]),
            publicKey: try! SubjectPublicKeyInfo(key), notBefore: time(from), notAfter: time(to))
        b.basicConstraints = BasicConstraints(isCertificateAuthority: ca)
        b.keyUsage = ca ? [.keyCertSign, .cRLSign] : [.digitalSignature]
        if !ca {
            b.extendedKeyUsage = [X509OID.serverAuth]
            b.subjectAlternativeNames = [.dnsName(cn)]
        }
        configure(&b)
        let certificate =
            issuer.map { try! b.issued(by: $0.certificate, issuerKey: $0.key) } ?? (try! b.selfSigned(with: key))
        return Node(certificate: certificate, key: key)
    }

    static let root = make(
        "Fixture Root", key: keys[0], ca: true, from: "2020-01-01T00:00:00Z", to: "2040-01-01T00:00:00Z", issuer: nil)
    static let intermediate = make(
        "Fixture Intermediate", key: keys[1], ca: true, from: "2021-01-01T00:00:00Z",
        to: "2035-01-01T00:00:00Z", issuer: root)
    static let leaf = make(
        "www.example.com", key: keys[2], ca: false, from: "2024-01-01T00:00:00Z",
        to: "2024-12-31T00:00:00Z", issuer: intermediate)

    static func sec(_ node: Node) -> SecCertificate {
        SecCertificateCreateWithData(nil, Data(node.certificate.derBytes) as NSData)!
    }

    /// A trust over leaf + intermediate with the root as the only anchor, at `date`.
    static func trust(
        _ policy: SecPolicy = SecPolicyCreateSSL(true, "www.example.com" as CFString), date: Date = inside,
        leaf: Node = leaf
    ) -> SecTrust {
        var trust: SecTrust?
        #expect(
            SecTrustCreateWithCertificates([sec(leaf), sec(intermediate)] as NSArray, policy, &trust) == errSecSuccess)
        #expect(SecTrustSetAnchorCertificates(trust!, [sec(root)] as NSArray) == errSecSuccess)
        #expect(SecTrustSetVerifyDate(trust!, date as NSDate) == errSecSuccess)
        return trust!
    }

    /// Evaluates, then reads the result with `SecTrustGetTrustResult`.
    static func result(_ trust: SecTrust) -> SecTrustResultType {
        _ = SecTrustEvaluateWithError(trust, nil)
        var result = SecTrustResultType.invalid
        #expect(SecTrustGetTrustResult(trust, &result) == errSecSuccess)
        return result
    }
}

@Suite struct TrustPolicyTests {
    @Test func sslPolicyProperties() {
        let server = SecPolicyCreateSSL(true, "www.example.com" as CFString)
        let properties = SecPolicyCopyProperties(server) as? [String: Any]
        #expect(properties?[kSecPolicyOid as String] as? String == "1.2.840.113635.100.1.3")
        #expect(properties?[kSecPolicyName as String] as? String == "www.example.com")
        #expect(properties?[kSecPolicyClient as String] == nil)
        let client = SecPolicyCopyProperties(SecPolicyCreateSSL(false, nil)) as? [String: Any]
        #expect(client?[kSecPolicyClient as String] as? Bool == true)
        #expect(client?[kSecPolicyName as String] == nil)
        let basic = SecPolicyCopyProperties(SecPolicyCreateBasicX509()) as? [String: Any]
        #expect(basic?[kSecPolicyOid as String] as? String == "1.2.840.113635.100.1.2")
    }

    @Test func createWithProperties() {
        let client = SecPolicyCreateWithProperties(
            kSecPolicyAppleSSL, [kSecPolicyClient: true, kSecPolicyName: "host"] as NSDictionary)
        let properties = client.flatMap { SecPolicyCopyProperties($0) as? [String: Any] }
        #expect(properties?[kSecPolicyClient as String] as? Bool == true)
        #expect(properties?[kSecPolicyName as String] as? String == "host")
        #expect(SecPolicyCreateWithProperties(kSecPolicyAppleSSL, [kSecPolicyName: 42] as NSDictionary) == nil)
        #expect(SecPolicyCreateWithProperties("1.2.3.4" as NSString, nil) == nil)
        #expect(SecPolicyCreateWithProperties(kSecPolicyAppleRevocation, nil) != nil)
        #expect(SecPolicyCreateRevocation(0) == nil)
        #expect(SecPolicyCreateRevocation(kSecRevocationUseAnyAvailableMethod) != nil)
    }
}

@Suite struct TrustEvaluationTests {
    @Test func createRejectsWrongTypes() {
        var trust: SecTrust?
        #expect(SecTrustCreateWithCertificates([] as NSArray, nil, &trust) == errSecParam)
        #expect(SecTrustCreateWithCertificates(["x"] as NSArray, nil, &trust) == errSecParam)
        #expect(
            SecTrustCreateWithCertificates(TrustFixture.sec(TrustFixture.leaf), "policy" as NSString, &trust)
                == errSecParam)
        #expect(SecTrustCreateWithCertificates(TrustFixture.sec(TrustFixture.leaf), nil, &trust) == errSecSuccess)
        var policies: CFArray?
        #expect(SecTrustCopyPolicies(trust!, &policies) == errSecSuccess)
        #expect((policies as? [SecPolicy])?.count == 1)
    }

    @Test func trustedChain() throws {
        let trust = TrustFixture.trust()
        var error: CFError?
        #expect(SecTrustEvaluateWithError(trust, &error))
        #expect(error == nil)
        #expect(TrustFixture.result(trust) == .unspecified)
        #expect(SecTrustGetCertificateCount(trust) == 3)
        let chain = try #require(SecTrustCopyCertificateChain(trust) as? [SecCertificate])
        #expect(
            chain.map { SecCertificateCopyData($0) as Data }
                == [TrustFixture.leaf, TrustFixture.intermediate, TrustFixture.root].map {
                    Data($0.certificate.derBytes)
                })
        #expect(SecTrustGetCertificateAtIndex(trust, 0) == TrustFixture.sec(TrustFixture.leaf))
        #expect(SecTrustGetCertificateAtIndex(trust, 5) == nil)
        #expect(SecTrustCopyKey(trust) != nil)
        #expect(SecTrustCopyPublicKey(trust) != nil)
        let result = try #require(SecTrustCopyResult(trust) as? [String: Any])
        #expect((result[kSecTrustResultValue as String] as? NSNumber)?.intValue == 4)
        #expect(result[kSecTrustEvaluationDate as String] as? Date == TrustFixture.inside)
        #expect(SecTrustCopyProperties(trust) == nil)
        var legacy = SecTrustResultType.invalid
        #expect(SecTrustEvaluate(trust, &legacy) == errSecSuccess)
        #expect(legacy == .unspecified)
        #expect(SecTrustGetVerifyTime(trust) == TrustFixture.inside.timeIntervalSinceReferenceDate)
    }

    /// The seed's recovery: expired → recoverable → set the verify date one year back → trusted.
    @Test func expiredThenRecoveredBySettingTheVerifyDate() throws {
        let trust = TrustFixture.trust(date: TrustFixture.after)
        var error: CFError?
        #expect(!SecTrustEvaluateWithError(trust, &error))
        let failure = try #require(error)
        #expect(failure.domain == NSOSStatusErrorDomain)
        #expect(failure.code == Int(errSecCertificateExpired))
        #expect(failure.localizedDescription == "“www.example.com” certificate is expired")
        let underlying = failure.userInfo[NSUnderlyingErrorKey] as? NSError
        #expect(
            underlying?.localizedDescription.contains(
                "Certificate 0 “www.example.com” has errors: Certificate is not temporally valid") == true)
        #expect(TrustFixture.result(trust) == .recoverableTrustFailure)
        let details = try #require(
            (SecTrustCopyResult(trust) as? [String: Any])?[kSecTrustResultDetails as String] as? [[String: Any]])
        #expect(details.first?["TemporalValidity"] as? Bool == false)
        #expect(
            (SecTrustCopyProperties(trust) as? [[String: String]])?.first?["value"]
                == "One or more certificates have expired or are not valid yet.")

        let oneYearBack = Calendar(identifier: .gregorian).date(byAdding: .year, value: -1, to: TrustFixture.after)!
        #expect(SecTrustSetVerifyDate(trust, oneYearBack as NSDate) == errSecSuccess)
        error = nil
        #expect(SecTrustEvaluateWithError(trust, &error))
        #expect(error == nil)
        #expect(TrustFixture.result(trust) == .unspecified)
    }

    @Test func hostnameMismatchOutranksExpiry() {
        let trust = TrustFixture.trust(
            SecPolicyCreateSSL(true, "other.example.com" as CFString), date: TrustFixture.after)
        var error: CFError?
        #expect(!SecTrustEvaluateWithError(trust, &error))
        #expect(error?.code == Int(errSecHostNameMismatch))
        #expect(error?.localizedDescription == "“www.example.com” certificate name does not match input")
        #expect(TrustFixture.result(trust) == .recoverableTrustFailure)
    }

    @Test func untrustedRootOutranksExpiry() {
        var trust: SecTrust?
        _ = SecTrustCreateWithCertificates(
            [
                TrustFixture.sec(TrustFixture.leaf), TrustFixture.sec(TrustFixture.intermediate),
                TrustFixture.sec(TrustFixture.root),
            ] as NSArray, SecPolicyCreateBasicX509(), &trust)
        _ = SecTrustSetVerifyDate(trust!, TrustFixture.after as NSDate)
        var error: CFError?
        #expect(!SecTrustEvaluateWithError(trust!, &error))
        #expect(error?.code == Int(errSecNotTrusted))
        #expect(TrustFixture.result(trust!) == .recoverableTrustFailure)
        #expect(SecTrustGetCertificateCount(trust!) == 3)
    }

    @Test func anchorsOnlySemantics() {
        let trust = TrustFixture.trust()
        var anchors: CFArray?
        #expect(SecTrustCopyCustomAnchorCertificates(trust, &anchors) == errSecSuccess)
        #expect((anchors as? [SecCertificate])?.count == 1)
        // Custom anchors plus the system store: still trusted.
        #expect(SecTrustSetAnchorCertificatesOnly(trust, false) == errSecSuccess)
        #expect(SecTrustEvaluateWithError(trust, nil))
        // Back to the system store only: our private root is unknown there.
        #expect(SecTrustSetAnchorCertificates(trust, nil) == errSecSuccess)
        #expect(SecTrustCopyCustomAnchorCertificates(trust, &anchors) == errSecSuccess)
        #expect(anchors == nil)
        var error: CFError?
        #expect(!SecTrustEvaluateWithError(trust, &error))
        #expect(error?.code == Int(errSecCreateChainFailed) || error?.code == Int(errSecNotTrusted))
    }

    @Test func wrongIssuerKeyIsFatal() {
        let impostor = TrustFixture.make(
            "Fixture Intermediate", key: TrustFixture.keys[3], ca: true, from: "2021-01-01T00:00:00Z",
            to: "2035-01-01T00:00:00Z", issuer: TrustFixture.root)
        let forged = TrustFixture.make(
            "www.example.com", key: TrustFixture.keys[2], ca: false, from: "2024-01-01T00:00:00Z",
            to: "2024-12-31T00:00:00Z", issuer: impostor)
        let trust = TrustFixture.trust(leaf: forged)
        var error: CFError?
        #expect(!SecTrustEvaluateWithError(trust, &error))
        #expect(TrustFixture.result(trust) == .fatalTrustFailure)
        #expect(error?.code == Int(errSecInvalidSignature))
    }

    @Test func clientPolicyRejectsServerOnlyLeaf() {
        let trust = TrustFixture.trust(SecPolicyCreateSSL(false, nil))
        var error: CFError?
        #expect(!SecTrustEvaluateWithError(trust, &error))
        #expect(error?.code == Int(errSecInvalidExtendedKeyUsage))
        #expect(error?.localizedDescription == "“www.example.com” certificate is not permitted for this usage")
    }

    @Test func exceptionsTurnRecoverableFailuresIntoProceed() throws {
        let trust = TrustFixture.trust(SecPolicyCreateSSL(true, "wrong.example.com" as CFString))
        #expect(!SecTrustEvaluateWithError(trust, nil))
        let exceptions = try #require(SecTrustCopyExceptions(trust))
        let list = try #require(
            try PropertyListSerialization.propertyList(from: exceptions as Data, format: nil) as? [[String: Any]])
        #expect(list.count == 1)
        #expect(list[0]["SSLHostname"] as? Bool == false)
        #expect(list[0]["SHA1Digest"] as? Data == TrustFixture.leaf.certificate.sha1Fingerprint)
        #expect(SecTrustSetExceptions(trust, exceptions))
        var error: CFError?
        #expect(SecTrustEvaluateWithError(trust, &error))
        #expect(TrustFixture.result(trust) == .proceed)
        // Exceptions made for another leaf are refused and cleared.
        let other = TrustFixture.trust(
            SecPolicyCreateSSL(true, "wrong.example.com" as CFString), leaf: TrustFixture.intermediate)
        #expect(!SecTrustSetExceptions(other, exceptions))
        #expect(SecTrustSetExceptions(trust, nil))
        #expect(TrustFixture.result(trust) == .recoverableTrustFailure)
    }

    @Test func asyncEvaluation() async {
        let trust = TrustFixture.trust()
        let queue = DispatchQueue(label: "trust-test")
        let ok: Bool = await withCheckedContinuation { continuation in
            _ = SecTrustEvaluateAsyncWithError(trust, queue) { _, trusted, error in
                continuation.resume(returning: trusted && error == nil)
            }
        }
        #expect(ok)
    }

    @Test func invalidBeforeEvaluation() {
        let trust = TrustFixture.trust()
        var result = SecTrustResultType.unspecified
        #expect(SecTrustGetTrustResult(trust, &result) == errSecSuccess)
        #expect(result == .invalid)
        #expect(SecTrustCopyResult(trust) == nil)
        #expect(SecTrustEvaluateWithError(trust, nil))
        #expect(SecTrustGetTrustResult(trust, &result) == errSecSuccess)
        #expect(result == .unspecified)
        #expect(SecTrustCopyResult(trust) != nil)
        // A setter discards the outcome.
        #expect(SecTrustSetVerifyDate(trust, TrustFixture.after as NSDate) == errSecSuccess)
        #expect(SecTrustGetTrustResult(trust, &result) == errSecSuccess)
        #expect(result == .invalid)
    }

    @Test func settersInvalidateTheCachedResult() {
        let trust = TrustFixture.trust()
        #expect(TrustFixture.result(trust) == .unspecified)
        #expect(SecTrustSetPolicies(trust, SecPolicyCreateSSL(true, "nope.example.com" as CFString)) == errSecSuccess)
        #expect(TrustFixture.result(trust) == .recoverableTrustFailure)
        #expect(SecTrustSetNetworkFetchAllowed(trust, true) == errSecSuccess)
        #expect(SecTrustSetOCSPResponse(trust, Data([0x30, 0x00]) as NSData) == errSecSuccess)
        #expect(SecTrustSetOCSPResponse(trust, "bad" as NSString) == errSecParam)
    }
}

/// A minimal CRL signed with ECDSA-SHA256 by `issuer` (RFC 5280 §5.1), built in code.
enum TestCRL {
    static func make(
        issuer: TrustFixture.Node, revoking serials: [ArraySlice<UInt8>], thisUpdate: String, nextUpdate: String
    ) throws -> Data {
        // ecdsa-with-SHA256
        let algorithm: [UInt8] = [0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]
        var tbs = DER.Serializer()
        try tbs.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(1)  // v2
            coder.appendRawBytes(algorithm)
            coder.appendRawBytes(issuer.certificate.subject.derBytes)
            try coder.serialize(UTCTime(secondsSinceEpoch: TrustFixture.time(thisUpdate).secondsSinceEpoch))
            try coder.serialize(UTCTime(secondsSinceEpoch: TrustFixture.time(nextUpdate).secondsSinceEpoch))
            if !serials.isEmpty {
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    for serial in serials {
                        try coder.appendConstructedNode(identifier: .sequence) { coder in
                            coder.appendPrimitiveNode(identifier: .integer) { $0.append(contentsOf: serial) }
                            try coder.serialize(
                                UTCTime(secondsSinceEpoch: TrustFixture.time(thisUpdate).secondsSinceEpoch))
                        }
                    }
                }
            }
        }
        let signature = try issuer.key.sign(
            Data(tbs.serializedBytes), scheme: .ecdsaDER(digest: .sha256, inputIsDigest: false))
        var crl = DER.Serializer()
        try crl.appendConstructedNode(identifier: .sequence) { coder in
            coder.appendRawBytes(tbs.serializedBytes)
            coder.appendRawBytes(algorithm)
            try coder.serialize(ASN1BitString(bytes: [UInt8](signature)[...]))
        }
        return Data(crl.serializedBytes)
    }
}

@Suite struct TrustRevocationTests {
    func trust(crl: Data, flags: CFOptionFlags = kSecRevocationUseAnyAvailableMethod) -> SecTrust {
        let trust = TrustFixture.trust()
        #expect(
            SecTrustSetPolicies(
                trust,
                [SecPolicyCreateSSL(true, "www.example.com" as CFString), SecPolicyCreateRevocation(flags)!] as NSArray)
                == errSecSuccess)
        #expect(SecTrustSetCRLs(trust, [crl as NSData] as NSArray) == errSecSuccess)
        return trust
    }

    @Test func revokedLeafIsFatal() throws {
        let crl = try TestCRL.make(
            issuer: TrustFixture.intermediate, revoking: [TrustFixture.leaf.certificate.serialNumber],
            thisUpdate: "2024-05-01T00:00:00Z", nextUpdate: "2024-07-01T00:00:00Z")
        let trust = trust(crl: crl)
        var error: CFError?
        #expect(!SecTrustEvaluateWithError(trust, &error))
        #expect(error?.code == Int(errSecCertificateRevoked))
        #expect(error?.localizedDescription == "“www.example.com” certificate is revoked")
        #expect(TrustFixture.result(trust) == .fatalTrustFailure)
    }

    @Test func currentCRLWithoutTheLeaf() throws {
        let crl = try TestCRL.make(
            issuer: TrustFixture.intermediate, revoking: [[0x01, 0x02]],
            thisUpdate: "2024-05-01T00:00:00Z", nextUpdate: "2024-07-01T00:00:00Z")
        let trust = trust(crl: crl)
        #expect(SecTrustEvaluateWithError(trust, nil))
        // The intermediate has no CRL: only a required positive response makes that a failure.
        let strict = self.trust(crl: crl, flags: kSecRevocationCRLMethod | kSecRevocationRequirePositiveResponse)
        var error: CFError?
        #expect(!SecTrustEvaluateWithError(strict, &error))
        #expect(error?.code == Int(errSecIncompleteCertRevocationCheck))
    }

    @Test func staleCRLIsNotIgnored() throws {
        let crl = try TestCRL.make(
            issuer: TrustFixture.intermediate, revoking: [],
            thisUpdate: "2024-01-01T00:00:00Z", nextUpdate: "2024-02-01T00:00:00Z")
        let trust = trust(crl: crl)
        var error: CFError?
        #expect(!SecTrustEvaluateWithError(trust, &error))
        #expect(error?.code == Int(errSecIncompleteCertRevocationCheck))
    }

    @Test func badCRLDataIsRejected() {
        let trust = TrustFixture.trust()
        #expect(SecTrustSetCRLs(trust, [Data([1, 2, 3]) as NSData] as NSArray) == errSecDecode)
    }
}
