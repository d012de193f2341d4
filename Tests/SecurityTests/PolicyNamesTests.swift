import Foundation
import Security
import Testing

/// Apple's recent policy identifiers (SecPolicy.h, iOS 18.4 / macOS 15.4) and the trust result keys beside them.
@Suite struct PolicyNamesTests {
    @Test func sslServerAndClientIdentifiersMakeTheSSLPolicies() throws {
        let name = [kSecPolicyName as String: "www.example.com"] as CFDictionary
        let server = try #require(SecPolicyCreateWithProperties(kSecPolicyAppleSSLServer, name))
        #expect(server == SecPolicyCreateSSL(true, "www.example.com" as CFString))
        let client = try #require(SecPolicyCreateWithProperties(kSecPolicyAppleSSLClient, nil))
        let properties = try #require(SecPolicyCopyProperties(client) as? [String: Any])
        #expect(properties[kSecPolicyOid as String] as? String == kSecPolicyAppleSSL as String)
        #expect(properties[kSecPolicyClient as String] as? Bool == true)
    }

    @Test func ipsecPoliciesCheckTheHostNameUnderTheirOwnOID() throws {
        let name = [kSecPolicyName as String: "www.example.com"] as CFDictionary
        let server = try #require(SecPolicyCreateWithProperties(kSecPolicyAppleIPSecServer, name))
        let properties = try #require(SecPolicyCopyProperties(server) as? [String: Any])
        #expect(properties[kSecPolicyOid as String] as? String == kSecPolicyAppleIPsec as String)
        #expect(properties[kSecPolicyName as String] as? String == "www.example.com")
        #expect(server != SecPolicyCreateSSL(true, "www.example.com" as CFString))
        // Basic X.509 checks plus the host name: the fixture's leaf passes for its name and fails for another.
        #expect(SecTrustEvaluateWithError(TrustFixture.trust(server), nil))
        let wrong = [kSecPolicyName as String: "other.example.com"] as CFDictionary
        let mismatched = try #require(SecPolicyCreateWithProperties(kSecPolicyAppleIPsec, wrong))
        #expect(!SecTrustEvaluateWithError(TrustFixture.trust(mismatched), nil))
        let client = try #require(SecPolicyCreateWithProperties(kSecPolicyAppleIPSecClient, nil))
        #expect((SecPolicyCopyProperties(client) as? [String: Any])?[kSecPolicyClient as String] as? Bool == true)
    }

    @Test func identifierValuesAreApples() {
        #expect(kSecPolicyAppleSSLServer as String == "1.2.840.113635.100.1.3.1")
        #expect(kSecPolicyAppleSSLClient as String == "1.2.840.113635.100.1.3.2")
        #expect(kSecPolicyAppleEAPServer as String == "1.2.840.113635.100.1.9.1")
        #expect(kSecPolicyAppleEAPClient as String == "1.2.840.113635.100.1.9.2")
        #expect(kSecPolicyAppleIPSecServer as String == "1.2.840.113635.100.1.11.1")
        #expect(kSecPolicyAppleIPSecClient as String == "1.2.840.113635.100.1.11.2")
        #expect(kSecTrustQCStatements as String == "QCStatements")
        #expect(kSecTrustQWACValidation as String == "QWACValidation")
        // EAP policies are Apple's EAP policy (EAPPolicyTests checks their rules).
        let eap = SecPolicyCreateWithProperties(kSecPolicyAppleEAPServer, nil)
        #expect(
            eap.flatMap { SecPolicyCopyProperties($0) as? [String: Any] }?[kSecPolicyOid as String] as? String
                == kSecPolicyAppleEAP as String)
    }

    @Test func trustResultsNeverCarryQWACKeys() throws {
        let trust = TrustFixture.trust()
        #expect(SecTrustEvaluateWithError(trust, nil))
        let result = try #require(SecTrustCopyResult(trust) as? [String: Any])
        #expect(result[kSecTrustQCStatements as String] == nil)
        #expect(result[kSecTrustQWACValidation as String] == nil)
    }
}
