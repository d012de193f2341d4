import Foundation
import OSecTestSupport
import Testing
@testable import OSecCrypto

private struct AEADGroup: Decodable {
    let ivSize: Int, keySize: Int, tagSize: Int
    let tests: [Vector]
    struct Vector: Decodable { let tcId: Int; let key, iv, aad, msg, ct, tag: String; let result: WycheproofResult }
}

private struct CipherGroup: Decodable {
    let tests: [Vector]
    struct Vector: Decodable { let tcId: Int; let key, iv, msg, ct: String; let result: WycheproofResult }
}

private struct MACGroup: Decodable {
    let tagSize: Int
    let tests: [Vector]
    struct Vector: Decodable { let tcId: Int; let key, msg, tag: String; let result: WycheproofResult }
}

private struct PBKDFGroup: Decodable {
    let tests: [Vector]
    struct Vector: Decodable {
        let tcId: Int; let password, salt, dk: String; let iterationCount, dkLen: Int; let result: WycheproofResult
    }
}

@Suite struct WycheproofSymmetricTests {
    @Test func aesGCM() throws {
        let file = try Wycheproof.load("aes_gcm_test.json", AEADGroup.self)
        var tally = WycheproofTally("aes_gcm_test.json")
        for group in file.testGroups {
            for t in group.tests {
                let key = Hex.data(t.key), iv = Hex.data(t.iv), aad = Hex.data(t.aad)
                let msg = Hex.data(t.msg), ct = Hex.data(t.ct), tag = Hex.data(t.tag)
                let opened = try? AESGCM.open(key: key, nonce: iv, ciphertext: ct, tag: tag, aad: aad)
                var accepted = opened == msg
                if accepted, t.result == .valid {
                    let sealed = try? AESGCM.seal(key: key, nonce: iv, plaintext: msg, aad: aad, tagLength: tag.count)
                    accepted = sealed?.ciphertext == ct && sealed?.tag == tag
                }
                tally.record(tcId: t.tcId, expected: t.result, accepted: accepted, succeeded: opened != nil)
            }
        }
        tally.finish(numberOfTests: file.numberOfTests)
    }

    @Test func aesCBCPKCS5() throws {
        let file = try Wycheproof.load("aes_cbc_pkcs5_test.json", CipherGroup.self)
        var tally = WycheproofTally("aes_cbc_pkcs5_test.json")
        for group in file.testGroups {
            for t in group.tests {
                let key = Hex.data(t.key), iv = Hex.data(t.iv), msg = Hex.data(t.msg), ct = Hex.data(t.ct)
                let cipher: BlockCipher? = switch key.count {
                case 16: .aes128CBC
                case 24: .aes192CBC
                case 32: .aes256CBC
                default: nil
                }
                guard let cipher else { tally.record(tcId: t.tcId, expected: t.result, accepted: false); continue }
                let decrypted = try? SymmetricCrypto.decrypt(cipher, key: key, iv: iv, ciphertext: ct)
                var accepted = decrypted == msg
                if accepted, t.result == .valid {
                    accepted = (try? SymmetricCrypto.encrypt(cipher, key: key, iv: iv, plaintext: msg)) == ct
                }
                tally.record(tcId: t.tcId, expected: t.result, accepted: accepted, succeeded: decrypted != nil)
            }
        }
        tally.finish(numberOfTests: file.numberOfTests)
    }

    @Test(arguments: Wycheproof.files("hmac_"))
    func hmac(_ name: String) throws {
        let file = try Wycheproof.load(name, MACGroup.self)
        let digest: DigestAlgorithm = try #require(
            [("sha1", DigestAlgorithm.sha1), ("sha256", .sha256), ("sha384", .sha384), ("sha512", .sha512)]
                .first(where: { name.contains("_\($0.0)_") })?.1)
        var tally = WycheproofTally(name)
        for group in file.testGroups {
            for t in group.tests {
                let mac = HMAC.authenticate(digest, key: Hex.data(t.key), data: Hex.data(t.msg))
                let expected = Hex.data(t.tag)
                let accepted = !expected.isEmpty && ConstantTime.equals(mac.prefix(group.tagSize / 8), expected)
                tally.record(tcId: t.tcId, expected: t.result, accepted: accepted)
            }
        }
        tally.finish(numberOfTests: file.numberOfTests)
    }

    @Test(arguments: Wycheproof.files("pbkdf2_"))
    func pbkdf2(_ name: String) throws {
        let file = try Wycheproof.load(name, PBKDFGroup.self)
        let digest: DigestAlgorithm = try #require(
            [("hmacsha1_", DigestAlgorithm.sha1), ("hmacsha256", .sha256), ("hmacsha512", .sha512)]
                .first(where: { name.contains($0.0) })?.1)
        var tally = WycheproofTally(name)
        for group in file.testGroups {
            for t in group.tests {
                let derived = try? KDF.pbkdf2(password: Hex.data(t.password), salt: Hex.data(t.salt),
                                              iterations: t.iterationCount, keyLength: t.dkLen, digest: digest)
                tally.record(tcId: t.tcId, expected: t.result, accepted: derived == Hex.data(t.dk),
                             succeeded: derived != nil)
            }
        }
        tally.finish(numberOfTests: file.numberOfTests)
    }
}
