import CommonCrypto
import Foundation
import OSecTestSupport
import Testing

/// CCKeyDerivationPBKDF on Data.
func pbkdf2(_ password: Data, _ salt: Data, prf: Int, rounds: UInt32, length: Int) -> (Int32, Data) {
    var key = [UInt8](repeating: 0, count: max(length, 1))
    // A NUL-terminated copy, so an empty password still has a pointer (as a Swift String argument has).
    let characters = password.map { CChar(bitPattern: $0) } + [0]
    let status = characters.withUnsafeBufferPointer { passwordBytes in
        salt.withUnsafeBytes { saltBytes in
            CCKeyDerivationPBKDF(
                CCPBKDFAlgorithm(kCCPBKDF2), passwordBytes.baseAddress, password.count,
                saltBytes.bindMemory(to: UInt8.self).baseAddress, salt.count, CCPseudoRandomAlgorithm(prf), rounds,
                &key, length)
        }
    }
    return (status, Data(key.prefix(length)))
}

@Suite struct KeyDerivationTests {
    /// RFC 6070 (PBKDF2-HMAC-SHA1); the 16,777,216-round case runs in the Wycheproof file below.
    @Test func pbkdf2MatchesRFC6070() {
        let cases: [(String, String, UInt32, Int, String)] = [
            ("password", "salt", 1, 20, "0c60c80f961f0e71f3a9b524af6012062fe037a6"),
            ("password", "salt", 2, 20, "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"),
            ("password", "salt", 4096, 20, "4b007901b765489abead49d926f721d065a429c1"),
            (
                "passwordPASSWORDpassword", "saltSALTsaltSALTsaltSALTsaltSALTsalt", 4096, 25,
                "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038"
            ),
            ("pass\0word", "sa\0lt", 4096, 16, "56fa6aa75548099dcc37d7f03425e0c3"),
        ]
        for (password, salt, rounds, length, expected) in cases {
            let (status, key) = pbkdf2(
                Data(password.utf8), Data(salt.utf8), prf: kCCPRFHmacAlgSHA1, rounds: rounds, length: length)
            #expect(Int(status) == kCCSuccess)
            #expect(key.hex == expected)
        }
    }

    /// PBKDF2-HMAC-SHA256 (RFC 7914 §11, the PBKDF2 vectors of scrypt's specification).
    @Test func pbkdf2SHA256MatchesRFC7914() {
        let (status, key) = pbkdf2(
            Data("passwd".utf8), Data("salt".utf8), prf: kCCPRFHmacAlgSHA256, rounds: 1, length: 64)
        #expect(Int(status) == kCCSuccess)
        #expect(
            key.hex
                == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
                + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
    }

    /// Every vector of Wycheproof's pbkdf2_hmacsha1/256/512 files.
    @Test(arguments: [
        ("pbkdf2_hmacsha1_test.json", kCCPRFHmacAlgSHA1), ("pbkdf2_hmacsha256_test.json", kCCPRFHmacAlgSHA256),
        ("pbkdf2_hmacsha512_test.json", kCCPRFHmacAlgSHA512),
    ])
    func wycheproofVectors(_ file: String, _ prf: Int) throws {
        struct Vector: Decodable {
            let tcId: Int
            let password, salt, dk: String
            let iterationCount, dkLen: Int
            let result: WycheproofResult
        }
        struct Group: Decodable { let tests: [Vector] }
        let vectors = try wycheproof(file, Group.self)
        var tally = Tally(file)
        for vector in vectors.testGroups.flatMap(\.tests) {
            let (status, key) = pbkdf2(
                Data(hex: vector.password), Data(hex: vector.salt), prf: prf, rounds: UInt32(vector.iterationCount),
                length: vector.dkLen)
            let ok = Int(status) == kCCSuccess && key == Data(hex: vector.dk)
            tally.record(vector.tcId, vector.result, ok: vector.result == .valid ? ok : !ok)
        }
        tally.finish(numberOfTests: vectors.numberOfTests)
    }

