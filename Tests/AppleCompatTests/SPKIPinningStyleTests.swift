import Foundation
import Security
import Testing

// In the style of TrustKit-like SPKI pinning: evaluate, take the leaf's key (SecTrustCopyKey, or
// SecTrustGetCertificateAtIndex + SecCertificateCopyKey), read its type and size from SecKeyCopyAttributes,
// export it with SecKeyCopyExternalRepresentation (PKCS#1 for RSA, the X9.63 point for EC) and prepend the fixed
// ASN.1 SubjectPublicKeyInfo header for that type and size to rebuild the SPKI that pins are hashed from.

enum SPKIHeader {
    /// SEQUENCE { SEQUENCE { rsaEncryption, NULL }, BIT STRING { … } } for a 2048-bit RSA key (270-byte body).
    static let rsa2048: [UInt8] = [
        0x30, 0x82, 0x01, 0x22, 0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05,
        0x00, 0x03, 0x82, 0x01, 0x0F, 0x00,
    ]
    /// SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING { … } } for a P-256 point (65 bytes).
    static let ecP256: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48,
        0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]

    static func header(for key: SecKey) -> [UInt8]? {
        guard let attributes = SecKeyCopyAttributes(key) as? [String: Any],
            let type = attributes[kSecAttrKeyType as String] as? String,
            let bits = attributes[kSecAttrKeySizeInBits as String] as? Int
        else { return nil }
        if type == kSecAttrKeyTypeRSA as String && bits == 2048 { return rsa2048 }
        if type == kSecAttrKeyTypeECSECPrimeRandom as String && bits == 256 { return ecP256 }
        return nil
    }

    static func subjectPublicKeyInfo(of key: SecKey) -> Data? {
        guard let header = header(for: key), let raw = SecKeyCopyExternalRepresentation(key, nil) as Data? else {
            return nil
        }
        return Data(header) + raw
    }
}

extension Data {
    func containsSubsequence(_ needle: Data) -> Bool { range(of: needle) != nil }
}

@Suite struct SPKIPinningStyleTests {
    @Test func rsaLeafSPKIRebuiltFromTheExportedKeyIsTheCertificatesOwn() throws {
        let chain = try #require(PinningChain.shared)
        let trust = try #require(chain.serverTrust())
        #expect(SecTrustSetAnchorCertificates(trust, [chain.root] as CFArray) == errSecSuccess)
        var error: CFError?
        #expect(SecTrustEvaluateWithError(trust, &error), "\(String(describing: error))")
        let key = try #require(SecTrustCopyKey(trust))
        let raw = try #require(SecKeyCopyExternalRepresentation(key, nil) as Data?)
        #expect(raw.count == 270)  // the length pinning code switches on for RSA-2048
        let spki = try #require(SPKIHeader.subjectPublicKeyInfo(of: key))
        #expect(chain.leafDER.containsSubsequence(spki))
    }

    @Test func ecRootSPKIThroughCertificateAtIndex() throws {
        let chain = try #require(PinningChain.shared)
        let trust = try #require(chain.serverTrust())
        #expect(SecTrustSetAnchorCertificates(trust, [chain.root] as CFArray) == errSecSuccess)
        #expect(SecTrustEvaluateWithError(trust, nil))
        let count = SecTrustGetCertificateCount(trust)
        let rootCertificate = try #require(SecTrustGetCertificateAtIndex(trust, count - 1))
        let key = try #require(SecCertificateCopyKey(rootCertificate))
        let raw = try #require(SecKeyCopyExternalRepresentation(key, nil) as Data?)
        #expect(raw.count == 65 && raw.first == 0x04)
        let spki = try #require(SPKIHeader.subjectPublicKeyInfo(of: key))
        #expect(chain.rootDER.containsSubsequence(spki))
        // The key's attributes answer what the header choice needs.
        let attributes = try #require(SecKeyCopyAttributes(key) as? [CFString: Any])
        #expect(attributes[kSecAttrKeyClass] as? String == kSecAttrKeyClassPublic as String)
    }

    @Test func certificateKeyIsPublicAndOnlyEncrypts() throws {
        let chain = try #require(PinningChain.shared)
        let key = try #require(SecCertificateCopyKey(chain.leaf))
        // A public key cannot decrypt: the algorithm check pinning code does before use.
        #expect(!SecKeyIsAlgorithmSupported(key, .decrypt, .rsaEncryptionPKCS1))
        #expect(SecKeyIsAlgorithmSupported(key, .encrypt, .rsaEncryptionPKCS1))
        #expect(SecKeyCopyPublicKey(key) == key)
    }
}
