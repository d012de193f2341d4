import Foundation
import Security
import Testing

/// macOS's symmetric SecKeys: `SecKeyGenerateSymmetric`, `SecKeyCreateFromData`, `SecKeyDeriveFromPassword`, what
/// the general SecKey functions answer for them, and keychain storage, by the rules of Apple's SecKey.cpp.
@Suite struct SecKeySymmetricTests {
    private func status(_ error: Unmanaged<CFError>?) -> Int? {
        error.map { CFErrorGetCode($0.takeRetainedValue()) }
    }

    private func hex(_ text: String) -> Data {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
            index = next
        }
        return Data(bytes)
    }

    @Test(arguments: [128, 192, 256])
    func generatesAESKeysOfEverySize(bits: Int) throws {
        var error: Unmanaged<CFError>?
        let parameters: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeAES, kSecAttrKeySizeInBits as String: bits,
        ]
        let key = try #require(SecKeyGenerateSymmetric(parameters as CFDictionary, &error))
        #expect(error == nil)
        #expect(SecKeyGetBlockSize(key) == 16)
        let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
        #expect(attributes[kSecAttrKeyClass as String] as? String == kSecAttrKeyClassSymmetric as String)
        #expect(attributes[kSecAttrKeyType as String] as? String == kSecAttrKeyTypeAES as String)
        #expect((attributes[kSecAttrKeySizeInBits as String] as? NSNumber)?.intValue == bits)
        #expect((attributes[kSecAttrCanEncrypt as String] as? NSNumber)?.boolValue == true)
        #expect((attributes[kSecAttrIsPermanent as String] as? NSNumber)?.boolValue == false)
        // Two generated keys differ.
        let other = try #require(SecKeyGenerateSymmetric(parameters as CFDictionary, nil))
        #expect(!CFEqual(key, other))
        #expect(CFGetTypeID(key) == SecKeyGetTypeID())
    }

    @Test func eachAlgorithmTakesItsOwnSizes() {
        let cases: [(CFString, Int?, Bool, Int)] = [
            (kSecAttrKeyTypeDES, nil, true, 8), (kSecAttrKeyTypeDES, 64, true, 8), (kSecAttrKeyTypeDES, 128, false, 8),
            (kSecAttrKeyType3DES, nil, true, 8), (kSecAttrKeyType3DES, 192, true, 8),
            (kSecAttrKeyType3DES, 128, false, 8),
            (kSecAttrKeyTypeRC4, 40, true, 16), (kSecAttrKeyTypeRC4, 2048, true, 16),
            (kSecAttrKeyTypeRC4, 2056, false, 16),
            (kSecAttrKeyTypeRC2, 8, true, 16), (kSecAttrKeyTypeRC2, 1024, true, 16),
            (kSecAttrKeyTypeRC2, 12, false, 16),
            (kSecAttrKeyTypeCAST, 40, true, 16), (kSecAttrKeyTypeCAST, 128, true, 16),
            (kSecAttrKeyTypeCAST, 32, false, 16),
            (kSecAttrKeyTypeAES, nil, true, 16), (kSecAttrKeyTypeAES, 100, false, 16),
            (kSecAttrKeyTypeAES, 512, false, 16),
        ]
        for (type, bits, accepted, blockSize) in cases {
            var parameters: [String: Any] = [kSecAttrKeyType as String: type]
            if let bits { parameters[kSecAttrKeySizeInBits as String] = bits }
            var error: Unmanaged<CFError>?
            let key = SecKeyGenerateSymmetric(parameters as CFDictionary, &error)
            #expect((key != nil) == accepted, "\(type) \(bits ?? 0)")
            if let key {
                #expect(SecKeyGetBlockSize(key) == blockSize)
            } else {
                #expect(status(error) == Int(errSecInvalidAttributeKeyLength))
            }
        }
    }

    @Test func wrongParameterTypesAreParamErrors() {
        for (key, value) in [
            (kSecAttrIsPermanent, "yes" as Any), (kSecAttrLabel, 5 as Any), (kSecAttrApplicationTag, Data() as Any),
            (kSecUseKeychain, "login" as Any),
        ] {
            var error: Unmanaged<CFError>?
            let parameters: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeAES, key as String: value]
            #expect(SecKeyGenerateSymmetric(parameters as CFDictionary, &error) == nil)
            #expect(status(error) == Int(errSecParam), "\(key)")
        }
    }

    @Test func asymmetricOperationsAnswerAsForAMacOSSymmetricKey() throws {
        let key = try #require(
            SecKeyGenerateSymmetric([kSecAttrKeyType as String: kSecAttrKeyTypeAES] as CFDictionary, nil))
        var error: Unmanaged<CFError>?
        #expect(SecKeyCopyPublicKey(key) == nil)
        #expect(SecKeyCopyExternalRepresentation(key, &error) == nil)
        #expect(status(error) == Int(errSecUnimplemented))
        #expect(SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, Data("m".utf8) as CFData, &error) == nil)
        #expect(status(error) == Int(errSecParam))
        #expect(SecKeyCreateEncryptedData(key, .rsaEncryptionPKCS1, Data("m".utf8) as CFData, &error) == nil)
        #expect(status(error) == Int(errSecParam))
        #expect(!SecKeyIsAlgorithmSupported(key, .sign, .ecdsaSignatureMessageX962SHA256))
        let pair = try #require(
            SecKeyCreateRandomKey(
                [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256]
                    as CFDictionary, nil))
        #expect(SecKeyCopyKeyExchangeResult(pair, .ecdhKeyExchangeStandard, key, [:] as CFDictionary, &error) == nil)
        #expect(status(error) == Int(errSecParam))
        // Wrapping was never implemented by Apple.
        #expect(SecKeyWrapSymmetric(key, key, [:] as CFDictionary, &error) == nil)
        #expect(status(error) == Int(errSecUnimplemented))
    }

    @Test func createFromDataTakesTheBytesAsTheKey() throws {
        let bytes = hex("000102030405060708090a0b0c0d0e0f")
        var error: Unmanaged<CFError>?
        let a = try #require(SecKeyCreateFromData([:] as CFDictionary, bytes as CFData, &error))  // AES by default
        let b = try #require(
            SecKeyCreateFromData(
                [kSecAttrKeyType as String: kSecAttrKeyTypeAES] as CFDictionary, bytes as CFData, nil))
        #expect(CFEqual(a, b))
        let rc4 = try #require(
            SecKeyCreateFromData(
                [kSecAttrKeyType as String: kSecAttrKeyTypeRC4] as CFDictionary, bytes as CFData, nil))
        #expect(!CFEqual(a, rc4))
        #expect(SecKeyCreateFromData([:] as CFDictionary, Data(count: 15) as CFData, &error) == nil)
        #expect(status(error) == Int(errSecUnsupportedKeySize))
        #expect(SecKeyCreateFromData([:] as CFDictionary, Data() as CFData, &error) == nil)
        #expect(status(error) == Int(errSecUnsupportedKeySize))
        #expect(
            SecKeyCreateFromData(
                [kSecAttrKeyType as String: kSecAttrKeyTypeDES] as CFDictionary, bytes as CFData, &error) == nil)
        #expect(status(error) == Int(errSecUnsupportedKeySize))
    }

    @Test func rawKeyExportGivesTheBytesOfExtractableKeys() throws {
        let bytes = hex("00112233445566778899aabbccddeeff")
        let key = try #require(SecKeyCreateFromData([:] as CFDictionary, bytes as CFData, nil))
        var exported: CFData?
        #expect(SecItemExport(key, .formatRawKey, [], nil, &exported) == errSecSuccess)
        #expect(exported as Data? == bytes)
        #expect(SecItemExport(key, .formatUnknown, [], nil, &exported) == errSecSuccess)  // raw is the default
        #expect(exported as Data? == bytes)
        #expect(SecItemExport(key, .formatOpenSSL, [], nil, &exported) == errSecUnsupportedFormat)
        let sealed = try #require(
            SecKeyGenerateSymmetric(
                [kSecAttrKeyType as String: kSecAttrKeyTypeAES, kSecAttrIsExtractable as String: false]
                    as CFDictionary, nil))
        #expect(SecItemExport(sealed, .formatRawKey, [], nil, &exported) == errSecDataNotAvailable)
        #expect(exported == nil)
    }

    @Test func createFromDataImportsRSAAndECKeys() throws {
        let ec = try #require(
            SecKeyCreateRandomKey(
                [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256]
                    as CFDictionary, nil))
        let privateBytes = try #require(SecKeyCopyExternalRepresentation(ec, nil))
        let imported = try #require(
            SecKeyCreateFromData(
                [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom] as CFDictionary, privateBytes, nil))
        #expect(CFEqual(imported, ec))
        let publicKey = try #require(SecKeyCopyPublicKey(ec))
        let publicBytes = try #require(SecKeyCopyExternalRepresentation(publicKey, nil))
        let importedPublic = try #require(
            SecKeyCreateFromData(
                [kSecAttrKeyType as String: kSecAttrKeyTypeEC, kSecAttrKeyClass as String: kSecAttrKeyClassPublic]
                    as CFDictionary, publicBytes, nil))
        #expect(CFEqual(importedPublic, publicKey))
        // The SubjectPublicKeyInfo form is taken too, as macOS's raw import does.
        let spki = try OpenSecurityKeys.subjectPublicKeyInfo(of: publicKey)
        let fromSPKI = try #require(
            SecKeyCreateFromData(
                [kSecAttrKeyType as String: kSecAttrKeyTypeEC, kSecAttrKeyClass as String: kSecAttrKeyClassPublic]
                    as CFDictionary, spki as CFData, nil))
        #expect(CFEqual(fromSPKI, publicKey))
        var error: Unmanaged<CFError>?
        #expect(
            SecKeyCreateFromData(
                [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeyClass as String: kSecAttrKeyClassPublic]
                    as CFDictionary, spki as CFData, &error) == nil)
        #expect(status(error) == Int(errSecParam))
    }

    /// RFC 6070's PBKDF2-HMAC-SHA1 vectors and a PBKDF2-HMAC-SHA256 one: the derived key equals the key made from
    /// the expected bytes.
    @Test func deriveFromPasswordIsPBKDF2() throws {
        let vectors: [(String, String, Int, CFString, CFString, Int, String)] = [
            (
                "password", "salt", 1, kSecAttrPRFHmacAlgSHA1, kSecAttrKeyTypeRC4, 160,
                "0c60c80f961f0e71f3a9b524af6012062fe037a6"
            ),
            (
                "password", "salt", 4096, kSecAttrPRFHmacAlgSHA1, kSecAttrKeyTypeRC4, 160,
                "4b007901b765489abead49d926f721d065a429c1"
            ),
            (
                "password", "salt", 1, kSecAttrPRFHmacAlgSHA256, kSecAttrKeyTypeAES, 256,
                "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b"
            ),
        ]
        for (password, salt, rounds, prf, type, bits, expected) in vectors {
            let parameters: [String: Any] = [
                kSecAttrSalt as String: Data(salt.utf8), kSecAttrRounds as String: rounds,
                kSecAttrPRF as String: prf, kSecAttrKeyType as String: type, kSecAttrKeySizeInBits as String: bits,
            ]
            var error: Unmanaged<CFError>?
            let derived = try #require(
                SecKeyDeriveFromPassword(password as CFString, parameters as CFDictionary, &error))
            let made = try #require(
                SecKeyCreateFromData(parameters as CFDictionary, hex(expected) as CFData, nil))
            #expect(CFEqual(derived, made), "\(prf) \(rounds)")
        }
    }

    @Test func deriveFromPasswordDefaultsAndErrors() throws {
        let salt = Data("NaCl".utf8)
        let base: [String: Any] = [kSecAttrSalt as String: salt]
        let byDefault = try #require(SecKeyDeriveFromPassword("pw" as CFString, base as CFDictionary, nil))
        var explicit = base
        explicit[kSecAttrRounds as String] = 33_333
        explicit[kSecAttrPRF as String] = kSecAttrPRFHmacAlgSHA256
        explicit[kSecAttrKeySizeInBits as String] = 128
        explicit[kSecAttrKeyType as String] = kSecAttrKeyTypeAES
        let spelledOut = try #require(SecKeyDeriveFromPassword("pw" as CFString, explicit as CFDictionary, nil))
        #expect(CFEqual(byDefault, spelledOut))
        #expect(SecKeyGetBlockSize(byDefault) == 16)

        var error: Unmanaged<CFError>?
        #expect(SecKeyDeriveFromPassword("pw" as CFString, [:] as CFDictionary, &error) == nil)
        #expect(status(error) == Int(errSecMissingAlgorithmParms))
        var badPRF = base
        badPRF[kSecAttrPRF as String] = "hmd5"
        #expect(SecKeyDeriveFromPassword("pw" as CFString, badPRF as CFDictionary, &error) == nil)
        #expect(status(error) == Int(errSecInvalidAlgorithmParms))
    }

    @Test func permanentKeysAreStoredAndFoundAgain() throws {
        let keychain = try TestKeychain()
        let parameters: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeAES, kSecAttrKeySizeInBits as String: 256,
            kSecAttrIsPermanent as String: true, kSecUseKeychain as String: keychain.keychain,
            kSecAttrLabel as String: "backup key", kSecAttrApplicationTag as String: "com.example.backup",
        ]
        var error: Unmanaged<CFError>?
        let key = try #require(SecKeyGenerateSymmetric(parameters as CFDictionary, &error))
        let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
        #expect((attributes[kSecAttrIsPermanent as String] as? NSNumber)?.boolValue == true)

        var found: CFTypeRef?
        let query = keychain.q([
            kSecClass as String: kSecClassKey, kSecAttrKeyClass as String: kSecAttrKeyClassSymmetric,
            kSecAttrApplicationTag as String: Data("com.example.backup".utf8), kSecReturnRef as String: true,
        ])
        #expect(SecItemCopyMatching(query, &found) == errSecSuccess)
        let stored = try #require(found as? SecKey)
        #expect(CFEqual(stored, key))
        #expect(SecKeyGetBlockSize(stored) == 16)

        var attributesFound: CFTypeRef?
        let attributeQuery = keychain.q([
            kSecClass as String: kSecClassKey, kSecAttrLabel as String: "backup key",
            kSecReturnAttributes as String: true,
        ])
        #expect(SecItemCopyMatching(attributeQuery, &attributesFound) == errSecSuccess)
        let stored2 = try #require(attributesFound as? [String: Any])
        // Stored items report the class and type as numbers, as iOS's keychain returns them.
        #expect((stored2[kSecAttrKeyClass as String] as? NSNumber)?.intValue == 2)
        #expect((stored2[kSecAttrKeyType as String] as? NSNumber)?.stringValue == kSecAttrKeyTypeAES as String)
        #expect((stored2[kSecAttrKeySizeInBits as String] as? NSNumber)?.intValue == 256)
    }

    @Test func floatingKeysAddedByReferenceComeBackAsTheSameKey() throws {
        let keychain = try TestKeychain()
        let key = try #require(
            SecKeyCreateFromData(
                [kSecAttrKeyType as String: kSecAttrKeyType3DES] as CFDictionary,
                hex("0123456789abcdeffedcba987654321089abcdef01234567") as CFData, nil))
        let add = keychain.q([
            kSecClass as String: kSecClassKey, kSecValueRef as String: key,
            kSecAttrApplicationTag as String: Data("tag.3des".utf8),
        ])
        #expect(SecItemAdd(add, nil) == errSecSuccess)
        var found: CFTypeRef?
        let query = keychain.q([
            kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Data("tag.3des".utf8),
            kSecReturnRef as String: true,
        ])
        #expect(SecItemCopyMatching(query, &found) == errSecSuccess)
        let stored = try #require(found as? SecKey)
        #expect(CFEqual(stored, key))
        #expect(SecKeyGetBlockSize(stored) == 8)
    }

    @Test func keyBytesAddedAsDataComeBackAsASymmetricKey() throws {
        let keychain = try TestKeychain()
        let bytes = hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4")
        let add = keychain.q([
            kSecClass as String: kSecClassKey, kSecAttrKeyClass as String: kSecAttrKeyClassSymmetric,
            kSecAttrKeyType as String: kSecAttrKeyTypeAES, kSecValueData as String: bytes,
            kSecAttrApplicationTag as String: Data("tag.data".utf8),
        ])
        #expect(SecItemAdd(add, nil) == errSecSuccess)
        var found: CFTypeRef?
        let query = keychain.q([
            kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Data("tag.data".utf8),
            kSecReturnRef as String: true,
        ])
        #expect(SecItemCopyMatching(query, &found) == errSecSuccess)
        let key = try #require(found as? SecKey)
        let expected = try #require(SecKeyCreateFromData([:] as CFDictionary, bytes as CFData, nil))
        #expect(CFEqual(key, expected))
        #expect(SecKeyGetBlockSize(key) == 16)
        // Bytes that are not a key of the type asked for are refused, and nothing is added.
        let bad = keychain.q([
            kSecClass as String: kSecClassKey, kSecAttrKeyClass as String: kSecAttrKeyClassSymmetric,
            kSecAttrKeyType as String: kSecAttrKeyTypeAES, kSecValueData as String: Data(count: 5),
            kSecAttrApplicationTag as String: Data("tag.bad".utf8),
        ])
        #expect(SecItemAdd(bad, nil) == errSecUnsupportedKeySize)
    }

    @Test func generatedDESKeysHaveOddParity() throws {
        let keychain = try TestKeychain()
        for (type, tag) in [(kSecAttrKeyTypeDES, "des"), (kSecAttrKeyType3DES, "3des")] {
            let key = try #require(SecKeyGenerateSymmetric([kSecAttrKeyType as String: type] as CFDictionary, nil))
            let add = keychain.q([
                kSecClass as String: kSecClassKey, kSecValueRef as String: key,
                kSecAttrApplicationTag as String: Data(tag.utf8),
            ])
            #expect(SecItemAdd(add, nil) == errSecSuccess)
            var data: CFTypeRef?
            let query = keychain.q([
                kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Data(tag.utf8),
                kSecReturnData as String: true,
            ])
            #expect(SecItemCopyMatching(query, &data) == errSecSuccess)
            let bytes = try #require(data as? Data)
            #expect(bytes.count == (tag == "des" ? 8 : 24))
            #expect(bytes.allSatisfy { $0.nonzeroBitCount % 2 == 1 })
        }
    }
}