    @Test func sha224AndSha384PseudoRandomFunctionsWork() {
        // Cross-checked with `openssl kdf -keylen 32 -kdfopt digest:SHA224 … PBKDF2` in the interop test below.
        let (status224, key224) = pbkdf2(
            Data("password".utf8), Data("salt".utf8), prf: kCCPRFHmacAlgSHA224, rounds: 2, length: 32)
        let (status384, key384) = pbkdf2(
            Data("password".utf8), Data("salt".utf8), prf: kCCPRFHmacAlgSHA384, rounds: 2, length: 32)
        #expect(Int(status224) == kCCSuccess && Int(status384) == kCCSuccess && key224 != key384)
    }

    @Test func matchesOpenSSLKDF() throws {
        try #require(OpenSSLCLI.isAvailable)
        for (prf, name) in [
            (kCCPRFHmacAlgSHA1, "SHA1"), (kCCPRFHmacAlgSHA224, "SHA224"), (kCCPRFHmacAlgSHA256, "SHA256"),
            (kCCPRFHmacAlgSHA384, "SHA384"), (kCCPRFHmacAlgSHA512, "SHA512"),
        ] {
            let (_, ours) = pbkdf2(Data("pässword".utf8), Data("NaCl".utf8), prf: prf, rounds: 1000, length: 40)
            let result = try OpenSSLCLI.check([
                "kdf", "-keylen", "40", "-kdfopt", "digest:\(name)", "-kdfopt", "pass:pässword", "-kdfopt", "salt:NaCl",
                "-kdfopt", "iter:1000", "-binary", "PBKDF2",
            ])
            #expect(result.stdout == ours, "\(name)")
        }
    }

    @Test func badParametersAreParamErrors() {
        let param = Int32(kCCParamError)
        var key = [UInt8](repeating: 0, count: 16)
        #expect(
            CCKeyDerivationPBKDF(1, "pw", 2, [1], 1, CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA1), 1, &key, 16) == param)
        #expect(CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), "pw", 2, [1], 1, 0, 1, &key, 16) == param)
        #expect(CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), "pw", 2, [1], 1, 6, 1, &key, 16) == param)
        let sha1 = CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA1)
        #expect(CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), "pw", 2, [1], 1, sha1, 0, &key, 16) == param)
        #expect(CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), nil, 0, [1], 1, sha1, 1, &key, 16) == param)
        #expect(CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), "pw", 2, nil, 1, sha1, 1, &key, 16) == param)
        #expect(CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), "pw", 2, [1], 1, sha1, 1, nil, 16) == param)
        #expect(CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), "pw", 2, [1], 1, sha1, 1, &key, 0) == param)
        // An empty salt may be nil; an empty password is fine when the pointer is not nil.
        #expect(CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), "", 0, nil, 0, sha1, 1, &key, 16) == 0)
    }

    @Test func calibrationFollowsApplesRules() {
        let sha256 = CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256)
        let rounds = CCCalibratePBKDF(CCPBKDFAlgorithm(kCCPBKDF2), 8, 16, sha256, 32, 10)
        #expect(rounds >= 10_000 && rounds != .max)
        #expect(CCCalibratePBKDF(CCPBKDFAlgorithm(kCCPBKDF2), 8, 133, sha256, 32, 100) == .max)
        #expect(CCCalibratePBKDF(CCPBKDFAlgorithm(kCCPBKDF2), 8, 16, sha256, 0, 100) == .max)
        #expect(CCCalibratePBKDF(7, 8, 16, sha256, 32, 100) == .max)
        #expect(CCCalibratePBKDF(CCPBKDFAlgorithm(kCCPBKDF2), 8, 16, 9, 32, 100) == .max)
    }
}

@Suite struct RandomTests {
    @Test func fillsBuffers() {
        var first = [UInt8](repeating: 0, count: 64)
        var second = [UInt8](repeating: 0, count: 64)
        #expect(Int(CCRandomGenerateBytes(&first, 64)) == kCCSuccess)
        #expect(Int(CCRandomGenerateBytes(&second, 64)) == kCCSuccess)
        #expect(first != second && first != [UInt8](repeating: 0, count: 64))
        // Every byte value shows up in 64 KiB (the chance that one is missing is about 256·e^-256).
        var large = [UInt8](repeating: 0, count: 65_536)
        #expect(Int(CCRandomGenerateBytes(&large, large.count)) == kCCSuccess)
        #expect(Set(large).count == 256)
    }

