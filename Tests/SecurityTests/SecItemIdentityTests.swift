import Foundation
import Security
import Testing

/// A tiny CA built in code at a fixed time, shared by the keychain identity tests.
enum TestPKI {
    static let notBefore = Date(timeIntervalSince1970: 1_700_000_000)
    static let notAfter = Date(timeIntervalSince1970: 1_900_000_000)
    static let caKey = KeyFixtures.generate(kSecAttrKeyTypeECSECPrimeRandom, 256)
    static let ca: SecCertificate = {
        var ext = OpenSecurityCertificates.Extensions()
        ext.isCertificateAuthority = true
        ext.keyUsage = [.keyCertSign, .cRLSign]
        return try! OpenSecurityCertificates.createSelfSignedCertificate(
            subject: [("O", "OpenSecurity Tests"), ("CN", "Test CA")], privateKey: caKey, notBefore: notBefore,
            notAfter: notAfter, extensions: ext)
    }()

    static func issue(cn: String, for key: SecKey, serial: UInt8) throws -> SecCertificate {
        var ext = OpenSecurityCertificates.Extensions()
        ext.keyUsage = [.digitalSignature]
        ext.extendedKeyUsage = ["1.3.6.1.5.5.7.3.2"]
        return try OpenSecurityCertificates.issueCertificate(
            subject: [("CN", cn)], publicKey: KeyFixtures.publicKey(key), issuerCertificate: ca,
            issuerPrivateKey: caKey,
            notBefore: notBefore, notAfter: notAfter, serialNumber: Data([serial]), extensions: ext)
    }
}

@Suite struct SecItemIdentityTests {
    let kc: TestKeychain
    init() throws { kc = try TestKeychain() }

