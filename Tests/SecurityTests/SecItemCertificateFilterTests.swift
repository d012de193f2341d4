import Foundation
import Security
import Testing

/// kSecMatchIssuers / Policy / ValidOnDate / TrustedOnly / EmailAddressIfPresent on certificate and identity queries
/// (reference §2.3: post-filters of SecItemCopyMatching; the policy ones run a trust evaluation).
@Suite struct SecItemCertificateFilterTests {
    let kc: TestKeychain
    /// Issued by TestPKI.ca: a client certificate (clientAuth EKU) whose private key is in the keychain.
    let client: SecCertificate
    /// Self-signed, serverAuth EKU, with an e-mail SAN, valid only in 2024.
    let standalone: SecCertificate

    init() throws {
        kc = try TestKeychain()
        let key = KeyFixtures.generate(kSecAttrKeyTypeECSECPrimeRandom, 256)
        client = try TestPKI.issue(cn: "client.example", for: key, serial: 21)
        var ext = OpenSecurityCertificates.Extensions()
        ext.keyUsage = [.digitalSignature]
        ext.extendedKeyUsage = ["1.3.6.1.5.5.7.3.1"]
        ext.alternativeNames = [.email("Alice@Example.COM"), .dns("standalone.example")]
        standalone = try OpenSecurityCertificates.createSelfSignedCertificate(
            subject: [("CN", "Standalone")], privateKey: KeyFixtures.generate(kSecAttrKeyTypeECSECPrimeRandom, 256),
            notBefore: Date(timeIntervalSince1970: 1_704_067_200), notAfter: Date(timeIntervalSince1970: 1_735_603_200),
            extensions: ext)
        for certificate in [TestPKI.ca, client, standalone] {
            try #require(
                SecItemAdd(kc.q([kSecClass as String: kSecClassCertificate, kSecValueRef as String: certificate]), nil)
                    == errSecSuccess)
        }
        try #require(
            SecItemAdd(kc.q([kSecClass as String: kSecClassKey, kSecValueRef as String: key]), nil) == errSecSuccess)
    }

    /// The certificates a query returns (refs, all matches), or the status when it fails.
    func certificates(
        _ extra: [String: Any], itemClass: CFString = kSecClassCertificate
    ) -> Result<[SecCertificate], OSStatusError> {
        var query: [String: Any] = [
            kSecClass as String: itemClass, kSecReturnRef as String: true,
            kSecMatchLimit as String: kSecMatchLimitAll,
        ]
        query.merge(extra) { $1 }
        var result: CFTypeRef?
        let status = SecItemCopyMatching(kc.q(query), &result)
        guard status == errSecSuccess else { return .failure(OSStatusError(status: status)) }
        let items = (result as? [AnyObject]) ?? []
        return .success(
            items.compactMap { item in
                if let identity = item as? SecIdentity {
                    var certificate: SecCertificate?
                    _ = SecIdentityCopyCertificate(identity, &certificate)
                    return certificate
                }
                return item as? SecCertificate
            })
    }

    struct OSStatusError: Error, Equatable { let status: OSStatus }

    @Test func validOnDateKeepsCertificatesValidAtThatInstant() throws {
        let in2024 = Date(timeIntervalSince1970: 1_717_200_000)
        #expect(try certificates([kSecMatchValidOnDate as String: in2024]).get().count == 3)
        // Now (2026): the standalone certificate has expired.
        let now = try certificates([kSecMatchValidOnDate as String: NSNull()]).get()
        #expect(now.count == 2 && !now.contains(standalone))
        #expect(
            certificates([kSecMatchValidOnDate as String: Date(timeIntervalSince1970: 0)])
                == .failure(OSStatusError(status: errSecItemNotFound)))
    }

    @Test func issuersMatchTheIssuerName() throws {
        let caName = try #require(SecCertificateCopyNormalizedSubjectSequence(TestPKI.ca))
        let issued = try certificates([kSecMatchIssuers as String: [caName]]).get()
        // The CA is self-issued (its issuer is its own name) and the client certificate is issued by it.
        #expect(Set(issued.map { SecCertificateCopySubjectSummary($0) as String? }) == ["Test CA", "client.example"])
        let standaloneName = try #require(SecCertificateCopyNormalizedSubjectSequence(standalone))
        #expect(try certificates([kSecMatchIssuers as String: [standaloneName]]).get() == [standalone])
    }

    @Test func policyChecksUsageButNotTheRootUnlessTrustedOnly() throws {
        let clientPolicy = SecPolicyCreateSSL(false, nil)
        let at2025 = Date(timeIntervalSince1970: 1_735_000_000)
        // clientAuth EKU: the client certificate qualifies (its root is not a trusted anchor, which kSecMatchPolicy
        // alone does not require); the standalone one has serverAuth only.
        let forClients = try certificates([
            kSecMatchPolicy as String: clientPolicy, kSecMatchValidOnDate as String: at2025,
        ]).get()
        #expect(forClients.contains(client) && !forClients.contains(standalone))
        let forServers = try certificates([
            kSecMatchPolicy as String: SecPolicyCreateSSL(true, nil),
            kSecMatchValidOnDate as String: at2025,
        ]).get()
        #expect(forServers.contains(standalone) && !forServers.contains(client))
        // TrustedOnly: none of them chains to a system anchor.
        #expect(
            certificates([kSecMatchTrustedOnly as String: true]) == .failure(OSStatusError(status: errSecItemNotFound)))
    }

    /// macOS accepts the filters in SecItemUpdate and SecItemDelete: only what SecItemCopyMatching would find
    /// changes (never every certificate of the class).
    @Test func updateAndDeleteChangeOnlyTheFilteredCertificates() throws {
        let standaloneName = try #require(SecCertificateCopyNormalizedSubjectSequence(standalone))
        let onlyStandalone: [String: Any] = [
            kSecClass as String: kSecClassCertificate, kSecMatchIssuers as String: [standaloneName],
        ]
        #expect(SecItemUpdate(kc.q(onlyStandalone), [kSecAttrLabel as String: "relabelled"] as CFDictionary) == 0)
        var result: CFTypeRef?
        let labelled: [String: Any] = [
            kSecClass as String: kSecClassCertificate, kSecAttrLabel as String: "relabelled",
            kSecReturnRef as String: true, kSecMatchLimit as String: kSecMatchLimitAll,
        ]
        #expect(SecItemCopyMatching(kc.q(labelled), &result) == errSecSuccess)
        #expect((result as? [SecCertificate]) == [standalone])
        #expect(
            SecItemDelete(kc.q([kSecClass as String: kSecClassCertificate, kSecMatchTrustedOnly as String: true]))
                == errSecItemNotFound, "no certificate passes the filter, so none is deleted")
        #expect(try certificates([:]).get().count == 3)
        #expect(SecItemDelete(kc.q(onlyStandalone)) == errSecSuccess)
        let left = try certificates([:]).get()
        #expect(left.count == 2 && !left.contains(standalone))
    }

    @Test func emailAddressIfPresent() throws {
        // Certificates without addresses pass; the standalone one must carry the address (domain case-insensitive).
        let alice = try certificates([kSecMatchEmailAddressIfPresent as String: "Alice@example.com"]).get()
        #expect(alice.count == 3)
        let bob = try certificates([kSecMatchEmailAddressIfPresent as String: "bob@example.com"]).get()
        #expect(bob.count == 2 && !bob.contains(standalone))
        #expect(
            try certificates([kSecMatchEmailAddressIfPresent as String: "alice@example.com"]).get().count == 2,
            "local part is exact")
    }

    @Test func identitiesAreFilteredByTheirCertificate() throws {
        let caName = try #require(SecCertificateCopyNormalizedSubjectSequence(TestPKI.ca))
        #expect(
            try certificates([kSecMatchIssuers as String: [caName]], itemClass: kSecClassIdentity).get() == [client])
        #expect(
            try certificates([kSecMatchPolicy as String: SecPolicyCreateSSL(false, nil)], itemClass: kSecClassIdentity)
                .get() == [client])
        #expect(
            certificates([kSecMatchPolicy as String: SecPolicyCreateSSL(true, nil)], itemClass: kSecClassIdentity)
                == .failure(OSStatusError(status: errSecItemNotFound)))
        // The limit applies after filtering.
        var result: CFTypeRef?
        #expect(
            SecItemCopyMatching(
                kc.q([
                    kSecClass as String: kSecClassCertificate, kSecMatchIssuers as String: [caName],
                    kSecReturnRef as String: true,
                ]), &result) == errSecSuccess)
        #expect(result is SecCertificate)
    }

    @Test func wrongTypesAndWrongClassesAreRejected() {
        var result: CFTypeRef?
        #expect(
            SecItemCopyMatching(
                kc.q([kSecClass as String: kSecClassCertificate, kSecMatchIssuers as String: "CN=x"]), &result)
                == errSecParam)
        #expect(
            SecItemCopyMatching(
                kc.q([kSecClass as String: kSecClassCertificate, kSecMatchPolicy as String: "ssl"]), &result)
                == errSecParam)
        #expect(
            SecItemCopyMatching(
                kc.q([kSecClass as String: kSecClassCertificate, kSecMatchValidOnDate as String: 5]), &result)
                == errSecParam)
        #expect(
            SecItemCopyMatching(
                kc.q([kSecClass as String: kSecClassCertificate, kSecMatchIssuers as String: [Data([1, 2])]]), &result)
                == errSecParam)
        #expect(
            SecItemCopyMatching(
                kc.q([kSecClass as String: kSecClassGenericPassword, kSecMatchTrustedOnly as String: true]), &result)
                == errSecUnimplemented)
        #expect(
            SecItemUpdate(
                kc.q([kSecClass as String: kSecClassCertificate, kSecMatchValidOnDate as String: 5]),
                [kSecAttrLabel as String: "x"] as CFDictionary) == errSecParam)
        #expect(
            SecItemDelete(kc.q([kSecClass as String: kSecClassCertificate, kSecMatchIssuers as String: "CN=x"]))
                == errSecParam)
    }
}
