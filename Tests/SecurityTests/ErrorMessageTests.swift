import Foundation
import Security
import Testing

@Suite struct ErrorMessageTests {
    @Test func applesNumbers() {
        #expect(errSecSuccess == 0)
        #expect(errSecParam == -50)
        #expect(errSecItemNotFound == -25300)
        #expect(errSecDuplicateItem == -25299)
        #expect(errSecAuthFailed == -25293)
        #expect(errSecDecode == -26275)
        #expect(errSecVerifyFailed == -67808)
        #expect(errSecInteractionNotAllowed == -25308)
        #expect(errSecNotTrusted == -67843)
        #expect(errSecCertificateExpired == -67818)
    }

    @Test func applesMessages() {
        #expect(
            SecCopyErrorMessageString(errSecItemNotFound, nil) as String?
                == "The specified item could not be found in the keychain.")
        #expect(
            SecCopyErrorMessageString(errSecDuplicateItem, nil) as String?
                == "The specified item already exists in the keychain.")
        #expect(
            SecCopyErrorMessageString(errSecAuthFailed, nil) as String?
                == "The user name or passphrase you entered is not correct.")
        #expect(
            SecCopyErrorMessageString(errSecParam, nil) as String?
                == "One or more parameters passed to a function were not valid.")
        #expect(SecCopyErrorMessageString(12345, nil) == nil)
    }

    @Test func constantsHaveApplesRawValues() {
        #expect(kSecClass as String == "class")
        #expect(kSecClassGenericPassword as String == "genp")
        #expect(kSecAttrAccount as String == "acct")
        #expect(kSecAttrApplicationLabel as String == "klbl")
        #expect(kSecAttrKeyTypeECSECPrimeRandom as String == "73")
        #expect(kSecAttrKeyTypeRSA as String == "42")
        #expect(kSecAttrProtocolHTTPS as String == "htps")
        #expect(kSecAttrProtocolFTP as String == "ftp ")
        #expect(kSecMatchLimitAll as String == "m_LimitAll")
        #expect(kSecReturnPersistentRef as String == "r_PersistentRef")
        #expect(kSecValueData as String == "v_Data")
        #expect(kSecUseDataProtectionKeychain as String == "nleg")
        #expect(kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String == "cku")
        #expect(
            SecKeyAlgorithm.rsaSignatureMessagePSSSHA256.rawValue as String
                == "algid:sign:RSA:message-PSS:SHA256:SHA256:32")
        #expect(
            SecKeyAlgorithm.ecdhKeyExchangeCofactorX963SHA384.rawValue as String
                == "algid:keyexchange:ECDHC:KDFX963:SHA384")
        #expect(
            SecKeyAlgorithm.eciesEncryptionStandardVariableIVX963SHA256AESGCM.rawValue as String
                == "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM-KDFIV")
    }

    @Test func cfTimeMatchesFoundation() {
        let now = CFAbsoluteTimeGetCurrent()
        #expect(abs(now - Date().timeIntervalSinceReferenceDate) < 5)
        #expect(kCFBooleanTrue.boolValue && !kCFBooleanFalse.boolValue)
    }
}
