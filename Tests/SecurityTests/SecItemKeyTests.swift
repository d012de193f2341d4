import Foundation
import Security
import Testing

@Suite struct SecItemKeyTests {
    let kc: TestKeychain
    init() throws { kc = try TestKeychain() }

    @Test func permanentPairFoundByTagEncryptsAndDecrypts() throws {
        let tag = Data("com.example.keys.mykey".utf8)
        let params: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 2048,
            kSecUseKeychain as String: kc.keychain,
            kSecPrivateKeyAttrs as String: [
                kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: tag,
            ],
            kSecPublicKeyAttrs as String: [kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: tag],
        ]
        var error: Unmanaged<CFError>?
        let generated = try #require(SecKeyCreateRandomKey(params as CFDictionary, &error))

        func find(_ keyClass: CFString) throws -> SecKey {
            var result: CFTypeRef?
            let q: [String: Any] = [
                kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                kSecAttrKeyClass as String: keyClass, kSecReturnRef as String: true,
            ]
            let status = SecItemCopyMatching(kc.q(q), &result)
            try #require(status == errSecSuccess, "status \(status): \(SecCopyLastErrorMessage() ?? "")")
            return result as! SecKey
        }
        let pub = try find(kSecAttrKeyClassPublic)
        let priv = try find(kSecAttrKeyClassPrivate)
        #expect(priv == generated)
        let message = Data("secret message".utf8)
        let ct = try #require(SecKeyCreateEncryptedData(pub, .rsaEncryptionOAEPSHA256, message as CFData, &error))
        #expect(SecKeyCreateDecryptedData(priv, .rsaEncryptionOAEPSHA256, ct, &error) as Data? == message)

        // Both items are there, with Apple's key attributes as numbers.
        var result: CFTypeRef?
        let all: [String: Any] = [
            kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
            kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true,
        ]
        #expect(SecItemCopyMatching(kc.q(all), &result) == errSecSuccess)
        let items = try #require(result as? [[String: Any]])
        #expect(items.count == 2)
        for item in items {
            #expect((item["type"] as? NSNumber)?.intValue == 42)
            #expect((item["bsiz"] as? NSNumber)?.intValue == 2048)
            #expect((item["klbl"] as? Data)?.count == 20)
            #expect(item["atag"] as? Data == tag)
        }
        #expect(Set(items.compactMap { ($0["kcls"] as? NSNumber)?.intValue }) == [0, 1])
    }

    @Test func keyAddedByRefAndByDataReadsBackAsSecKey() throws {
        let key = KeyFixtures.p256
        var result: CFTypeRef?
        let add: [String: Any] = [
            kSecClass as String: kSecClassKey, kSecValueRef as String: key,
            kSecAttrLabel as String: "by ref", kSecReturnPersistentRef as String: true,
        ]
        #expect(SecItemAdd(kc.q(add), &result) == errSecSuccess)
        #expect(SecItemAdd(kc.q(add), nil) == errSecDuplicateItem)
        let ref = try #require(result as? Data)
        var found: CFTypeRef?
        #expect(
            SecItemCopyMatching(kc.q([kSecValuePersistentRef as String: ref, kSecReturnRef as String: true]), &found)
                == errSecSuccess)
        #expect(found as? SecKey == key)

        let other = KeyFixtures.generate(kSecAttrKeyTypeECSECPrimeRandom, 384)
        let data = try #require(SecKeyCopyExternalRepresentation(other, nil)) as Data
        let byData: [String: Any] = [
            kSecClass as String: kSecClassKey, kSecValueData as String: data,
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
            kSecAttrApplicationTag as String: "data-key",
        ]
        #expect(SecItemAdd(kc.q(byData), nil) == errSecSuccess)
        let q: [String: Any] = [
            kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: "data-key",
            kSecReturnRef as String: true, kSecReturnAttributes as String: true,
        ]
        #expect(SecItemCopyMatching(kc.q(q), &found) == errSecSuccess)
        let dict = try #require(found as? [String: Any])
        #expect(dict["v_Ref"] as? SecKey == other)
        #expect((dict["bsiz"] as? NSNumber)?.intValue == 384)
        #expect(dict["class"] as? String == "keys")

        // Garbage key bytes are refused with nothing written.
        let bad: [String: Any] = [
            kSecClass as String: kSecClassKey, kSecValueData as String: Data([1, 2, 3]),
            kSecAttrApplicationTag as String: "bad",
        ]
        #expect(SecItemAdd(kc.q(bad), nil) == errSecParam)
        #expect(
            SecItemCopyMatching(
                kc.q([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: "bad"]), nil)
                == errSecItemNotFound)
    }

    @Test func valueRefQueryFindsTheStoredKey() throws {
        let key = KeyFixtures.p521
        #expect(
            SecItemAdd(kc.q([kSecClass as String: kSecClassKey, kSecValueRef as String: key]), nil) == errSecSuccess)
        var result: CFTypeRef?
        #expect(
            SecItemCopyMatching(
                kc.q([
                    kSecClass as String: kSecClassKey, kSecValueRef as String: key,
                    kSecReturnAttributes as String: true,
                ]), &result) == errSecSuccess)
        #expect(SecItemDelete(kc.q([kSecClass as String: kSecClassKey, kSecValueRef as String: key])) == errSecSuccess)
        #expect(
            SecItemCopyMatching(kc.q([kSecClass as String: kSecClassKey, kSecValueRef as String: key]), nil)
                == errSecItemNotFound)
    }
}

