import Foundation
import OSecTestSupport
import Security
import Testing

/// macOS's SecCertificateCopyValues (OID-keyed property dictionaries), the description functions, and identity and
/// certificate preferences kept in the keychain.
struct MacCertificateValuesTests {
    static func identity(_ name: String) throws -> (key: SecKey, certificate: SecCertificate) {
        var error: Unmanaged<CFError>?
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
        ]
        let key = try #require(SecKeyCreateRandomKey(attributes as CFDictionary, &error))
        var extensions = OpenSecurityCertificates.Extensions()
        extensions.alternativeNames = [.dns("values.example"), .email("ops@values.example")]
        let certificate = try OpenSecurityCertificates.createSelfSignedCertificate(
            subject: [("CN", name), ("O", "OpenSecurity Tests")], privateKey: key,
            notBefore: Date(timeIntervalSinceReferenceDate: 800_000_000),
            notAfter: Date(timeIntervalSinceReferenceDate: 900_000_000), extensions: extensions)
        return (key, certificate)
    }

    @Test func copyValuesHasMacOSShape() throws {
        let (_, certificate) = try Self.identity("Values Test")
        var error: Unmanaged<CFError>?
        let values = try #require(SecCertificateCopyValues(certificate, nil, &error) as? [String: Any])
        let subject = try #require(values[kSecOIDX509V1SubjectName as String] as? [String: Any])
        #expect(subject[kSecPropertyKeyType as String] as? String == kSecPropertyTypeSection as String)
        let components = try #require(subject[kSecPropertyKeyValue as String] as? [[String: Any]])
        let commonName = components.first {
            $0[kSecPropertyKeyLabel as String] as? String == kSecOIDCommonName as String
        }
        #expect(commonName?[kSecPropertyKeyValue as String] as? String == "Values Test")
        let notBefore = try #require(values[kSecOIDX509V1ValidityNotBefore as String] as? [String: Any])
        #expect(notBefore[kSecPropertyKeyType as String] as? String == kSecPropertyTypeNumber as String)
        #expect((notBefore[kSecPropertyKeyValue as String] as? NSNumber)?.doubleValue == 800_000_000)
        let names = try #require(values[kSecOIDSubjectAltName as String] as? [String: Any])
        let entries = names[kSecPropertyKeyValue as String] as? [[String: Any]] ?? []
        #expect(entries.contains { $0[kSecPropertyKeyValue as String] as? String == "values.example" })
        #expect(kSecOIDX509V1SubjectName as String == "2.16.840.1.113741.2.1.1.1.8")
        #expect(kSecOIDCommonName as String == "2.5.4.3")

        // Only the keys asked for.
        let some = SecCertificateCopyValues(certificate, [kSecOIDX509V1SerialNumber] as CFArray, nil) as? [String: Any]
        #expect(some?.keys.sorted() == [kSecOIDX509V1SerialNumber as String])
        #expect(SecCertificateCopyValues(certificate, [42] as CFArray, &error) == nil && error != nil)
        #expect(SecCertificateCopyShortDescription(nil, certificate, nil) as String? == "Values Test")
        #expect(SecCertificateCopyLongDescription(nil, certificate, nil) as String? == "Values Test")
    }

    @Test func identityAndCertificatePreferencesLiveInTheKeychain() throws {
        KeychainTestSetup.isolateDefaultKeychain
        let (key, certificate) = try Self.identity("Preferred \(UUID().uuidString)")
        let name = "mail-\(UUID().uuidString)@example.com"
        #expect(SecIdentityCopyPreferred(name as CFString, nil, nil) == nil)
        let identity = try OpenSecurityCertificates.createIdentity(certificate: certificate, privateKey: key)
        // The certificate must be in a keychain first.
        #expect(SecIdentitySetPreferred(identity, name as CFString, nil) == errSecItemNotFound)
        #expect(SecItemAdd([kSecValueRef as String: identity] as CFDictionary, nil) == errSecSuccess)
        #expect(SecIdentitySetPreferred(identity, name as CFString, nil) == errSecSuccess)
        let preferred = try #require(SecIdentityCopyPreferred(name as CFString, nil, nil))
        var preferredCertificate: SecCertificate?
        #expect(SecIdentityCopyCertificate(preferred, &preferredCertificate) == errSecSuccess)
        #expect(
            preferredCertificate.map { SecCertificateCopyData($0) as Data } == SecCertificateCopyData(certificate)
                as Data)
        // Stored as macOS stores it: a generic password item of type 'iprf' named by the service.
        var found: CFTypeRef?
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: name,
            kSecReturnAttributes as String: true,
        ]
        #expect(SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess)
        #expect(((found as? [String: Any])?[kSecAttrType as String] as? NSNumber)?.uint32Value == 0x6970_7266)
        // An issuer list that does not name the issuer hides it.
        #expect(SecIdentityCopyPreferred(name as CFString, nil, [Data([1, 2, 3])] as CFArray) == nil)
        #expect(SecIdentitySetPreferred(nil, name as CFString, nil) == errSecSuccess)
        #expect(SecIdentityCopyPreferred(name as CFString, nil, nil) == nil)

        let web = "https://\(UUID().uuidString).example"
        #expect(SecCertificateSetPreferred(certificate, web as CFString, nil) == errSecSuccess)
        #expect(SecCertificateCopyPreferred(web as CFString, nil) != nil)
        #expect(SecCertificateSetPreferred(nil, web as CFString, nil) == errSecSuccess)
        #expect(SecCertificateCopyPreferred(web as CFString, nil) == nil)
    }

    @Test func systemIdentityRoundTripsThroughItsFile() throws {
        KeychainTestSetup.isolateDefaultKeychain
        let directory = try TemporaryDirectory(prefix: "osec-sysid")
        setenv("OPENSECURITY_SYSTEM_IDENTITIES", directory.path("system-identities.plist"), 1)
        let (key, certificate) = try Self.identity("System \(UUID().uuidString)")
        let identity = try OpenSecurityCertificates.createIdentity(certificate: certificate, privateKey: key)
        #expect(SecItemAdd([kSecValueRef as String: identity] as CFDictionary, nil) == errSecSuccess)
        var found: SecIdentity?
        var actual: CFString?
        #expect(SecIdentityCopySystemIdentity("com.example.none" as CFString, &found, &actual) == errSecItemNotFound)
        #expect(SecIdentitySetSystemIdentity(kSecIdentityDomainDefault, identity) == errSecSuccess)
        #expect(SecIdentityCopySystemIdentity("com.example.none" as CFString, &found, &actual) == errSecSuccess)
        #expect(found != nil && actual as String? == kSecIdentityDomainDefault as String)
        #expect(SecIdentitySetSystemIdentity(kSecIdentityDomainDefault, nil) == errSecSuccess)
    }
}
