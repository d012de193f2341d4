import Foundation
import Security
import Testing

@Suite struct SecKeyOperationTests {
    static let message = Data("The quick brown fox jumps over the lazy dog".utf8)

    static let rsaSignatureAlgorithms: [SecKeyAlgorithm] = [
        .rsaSignatureMessagePKCS1v15SHA1, .rsaSignatureMessagePKCS1v15SHA224, .rsaSignatureMessagePKCS1v15SHA256,
        .rsaSignatureMessagePKCS1v15SHA384, .rsaSignatureMessagePKCS1v15SHA512,
        .rsaSignatureMessagePSSSHA1, .rsaSignatureMessagePSSSHA224, .rsaSignatureMessagePSSSHA256,
        .rsaSignatureMessagePSSSHA384, .rsaSignatureMessagePSSSHA512,
    ]
    static let ecSignatureAlgorithms: [SecKeyAlgorithm] = [
        .ecdsaSignatureMessageX962SHA1, .ecdsaSignatureMessageX962SHA224, .ecdsaSignatureMessageX962SHA256,
        .ecdsaSignatureMessageX962SHA384, .ecdsaSignatureMessageX962SHA512,
        .ecdsaSignatureMessageRFC4754SHA256, .ecdsaSignatureMessageRFC4754SHA384, .ecdsaSignatureMessageRFC4754SHA512,
    ]

    @Test(arguments: rsaSignatureAlgorithms)
    func rsaMessageSignaturesVerifyAndDetectTampering(algorithm: SecKeyAlgorithm) throws {
        try signVerify(KeyFixtures.rsa2048, algorithm, Self.message)
    }

    @Test(arguments: ecSignatureAlgorithms)
    func ecMessageSignaturesVerifyAndDetectTampering(algorithm: SecKeyAlgorithm) throws {
        for key in [KeyFixtures.p256, KeyFixtures.p384, KeyFixtures.p521] {
            try signVerify(key, algorithm, Self.message)
        }
    }

    func signVerify(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data) throws {
        let pub = KeyFixtures.publicKey(key)
        #expect(SecKeyIsAlgorithmSupported(key, .sign, algorithm))
        #expect(SecKeyIsAlgorithmSupported(pub, .verify, algorithm))
        #expect(!SecKeyIsAlgorithmSupported(pub, .sign, algorithm))
        #expect(!SecKeyIsAlgorithmSupported(key, .verify, algorithm))
        var error: Unmanaged<CFError>?
        let sig = try #require(SecKeyCreateSignature(key, algorithm, data as CFData, &error)) as Data
        #expect(SecKeyVerifySignature(pub, algorithm, data as CFData, sig as CFData, &error))
        var bad = sig
        bad[bad.count / 2] ^= 0x40
        error = nil
        #expect(!SecKeyVerifySignature(pub, algorithm, data as CFData, bad as CFData, &error))
        #expect(status(error) == Int(errSecVerifyFailed))
    }

