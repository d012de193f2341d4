import Foundation
import Security
import Testing

// EC keys on P-192 and P-224 through SecKey, as Apple's takes them (kSecAttrKeySizeInBits 192 and 224): generation,
// X9.63 import and export, ECDSA against published vectors, ECDH and ECIES.
//
// The ECDSA vectors are RFC 6979 (T. Pornin, "Deterministic Usage of the Digital Signature Algorithm (DSA) and
// Elliptic Curve Digital Signature Algorithm (ECDSA)", August 2013), Appendix A.2.3 (P-192) and A.2.4 (P-224):
// the key pair and the (r, s) signatures over "sample" and "test" with SHA-224 and SHA-256, copied unchanged.

private struct RFC6979Key {
    let curve: String
    let bits: Int
    let d: String
    let ux: String
    let uy: String
    /// (message, hash, r, s)
    let signatures: [(String, SecKeyAlgorithm, String, String)]
}

private let rfc6979Keys: [RFC6979Key] = [
    RFC6979Key(
        curve: "P-192", bits: 192,
        d: "6fab034934e4c0fc9ae67f5b5659a9d7d1fefd187ee09fd4",
        ux: "ac2c77f529f91689fea0ea5efec7f210d8eea0b9e047ed56",
        uy: "3bc723e57670bd4887ebc732c523063d0a7c957bc97c1c43",
        signatures: [
            (
                "sample", .ecdsaSignatureMessageX962SHA224, "a1f00dad97aeec91c95585f36200c65f3c01812aa60378f5",
                "e07ec1304c7c6c9debbe980b9692668f81d4de7922a0f97a"
            ),
            (
                "sample", .ecdsaSignatureMessageX962SHA256, "4b0b8ce98a92866a2820e20aa6b75b56382e0f9bfd5ecb55",
                "ccdb006926ea9565cbadc840829d8c384e06de1f1e381b85"
            ),
            (
                "test", .ecdsaSignatureMessageX962SHA224, "6945a1c1d1b2206b8145548f633bb61cef04891baf26ed34",
                "b7fb7fdfc339c0b9bd61a9f5a8eaf9be58fc5cba2cb15293"
            ),
            (
                "test", .ecdsaSignatureMessageX962SHA256, "3a718bd8b4926c3b52ee6bbe67ef79b18cb6eb62b1ad97ae",
                "5662e6848a4a19b1f1ae2f72acd4b8bbe50f1eac65d9124f"
            ),
        ]),
    RFC6979Key(
        curve: "P-224", bits: 224,
        d: "f220266e1105bfe3083e03ec7a3a654651f45e37167e88600bf257c1",
        ux: "00cf08da5ad719e42707fa431292dea11244d64fc51610d94b130d6c",
        uy: "eeab6f3debe455e3dbf85416f7030cbd94f34f2d6f232c69f3c1385a",
        signatures: [
            (
                "sample", .ecdsaSignatureMessageX962SHA224, "1cdfe6662dde1e4a1ec4cdedf6a1f5a2fb7fbd9145c12113e6abfd3e",
                "a6694fd7718a21053f225d3f46197ca699d45006c06f871808f43ebc"
            ),
            (
                "sample", .ecdsaSignatureMessageX962SHA256, "61aa3da010e8e8406c656bc477a7a7189895e7e840cdfe8ff42307ba",
                "bc814050dab5d23770879494f9e0a680dc1af7161991bde692b10101"
            ),
            (
                "test", .ecdsaSignatureMessageX962SHA224, "c441ce8e261ded634e4cf84910e4c5d1d22c5cf3b732bb204dbef019",
                "902f42847a63bdc5f6046ada114953120f99442d76510150f372a3f4"
            ),
            (
                "test", .ecdsaSignatureMessageX962SHA256, "ad04dde87b84747a243a631ea47a1ba6d1faa059149ad2440de6fba6",
                "178d49b1ae90e3d8b629be3db5683915f4e8c99fdf6e666cf37adcfd"
            ),
        ]),
]

private func bytes(_ hex: String) -> [UInt8] {
    var out: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        out.append(UInt8(hex[index..<next], radix: 16) ?? 0)
        index = next
    }
    return out
}

/// DER `SEQUENCE { INTEGER r, INTEGER s }` of big-endian r and s.
private func derSignature(_ r: [UInt8], _ s: [UInt8]) -> Data {
    func integer(_ value: [UInt8]) -> [UInt8] {
        var trimmed = Array(value.drop(while: { $0 == 0 }))
        if trimmed.isEmpty { trimmed = [0] }
        if trimmed[0] & 0x80 != 0 { trimmed.insert(0, at: 0) }
        return [0x02, UInt8(trimmed.count)] + trimmed
    }
    let body = integer(r) + integer(s)
    return Data([0x30, UInt8(body.count)] + body)
}

private func makeKey(_ data: Data, _ keyClass: CFString, bits: Int) throws -> SecKey {
    let attributes: [String: Any] = [
        kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass as String: keyClass,
        kSecAttrKeySizeInBits as String: bits,
    ]
    var error: Unmanaged<CFError>?
    let key = SecKeyCreateWithData(data as CFData, attributes as CFDictionary, &error)
    return try #require(key, "\(String(describing: error?.takeRetainedValue()))")
}

