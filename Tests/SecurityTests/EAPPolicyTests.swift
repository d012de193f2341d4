import Foundation
import Security
import Testing

/// Apple's EAP policy (`kSecPolicyAppleEAP`, `…EAPServer`, `…EAPClient` through `SecPolicyCreateWithProperties`):
/// basic X.509 checks, serverAuth (server) or clientAuth (client) EKU with anyExtendedKeyUsage accepted, and the
/// trusted server names of `kSecPolicyName` (a string or an array) against the leaf's DNS names.
@Suite struct EAPPolicyTests {
    private static let date = Date(timeIntervalSince1970: 1_800_000_000)

    private func leaf(
        _ cn: String, names: [String]?, eku: [String]?, serial: UInt8
    ) throws -> SecCertificate {
        try OpenSecurityCertificates.issueCertificate(
            subject: [("CN", cn)], publicKey: KeyFixtures.publicKey(KeyFixtures.p256),
            issuerCertificate: CertificateFixtures.root, issuerPrivateKey: CertificateFixtures.rootKey,
            notBefore: CertificateFixtures.notBefore, notAfter: CertificateFixtures.notAfter,
            serialNumber: Data([0x70, serial]),
            extensions: .init(
                isCertificateAuthority: false, keyUsage: [.digitalSignature], extendedKeyUsage: eku,
                alternativeNames: names.map { $0.map { .dns($0) } }))
    }

    private func evaluate(_ certificate: SecCertificate, _ policy: SecPolicy) -> (Bool, Int?) {
        var trust: SecTrust?
        guard SecTrustCreateWithCertificates(certificate, policy, &trust) == errSecSuccess, let trust else {
            return (false, nil)
        }
        _ = SecTrustSetAnchorCertificates(trust, [CertificateFixtures.root] as CFArray)
        _ = SecTrustSetVerifyDate(trust, Self.date as CFDate)
        var error: CFError?
        let ok = SecTrustEvaluateWithError(trust, &error)
        return (ok, error.map { CFErrorGetCode($0) })
    }

    private func eap(_ oid: CFString, _ properties: [String: Any] = [:]) throws -> SecPolicy {
        try #require(SecPolicyCreateWithProperties(oid, properties as CFDictionary))
    }

    @Test func policiesAndTheirProperties() throws {
        let server = try eap(kSecPolicyAppleEAP, [kSecPolicyName as String: ["radius.example.com", "aaa.example"]])
        let properties = try #require(SecPolicyCopyProperties(server) as? [String: Any])
        #expect(properties[kSecPolicyOid as String] as? String == kSecPolicyAppleEAP as String)
        #expect(properties[kSecPolicyName as String] as? [String] == ["radius.example.com", "aaa.example"])
        #expect(properties[kSecPolicyClient as String] == nil)
        let client = try eap(kSecPolicyAppleEAP, [kSecPolicyClient as String: true])
        let clientProperties = try #require(SecPolicyCopyProperties(client) as? [String: Any])
        #expect((clientProperties[kSecPolicyClient as String] as? NSNumber)?.boolValue == true)
        #expect(SecPolicyCreateWithProperties(kSecPolicyAppleEAPServer, [kSecPolicyName: 7] as CFDictionary) == nil)
        #expect(
            SecPolicyCreateWithProperties(kSecPolicyAppleEAPServer, [kSecPolicyName: ["ok", 7]] as CFDictionary) == nil)
        #expect(SecPolicyCreateWithProperties(kSecPolicyAppleEAPClient, nil) != nil)
    }

    @Test func serverNamesMatchTheLeafDNSNames() throws {
        let certificate = try leaf(
            "RADIUS", names: ["radius.example.com"], eku: [OpenSecurityCertificates.ExtendedKeyUsage.serverAuth],
            serial: 1)
        #expect(evaluate(certificate, try eap(kSecPolicyAppleEAPServer)).0)  // no names: any name
        let named = try eap(kSecPolicyAppleEAPServer, [kSecPolicyName as String: "radius.example.com"])
        #expect(evaluate(certificate, named).0)
        let listed = try eap(kSecPolicyAppleEAP, [kSecPolicyName as String: ["x.example", "RADIUS.example.com"]])
        #expect(evaluate(certificate, listed).0)
        let other = try eap(kSecPolicyAppleEAPServer, [kSecPolicyName as String: "other.example.com"])
        let (ok, code) = evaluate(certificate, other)
        #expect(!ok)
        #expect(code == Int(errSecHostNameMismatch))
    }

    @Test func wildcardNamesAndCommonNames() throws {
        let wildcard = try leaf(
            "wild", names: ["*.example.com"], eku: [OpenSecurityCertificates.ExtendedKeyUsage.serverAuth], serial: 2)
        let policy = try eap(kSecPolicyAppleEAPServer, [kSecPolicyName as String: "radius.example.com"])
        #expect(evaluate(wildcard, policy).0)
        // Without DNS names in the subjectAltName, the subject common name is the name.
        let commonName = try leaf("radius.example.com", names: nil, eku: nil, serial: 3)
        #expect(evaluate(commonName, policy).0)
    }

    @Test func extendedKeyUsageOfTheRole() throws {
        let serverLeaf = try leaf(
            "s", names: ["radius.example.com"], eku: [OpenSecurityCertificates.ExtendedKeyUsage.serverAuth], serial: 4)
        let clientLeaf = try leaf(
            "c", names: ["user.example.com"], eku: [OpenSecurityCertificates.ExtendedKeyUsage.clientAuth], serial: 5)
        let anyLeaf = try leaf(
            "a", names: ["any.example.com"], eku: [OpenSecurityCertificates.ExtendedKeyUsage.any], serial: 6)
        let server = try eap(kSecPolicyAppleEAPServer)
        let client = try eap(kSecPolicyAppleEAPClient)
        #expect(evaluate(serverLeaf, server).0)
        #expect(!evaluate(clientLeaf, server).0)
        #expect(evaluate(clientLeaf, client).0)
        #expect(!evaluate(serverLeaf, client).0)
        #expect(evaluate(anyLeaf, server).0 && evaluate(anyLeaf, client).0)
    }

    @Test func cssmHandleAccessorsAreNotAvailable() throws {
        var tp: CSSM_TP_HANDLE = 0
        #expect(SecPolicyGetTPHandle(SecPolicyCreateBasicX509(), &tp) == errSecServiceNotAvailable)
        var csp: CSSM_CSP_HANDLE = 0
        #expect(SecKeyGetCSPHandle(KeyFixtures.p256, &csp) == errSecServiceNotAvailable)
        var cl: CSSM_CL_HANDLE = 0
        #expect(SecCertificateGetCLHandle(CertificateFixtures.root, &cl) == errSecServiceNotAvailable)
        #expect(tp == 0 && csp == 0 && cl == 0)
    }
}
