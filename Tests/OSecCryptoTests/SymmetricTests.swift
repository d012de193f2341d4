import Foundation
import OSecTestSupport
import Testing

@testable import OSecCrypto

/// (cipher, `openssl enc` name, extra CLI arguments)
private let cliCiphers: [(BlockCipher, String, [String])] = [
    (.aes128CBC, "-aes-128-cbc", []), (.aes192CBC, "-aes-192-cbc", []), (.aes256CBC, "-aes-256-cbc", []),
    (.aes128CTR, "-aes-128-ctr", []), (.aes192CTR, "-aes-192-ctr", []), (.aes256CTR, "-aes-256-ctr", []),
    (.desEDE3CBC, "-des-ede3-cbc", []), (.desEDECBC, "-des-ede-cbc", []),
    (.desCBC, "-des-cbc", ["-provider", "legacy", "-provider", "default"]),
    (.rc2CBC(effectiveKeyBits: 40), "-rc2-40-cbc", ["-provider", "legacy", "-provider", "default"]),
    (.rc2CBC(effectiveKeyBits: 128), "-rc2-cbc", ["-provider", "legacy", "-provider", "default"]),
    (.rc4(keyBytes: 16), "-rc4", ["-provider", "legacy", "-provider", "default"]),
]

@Suite struct SymmetricTests {
    @Test(arguments: 0..<cliCiphers.count)
    func roundTripAndOpenSSLEnc(_ index: Int) throws {
        let (cipher, name, extra) = cliCiphers[index]
        let key = try SecureRandom.bytes(cipher.keySize)
        let iv = try SecureRandom.bytes(cipher.ivSize)
        for length in [0, 1, 15, 16, 17, 100] {
            let plaintext = try SecureRandom.bytes(length)
            let ciphertext = try SymmetricCrypto.encrypt(cipher, key: key, iv: iv, plaintext: plaintext)
            #expect(try SymmetricCrypto.decrypt(cipher, key: key, iv: iv, ciphertext: ciphertext) == plaintext)
            var args = ["enc", name, "-K", Hex.encode(key), "-nosalt"] + extra
            if cipher.ivSize > 0 { args += ["-iv", Hex.encode(iv)] }
            let cli = try OpenSSLCLI.check(args, stdin: plaintext)
            #expect(cli.stdout == ciphertext, "\(name) length \(length)")
            let back = try OpenSSLCLI.check(args + ["-d"], stdin: ciphertext)
            #expect(back.stdout == plaintext)
        }
    }

