import Foundation
import OSecTestSupport
import Testing

@testable import OSecCrypto

@Suite struct BadInputTests {
    /// A fixed RSA-2048 key from the Wycheproof PKCS#1 decryption file (no key generation needed).
    static func wycheproofRSAKey() throws -> AsymmetricKey {
        struct Group: Decodable { let privateKeyPkcs8: String }
        let file = try Wycheproof.load("rsa_pkcs1_2048_test.json", Group.self)
        return try AsymmetricKey(pkcs8: Hex.data(try #require(file.testGroups.first).privateKeyPkcs8))
    }

    @Test func everyPrefixOfRSAPrivateKeyThrows() throws {
        let der = try Self.wycheproofRSAKey().rsaPKCS1DER
        #expect(try AsymmetricKey(rsaPrivateKeyPKCS1: der).isPrivate)
        for length in 0..<der.count {
            #expect(throws: CryptoError(.invalidKey, "")) { try AsymmetricKey(rsaPrivateKeyPKCS1: der.prefix(length)) }
            #expect(throws: CryptoError.self) { try AsymmetricKey(der: der.prefix(length)) }
        }
        #expect(throws: CryptoError(.invalidKey, "")) { try AsymmetricKey(rsaPrivateKeyPKCS1: der + Data([0])) }
    }

    @Test(arguments: ECCurve.allCases)
    func everyPrefixOfECX963KeyThrows(_ curve: ECCurve) throws {
        let key = try AsymmetricKey.generateEC(curve)
        let x963 = try key.x963Representation
        #expect(try AsymmetricKey(ecPrivateKeyX963: x963).isSamePublicKey(as: key))
        for length in 0..<x963.count {
            #expect(throws: CryptoError(.invalidKey, "")) {
                try AsymmetricKey(ecPrivateKeyX963: x963.prefix(length), curve: curve)
            }
            #expect(throws: CryptoError.self) { try AsymmetricKey(ecPrivateKeyX963: x963.prefix(length)) }
        }
        // A private scalar that does not match the public point is rejected.
        var mismatched = x963
        mismatched[mismatched.count - 1] ^= 1
        #expect(throws: CryptoError(.invalidKey, "")) { try AsymmetricKey(ecPrivateKeyX963: mismatched) }
        // A public point off the curve is rejected.
        var offCurve = try key.publicKey.x963Representation
        offCurve[offCurve.count - 1] ^= 1
        #expect(throws: CryptoError(.invalidKey, "")) { try AsymmetricKey(ecPublicKeyX963: offCurve) }
        let spki = try key.subjectPublicKeyInfoDER
        for length in 0..<spki.count {
            #expect(throws: CryptoError.self) { try AsymmetricKey(subjectPublicKeyInfo: spki.prefix(length)) }
        }
    }

    @Test func garbageKeysThrowInvalidKey() throws {
        let garbage: [Data] = [
            Data(), Data([0x30]), Data([0x30, 0x00]), Data([0x30, 0x80, 0, 0]), Data(repeating: 0xff, count: 300),
            Data([0x02, 0x01, 0x00]), Data([0x30, 0x84, 0xff, 0xff, 0xff, 0xff]),
        ]
        for bytes in garbage {
            #expect(throws: CryptoError(.invalidKey, "")) { try AsymmetricKey(der: bytes) }
            #expect(throws: CryptoError(.invalidKey, "")) { try AsymmetricKey(rsaPublicKeyPKCS1: bytes) }
            #expect(throws: CryptoError(.invalidKey, "")) { try AsymmetricKey(ecPublicKeyX963: bytes) }
            #expect(throws: CryptoError.self) { try AsymmetricKey(pkcs8: bytes) }
            #expect(throws: CryptoError.self) { try AsymmetricKey(sec1: bytes) }
            #expect(throws: CryptoError.self) { try AsymmetricKey(encryptedPKCS8: bytes, passphrase: Data()) }
        }
        #expect(throws: CryptoError(.invalidKey, "")) { try AsymmetricKey(pem: "not a key") }
        #expect(throws: CryptoError(.invalidKey, "")) {
            try AsymmetricKey(pem: "-----BEGIN PUBLIC KEY-----\n!!!\n-----END PUBLIC KEY-----\n")
        }
    }