    @Test func digestAlgorithmsCheckDigestLength() throws {
        var error: Unmanaged<CFError>?
        let digest = Data(repeating: 0xAB, count: 32)
        #expect(
            SecKeyCreateSignature(KeyFixtures.rsa2048, .rsaSignatureDigestPKCS1v15SHA256, digest as CFData, &error)
                != nil)
        #expect(
            SecKeyCreateSignature(KeyFixtures.p256, .ecdsaSignatureDigestX962SHA256, digest as CFData, &error) != nil)
        for algorithm in [SecKeyAlgorithm.rsaSignatureDigestPKCS1v15SHA384, .rsaSignatureDigestPSSSHA1] {
            error = nil
            #expect(SecKeyCreateSignature(KeyFixtures.rsa2048, algorithm, digest as CFData, &error) == nil)
            #expect(status(error) == Int(errSecParam))
        }
        error = nil
        #expect(
            SecKeyCreateSignature(KeyFixtures.p256, .ecdsaSignatureDigestX962SHA512, digest as CFData, &error) == nil)
        #expect(status(error) == Int(errSecParam))
    }

    @Test func rfc4754SignaturesAreFixedLength() throws {
        var error: Unmanaged<CFError>?
        let digest = Data(repeating: 1, count: 48)
        let sig =
            try #require(
                SecKeyCreateSignature(KeyFixtures.p384, .ecdsaSignatureDigestRFC4754SHA384, digest as CFData, &error))
            as Data
        #expect(sig.count == 96)
        let pub = KeyFixtures.publicKey(KeyFixtures.p384)
        #expect(SecKeyVerifySignature(pub, .ecdsaSignatureDigestRFC4754SHA384, digest as CFData, sig as CFData, &error))
        error = nil
        #expect(
            !SecKeyVerifySignature(
                pub, .ecdsaSignatureDigestRFC4754SHA384, digest as CFData, sig.dropLast() as CFData, &error))
        #expect(status(error) == Int(errSecVerifyFailed))
    }

    @Test func algorithmForTheWrongKeyTypeIsRejected() {
        var error: Unmanaged<CFError>?
        #expect(!SecKeyIsAlgorithmSupported(KeyFixtures.p256, .sign, .rsaSignatureMessagePKCS1v15SHA256))
        #expect(!SecKeyIsAlgorithmSupported(KeyFixtures.rsa2048, .sign, .ecdsaSignatureMessageX962SHA256))
        #expect(!SecKeyIsAlgorithmSupported(KeyFixtures.rsa2048, .encrypt, .rsaSignatureMessagePKCS1v15SHA256))
        #expect(
            SecKeyCreateSignature(KeyFixtures.p256, .rsaSignatureMessagePKCS1v15SHA256, Self.message as CFData, &error)
                == nil)
        let e = error?.takeRetainedValue()
        #expect(e?.code == Int(errSecParam))
        #expect(e?.domain == NSOSStatusErrorDomain)
        #expect(e?.localizedDescription.contains("algorithm not supported by the key") == true)
        error = nil
        let unknown = SecKeyAlgorithm(rawValue: "algid:sign:RSA:nonsense" as CFString)
        #expect(SecKeyCreateSignature(KeyFixtures.rsa2048, unknown, Self.message as CFData, &error) == nil)
        #expect(status(error) == Int(errSecParam))
    }

    static let rsaEncryptionAlgorithms: [SecKeyAlgorithm] = [
        .rsaEncryptionPKCS1, .rsaEncryptionOAEPSHA1, .rsaEncryptionOAEPSHA224, .rsaEncryptionOAEPSHA256,
        .rsaEncryptionOAEPSHA384, .rsaEncryptionOAEPSHA512,
        .rsaEncryptionOAEPSHA1AESGCM, .rsaEncryptionOAEPSHA256AESGCM, .rsaEncryptionOAEPSHA512AESGCM,
    ]

    @Test(arguments: rsaEncryptionAlgorithms)
    func rsaEncryptionRoundTrips(algorithm: SecKeyAlgorithm) throws {
        let pub = KeyFixtures.publicKey(KeyFixtures.rsa2048)
        var error: Unmanaged<CFError>?
        let ct = try #require(SecKeyCreateEncryptedData(pub, algorithm, Self.message as CFData, &error)) as Data
        let pt = try #require(SecKeyCreateDecryptedData(KeyFixtures.rsa2048, algorithm, ct as CFData, &error)) as Data
        #expect(pt == Self.message)
        var bad = ct
        bad[bad.count - 1] ^= 1
        error = nil
        #expect(SecKeyCreateDecryptedData(KeyFixtures.rsa2048, algorithm, bad as CFData, &error) == nil)
        #expect(status(error) == Int(errSecParam))
    }

    @Test func rsaPlaintextLimitsFollowApple() throws {
        let pub = KeyFixtures.publicKey(KeyFixtures.rsa2048)
        let k = 256
        let cases: [(SecKeyAlgorithm, Int)] = [
            (.rsaEncryptionPKCS1, k - 11), (.rsaEncryptionOAEPSHA1, k - 42), (.rsaEncryptionOAEPSHA256, k - 66),
            (.rsaEncryptionOAEPSHA512, k - 130),
        ]
        for (algorithm, limit) in cases {
            var error: Unmanaged<CFError>?
            #expect(
                SecKeyCreateEncryptedData(pub, algorithm, Data(count: limit) as CFData, &error) != nil,
                "\(algorithm.rawValue)")
            #expect(
                SecKeyCreateEncryptedData(pub, algorithm, Data(count: limit + 1) as CFData, &error) == nil,
                "\(algorithm.rawValue)")
            #expect(status(error) == Int(errSecParam))
        }
    }

    @Test func rawRSAEncryptionIsTextbookRSA() throws {
        let pub = KeyFixtures.publicKey(KeyFixtures.rsa2048)
        var error: Unmanaged<CFError>?
        let ct = try #require(SecKeyCreateEncryptedData(pub, .rsaEncryptionRaw, Self.message as CFData, &error)) as Data
        #expect(ct.count == 256)
        let pt =
            try #require(SecKeyCreateDecryptedData(KeyFixtures.rsa2048, .rsaEncryptionRaw, ct as CFData, &error))
            as Data
        #expect(pt.count == 256)
        #expect(pt.suffix(Self.message.count) == Self.message)
        #expect(pt.prefix(256 - Self.message.count).allSatisfy { $0 == 0 })
        // Deterministic: textbook RSA of the same input gives the same output.
        let again =
            try #require(SecKeyCreateEncryptedData(pub, .rsaEncryptionRaw, Self.message as CFData, &error)) as Data
        #expect(again == ct)
    }

    static let eciesAlgorithms: [SecKeyAlgorithm] = [
        .eciesEncryptionStandardX963SHA256AESGCM, .eciesEncryptionCofactorX963SHA256AESGCM,
        .eciesEncryptionStandardVariableIVX963SHA256AESGCM, .eciesEncryptionCofactorVariableIVX963SHA384AESGCM,
        .eciesEncryptionStandardX963SHA1AESGCM, .eciesEncryptionStandardVariableIVX963SHA512AESGCM,
    ]

    @Test(arguments: eciesAlgorithms)
    func eciesRoundTripsOnEveryCurve(algorithm: SecKeyAlgorithm) throws {
        for key in [KeyFixtures.p256, KeyFixtures.p384, KeyFixtures.p521] {
            var error: Unmanaged<CFError>?
            let pub = KeyFixtures.publicKey(key)
            let ct = try #require(SecKeyCreateEncryptedData(pub, algorithm, Self.message as CFData, &error)) as Data
            let pointLength = 1 + 2 * SecKeyGetBlockSize(key)
            #expect(ct.count == pointLength + Self.message.count + 16)
            let pt = try #require(SecKeyCreateDecryptedData(key, algorithm, ct as CFData, &error)) as Data
            #expect(pt == Self.message)
            var bad = ct
            bad[pointLength] ^= 1
            error = nil
            #expect(SecKeyCreateDecryptedData(key, algorithm, bad as CFData, &error) == nil)
            #expect(status(error) == Int(errSecParam))
        }
    }

    @Test func keyExchangeAgreesAndNeedsRequestedSizeForKDF() throws {
        let a = KeyFixtures.p256
        let b = KeyFixtures.generate(kSecAttrKeyTypeECSECPrimeRandom, 256)
        var error: Unmanaged<CFError>?
        let empty = [String: Any]() as CFDictionary
        let raw1 =
            try #require(
                SecKeyCopyKeyExchangeResult(a, .ecdhKeyExchangeStandard, KeyFixtures.publicKey(b), empty, &error))
            as Data
        let raw2 =
            try #require(
                SecKeyCopyKeyExchangeResult(b, .ecdhKeyExchangeCofactor, KeyFixtures.publicKey(a), empty, &error))
            as Data
        #expect(raw1 == raw2)
        #expect(raw1.count == 32)
        let params: [String: Any] = ["requestedSize": 42, "sharedInfo": Data("info".utf8)]
        let k1 =
            try #require(
                SecKeyCopyKeyExchangeResult(
                    a, .ecdhKeyExchangeStandardX963SHA256, KeyFixtures.publicKey(b), params as CFDictionary, &error))
            as Data
        let k2 =
            try #require(
                SecKeyCopyKeyExchangeResult(
                    b, .ecdhKeyExchangeStandardX963SHA256, KeyFixtures.publicKey(a), params as CFDictionary, &error))
            as Data
        #expect(k1 == k2)
        #expect(k1.count == 42)
        error = nil
        #expect(
            SecKeyCopyKeyExchangeResult(a, .ecdhKeyExchangeStandardX963SHA256, KeyFixtures.publicKey(b), empty, &error)
                == nil)
        #expect(status(error) == Int(errSecParam))
        error = nil
        #expect(
            SecKeyCopyKeyExchangeResult(
                a, .ecdhKeyExchangeStandard, KeyFixtures.publicKey(KeyFixtures.p384), empty, &error) == nil)
        #expect(status(error) == Int(errSecParam))
    }
}
