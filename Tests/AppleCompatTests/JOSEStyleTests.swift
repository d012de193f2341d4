import Foundation
import Security
import Testing

// In the style of a JOSE/JWT library: ES256 tokens signed with SecKeyCreateSignature (the DER ECDSA signature
// converted to JOSE's fixed-size r||s and back), a JWK exported from SecKeyCopyExternalRepresentation and imported
// with SecKeyCreateWithData, RSA-OAEP key wrapping, content keys and IVs from SecRandomCopyBytes, and CFError
// codes checked with CFErrorGetCode.

enum JOSEStyle {
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func data(base64URL string: String) -> Data? {
        var base64 = string.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }

    /// DER `SEQUENCE { INTEGER r, INTEGER s }` to JOSE's `r || s`, each `size` bytes.
    static func rawSignature(fromDER der: Data, size: Int) -> Data? {
        let bytes = [UInt8](der)
        guard bytes.count > 2, bytes[0] == 0x30 else { return nil }
        var index = bytes[1] & 0x80 == 0 ? 2 : 2 + Int(bytes[1] & 0x7F)
        var parts: [Data] = []
        for _ in 0..<2 {
            guard index + 2 <= bytes.count, bytes[index] == 0x02 else { return nil }
            let length = Int(bytes[index + 1])
            index += 2
            guard index + length <= bytes.count else { return nil }
            var integer = Array(bytes[index..<(index + length)])
            while integer.count > size, integer.first == 0 { integer.removeFirst() }
            guard integer.count <= size else { return nil }
            parts.append(Data(repeating: 0, count: size - integer.count) + integer)
            index += length
        }
        return parts[0] + parts[1]
    }

    /// JOSE's `r || s` back to DER for SecKeyVerifySignature.
    static func derSignature(fromRaw raw: Data) -> Data {
        func integer(_ bytes: Data) -> [UInt8] {
            var value = [UInt8](bytes.drop(while: { $0 == 0 }))
            if value.isEmpty { value = [0] }
            if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let half = raw.count / 2
        let body = integer(raw.prefix(half)) + integer(raw.suffix(half))
        return Data([0x30] + derLength(body.count) + body)
    }

    static func sign(payload: [String: Any], with key: SecKey) throws -> String {
        let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "typ": "JWT"], options: .sortedKeys)
        let body = try JSONSerialization.data(withJSONObject: payload, options: .sortedKeys)
        let signingInput = base64URL(header) + "." + base64URL(body)
        var error: Unmanaged<CFError>?
        guard
            let der = SecKeyCreateSignature(
                key, .ecdsaSignatureMessageX962SHA256, Data(signingInput.utf8) as CFData, &error) as Data?
        else { throw error!.takeRetainedValue() as Error }
        guard let raw = rawSignature(fromDER: der, size: 32) else { throw CocoaError(.coderInvalidValue) }
        return signingInput + "." + base64URL(raw)
    }

    static func verify(_ token: String, with key: SecKey) -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let raw = data(base64URL: String(parts[2])), raw.count == 64 else { return false }
        let signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        var error: Unmanaged<CFError>?
        return SecKeyVerifySignature(
            key, .ecdsaSignatureMessageX962SHA256, signingInput as CFData, derSignature(fromRaw: raw) as CFData,
            &error)
    }
}

@Suite struct JOSEStyleTests {
    let privateKey: SecKey

    init() throws {
        CompatEnvironment.isolated
        var error: Unmanaged<CFError>?
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
        ]
        guard let key = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else {
            throw error!.takeRetainedValue() as Error
        }
        privateKey = key
    }

    @Test func es256TokensVerifyWithAKeyImportedFromItsJWK() throws {
        let token = try JOSEStyle.sign(payload: ["sub": "1234567890", "admin": true], with: privateKey)
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        #expect(JOSEStyle.verify(token, with: publicKey))

        // JWK: x and y from the X9.63 representation, then back into a SecKey.
        var error: Unmanaged<CFError>?
        let point = try #require(SecKeyCopyExternalRepresentation(publicKey, &error) as Data?)
        #expect(point.count == 65 && point.first == 0x04)
        let jwk = [
            "kty": "EC", "crv": "P-256", "x": JOSEStyle.base64URL(point[1..<33]),
            "y": JOSEStyle.base64URL(point[33...]),
        ]
        let x = try #require(JOSEStyle.data(base64URL: jwk["x"]!))
        let y = try #require(JOSEStyle.data(base64URL: jwk["y"]!))
        let imported = try #require(
            SecKeyCreateWithData(
                Data([0x04]) + x + y as CFData,
                [kSecAttrKeyType: kSecAttrKeyTypeEC, kSecAttrKeyClass: kSecAttrKeyClassPublic] as CFDictionary,
                &error))
        #expect(JOSEStyle.verify(token, with: imported))
        let attributes = try #require(SecKeyCopyAttributes(imported) as? [String: Any])
        #expect((attributes[kSecAttrKeySizeInBits as String] as? NSNumber)?.intValue == 256)

        // Flip one bit of s (changing the last base64url character may touch only padding bits).
        let parts = token.split(separator: ".").map(String.init)
        var signature = try #require(JOSEStyle.data(base64URL: parts[2]))
        signature[40] ^= 0x01
        let tampered = parts[0] + "." + parts[1] + "." + JOSEStyle.base64URL(signature)
        #expect(!JOSEStyle.verify(tampered, with: publicKey))
    }

    @Test func wrongKeyTypeErrorsCarryApplesCode() throws {
        var error: Unmanaged<CFError>?
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        #expect(SecKeyCreateSignature(publicKey, .ecdsaSignatureMessageX962SHA256, Data() as CFData, &error) == nil)
        let cfError = try #require(error?.takeRetainedValue())
        #expect(CFErrorGetCode(cfError) == CFIndex(errSecParam))
        #expect(!SecKeyIsAlgorithmSupported(publicKey, .sign, .ecdsaSignatureMessageX962SHA256))
        #expect(SecKeyIsAlgorithmSupported(publicKey, .verify, .ecdsaSignatureMessageX962SHA256))
    }

    @Test func rsaOAEPWrapsARandomContentKey() throws {
        let rsa = try #require(RSAStyleFixtures.privateKey)
        let rsaPublic = try #require(SecKeyCopyPublicKey(rsa))
        var contentKey = Data(count: 32)
        let status = contentKey.withUnsafeMutableBytes { SecRandomCopyBytes(kSecRandomDefault, 32, $0.baseAddress!) }
        #expect(status == errSecSuccess)
        var iv = [UInt8](repeating: 0, count: 12)
        #expect(SecRandomCopyBytes(kSecRandomDefault, iv.count, &iv) == errSecSuccess)
        var error: Unmanaged<CFError>?
        let algorithm = SecKeyAlgorithm.rsaEncryptionOAEPSHA256
        #expect(SecKeyIsAlgorithmSupported(rsaPublic, .encrypt, algorithm))
        let wrapped = try #require(SecKeyCreateEncryptedData(rsaPublic, algorithm, contentKey as CFData, &error))
        #expect(CFDataGetLength(wrapped) == 256)
        let unwrapped = SecKeyCreateDecryptedData(rsa, algorithm, wrapped, &error) as Data?
        #expect(unwrapped == contentKey)
    }
}