    @Test func weakRSAPublicKeysAreRejected() throws {
        // RSAPublicKey { n = 2^511 + 1 (512 bits, odd), e = 2 } and e = 1: exponent checks.
        func rsaPublic(modulus: [UInt8], exponent: [UInt8]) -> Data {
            func integer(_ bytes: [UInt8]) -> [UInt8] {
                let body = (bytes.first ?? 0) & 0x80 != 0 ? [0] + bytes : bytes
                return [0x02] + length(body.count) + body
            }
            func length(_ n: Int) -> [UInt8] {
                n < 128 ? [UInt8(n)] : n < 256 ? [0x81, UInt8(n)] : [0x82, UInt8(n >> 8), UInt8(n & 0xff)]
            }
            let content = integer(modulus) + integer(exponent)
            return Data([0x30] + length(content.count) + content)
        }
        let modulus512 = [UInt8(0x80)] + [UInt8](repeating: 0, count: 62) + [0x01]
        #expect(
            try AsymmetricKey(rsaPublicKeyPKCS1: rsaPublic(modulus: modulus512, exponent: [0x01, 0x00, 0x01])).bitSize
                == 512)
        #expect(throws: CryptoError(.invalidKey, "")) {
            try AsymmetricKey(rsaPublicKeyPKCS1: rsaPublic(modulus: modulus512, exponent: [2]))
        }
        #expect(throws: CryptoError(.invalidKey, "")) {
            try AsymmetricKey(rsaPublicKeyPKCS1: rsaPublic(modulus: modulus512, exponent: [1]))
        }
        let small = [UInt8(0x80)] + [UInt8](repeating: 0, count: 30) + [0x01]  // 256 bits
        #expect(throws: CryptoError(.invalidKey, "")) {
            try AsymmetricKey(rsaPublicKeyPKCS1: rsaPublic(modulus: small, exponent: [3]))
        }
        let even = [UInt8(0x80)] + [UInt8](repeating: 0, count: 63)
        #expect(throws: CryptoError(.invalidKey, "")) {
            try AsymmetricKey(rsaPublicKeyPKCS1: rsaPublic(modulus: even, exponent: [3]))
        }
    }

    @Test func rsaOperationSizeErrors() throws {
        let key = try Self.wycheproofRSAKey()
        let k = key.blockSize
        #expect(throws: CryptoError(.invalidParameter, "")) { try key.encrypt(Data(count: k - 10), padding: .pkcs1) }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try key.encrypt(Data(count: k - 65), padding: .oaep(.sha256))
        }
        #expect(throws: CryptoError(.invalidParameter, "")) { try key.encrypt(Data(count: k + 1), padding: .none) }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try key.encrypt(Data(repeating: 0xff, count: k), padding: .none)
        }
        #expect(throws: CryptoError(.decryptionFailed, "")) { try key.decrypt(Data(count: k - 1), padding: .pkcs1) }
        #expect(throws: CryptoError(.decryptionFailed, "")) {
            try key.decrypt(Data(repeating: 1, count: k), padding: .oaep(.sha1))
        }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try key.publicKey.decrypt(Data(count: k), padding: .pkcs1)
        }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try key.sign(Data(count: 31), scheme: .rsaPKCS1v15(digest: .sha256, inputIsDigest: true))
        }
        #expect(throws: CryptoError(.invalidParameter, "")) { try key.sign(Data(count: k - 1), scheme: .rsaRaw) }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try key.sign(Data(count: k - 10), scheme: .rsaPKCS1v15Raw)
        }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try key.sign(Data(count: 32), scheme: .ecdsaDER(digest: nil, inputIsDigest: true))
        }
        #expect(throws: CryptoError(.invalidParameter, "")) { try key.deriveSharedSecret(with: key) }
        #expect(
            try key.publicKey.verify(
                Data(count: 3), for: Data(), scheme: .rsaPKCS1v15(digest: .sha256, inputIsDigest: false)) == false)
    }

    @Test func rsaRawAndDigestInfoSchemesRoundTrip() throws {
        let key = try Self.wycheproofRSAKey()
        let pub = key.publicKey
        let k = key.blockSize
        var block = try SecureRandom.bytes(k)
        block[0] = 0
        let raw = try key.sign(block, scheme: .rsaRaw)
        #expect(try pub.verify(raw, for: block, scheme: .rsaRaw))
        #expect(try pub.encrypt(raw, padding: .none) == block)
        #expect(try key.decrypt(pub.encrypt(block, padding: .none), padding: .none) == block)
        // DigestInfo for SHA-256 over "abc", signed raw, must equal the digest-based signature.
        let digest = Digest.hash(.sha256, Data("abc".utf8))
        let digestInfo = Hex.data("3031300d060960864801650304020105000420") + digest
        let viaRaw = try key.sign(digestInfo, scheme: .rsaPKCS1v15Raw)
        #expect(viaRaw == (try key.sign(digest, scheme: .rsaPKCS1v15(digest: .sha256, inputIsDigest: true))))
        #expect(
            try pub.verify(viaRaw, for: Data("abc".utf8), scheme: .rsaPKCS1v15(digest: .sha256, inputIsDigest: false)))
        #expect(try pub.verify(viaRaw, for: digestInfo, scheme: .rsaPKCS1v15Raw))
        let pss = try key.sign(digest, scheme: .rsaPSS(digest: .sha256, saltLength: 32, inputIsDigest: true))
        #expect(
            try pub.verify(
                pss, for: Data("abc".utf8), scheme: .rsaPSS(digest: .sha256, saltLength: 32, inputIsDigest: false)))
        #expect(
            try pub.verify(
                pss, for: Data("abc".utf8), scheme: .rsaPSS(digest: .sha256, saltLength: 20, inputIsDigest: false))
                == false)
    }

    @Test func ecdsaRawDigestAndP1363() throws {
        let key = try AsymmetricKey.generateEC(.p384)
        let pub = key.publicKey
        let longDigest = Digest.hash(.sha512, Data("m".utf8))  // longer than the order: OpenSSL truncates
        let der = try key.sign(longDigest, scheme: .ecdsaDER(digest: nil, inputIsDigest: true))
        #expect(try pub.verify(der, for: longDigest, scheme: .ecdsaDER(digest: nil, inputIsDigest: true)))
        let raw = try key.sign(Data("m".utf8), scheme: .ecdsaRaw(digest: .sha384, inputIsDigest: false))
        #expect(raw.count == 96)
        #expect(try pub.verify(raw, for: Data("m".utf8), scheme: .ecdsaRaw(digest: .sha384, inputIsDigest: false)))
        #expect(
            try pub.verify(
                raw.prefix(95), for: Data("m".utf8), scheme: .ecdsaRaw(digest: .sha384, inputIsDigest: false)) == false)
        #expect(
            try pub.verify(
                raw + Data([0]), for: Data("m".utf8), scheme: .ecdsaRaw(digest: .sha384, inputIsDigest: false)) == false
        )
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try key.sign(Data(), scheme: .ecdsaDER(digest: nil, inputIsDigest: false))
        }
        let other = try AsymmetricKey.generateEC(.p256)
        #expect(throws: CryptoError(.invalidParameter, "")) { try key.deriveSharedSecret(with: other.publicKey) }
        let a = try AsymmetricKey.generateEC(.p256)
        let b = try AsymmetricKey.generateEC(.p256)
        #expect(try a.deriveSharedSecret(with: b.publicKey) == b.deriveSharedSecret(with: a.publicKey))
    }

    @Test func encryptedPKCS8IterationCapAndRoundTrip() throws {
        let key = try AsymmetricKey.generateEC(.p256)
        let pass = Data("pw".utf8)
        let encrypted = try key.encryptedPKCS8DER(passphrase: pass, iterations: 2048)
        #expect(try AsymmetricKey(encryptedPKCS8: encrypted, passphrase: pass).isSamePublicKey(as: key))
        #expect(throws: CryptoError(.authenticationFailed, "")) {
            try AsymmetricKey(encryptedPKCS8: encrypted, passphrase: Data("x".utf8))
        }
        #expect(throws: CryptoError(.invalidKey, "")) { try AsymmetricKey(der: encrypted) }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try key.encryptedPKCS8DER(passphrase: pass, iterations: KDF.maximumIterations + 1)
        }
        for length in stride(from: 0, to: encrypted.count, by: 7) {
            #expect(throws: CryptoError.self) {
                try AsymmetricKey(encryptedPKCS8: encrypted.prefix(length), passphrase: pass)
            }
        }
    }
}
