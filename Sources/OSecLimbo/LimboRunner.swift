import Foundation
import Security

/// A limbo verdict (`actual_result`).
package enum LimboVerdict: String, Sendable {
    case success = "SUCCESS"
    case failure = "FAILURE"
    case skipped = "SKIPPED"
}

/// Runs x509-limbo testcases through Apple's API, as an application would: `SecTrustCreateWithCertificates` with the
/// policy the testcase asks for, custom anchors (`SecTrustSetAnchorCertificates`), `SecTrustSetVerifyDate` and
/// `SecTrustEvaluateWithError`.
///
/// The mapping:
/// - `SERVER` → `SecPolicyCreateSSL(true, expected_peer_name)`; `CLIENT` → one `SecPolicyCreateSSL(false, name)` per
///   DNS or IP name of `expected_peer_names` (or one without a name; `SecPolicyCreateBasicX509()` when the
///   testcase's `extended_key_usage` is given and leaves out clientAuth, as S/MIME testcases do).
/// - Feature `rfc5280-incompatible-with-webpki` (the testcase states that RFC 5280 prescribes more than the Web PKI
///   profile) adds `SecPolicyCreateBasicX509()`, the RFC 5280 profile; every policy must then be satisfied.
/// - Only what Apple's API cannot express goes through the OpenSecurity extras: `crls` (`SecPolicyCreateRevocation` +
///   `SecTrustSetCRLs`), `max_chain_depth`, `key_usage`, EKUs other than the policy's, RFC822 peer names
///   (``OpenSecurityTrust``).
/// - `signature_algorithms` has no mapping: such testcases are SKIPPED. An unparseable leaf is FAILURE (no trust can
///   be made); unparseable anchors and intermediates are left out.
package enum LimboRunner {
    /// The dotted OIDs of limbo's EKU names.
    static let extendedKeyUsageOIDs: [String: String] = [
        "serverAuth": "1.3.6.1.5.5.7.3.1", "clientAuth": "1.3.6.1.5.5.7.3.2", "codeSigning": "1.3.6.1.5.5.7.3.3",
        "emailProtection": "1.3.6.1.5.5.7.3.4", "timeStamping": "1.3.6.1.5.5.7.3.8", "OCSPSigning": "1.3.6.1.5.5.7.3.9",
        "anyExtendedKeyUsage": "2.5.29.37.0",
    ]

    /// Limbo's key usage names.
    static let keyUsageBits: [String: OpenSecurityTrust.KeyUsage] = [
        "digitalSignature": .digitalSignature, "contentCommitment": .contentCommitment,
        "nonRepudiation": .contentCommitment, "keyEncipherment": .keyEncipherment,
        "dataEncipherment": .dataEncipherment, "keyAgreement": .keyAgreement, "keyCertSign": .keyCertSign,
        "cRLSign": .cRLSign, "encipherOnly": .encipherOnly, "decipherOnly": .decipherOnly,
    ]

    /// Evaluates one testcase; the string says why (the error's description, or the chain length).
    package static func run(_ testcase: LimboTestcase) -> (LimboVerdict, String) {
        if !testcase.signatureAlgorithms.isEmpty { return (.skipped, "signature_algorithms constraint not mapped") }
        guard let leafData = testcase.peerCertificate, let leaf = SecCertificateCreateWithData(nil, leafData as NSData)
        else { return (.failure, "the peer certificate does not parse") }
        let intermediates = testcase.intermediates.compactMap { SecCertificateCreateWithData(nil, $0 as NSData) }
        let anchors = testcase.trustedCertificates.compactMap { SecCertificateCreateWithData(nil, $0 as NSData) }

        var policies: [SecPolicy] = []
        var emailAddresses: [String] = []
        if testcase.isClient {
            for name in testcase.expectedPeerNames {
                if name.kind == "RFC822" {
                    emailAddresses.append(name.value)
                } else {
                    policies.append(SecPolicyCreateSSL(false, name.value as CFString))
                }
            }
            // A client testcase whose required EKUs leave out clientAuth (S/MIME: emailProtection) does not ask for
            // TLS client authentication: Basic X.509 with those EKUs required, unless it names hosts.
            let tlsClient = testcase.extendedKeyUsage.isEmpty || testcase.extendedKeyUsage.contains("clientAuth")
            if policies.isEmpty {
                policies.append(tlsClient ? SecPolicyCreateSSL(false, nil) : SecPolicyCreateBasicX509())
            }
        } else {
            let host = testcase.expectedPeerName.flatMap { $0.kind == "RFC822" ? nil : $0.value }
            policies.append(SecPolicyCreateSSL(true, host.map { $0 as CFString }))
            if let name = testcase.expectedPeerName, name.kind == "RFC822" { emailAddresses.append(name.value) }
        }
        if testcase.features.contains("rfc5280-incompatible-with-webpki") {
            policies.append(SecPolicyCreateBasicX509())
        }
        if !testcase.crls.isEmpty, let revocation = SecPolicyCreateRevocation(kSecRevocationCRLMethod) {
            policies.append(revocation)
        }

        var created: SecTrust?
        guard
            SecTrustCreateWithCertificates([leaf] + intermediates as NSArray, policies as NSArray, &created)
                == errSecSuccess, let trust = created
        else { return (.failure, "SecTrustCreateWithCertificates failed") }
        _ = SecTrustSetAnchorCertificates(trust, anchors as NSArray)
        _ = SecTrustSetVerifyDate(trust, (testcase.validationTime ?? Date()) as NSDate)
        if !testcase.crls.isEmpty {
            guard SecTrustSetCRLs(trust, testcase.crls.map { Data($0.utf8) as NSData } as NSArray) == errSecSuccess
            else { return (.failure, "a CRL does not parse") }
        }
        if let problem = applyExtras(testcase, emailAddresses, trust) { return problem }

        var error: CFError?
        if SecTrustEvaluateWithError(trust, &error) {
            return (.success, "chain of \(SecTrustGetCertificateCount(trust))")
        }
        let underlying = (error as NSError?)?.userInfo[NSUnderlyingErrorKey] as? NSError
        let reason = underlying?.localizedDescription ?? error?.localizedDescription ?? "not trusted"
        return (.failure, "OSStatus \((error as NSError?)?.code ?? 0): \(reason)")
    }

    /// The OpenSecurity extras a testcase needs; a verdict when one cannot be expressed.
    private static func applyExtras(
        _ testcase: LimboTestcase, _ emailAddresses: [String], _ trust: SecTrust
    ) -> (LimboVerdict, String)? {
        let policyPurpose = testcase.isClient ? "clientAuth" : "serverAuth"
        var extraPurposes: [String] = []
        for name in testcase.extendedKeyUsage where name != policyPurpose {
            guard let oid = extendedKeyUsageOIDs[name] else { return (.skipped, "unknown EKU \(name)") }
            extraPurposes.append(oid)
        }
        if !extraPurposes.isEmpty { OpenSecurityTrust.setRequiredExtendedKeyUsages(trust, extraPurposes) }
        if !testcase.keyUsage.isEmpty {
            var usage = OpenSecurityTrust.KeyUsage()
            for name in testcase.keyUsage {
                guard let bit = keyUsageBits[name] else { return (.skipped, "unknown key usage \(name)") }
                usage.insert(bit)
            }
            OpenSecurityTrust.setRequiredKeyUsage(trust, usage)
        }
        if let depth = testcase.maxChainDepth { OpenSecurityTrust.setMaximumIntermediates(trust, depth) }
        if !emailAddresses.isEmpty && OpenSecurityTrust.setEmailAddresses(trust, emailAddresses) != errSecSuccess {
            return (.failure, "an expected RFC822 peer name is not a mailbox")
        }
        return nil
    }
}
