import Foundation
import Security
import Testing

@Suite struct SecKeyCreateWithDataTests {
    func attrs(_ type: CFString, _ keyClass: CFString) -> CFDictionary {
        [kSecAttrKeyType as String: type, kSecAttrKeyClass as String: keyClass] as CFDictionary
    }

    func external(_ key: SecKey) -> Data {
        (SecKeyCopyExternalRepresentation(key, nil) as Data?) ?? Data()
    }

    @Test func everyPrefixOfValidKeyDataIsRejected() {
        let cases: [(Data, CFDictionary)] = [
            (external(KeyFixtures.rsa1024), attrs(kSecAttrKeyTypeRSA, kSecAttrKeyClassPrivate)),
            (external(KeyFixtures.publicKey(KeyFixtures.rsa1024)), attrs(kSecAttrKeyTypeRSA, kSecAttrKeyClassPublic)),
            (external(KeyFixtures.p256), attrs(kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClassPrivate)),
            (
                external(KeyFixtures.publicKey(KeyFixtures.p256)),
                attrs(kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClassPublic)
            ),
        ]
        for (data, attributes) in cases {
            #expect(SecKeyCreateWithData(data as CFData, attributes, nil) != nil)
            for length in 0..<data.count {
                var error: Unmanaged<CFError>?
                let key = SecKeyCreateWithData(data.prefix(length) as CFData, attributes, &error)
                #expect(key == nil, "prefix of \(length) bytes accepted")
                #expect(status(error) == Int(errSecParam))
            }
        }
    }

    @Test func corruptedECPointIsRejected() {
        var point = external(KeyFixtures.publicKey(KeyFixtures.p256))
        point[40] ^= 0x01
        var error: Unmanaged<CFError>?
        #expect(
            SecKeyCreateWithData(
                point as CFData, attrs(kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClassPublic), &error) == nil)
        #expect(status(error) == Int(errSecParam))
    }

    @Test func mismatchedECPrivateScalarIsRejected() {
        var priv = external(KeyFixtures.p256)
        priv[priv.count - 1] ^= 0x01
        var error: Unmanaged<CFError>?
        #expect(
            SecKeyCreateWithData(
                priv as CFData, attrs(kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClassPrivate), &error) == nil)
        #expect(status(error) == Int(errSecParam))
    }

    @Test func missingOrWrongAttributesAreErrSecParam() {
        let data = external(KeyFixtures.publicKey(KeyFixtures.p256)) as CFData
        for attributes: [String: Any] in [
            [:],
            [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom],
            [kSecAttrKeyClass as String: kSecAttrKeyClassPublic],
            [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeyClass as String: kSecAttrKeyClassPublic],
            [
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                kSecAttrKeyClass as String: kSecAttrKeyClassSymmetric,
            ],
        ] {
            var error: Unmanaged<CFError>?
            #expect(SecKeyCreateWithData(data, attributes as CFDictionary, &error) == nil)
            #expect(status(error) == Int(errSecParam))
        }
    }

    @Test func garbageNeverCrashes() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 2, 65, 97, 133, 140, 270, 600, 1200] {
            for _ in 0..<20 {
                let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
                for type in [kSecAttrKeyTypeRSA, kSecAttrKeyTypeECSECPrimeRandom] {
                    for keyClass in [kSecAttrKeyClassPublic, kSecAttrKeyClassPrivate] {
                        _ = SecKeyCreateWithData(bytes as CFData, attrs(type, keyClass), nil)
                    }
                }
            }
        }
    }

    @Test func rsaPublicKeyAcceptedAsSubjectPublicKeyInfo() throws {
        // SPKI = SEQUENCE { AlgorithmIdentifier rsaEncryption NULL, BIT STRING { RSAPublicKey } }
        let pkcs1 = external(KeyFixtures.publicKey(KeyFixtures.rsa2048))
        let algorithm: [UInt8] = [
            0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00,
        ]
        let bitString = [0x03] + derLength(pkcs1.count + 1) + [0x00] + Array(pkcs1)
        let body = algorithm + bitString
        let spki = Data([0x30] + derLength(body.count) + body)
        let key = try #require(
            SecKeyCreateWithData(spki as CFData, attrs(kSecAttrKeyTypeRSA, kSecAttrKeyClassPublic), nil))
        #expect(key == KeyFixtures.publicKey(KeyFixtures.rsa2048))
        #expect(external(key) == pkcs1, "exported as PKCS#1, never SPKI")
    }

    func derLength(_ n: Int) -> [UInt8] {
        if n < 128 { return [UInt8(n)] }
        if n < 256 { return [0x81, UInt8(n)] }
        return [0x82, UInt8(n >> 8), UInt8(n & 0xFF)]
    }
}
