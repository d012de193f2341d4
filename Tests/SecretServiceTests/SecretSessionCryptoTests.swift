import Foundation
import OSecCrypto
import Testing

/// The `dh-ietf1024-sha256-aes128-cbc-pkcs7` building blocks: RFC 2409's 1024-bit MODP group through OpenSSL.
struct SecretSessionCryptoTests {
    /// RFC 2409 section 6.2, the second Oakley group's prime (big-endian).
    static let prime: [UInt8] = {
        let hex = """
            FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD\
            EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED\
            EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF
            """
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }()

    @Test func bothSidesAgreeOnAPaddedSecret() throws {
        for _ in 0..<20 {
            let a = try ModPDiffieHellman()
            let b = try ModPDiffieHellman()
            #expect(a.publicValue.count == 128)
            let ab = try a.sharedSecret(withPeer: b.publicValue)
            #expect(ab.count == 128)
            #expect(ab == (try b.sharedSecret(withPeer: a.publicValue)))
            // Clients send the minimal big-endian form: leading zero bytes dropped.
            let trimmed = Data(b.publicValue.drop { $0 == 0 })
            #expect(try a.sharedSecret(withPeer: trimmed) == ab)
        }
    }

    @Test func degeneratePublicValuesAreRefused() throws {
        let a = try ModPDiffieHellman()
        var pMinusOne = Self.prime
        pMinusOne[pMinusOne.count - 1] -= 1
        var pPlusOne = Self.prime
        pPlusOne[pPlusOne.count - 1] = 0  // 0xFF…FF + 1 would carry; p with its last byte cleared is < p: use p itself
        let refused: [Data] = [
            Data(), Data([0]), Data([1]), Data(repeating: 0, count: 128), Data([0, 1]), Data(pMinusOne),
            Data(Self.prime), Data(repeating: 0xFF, count: 128), Data(repeating: 2, count: 129),
        ]
        for value in refused {
            #expect(throws: CryptoError.self) { try a.sharedSecret(withPeer: value) }
        }
        #expect(try a.sharedSecret(withPeer: Data([2])).count == 128)
        #expect(try a.sharedSecret(withPeer: Data(pPlusOne)).count == 128)
    }

    @Test func hkdfMatchesRFC5869TestCase3() throws {
        // RFC 5869 A.3: SHA-256, 22 bytes of 0x0b, empty salt and info, L = 42.
        let okm = try KDF.hkdf(secret: Data(repeating: 0x0B, count: 22), keyLength: 42, digest: .sha256)
        let expected =
            "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8b7c0e0cd"
        #expect(okm.map { String(format: "%02x", $0) }.joined() == String(expected.prefix(84)))
    }
}