@Suite struct SecKeychainLockTests {
    @Test func lockedKeychainProtectsWhenUnlockedItems() throws {
        let kc = try TestKeychain(password: "correct horse")
        func add(_ account: String, _ accessible: CFString) -> OSStatus {
            SecItemAdd(
                kc.q([
                    kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
                    kSecAttrService as String: "lock", kSecAttrAccessible as String: accessible,
                    kSecValueData as String: Data("pw-\(account)".utf8),
                ]), nil)
        }
        #expect(add("wu", kSecAttrAccessibleWhenUnlocked) == errSecSuccess)
        #expect(add("afu", kSecAttrAccessibleAfterFirstUnlock) == errSecSuccess)
        #expect(add("always", kSecAttrAccessibleAlways) == errSecSuccess)
        func read(_ account: String) -> (OSStatus, Data?) {
            var result: CFTypeRef?
            let status = SecItemCopyMatching(
                kc.q([
                    kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
                    kSecReturnData as String: true,
                ]), &result)
            return (status, result as? Data)
        }
        var status: SecKeychainStatus = 0
        #expect(SecKeychainGetStatus(kc.keychain, &status) == errSecSuccess)
        #expect(status & kSecUnlockStateStatus != 0, "the creator starts unlocked")
        #expect(SecKeychainLock(kc.keychain) == errSecSuccess)
        #expect(SecKeychainGetStatus(kc.keychain, &status) == errSecSuccess)
        #expect(status & kSecUnlockStateStatus == 0)
        #expect(read("wu").0 == errSecInteractionNotAllowed)
        #expect(read("afu").1 == Data("pw-afu".utf8), "AfterFirstUnlock stays readable once unlocked in this process")
        #expect(read("always").1 == Data("pw-always".utf8))
        // Attributes stay readable while locked.
        #expect(
            SecItemCopyMatching(
                kc.q([
                    kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "wu",
                    kSecReturnAttributes as String: true,
                ]), nil) == errSecSuccess)
        #expect(add("new", kSecAttrAccessibleWhenUnlocked) == errSecInteractionNotAllowed)
        let wrong = "wrong"
        #expect(SecKeychainUnlock(kc.keychain, UInt32(wrong.utf8.count), wrong, true) == errSecAuthFailed)
        let right = "correct horse"
        #expect(SecKeychainUnlock(kc.keychain, UInt32(right.utf8.count), right, true) == errSecSuccess)
        #expect(read("wu").1 == Data("pw-wu".utf8))
        #expect(SecKeychainChangePassword(kc.keychain, "correct horse", "battery staple") == errSecSuccess)
        #expect(SecKeychainLock(kc.keychain) == errSecSuccess)
        #expect(SecKeychainUnlock(kc.keychain, UInt32(right.utf8.count), right, true) == errSecAuthFailed)
        let newPassword = "battery staple"
        #expect(SecKeychainUnlock(kc.keychain, UInt32(newPassword.utf8.count), newPassword, true) == errSecSuccess)
        #expect(read("wu").1 == Data("pw-wu".utf8))
    }

    @Test func keychainManagement() throws {
        let kc = try TestKeychain()
        var again: SecKeychain?
        #expect(SecKeychainCreate(kc.path, 0, nil, false, nil, &again) == errSecDuplicateKeychain)
        var opened: SecKeychain?
        #expect(SecKeychainOpen(kc.path, &opened) == errSecSuccess)
        #expect(opened == kc.keychain)
        #expect(SecKeychainDelete(kc.keychain) == errSecSuccess)
        #expect(!FileManager.default.fileExists(atPath: kc.path))
        var missing: SecKeychain?
        #expect(SecKeychainOpen(kc.directory.path("missing.keychain-db"), &missing) == errSecSuccess)
        #expect(
            SecItemCopyMatching(
                [kSecClass as String: kSecClassGenericPassword, kSecUseKeychain as String: missing as Any]
                    as CFDictionary, nil) == errSecNoSuchKeychain)
    }
}
