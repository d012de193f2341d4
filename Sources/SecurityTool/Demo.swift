import Foundation
import Security

/// `security demo`: a short tour of what exists, through Apple's API exactly as an iOS app would call it.
enum Demo {
    static func run(_ arguments: [String]) -> Int32 {
        do {
            try keys()
            try pki()
            try tls()
            try DemoKit.run()
            print("\nDemo finished: every step succeeded.")
            return 0
        } catch {
            FileHandle.standardError.write(Data("security demo: \(error)\n".utf8))
            return 1
        }
    }

    struct DemoFailure: Error, CustomStringConvertible {
        let description: String
    }

    static func step(_ title: String) { print("\n== \(title)") }

    static func unwrap<T>(_ value: T?, _ error: Unmanaged<CFError>?, _ what: String) throws -> T {
        guard let value else {
            let reason = error.map { "\($0.takeRetainedValue())" } ?? "no error"
            throw DemoFailure(description: "\(what) failed: \(reason)")
        }
        return value
    }

    static func hex(_ data: Data, limit: Int = 24) -> String {
        let bytes = data.prefix(limit).map { String(format: "%02x", $0) }.joined()
        return data.count > limit ? bytes + "…" : bytes
    }

    static func keys() throws {
        var error: Unmanaged<CFError>?
        let message = Data("Hello from OpenSecurity on Linux".utf8)

        for (name, type, bits) in [
            ("RSA-2048", kSecAttrKeyTypeRSA, 2048), ("EC P-256", kSecAttrKeyTypeECSECPrimeRandom, 256),
        ] {
            step("\(name): SecKeyCreateRandomKey")
            let attributes: [String: Any] = [kSecAttrKeyType as String: type, kSecAttrKeySizeInBits as String: bits]
            let privateKey = try unwrap(
                SecKeyCreateRandomKey(attributes as CFDictionary, &error), error, "SecKeyCreateRandomKey")
            let publicKey = try unwrap(SecKeyCopyPublicKey(privateKey), nil, "SecKeyCopyPublicKey")
            print("private key: \(privateKey)")
            print("block size: \(SecKeyGetBlockSize(privateKey)) bytes")
            let external =
                try unwrap(
                    SecKeyCopyExternalRepresentation(publicKey, &error), error, "SecKeyCopyExternalRepresentation")
                as Data
            print("public key external representation (\(external.count) bytes): \(hex(external))")

            let isRSA = type == kSecAttrKeyTypeRSA
            let signing: SecKeyAlgorithm = isRSA ? .rsaSignatureMessagePSSSHA256 : .ecdsaSignatureMessageX962SHA256
            let signature =
                try unwrap(
                    SecKeyCreateSignature(privateKey, signing, message as CFData, &error), error,
                    "SecKeyCreateSignature") as Data
            print("signature (\(signing.rawValue), \(signature.count) bytes): \(hex(signature))")
            let valid = SecKeyVerifySignature(publicKey, signing, message as CFData, signature as CFData, &error)
            print("SecKeyVerifySignature: \(valid)")
            var tampered = message
            tampered[0] ^= 1
            let invalid = SecKeyVerifySignature(publicKey, signing, tampered as CFData, signature as CFData, &error)
            let code = error.map { $0.takeRetainedValue().code } ?? 0
            print("SecKeyVerifySignature on a tampered message: \(invalid) (OSStatus \(code))")
            guard valid, !invalid else {
                throw DemoFailure(description: "signature verification gave the wrong answer")
            }

            let encryption: SecKeyAlgorithm =
                isRSA ? .rsaEncryptionOAEPSHA256 : .eciesEncryptionStandardVariableIVX963SHA256AESGCM
            let ciphertext =
                try unwrap(
                    SecKeyCreateEncryptedData(publicKey, encryption, message as CFData, &error), error,
                    "SecKeyCreateEncryptedData") as Data
            print("encrypted (\(encryption.rawValue), \(ciphertext.count) bytes): \(hex(ciphertext))")
            let plaintext =
                try unwrap(
                    SecKeyCreateDecryptedData(privateKey, encryption, ciphertext as CFData, &error), error,
                    "SecKeyCreateDecryptedData") as Data
            print("decrypted: \"\(String(decoding: plaintext, as: UTF8.self))\"")
            guard plaintext == message else {
                throw DemoFailure(description: "decryption did not return the plaintext")
            }
        }

        step("ECDH: SecKeyCopyKeyExchangeResult (X9.63 KDF, SHA-256, 32 bytes)")
        let ec: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
        ]
        let alice = try unwrap(SecKeyCreateRandomKey(ec as CFDictionary, &error), error, "SecKeyCreateRandomKey")
        let bob = try unwrap(SecKeyCreateRandomKey(ec as CFDictionary, &error), error, "SecKeyCreateRandomKey")
        let params: [String: Any] = [SecKeyKeyExchangeParameter.requestedSize.rawValue as String: 32]
        let ab =
            try unwrap(
                SecKeyCopyKeyExchangeResult(
                    alice, .ecdhKeyExchangeStandardX963SHA256, try unwrap(SecKeyCopyPublicKey(bob), nil, "public key"),
                    params as CFDictionary, &error), error, "key exchange") as Data
        let ba =
            try unwrap(
                SecKeyCopyKeyExchangeResult(
                    bob, .ecdhKeyExchangeStandardX963SHA256, try unwrap(SecKeyCopyPublicKey(alice), nil, "public key"),
                    params as CFDictionary, &error), error, "key exchange") as Data
        print("Alice's secret: \(hex(ab, limit: 32))")
        print("Bob's secret:   \(hex(ba, limit: 32))")
        guard ab == ba else { throw DemoFailure(description: "the two sides derived different secrets") }

        step("Errors: Apple's OSStatus codes and messages")
        let bad = SecKeyCreateWithData(
            Data([0x30, 0x03, 0x02, 0x01]) as CFData,
            [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate]
                as CFDictionary, &error)
        if bad == nil, let e = error?.takeRetainedValue() {
            print("SecKeyCreateWithData(garbage) → nil, \(e.domain) \(e.code): \(e.localizedDescription)")
        }
        for status in [errSecItemNotFound, errSecDuplicateItem, errSecAuthFailed] {
            print("SecCopyErrorMessageString(\(status)) = \(SecCopyErrorMessageString(status, nil) ?? "nil")")
        }
    }
}