@Suite("SecKey on P-192 and P-224")
struct SecKeySmallCurveTests {
    @Test("SecKeyCreateRandomKey takes 192 and 224 bits; export is 04‖X‖Y(‖D)", arguments: [192, 224])
    func generation(bits: Int) throws {
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: bits,
        ]
        var error: Unmanaged<CFError>?
        let key = try #require(SecKeyCreateRandomKey(attributes as CFDictionary, &error))
        let fieldSize = (bits + 7) / 8
        let exported = try #require(SecKeyCopyExternalRepresentation(key, &error) as Data?)
        #expect(exported.count == 1 + 3 * fieldSize)
        #expect(exported.first == 0x04)
        let publicKey = try #require(SecKeyCopyPublicKey(key))
        let publicBytes = try #require(SecKeyCopyExternalRepresentation(publicKey, &error) as Data?)
        #expect(publicBytes == exported.prefix(1 + 2 * fieldSize))
        let attributesOut = try #require(SecKeyCopyAttributes(key) as? [String: Any])
        #expect((attributesOut[kSecAttrKeySizeInBits as String] as? NSNumber)?.intValue == bits)
        #expect(SecKeyGetBlockSize(key) > 0)
        // Re-import both forms.
        let reimported = try makeKey(exported, kSecAttrKeyClassPrivate, bits: bits)
        #expect(SecKeyCopyExternalRepresentation(reimported, &error) as Data? == exported)
        _ = try makeKey(publicBytes, kSecAttrKeyClassPublic, bits: bits)
    }

    @Test("RFC 6979 keys import, derive the published public point, and verify the published signatures")
    func rfc6979Vectors() throws {
        for vector in rfc6979Keys {
            let point = [0x04] + bytes(vector.ux) + bytes(vector.uy)
            let privateKey = try makeKey(Data(point + bytes(vector.d)), kSecAttrKeyClassPrivate, bits: vector.bits)
            let derivedPublic = try #require(SecKeyCopyPublicKey(privateKey))
            var error: Unmanaged<CFError>?
            #expect(SecKeyCopyExternalRepresentation(derivedPublic, &error) as Data? == Data(point), "\(vector.curve)")
            let publicKey = try makeKey(Data(point), kSecAttrKeyClassPublic, bits: vector.bits)
            for (message, algorithm, r, s) in vector.signatures {
                let signature = derSignature(bytes(r), bytes(s))
                let data = Data(message.utf8)
                #expect(
                    SecKeyVerifySignature(publicKey, algorithm, data as CFData, signature as CFData, &error),
                    "\(vector.curve) \(message) \(algorithm.rawValue)")
                var tampered = signature
                tampered[tampered.count - 1] ^= 1
                #expect(!SecKeyVerifySignature(publicKey, algorithm, data as CFData, tampered as CFData, &error))
                // Our own signature over the same message verifies too.
                let ours = try #require(SecKeyCreateSignature(privateKey, algorithm, data as CFData, &error) as Data?)
                #expect(SecKeyVerifySignature(publicKey, algorithm, data as CFData, ours as CFData, &error))
            }
        }
    }

    @Test("A point of the wrong curve size or off the curve is refused")
    func badPoints() throws {
        let vector = rfc6979Keys[1]
        var point = [0x04] + bytes(vector.ux) + bytes(vector.uy)
        point[point.count - 1] ^= 1
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeyClass as String: kSecAttrKeyClassPublic,
        ]
        var error: Unmanaged<CFError>?
        #expect(SecKeyCreateWithData(Data(point) as CFData, attributes as CFDictionary, &error) == nil)
        #expect(error != nil)
    }

    @Test("ECDH agrees both ways, and ECIES round-trips", arguments: [192, 224])
    func keyExchangeAndECIES(bits: Int) throws {
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: bits,
        ]
        var error: Unmanaged<CFError>?
        let alice = try #require(SecKeyCreateRandomKey(attributes as CFDictionary, &error))
        let bob = try #require(SecKeyCreateRandomKey(attributes as CFDictionary, &error))
        let alicePublic = try #require(SecKeyCopyPublicKey(alice))
        let bobPublic = try #require(SecKeyCopyPublicKey(bob))
        let parameters = [String: Any]() as CFDictionary
        let one = try #require(
            SecKeyCopyKeyExchangeResult(alice, .ecdhKeyExchangeStandard, bobPublic, parameters, &error) as Data?)
        let two = try #require(
            SecKeyCopyKeyExchangeResult(bob, .ecdhKeyExchangeStandard, alicePublic, parameters, &error) as Data?)
        #expect(one == two)
        #expect(one.count == (bits + 7) / 8)
        let plaintext = Data("P-\(bits) ECIES".utf8)
        let algorithm = SecKeyAlgorithm.eciesEncryptionStandardX963SHA256AESGCM
        #expect(SecKeyIsAlgorithmSupported(bobPublic, .encrypt, algorithm))
        let sealed = try #require(SecKeyCreateEncryptedData(bobPublic, algorithm, plaintext as CFData, &error) as Data?)
        let opened = try #require(SecKeyCreateDecryptedData(bob, algorithm, sealed as CFData, &error) as Data?)
        #expect(opened == plaintext)
    }
}
