import Foundation
import Security
import Testing

@Suite struct SecKeyGenerationTests {
    @Test(arguments: [(256, 32, 65, 97), (384, 48, 97, 145), (521, 66, 133, 199)])
    func ecKeysHaveApplesSizes(bits: Int, blockSize: Int, publicLength: Int, privateLength: Int) throws {
        let key = bits == 256 ? KeyFixtures.p256 : bits == 384 ? KeyFixtures.p384 : KeyFixtures.p521
        #expect(SecKeyGetBlockSize(key) == blockSize)
        var error: Unmanaged<CFError>?
        let priv = try #require(SecKeyCopyExternalRepresentation(key, &error)) as Data
        let pub = try #require(SecKeyCopyExternalRepresentation(KeyFixtures.publicKey(key), &error)) as Data
        #expect(priv.count == privateLength)
        #expect(pub.count == publicLength)
        #expect(pub.first == 0x04)
        #expect(priv.prefix(publicLength) == pub)
    }

    @Test func rsaKeyExportsPKCS1AndReimports() throws {
        let key = KeyFixtures.rsa2048
        #expect(SecKeyGetBlockSize(key) == 256)
        var error: Unmanaged<CFError>?
        let der = try #require(SecKeyCopyExternalRepresentation(key, &error)) as Data
        #expect(der.prefix(4) == Data([0x30, 0x82, 0x04]) || der.prefix(2) == Data([0x30, 0x82]))
        let attrs: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
        ]
        let again = try #require(SecKeyCreateWithData(der as CFData, attrs as CFDictionary, &error))
        #expect(again == key)
        let pubDER = try #require(SecKeyCopyExternalRepresentation(KeyFixtures.publicKey(key), &error)) as Data
        let pubAttrs: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeyClass as String: kSecAttrKeyClassPublic,
        ]
        let pub = try #require(SecKeyCreateWithData(pubDER as CFData, pubAttrs as CFDictionary, &error))
        #expect(pub == KeyFixtures.publicKey(key))
        #expect(pub != key)
    }

    @Test func generatePairReturnsBothHalves() throws {
        var pub: SecKey?
        var priv: SecKey?
        let params: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeEC, kSecAttrKeySizeInBits as String: "384",
        ]
        #expect(SecKeyGeneratePair(params as CFDictionary, &pub, &priv) == errSecSuccess)
        let p = try #require(pub)
        let k = try #require(priv)
        #expect(SecKeyCopyPublicKey(k) == p)
        #expect(SecKeyGetBlockSize(p) == 48)
    }

    @Test func acceptsFoundationSpellingsOfParameters() throws {
        let params = NSMutableDictionary()
        params[NSString(string: "type")] = NSString(string: "73")
        params[NSString(string: "bsiz")] = NSNumber(value: 256)
        var error: Unmanaged<CFError>?
        #expect(SecKeyCreateRandomKey(params, &error) != nil)
    }

    nonisolated(unsafe) static let badParameters: [String: [String: Any]] = [
        "no type": [kSecAttrKeySizeInBits as String: 256],
        "no size": [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom],
        "EC-255": [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 255],
        "RSA-256": [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 256],
        "RSA-16384": [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 16384],
        "unknown type": [kSecAttrKeyType as String: "999", kSecAttrKeySizeInBits as String: 256],
        "bad size": [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: "big"],
    ]

    @Test(arguments: ["no type", "no size", "EC-255", "RSA-256", "RSA-16384", "unknown type", "bad size"])
    func badGenerationParametersGiveErrSecParam(label: String) {
        let params = Self.badParameters[label] ?? [:]
        var error: Unmanaged<CFError>?
        #expect(SecKeyCreateRandomKey(params as CFDictionary, &error) == nil, "\(label)")
        #expect(status(error) == Int(errSecParam), "\(label)")
        var pub: SecKey?
        var priv: SecKey?
        #expect(SecKeyGeneratePair(params as CFDictionary, &pub, &priv) == errSecParam, "\(label)")
        #expect(pub == nil && priv == nil)
    }

    @Test func attributesFollowApple() throws {
        let priv = try #require(SecKeyCopyAttributes(KeyFixtures.p256) as? [String: Any])
        #expect(priv["class"] as? String == "keys")
        #expect(priv["kcls"] as? String == "1")
        #expect(priv["type"] as? String == "73")
        #expect((priv["bsiz"] as? NSNumber)?.intValue == 256)
        #expect((priv["esiz"] as? NSNumber)?.intValue == 256)
        #expect((priv["sign"] as? NSNumber)?.boolValue == true)
        #expect((priv["vrfy"] as? NSNumber)?.boolValue == false)
        #expect((priv["drve"] as? NSNumber)?.boolValue == true)
        #expect((priv["klbl"] as? Data)?.count == 20)
        #expect((priv["v_Data"] as? Data)?.count == 97)
        let pubKey = KeyFixtures.publicKey(KeyFixtures.rsa2048)
        let pub = try #require(SecKeyCopyAttributes(pubKey) as? [String: Any])
        #expect(pub["kcls"] as? String == "0")
        #expect(pub["type"] as? String == "42")
        #expect((pub["bsiz"] as? NSNumber)?.intValue == 2048)
        #expect((pub["decr"] as? NSNumber)?.boolValue == true, "Apple's quirk: RSA public keys report decr")
        #expect((pub["encr"] as? NSNumber)?.boolValue == true)
        // klbl is SHA-1 of the public key's external representation, the same for both halves.
        let privRSA = try #require(SecKeyCopyAttributes(KeyFixtures.rsa2048) as? [String: Any])
        #expect(privRSA["klbl"] as? Data == pub["klbl"] as? Data)
    }

    /// Secure Enclave keys: no enclave here, so generation fails with errSecUnimplemented as on an Apple device
    /// without one, whether the token is named at the top level or in kSecPrivateKeyAttrs, and nothing is stored.
    @Test func secureEnclaveGenerationAnswersUnimplemented() throws {
        let keychain = try TestKeychain()
        let label = "se.\(UUID().uuidString)"
        let topLevel: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave, kSecUseKeychain as String: keychain.keychain,
            kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: true, kSecAttrLabel as String: label],
        ]
        var error: Unmanaged<CFError>?
        #expect(SecKeyCreateRandomKey(topLevel as CFDictionary, &error) == nil)
        #expect(error.map { CFErrorGetCode($0.takeRetainedValue()) } == Int(errSecUnimplemented))
        let nested: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
            kSecUseKeychain as String: keychain.keychain,
            kSecPrivateKeyAttrs as String: [
                kSecAttrIsPermanent as String: true, kSecAttrLabel as String: label,
                kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            ],
        ]
        var publicKey: SecKey?
        var privateKey: SecKey?
        #expect(SecKeyGeneratePair(nested as CFDictionary, &publicKey, &privateKey) == errSecUnimplemented)
        #expect(publicKey == nil && privateKey == nil)
        let query = keychain.q([kSecClass as String: kSecClassKey, kSecAttrLabel as String: label])
        #expect(SecItemCopyMatching(query, nil) == errSecItemNotFound)
    }
}
