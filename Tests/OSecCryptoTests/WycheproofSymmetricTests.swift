import Foundation
import OSecTestSupport
import Testing

@testable import OSecCrypto

private struct AEADGroup: Decodable {
    let ivSize: Int, keySize: Int, tagSize: Int
    let tests: [Vector]
    struct Vector: Decodable {
        let tcId: Int
        let key, iv, aad, msg, ct, tag: String
        let result: WycheproofResult
    }
}

private struct CipherGroup: Decodable {
    let tests: [Vector]
    struct Vector: Decodable {
        let tcId: Int
        let key, iv, msg, ct: String
        let result: WycheproofResult
    }
}

private struct MACGroup: Decodable {
    let tagSize: Int
    let tests: [Vector]
    struct Vector: Decodable {
        let tcId: Int
        let key, msg, tag: String
        let result: WycheproofResult
    }
}

private struct PBKDFGroup: Decodable {
    let tests: [Vector]
    struct Vector: Decodable {
        let tcId: Int
        let password, salt, dk: String
        let iterationCount, dkLen: Int
        let result: WycheproofResult
    }
}

@Suite struct WycheproofSymmetricTests {
    @Test func aesGCM() throws {
        let file = try Wycheproof.load("aes_gcm_test.json", AEADGroup.self)
        var tally = WycheproofTally("aes_gcm_test.json")
        for group in file.testGroups {
            for t in group.tests {
                let key = Hex.data(t.key)
                let iv = Hex.data(t.iv)
                let aad = Hex.data(t.aad)
                let msg = Hex.data(t.msg)
                let ct = Hex.data(t.ct)
                let tag = Hex.data(t.tag)
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

    /// The combined seal (``AESGCM/sealCombined(key:nonce:plaintext:aad:tagLength:)``) on every vector: a valid
    /// one gives exactly ct ‖ tag, from a `Data` and from a byte array alike (every nonce length, 1 to 257 bytes);
    /// the empty-nonce vectors are refused.
    @Test func aesGCMSealCombined() throws {
        let file = try Wycheproof.load("aes_gcm_test.json", AEADGroup.self)
        var sealed = 0
        var refused = 0
        for group in file.testGroups {
            for t in group.tests {
                let key = Hex.data(t.key)
                let iv = Hex.data(t.iv)
                let aad = Hex.data(t.aad)
                let msg = Hex.data(t.msg)
                let expected = [UInt8](Hex.data(t.ct) + Hex.data(t.tag))
                if iv.isEmpty {
                    #expect(throws: CryptoError(.invalidParameter, "")) {
                        try AESGCM.sealCombined(key: key, nonce: iv, plaintext: msg, aad: aad)
                    }
                    refused += 1
                    continue
                }
                guard t.result == .valid else { continue }
                let fromData = try AESGCM.sealCombined(
                    key: key, nonce: iv, plaintext: msg, aad: aad, tagLength: group.tagSize / 8)
                let fromBytes = try AESGCM.sealCombined(
                    key: [UInt8](key), nonce: [UInt8](iv), plaintext: [UInt8](msg), aad: [UInt8](aad),
                    tagLength: group.tagSize / 8)
                #expect(fromData == expected, "tcId \(t.tcId) sealed differently")
                #expect(fromBytes == expected, "tcId \(t.tcId) sealed differently (bytes)")
                sealed += 1
            }
        }
        #expect(sealed == 229)  // every valid vector of aes_gcm_test.json
        #expect(refused == 6)
    }

    /// The prepared-key path (``AESGCMKey``) on every 12-byte-nonce vector, one key object per distinct key so
    /// that each is reused across many messages, valid and invalid interleaved.
    @Test func aesGCMPreparedKey() throws {
        let file = try Wycheproof.load("aes_gcm_test.json", AEADGroup.self)
        var keys: [Data: AESGCMKey] = [:]
        var checked = 0
        for group in file.testGroups where group.ivSize == 96 {
            for t in group.tests {
                let key = Hex.data(t.key)
                let iv = Hex.data(t.iv)
                let aad = Hex.data(t.aad)
                let msg = Hex.data(t.msg)
                let ct = Hex.data(t.ct)
                let tag = Hex.data(t.tag)
                let prepared: AESGCMKey
                if let existing = keys[key] {
                    prepared = existing
                } else {
                    prepared = try AESGCMKey(key: key)
                    keys[key] = prepared
                }
                let opened = try? prepared.open(nonce: iv, ciphertext: ct, tag: tag, aad: aad)
                if t.result == .invalid {
                    #expect(opened == nil, "tcId \(t.tcId) accepted")
                } else {
                    #expect(opened == msg, "tcId \(t.tcId) rejected")
                    let sealed = try prepared.seal(nonce: iv, plaintext: msg, aad: aad, tagLength: tag.count)
                    #expect(sealed.ciphertext == ct && sealed.tag == tag, "tcId \(t.tcId) sealed differently")
                }
                checked += 1
            }
        }
        #expect(checked == 197)  // every 12-byte-nonce vector in aes_gcm_test.json
        #expect(keys.count > 50)
    }

    @Test func aesGCMPreparedKeyRejectsOtherSizes() {
        #expect(throws: CryptoError.self) { try AESGCMKey(key: Data(count: 20)) }
        let key = try? AESGCMKey(key: Data(count: 32))
        #expect(throws: CryptoError.self) { try key?.seal(nonce: Data(count: 16), plaintext: Data([1]), aad: Data()) }
        #expect(throws: CryptoError.self) {
            try key?.open(nonce: Data(count: 12), ciphertext: Data([1]), tag: Data(count: 8), aad: Data())
        }
    }

    @Test func aesGCMPreparedKeyIsSafeAcrossThreads() async throws {
        let secret = try SecureRandom.bytes(32)
        let shared = try AESGCMKey(key: secret)
        let failures = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var failures = 0
                    for i in 0..<300 {
                        let nonce = Data((0..<12).map { UInt8(truncatingIfNeeded: worker &* 31 &+ i &* 7 &+ $0) })
                        let message = Data("worker \(worker) message \(i)".utf8)
                        guard
                            let sealed = try? shared.seal(nonce: nonce, plaintext: message, aad: Data([UInt8(worker)])),
                            let opened = try? shared.open(
                                nonce: nonce, ciphertext: sealed.ciphertext, tag: sealed.tag,
                                aad: Data([UInt8(worker)])),
                            opened == message,
                            (try? AESGCM.open(
                                key: secret, nonce: nonce, ciphertext: sealed.ciphertext, tag: sealed.tag,
                                aad: Data([UInt8(worker)]))) == message
                        else {
                            failures += 1
                            continue
                        }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
    }

    @Test func aesCBCPKCS5() throws {
        let file = try Wycheproof.load("aes_cbc_pkcs5_test.json", CipherGroup.self)
        var tally = WycheproofTally("aes_cbc_pkcs5_test.json")
        for group in file.testGroups {
            for t in group.tests {
                let key = Hex.data(t.key)
                let iv = Hex.data(t.iv)
                let msg = Hex.data(t.msg)
                let ct = Hex.data(t.ct)
                let cipher: BlockCipher? =
                    switch key.count {
                    case 16: .aes128CBC
                    case 24: .aes192CBC
                    case 32: .aes256CBC
                    default: nil
                    }
                guard let cipher else {
                    tally.record(tcId: t.tcId, expected: t.result, accepted: false)
                    continue
                }
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
                let derived = try? KDF.pbkdf2(
                    password: Hex.data(t.password), salt: Hex.data(t.salt),
                    iterations: t.iterationCount, keyLength: t.dkLen, digest: digest)
                tally.record(
                    tcId: t.tcId, expected: t.result, accepted: derived == Hex.data(t.dk),
                    succeeded: derived != nil)
            }
        }
        tally.finish(numberOfTests: file.numberOfTests)
    }
}
