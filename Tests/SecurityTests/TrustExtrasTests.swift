import Foundation
import OSecASN1
import OSecX509
import Security
import Testing

/// The OpenSecurity extras (``OpenSecurityTrust``) and how several Apple policies combine.
@Suite struct TrustExtrasTests {
    typealias F = TrustFixture

    /// Evaluates and returns the error code (0 when trusted).
    static func code(_ trust: SecTrust) -> Int {
        var error: CFError?
        return SecTrustEvaluateWithError(trust, &error) ? 0 : (error as NSError?)?.code ?? -1
    }

    @Test func maximumIntermediatesLowersTheDepth() {
        let trust = F.trust()
        #expect(OpenSecurityTrust.setMaximumIntermediates(trust, 0) == errSecSuccess)
        #expect(Self.code(trust) == Int(errSecNotTrusted))
        #expect(OpenSecurityTrust.setMaximumIntermediates(trust, 1) == errSecSuccess)
        #expect(Self.code(trust) == 0)
        #expect(OpenSecurityTrust.setMaximumIntermediates(trust, -1) == errSecParam)
        #expect(OpenSecurityTrust.setMaximumIntermediates(trust, nil) == errSecSuccess)
        #expect(Self.code(trust) == 0)
    }

    @Test func requiredKeyUsage() {
        let trust = F.trust()
        #expect(OpenSecurityTrust.setRequiredKeyUsage(trust, .keyEncipherment) == errSecSuccess)
        #expect(Self.code(trust) == Int(errSecInvalidKeyUsageForPolicy))
        #expect(OpenSecurityTrust.setRequiredKeyUsage(trust, .digitalSignature) == errSecSuccess)
        #expect(Self.code(trust) == 0)
    }

    @Test func requiredExtendedKeyUsages() {
        let trust = F.trust()
        #expect(OpenSecurityTrust.setRequiredExtendedKeyUsages(trust, ["1.3.6.1.5.5.7.3.3"]) == errSecSuccess)
        #expect(Self.code(trust) == Int(errSecInvalidExtendedKeyUsage))
        #expect(OpenSecurityTrust.setRequiredExtendedKeyUsages(trust, ["1.3.6.1.5.5.7.3.1"]) == errSecSuccess)
        #expect(Self.code(trust) == 0)
        #expect(OpenSecurityTrust.setRequiredExtendedKeyUsages(trust, ["codeSigning"]) == errSecParam)
    }

    @Test func emailAddresses() {
        // Basic X.509: no purpose, so the name decides (the fixture leaf is a server certificate).
        let trust = F.trust(SecPolicyCreateBasicX509())
        #expect(OpenSecurityTrust.setEmailAddresses(trust, ["someone@example.com"]) == errSecSuccess)
        #expect(Self.code(trust) == Int(errSecSMIMEEmailAddressesNotFound))
        #expect(OpenSecurityTrust.setEmailAddresses(trust, ["not a mailbox"]) == errSecParam)
        #expect(OpenSecurityTrust.setEmailAddresses(trust, []) == errSecSuccess)
    }

    /// An intermediate with a non-critical nameConstraints permitting example.com (BR 7.1.2.10.8 allows it; RFC 5280
    /// §4.2.1.10 does not).
    static func nonCriticallyConstrained(_ policies: [SecPolicy]) throws -> SecTrust {
        let value = try NameConstraints(permittedSubtrees: [.dnsName("example.com")]).encodedValue()
        let intermediate = F.make(
            "Constrained CA", key: F.keys[3], ca: true, from: "2021-01-01T00:00:00Z", to: "2035-01-01T00:00:00Z",
            issuer: F.root
        ) { $0.additionalExtensions = [Extension(oid: X509OID.nameConstraints, critical: false, value: value)] }
        let leaf = F.make(
            "www.example.com", key: F.keys[2], ca: false, from: "2024-01-01T00:00:00Z", to: "2024-12-31T00:00:00Z",
            issuer: intermediate)
        var trust: SecTrust?
        #expect(
            SecTrustCreateWithCertificates([F.sec(leaf), F.sec(intermediate)] as NSArray, policies as NSArray, &trust)
                == errSecSuccess)
        let made = try #require(trust)
        #expect(SecTrustSetAnchorCertificates(made, [F.sec(F.root)] as NSArray) == errSecSuccess)
        #expect(SecTrustSetVerifyDate(made, F.inside as NSDate) == errSecSuccess)
        return made
    }

    @Test func nonCriticalNameConstraintsFollowTheProfileOfEveryPolicy() throws {
        let server = SecPolicyCreateSSL(true, "www.example.com" as CFString)
        // The SSL server policy alone: the Web PKI profile's exception applies.
        #expect(Self.code(try Self.nonCriticallyConstrained([server])) == 0)
        // With Basic X.509 too, every policy must be satisfied: RFC 5280's rule applies.
        #expect(
            Self.code(try Self.nonCriticallyConstrained([server, SecPolicyCreateBasicX509()])) == Int(errSecInvalidName)
        )
        #expect(Self.code(try Self.nonCriticallyConstrained([SecPolicyCreateBasicX509()])) == Int(errSecInvalidName))
        #expect(
            Self.code(try Self.nonCriticallyConstrained([SecPolicyCreateSSL(false, nil)])) == Int(errSecInvalidName))
    }

    @Test func everySSLPolicyNameMustMatch() throws {
        let policies = [
            SecPolicyCreateSSL(true, "www.example.com" as CFString),
            SecPolicyCreateSSL(true, "other.example.com" as CFString),
        ]
        var trust: SecTrust?
        #expect(
            SecTrustCreateWithCertificates(
                [F.sec(F.leaf), F.sec(F.intermediate)] as NSArray, policies as NSArray, &trust) == errSecSuccess)
        let made = try #require(trust)
        #expect(SecTrustSetAnchorCertificates(made, [F.sec(F.root)] as NSArray) == errSecSuccess)
        #expect(SecTrustSetVerifyDate(made, F.inside as NSDate) == errSecSuccess)
        #expect(Self.code(made) == Int(errSecHostNameMismatch))
    }
}