    @Test func noPaddingNeedsWholeBlocks() throws {
        let key = Data(count: 16)
        let iv = Data(count: 16)
        let block = try SymmetricCrypto.encrypt(
            .aes128CBC, key: key, iv: iv, plaintext: Data(count: 32), padding: false)
        #expect(block.count == 32)
        #expect(
            try SymmetricCrypto.decrypt(.aes128CBC, key: key, iv: iv, ciphertext: block, padding: false)
                == Data(count: 32))
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try SymmetricCrypto.encrypt(.aes128CBC, key: key, iv: iv, plaintext: Data(count: 17), padding: false)
        }
    }

    @Test func wrongSizesAndBadPadding() throws {
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try SymmetricCrypto.encrypt(.aes256CBC, key: Data(count: 16), iv: Data(count: 16), plaintext: Data())
        }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try SymmetricCrypto.encrypt(.aes256CBC, key: Data(count: 32), iv: Data(count: 8), plaintext: Data())
        }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try SymmetricCrypto.decrypt(
                .aes128CBC, key: Data(count: 16), iv: Data(count: 16), ciphertext: Data(count: 15))
        }
        // Decrypting with the wrong key almost always yields bad padding.
        let ciphertext = try SymmetricCrypto.encrypt(
            .aes128CBC, key: Data(count: 16), iv: Data(count: 16), plaintext: Data(count: 5))
        var wrongKey = Data(count: 16)
        wrongKey[0] = 1
        var failures = 0
        do {
            _ = try SymmetricCrypto.decrypt(.aes128CBC, key: wrongKey, iv: Data(count: 16), ciphertext: ciphertext)
        } catch {
            #expect(error.code == .decryptionFailed)
            failures += 1
        }
        #expect(failures == 1)
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try SymmetricCrypto.encrypt(
                .rc2CBC(effectiveKeyBits: 7), key: Data(), iv: Data(count: 8), plaintext: Data())
        }
    }

    @Test func aesGCMWithNoncesLongerThanOpenSSLsProviderTakes() throws {
        let key = Data(repeating: 7, count: 32)
        let aad = Data("header".utf8)
        let message = Data("long nonce message".utf8)
        for length in [129, 257, 1000] {
            let nonce = Data((0..<length).map { UInt8($0 & 0xFF) })
            let sealed = try AESGCM.seal(key: key, nonce: nonce, plaintext: message, aad: aad)
            #expect(sealed.ciphertext.count == message.count && sealed.tag.count == 16)
            #expect(
                try AESGCM.open(key: key, nonce: nonce, ciphertext: sealed.ciphertext, tag: sealed.tag, aad: aad)
                    == message)
            var badTag = sealed.tag
            badTag[0] ^= 1
            #expect(throws: CryptoError(.authenticationFailed, "")) {
                try AESGCM.open(key: key, nonce: nonce, ciphertext: sealed.ciphertext, tag: badTag, aad: aad)
            }
            var otherNonce = nonce
            otherNonce[length - 1] ^= 1
            #expect(throws: CryptoError(.authenticationFailed, "")) {
                try AESGCM.open(key: key, nonce: otherNonce, ciphertext: sealed.ciphertext, tag: sealed.tag, aad: aad)
            }
        }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try AESGCM.seal(key: key, nonce: Data(count: AESGCM.maximumLongNonceLength + 1), plaintext: message)
        }
    }

    /// The combined seal agrees with the two-part one for every size around the shim's pieces (empty, one
    /// byte, block edges, a `Data` slice that does not start at index 0) and refuses what the two-part one refuses.
    @Test func aesGCMSealCombinedMatchesSeal() throws {
        let key = try SecureRandom.bytes(32)
        let nonce = try SecureRandom.bytes(12)
        let aad = Data("merchant-42".utf8)
        let source = try SecureRandom.bytes(3 << 20)
        for length in [0, 1, 15, 16, 17, 1024, 32 * 1024 - 1, 32 * 1024, 32 * 1024 + 1, 1 << 20, (1 << 20) + 5] {
            let message = source.subdata(in: 0..<(length + 3))[3...]  // a slice whose indices start at 3
            let parts = try AESGCM.seal(key: key, nonce: nonce, plaintext: message, aad: aad)
            let combined = try AESGCM.sealCombined(key: key, nonce: nonce, plaintext: message, aad: aad)
            #expect(combined == [UInt8](parts.ciphertext + parts.tag), "length \(length)")
            #expect(try AESGCM.sealCombined(key: key, nonce: nonce, plaintext: [UInt8](message), aad: aad) == combined)
            let short = try AESGCM.sealCombined(key: key, nonce: nonce, plaintext: message, aad: aad, tagLength: 12)
            #expect(short == Array(combined.prefix(message.count + 12)))
        }
        let message = Data("attack at dawn".utf8)
        for (badKey, badNonce, tagLength) in [
            (Data(count: 20), nonce, 16), (key, Data(), 16), (key, nonce, 11), (key, nonce, 17),
            (key, Data(count: AESGCM.maximumLongNonceLength + 1), 16),
        ] {
            #expect(throws: CryptoError(.invalidParameter, "")) {
                try AESGCM.sealCombined(
                    key: badKey, nonce: badNonce, plaintext: message, aad: Data(), tagLength: tagLength)
            }
        }
    }

    @Test func aesGCMRoundTripAndErrors() throws {
        let key = try SecureRandom.bytes(32)
        let nonce = try SecureRandom.bytes(12)
        let aad = Data("header".utf8)
        let plaintext = Data("attack at dawn".utf8)
        let sealed = try AESGCM.seal(key: key, nonce: nonce, plaintext: plaintext, aad: aad)
        #expect(sealed.tag.count == 16)
        #expect(
            try AESGCM.open(key: key, nonce: nonce, ciphertext: sealed.ciphertext, tag: sealed.tag, aad: aad)
                == plaintext)
        var badTag = sealed.tag
        badTag[0] ^= 1
        #expect(throws: CryptoError(.authenticationFailed, "")) {
            try AESGCM.open(key: key, nonce: nonce, ciphertext: sealed.ciphertext, tag: badTag, aad: aad)
        }
        #expect(throws: CryptoError(.authenticationFailed, "")) {
            try AESGCM.open(key: key, nonce: nonce, ciphertext: sealed.ciphertext, tag: sealed.tag, aad: Data())
        }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try AESGCM.open(key: key, nonce: nonce, ciphertext: sealed.ciphertext, tag: sealed.tag.prefix(11), aad: aad)
        }
        let short = try AESGCM.seal(key: key, nonce: nonce, plaintext: plaintext, tagLength: 12)
        #expect(try AESGCM.open(key: key, nonce: nonce, ciphertext: short.ciphertext, tag: short.tag) == plaintext)
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try AESGCM.seal(key: key, nonce: Data(), plaintext: plaintext)
        }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try AESGCM.seal(key: Data(count: 20), nonce: nonce, plaintext: plaintext)
        }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try AESGCM.seal(key: key, nonce: nonce, plaintext: plaintext, tagLength: 8)
        }
        let odd = try AESGCM.seal(key: key, nonce: Data(count: 1), plaintext: plaintext)
        #expect(try AESGCM.open(key: key, nonce: Data(count: 1), ciphertext: odd.ciphertext, tag: odd.tag) == plaintext)
    }
}