    @Test func edgeCasesAreApples() {
        #expect(Int(CCRandomGenerateBytes(nil, 0)) == kCCSuccess)
        #expect(Int(CCRandomGenerateBytes(nil, 16)) == kCCParamError)
        var one: UInt8 = 0
        #expect(Int(CCRandomGenerateBytes(&one, 1)) == kCCSuccess)
    }
}

/// RFC 3394 §4 through CCSymmetricKeyWrap / CCSymmetricKeyUnwrap.
@Suite struct KeyWrapTests {
    static let kek = Data((0..<32).map { UInt8($0) })
    static let keyData = Data(hex: "00112233445566778899aabbccddeeff000102030405060708090a0b0c0d0e0f")

    static let rfc3394: [(kek: Int, key: Int, wrapped: String)] = [
        (16, 16, "1fa68b0a8112b447 aef34bd8fb5a7b82 9d3e862371d2cfe5"),
        (24, 16, "96778b25ae6ca435 f92b5b97c050aed2 468ab8a17ad84e5d"),
        (32, 16, "64e8c3f9ce0f5ba2 63e9777905818a2a 93c8191e7d6e8ae7"),
        (24, 24, "031d33264e15d332 68f24ec260743edc e1c6c7ddee725a93 6ba814915c6762d2"),
        (32, 24, "a8f9bc1612c68b3f f6e6f4fbe30e71e4 769c8b80a32cb895 8cd5d17d6b254da1"),
        (32, 32, "28c9f404c4b810f4 cbccb35cfb87f826 3f5786e2d80ed326 cbc7f0e71a99f43b fb988b9b7a02dd21"),
    ]

    static func wrap(
        _ key: Data, kek: Data, iv: UnsafePointer<UInt8>? = CCrfc3394_iv, ivLength: Int = CCrfc3394_ivLen,
        room: Int? = nil
    ) -> (Int32, Data, Int) {
        var length = room ?? CCSymmetricWrappedSize(CCWrappingAlgorithm(kCCWRAPAES), key.count)
        var out = [UInt8](repeating: 0, count: max(length, 1))
        let status = kek.withUnsafeBytes { kekBytes in
            key.withUnsafeBytes { keyBytes in
                CCSymmetricKeyWrap(
                    CCWrappingAlgorithm(kCCWRAPAES), iv, ivLength, kekBytes.bindMemory(to: UInt8.self).baseAddress,
                    kek.count, keyBytes.bindMemory(to: UInt8.self).baseAddress, key.count, &out, &length)
            }
        }
        return (status, Data(out.prefix(length)), length)
    }

    static func unwrap(
        _ wrapped: Data, kek: Data, iv: UnsafePointer<UInt8>? = CCrfc3394_iv, ivLength: Int = CCrfc3394_ivLen
    ) -> (Int32, Data) {
        var length = CCSymmetricUnwrappedSize(CCWrappingAlgorithm(kCCWRAPAES), wrapped.count)
        var out = [UInt8](repeating: 0, count: max(length, 1))
        let status = kek.withUnsafeBytes { kekBytes in
            wrapped.withUnsafeBytes { wrappedBytes in
                CCSymmetricKeyUnwrap(
                    CCWrappingAlgorithm(kCCWRAPAES), iv, ivLength, kekBytes.bindMemory(to: UInt8.self).baseAddress,
                    kek.count, wrappedBytes.bindMemory(to: UInt8.self).baseAddress, wrapped.count, &out, &length)
            }
        }
        return (status, Data(out.prefix(length)))
    }