    @Test func keyFirstCertificateLaterIdentityIsFoundEveryWay() throws {
        // 1. Generate a permanent private key.
        let params: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
            kSecUseKeychain as String: kc.keychain,
            kSecPrivateKeyAttrs as String: [
                kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: "client-key",
            ],
        ]
        var error: Unmanaged<CFError>?
        let key = try #require(SecKeyCreateRandomKey(params as CFDictionary, &error))
        // 2. A server issues a certificate for its public key; add it.
        let certificate = try TestPKI.issue(cn: "client.example", for: key, serial: 7)
        #expect(
            SecItemAdd(
                kc.q([
                    kSecClass as String: kSecClassCertificate, kSecValueRef as String: certificate,
                    kSecAttrLabel as String: "My Client Cert",
                ]), nil) == errSecSuccess)
        // 3. The identity is found by the certificate's label, with every return type.
        let byLabel: [String: Any] = [
            kSecClass as String: kSecClassIdentity, kSecAttrLabel as String: "My Client Cert",
        ]
        var result: CFTypeRef?
        #expect(
            SecItemCopyMatching(kc.q(byLabel.merging([kSecReturnRef as String: true]) { $1 }), &result) == errSecSuccess
        )
        let identity = try #require(result as? SecIdentity)
        var cert: SecCertificate?
        var privateKey: SecKey?
        #expect(SecIdentityCopyCertificate(identity, &cert) == errSecSuccess)
        #expect(SecIdentityCopyPrivateKey(identity, &privateKey) == errSecSuccess)
        #expect(cert == certificate)
        #expect(privateKey == key)
        #expect(
            SecItemCopyMatching(kc.q(byLabel.merging([kSecReturnAttributes as String: true]) { $1 }), &result)
                == errSecSuccess)
        let attributes = try #require(result as? [String: Any])
        #expect(attributes["labl"] as? String == "My Client Cert")
        #expect((attributes["kcls"] as? NSNumber)?.intValue == 1)
        #expect(
            SecItemCopyMatching(kc.q(byLabel.merging([kSecReturnPersistentRef as String: true]) { $1 }), &result)
                == errSecSuccess)
        let pref = try #require(result as? Data)
        #expect(pref.prefix(4) == Data("idnt".utf8))
        #expect(
            SecItemCopyMatching(kc.q([kSecValuePersistentRef as String: pref, kSecReturnRef as String: true]), &result)
                == errSecSuccess)
        #expect(result as? SecIdentity == identity)
        #expect(
            SecItemCopyMatching(kc.q(byLabel.merging([kSecReturnData as String: true]) { $1 }), &result)
                == errSecSuccess)
        #expect(result as? Data == SecCertificateCopyData(certificate) as Data)
        // By issuer + serial (issuer given as the full DER Name is normalized as Apple does).
        let issuer = try #require(SecCertificateCopyNormalizedIssuerSequence(certificate)) as Data
        let serial = try #require(SecCertificateCopySerialNumberData(certificate, nil)) as Data
        let byIssuerSerial: [String: Any] = [
            kSecClass as String: kSecClassIdentity, kSecAttrIssuer as String: issuer,
            kSecAttrSerialNumber as String: serial, kSecReturnRef as String: true,
        ]
        #expect(SecItemCopyMatching(kc.q(byIssuerSerial), &result) == errSecSuccess)
        #expect(result as? SecIdentity == identity)
        // SecIdentityCreateWithCertificate finds the key too.
        var made: SecIdentity?
        #expect(SecIdentityCreateWithCertificate(kc.keychain, certificate, &made) == errSecSuccess)
        #expect(made == identity)
    }

    @Test func identityWithoutItsPrivateKeyIsNotFoundAndSaysWhy() throws {
        let orphanKey = KeyFixtures.generate(kSecAttrKeyTypeECSECPrimeRandom, 256)
        let certificate = try TestPKI.issue(cn: "orphan.example", for: orphanKey, serial: 9)
        #expect(
            SecItemAdd(kc.q([kSecClass as String: kSecClassCertificate, kSecValueRef as String: certificate]), nil)
                == errSecSuccess)
        var result: CFTypeRef?
        let q: [String: Any] = [
            kSecClass as String: kSecClassIdentity, kSecAttrLabel as String: "orphan.example",
            kSecReturnRef as String: true,
        ]
        #expect(SecItemCopyMatching(kc.q(q), &result) == errSecItemNotFound)
        #expect(result == nil)
        #expect(SecCopyLastErrorMessage()?.contains("no private key with its public key hash") == true)
        var made: SecIdentity?
        #expect(SecIdentityCreateWithCertificate(kc.keychain, certificate, &made) == errSecItemNotFound)
    }

    @Test func certificateItemsCarryApplesAttributes() throws {
        let key = KeyFixtures.generate(kSecAttrKeyTypeECSECPrimeRandom, 256)
        let certificate = try TestPKI.issue(cn: "attrs.example", for: key, serial: 11)
        var result: CFTypeRef?
        let add: [String: Any] = [
            kSecClass as String: kSecClassCertificate, kSecValueData as String: SecCertificateCopyData(certificate),
            kSecReturnAttributes as String: true,
        ]
        #expect(SecItemAdd(kc.q(add), &result) == errSecSuccess)
        let attributes = try #require(result as? [String: Any])
        #expect((attributes["ctyp"] as? NSNumber)?.intValue == 3)
        #expect((attributes["cenc"] as? NSNumber)?.intValue == 3)
        #expect(attributes["labl"] as? String == "attrs.example", "default label = subject summary")
        #expect(attributes["slnr"] as? Data == Data([11]))
        #expect((attributes["pkhh"] as? Data)?.count == 20)
        #expect(attributes["pdmn"] as? String == "dk", "certificates default to Always")
        #expect(
            SecItemAdd(kc.q([kSecClass as String: kSecClassCertificate, kSecValueRef as String: certificate]), nil)
                == errSecDuplicateItem)
        let bad: [String: Any] = [
            kSecClass as String: kSecClassCertificate, kSecValueData as String: Data("not a cert".utf8),
        ]
        #expect(SecItemAdd(kc.q(bad), nil) == errSecDecode)
        #expect(
            SecItemCopyMatching(
                kc.q([
                    kSecClass as String: kSecClassCertificate, kSecAttrLabel as String: "attrs.example",
                    kSecReturnRef as String: true,
                ]), &result) == errSecSuccess)
        #expect(result as? SecCertificate == certificate)
    }

    @Test func identityAddAndDelete() throws {
        let key = KeyFixtures.generate(kSecAttrKeyTypeECSECPrimeRandom, 256)
        let certificate = try TestPKI.issue(cn: "pair.example", for: key, serial: 21)
        let identity = try OpenSecurityCertificates.createIdentity(certificate: certificate, privateKey: key)
        var result: CFTypeRef?
        #expect(
            SecItemAdd(
                kc.q([
                    kSecClass as String: kSecClassIdentity, kSecValueRef as String: identity,
                    kSecReturnPersistentRef as String: true,
                ]), &result) == errSecSuccess)
        #expect((result as? Data)?.prefix(4) == Data("idnt".utf8))
        #expect(SecItemAdd(kc.q([kSecValueRef as String: identity]), nil) == errSecDuplicateItem)
        // Both halves are there.
        #expect(
            SecItemCopyMatching(
                kc.q([kSecClass as String: kSecClassCertificate, kSecAttrLabel as String: "pair.example"]), nil)
                == errSecSuccess)
        #expect(
            SecItemCopyMatching(kc.q([kSecClass as String: kSecClassKey, kSecValueRef as String: key]), nil)
                == errSecSuccess)
        #expect(
            SecItemDelete(kc.q([kSecClass as String: kSecClassIdentity, kSecAttrLabel as String: "pair.example"]))
                == errSecSuccess)
        #expect(
            SecItemCopyMatching(
                kc.q([kSecClass as String: kSecClassCertificate, kSecAttrLabel as String: "pair.example"]), nil)
                == errSecItemNotFound)
        #expect(
            SecItemCopyMatching(kc.q([kSecClass as String: kSecClassKey, kSecValueRef as String: key]), nil)
                == errSecItemNotFound)
        #expect(
            SecItemDelete(kc.q([kSecClass as String: kSecClassIdentity, kSecAttrLabel as String: "pair.example"]))
                == errSecItemNotFound)
    }
}