    @Test func wrapAndUnwrapMatchRFC3394() {
        for vector in Self.rfc3394 {
            let kek = Self.kek.prefix(vector.kek)
            let key = Self.keyData.prefix(vector.key)
            let (status, wrapped, length) = Self.wrap(key, kek: kek)
            #expect(status == 0 && length == vector.key + 8)
            #expect(wrapped.hex == Data(hex: vector.wrapped).hex, "KEK \(vector.kek * 8), key \(vector.key * 8)")
            let (unwrapStatus, unwrapped) = Self.unwrap(Data(hex: vector.wrapped), kek: kek)
            #expect(unwrapStatus == 0 && unwrapped == key)
            // A nil IV is the RFC 3394 default.
            #expect(Self.wrap(key, kek: kek, iv: nil).1 == wrapped)
            #expect(Self.unwrap(wrapped, kek: kek, iv: nil).1 == key)
        }
        #expect(CCrfc3394_ivLen == 8)
        #expect((0..<8).allSatisfy { CCrfc3394_iv[$0] == 0xa6 })
    }

    @Test func tamperedOrWronglyKeyedDataIsADecodeError() {
        let (_, wrapped, _) = Self.wrap(Self.keyData.prefix(16), kek: Self.kek.prefix(16))
        for index in wrapped.indices {
            var tampered = wrapped
            tampered[index] ^= 0x01
            #expect(Self.unwrap(tampered, kek: Self.kek.prefix(16)).0 == Int32(kCCDecodeError))
        }
        #expect(Self.unwrap(wrapped, kek: Data(count: 16)).0 == Int32(kCCDecodeError))
        #expect(Self.unwrap(wrapped.prefix(16), kek: Self.kek.prefix(16)).0 == Int32(kCCDecodeError))
        #expect(Self.unwrap(wrapped + Data(count: 3), kek: Self.kek.prefix(16)).0 == Int32(kCCDecodeError))
    }

    @Test func aCustomIVIsCheckedThenTheDefault() {
        let iv: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let key = Self.keyData.prefix(24)
        let kek = Self.kek.prefix(32)
        let custom = iv.withUnsafeBufferPointer { Self.wrap(key, kek: kek, iv: $0.baseAddress, ivLength: 8) }
        #expect(custom.0 == 0 && custom.1 != Self.wrap(key, kek: kek).1)
        #expect(
            iv.withUnsafeBufferPointer { Self.unwrap(custom.1, kek: kek, iv: $0.baseAddress, ivLength: 8) }.1 == key)
        #expect(Self.unwrap(custom.1, kek: kek).0 == Int32(kCCDecodeError))
        // Apple's unwrap falls back to the default IV when the given one does not match.
        let other: [UInt8] = [9, 9, 9, 9, 9, 9, 9, 9]
        let standard = Self.wrap(key, kek: kek).1
        #expect(
            other.withUnsafeBufferPointer { Self.unwrap(standard, kek: kek, iv: $0.baseAddress, ivLength: 8) }.1 == key)
    }

    @Test func badParametersAreParamErrors() {
        let param = Int32(kCCParamError)
        let key = Self.keyData.prefix(16)
        #expect(Self.wrap(key, kek: Self.kek.prefix(20)).0 == param)
        #expect(Self.wrap(key.prefix(8), kek: Self.kek.prefix(16)).0 == param)  // RFC 3394 needs two semiblocks
        #expect(Self.wrap(Self.keyData.prefix(20), kek: Self.kek.prefix(16)).0 == param)  // not whole semiblocks
        let short = Self.wrap(key, kek: Self.kek.prefix(16), room: 23)
        #expect(short.0 == param && short.2 == 0)
        #expect(Self.wrap(key, kek: Self.kek.prefix(16), ivLength: 7).0 == param)
        #expect(Self.unwrap(Data(count: 24), kek: Self.kek.prefix(15)).0 == param)
        #expect(CCSymmetricWrappedSize(CCWrappingAlgorithm(kCCWRAPAES), 16) == 24)
        #expect(CCSymmetricUnwrappedSize(CCWrappingAlgorithm(kCCWRAPAES), 24) == 16)
        #expect(CCSymmetricUnwrappedSize(CCWrappingAlgorithm(kCCWRAPAES), 4) == 0)
    }
}
