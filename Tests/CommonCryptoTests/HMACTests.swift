import CommonCrypto
import Foundation
import OSecTestSupport
import Testing

@Suite struct HMACVectorTests {
    struct Case {
        let key: Data
        let data: Data
        /// SHA-224, SHA-256, SHA-384, SHA-512 MACs (hex).
        let macs: [String]
        /// Compare only this many leading bytes (RFC 4231 test case 5 truncates to 128 bits).
        var truncated: Int? = nil
    }

    static let largeKey = Data(repeating: 0xaa, count: 131)

    /// RFC 4231 §4.2–4.8.
    static let rfc4231: [Case] = [
        Case(
            key: Data(repeating: 0x0b, count: 20), data: Data("Hi There".utf8),
            macs: [
                "896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22",
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
                "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6",
                "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
                    + "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854",
            ]),
        Case(
            key: Data("Jefe".utf8), data: Data("what do ya want for nothing?".utf8),
            macs: [
                "a30e01098bc6dbbf45690f3a7e9e6d0f8bbea2a39e6148008fd05e44",
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
                "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649",
                "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
                    + "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
            ]),
        Case(
            key: Data(repeating: 0xaa, count: 20), data: Data(repeating: 0xdd, count: 50),
            macs: [
                "7fb3cb3588c6c1f6ffa9694d7d6ad2649365b0c1f65d69d1ec8333ea",
                "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
                "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b2a5ab39dc13814b94e3ab6e101a34f27",
                "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39"
                    + "bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb",
            ]),
        Case(
            key: Data((1...25).map { UInt8($0) }), data: Data(repeating: 0xcd, count: 50),
            macs: [
                "6c11506874013cac6a2abc1bb382627cec6a90d86efc012de7afec5a",
                "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
                "3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e6801dd23c4a7d679ccf8a386c674cffb",
                "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3db"
                    + "a91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd",
            ]),
        Case(
            key: Data(repeating: 0x0c, count: 20), data: Data("Test With Truncation".utf8),
            macs: [
                "0e2aea68a90c8d37c988bcdb9fca6fa8", "a3b6167473100ee06e0c796c2955552b",
                "3abf34c3503b2a23a46efc619baef897", "415fad6271580a531d4179bc891d87a6",
            ], truncated: 16),
        Case(
            key: largeKey, data: Data("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            macs: [
                "95e9a0db962095adaebe9b2d6f0dbce2d499f112f2d2b7273fa6870e",
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
                "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952",
                "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
                    + "6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598",
            ]),
        Case(
            key: largeKey,
            data: Data(
                ("This is a test using a larger than block-size key and a larger than block-size data. The key needs "
                    + "to be hashed before being used by the HMAC algorithm.").utf8),
            macs: [
                "3a854166ac5d9f023f54d517d0b39dbd946770db9c2b95c9f6f565d1",
                "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
                "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5a678cc31e799176d3860e6110c46523e",
                "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944"
                    + "b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58",
            ]),
    ]

    static let sha2Algorithms = [
        (kCCHmacAlgSHA224, 28), (kCCHmacAlgSHA256, 32), (kCCHmacAlgSHA384, 48), (kCCHmacAlgSHA512, 64),
    ]

    @Test func oneShotMatchesRFC4231() {
        for (number, test) in Self.rfc4231.enumerated() {
            for ((algorithm, length), expected) in zip(Self.sha2Algorithms, test.macs) {
                let mac = CC.hmac(algorithm, key: test.key, test.data, length: length)
                #expect(mac.prefix(test.truncated ?? length).hex == expected, "case \(number + 1), \(length * 8)")
            }
        }
    }

    @Test func incrementalMatchesRFC4231InOddChunks() {
        for (number, test) in Self.rfc4231.enumerated() {
            for ((algorithm, length), expected) in zip(Self.sha2Algorithms, test.macs) {
                for chunk in [1, 7, 64, 200] {
                    let mac = Self.streamed(algorithm, key: test.key, test.data, chunk: chunk, length: length)
                    #expect(mac.prefix(test.truncated ?? length).hex == expected, "case \(number + 1), chunk \(chunk)")
                }
            }
        }
    }

    /// RFC 2202 §2 (HMAC-MD5) and §3 (HMAC-SHA-1), test cases 1, 2, 3, 6 and 7.
    @Test func md5AndSha1MatchRFC2202() {
        let block80 = Data(repeating: 0xaa, count: 80)
        let md5Cases: [(Data, Data, String)] = [
            (Data(repeating: 0x0b, count: 16), Data("Hi There".utf8), "9294727a3638bb1c13f48ef8158bfc9d"),
            (Data("Jefe".utf8), Data("what do ya want for nothing?".utf8), "750c783e6ab0b503eaa86e310a5db738"),
            (Data(repeating: 0xaa, count: 16), Data(repeating: 0xdd, count: 50), "56be34521d144c88dbb8c733f0e8b3f6"),
            (
                block80, Data("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                "6b1ab7fe4bd7bf8f0b62e6ce61b9d0cd"
            ),
            (
                block80, Data("Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data".utf8),
                "6f630fad67cda0ee1fb1f562db3aa53e"
            ),
        ]
        let sha1Cases: [(Data, Data, String)] = [
            (Data(repeating: 0x0b, count: 20), Data("Hi There".utf8), "b617318655057264e28bc0b6fb378c8ef146be00"),
            (Data("Jefe".utf8), Data("what do ya want for nothing?".utf8), "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
            (
                Data(repeating: 0xaa, count: 20), Data(repeating: 0xdd, count: 50),
                "125d7342b9ac11cd91a39af48aa17b4f63f175d3"
            ),
            (
                block80, Data("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                "aa4ae5e15272d00e95705637ce8a3b55ed402112"
            ),
            (
                block80, Data("Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data".utf8),
                "e8e99d0f45237d786d6bbaa7965c7808bbff1a91"
            ),
        ]
        for (key, data, expected) in md5Cases {
            #expect(CC.hmac(kCCHmacAlgMD5, key: key, data, length: 16).hex == expected)
            #expect(Self.streamed(kCCHmacAlgMD5, key: key, data, chunk: 3, length: 16).hex == expected)
        }
        for (key, data, expected) in sha1Cases {
            #expect(CC.hmac(kCCHmacAlgSHA1, key: key, data, length: 20).hex == expected)
            #expect(Self.streamed(kCCHmacAlgSHA1, key: key, data, chunk: 3, length: 20).hex == expected)
        }
    }

    /// Every vector of Wycheproof's hmac_sha1/256/384/512 files through CCHmac and CCHmacInit/Update/Final
    /// (tags shorter than the MAC are its leading bytes).
    @Test(arguments: [
        ("hmac_sha1_test.json", kCCHmacAlgSHA1, 20), ("hmac_sha256_test.json", kCCHmacAlgSHA256, 32),
        ("hmac_sha384_test.json", kCCHmacAlgSHA384, 48), ("hmac_sha512_test.json", kCCHmacAlgSHA512, 64),
    ])
    func wycheproofVectors(_ file: String, _ algorithm: Int, _ length: Int) throws {
        struct Vector: Decodable {
            let tcId: Int
            let key, msg, tag: String
            let result: WycheproofResult
        }
        struct Group: Decodable {
            let tagSize: Int
            let tests: [Vector]
        }
        let vectors = try wycheproof(file, Group.self)
        var tally = Tally(file)
        for group in vectors.testGroups {
            for vector in group.tests {
                let key = Data(hex: vector.key)
                let message = Data(hex: vector.msg)
                let tag = Data(hex: vector.tag)
                let oneShot = CC.hmac(algorithm, key: key, message, length: length).prefix(group.tagSize / 8)
                let streamed = Self.streamed(algorithm, key: key, message, chunk: 13, length: length)
                    .prefix(group.tagSize / 8)
                let matches = oneShot == tag && streamed == tag
                tally.record(vector.tcId, vector.result, ok: vector.result == .valid ? matches : oneShot != tag)
            }
        }
        tally.finish(numberOfTests: vectors.numberOfTests)
    }

    static func streamed(_ algorithm: Int, key: Data, _ data: Data, chunk: Int, length: Int) -> Data {
        var context = CCHmacContext()
        key.withUnsafeBytes { CCHmacInit(&context, CCHmacAlgorithm(algorithm), $0.baseAddress, key.count) }
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let size = min(chunk, buffer.count - offset)
                CCHmacUpdate(&context, buffer.baseAddress?.advanced(by: offset), size)
                offset += size
            }
        }
        var mac = [UInt8](repeating: 0, count: length)
        CCHmacFinal(&context, &mac)
        return Data(mac)
    }
}

@Suite struct HMACBehaviourTests {
    @Test func selectorsAreApples() {
        #expect([kCCHmacAlgSHA1, kCCHmacAlgMD5, kCCHmacAlgSHA256, kCCHmacAlgSHA384, kCCHmacAlgSHA512] == [Int](0...4))
        #expect(kCCHmacAlgSHA224 == 5 && CC_HMAC_CONTEXT_SIZE == 96)
    }

    @Test func emptyKeyAndMessageWork() {
        // HMAC-SHA256 with an empty key over an empty message (computed by openssl too, below).
        let mac = CC.hmac(kCCHmacAlgSHA256, key: Data(), Data(), length: 32)
        #expect(mac.hex == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
        var zero = [UInt8](repeating: 0, count: 32)
        CCHmac(CCHmacAlgorithm(kCCHmacAlgSHA256), nil, 0, nil, 0, &zero)
        #expect(Data(zero) == mac)
    }

    @Test func unknownAlgorithmWritesNothing() {
        var mac = [UInt8](repeating: 0x5a, count: 64)
        CCHmac(CCHmacAlgorithm(99), "key", 3, "data", 4, &mac)
        #expect(mac.allSatisfy { $0 == 0x5a })
        var context = CCHmacContext()
        CCHmacInit(&context, CCHmacAlgorithm(99), "key", 3)
        CCHmacUpdate(&context, "data", 4)
        CCHmacFinal(&context, &mac)
        #expect(mac.allSatisfy { $0 == 0x5a })
    }

    @Test func copiedContextsAreIndependent() {
        var context = CCHmacContext()
        CCHmacInit(&context, CCHmacAlgorithm(kCCHmacAlgSHA256), "key", 3)
        CCHmacUpdate(&context, "ab", 2)
        var copy = context
        CCHmacUpdate(&copy, "c", 1)
        var first = [UInt8](repeating: 0, count: 32)
        var second = [UInt8](repeating: 0, count: 32)
        CCHmacFinal(&context, &first)
        CCHmacFinal(&copy, &second)
        #expect(Data(first) == CC.hmac(kCCHmacAlgSHA256, key: Data("key".utf8), Data("ab".utf8), length: 32))
        #expect(Data(second) == CC.hmac(kCCHmacAlgSHA256, key: Data("key".utf8), Data("abc".utf8), length: 32))
    }

    @Test func aFinalisedContextWritesNothingUntilReinitialised() {
        var context = CCHmacContext()
        CCHmacInit(&context, CCHmacAlgorithm(kCCHmacAlgSHA1), "k", 1)
        var mac = [UInt8](repeating: 0, count: 20)
        CCHmacFinal(&context, &mac)
        var again = [UInt8](repeating: 0x77, count: 20)
        CCHmacFinal(&context, &again)
        #expect(again.allSatisfy { $0 == 0x77 })
        #expect(String(describing: context) == "<HMAC context>")
    }

    @Test func macsMatchOpenSSL() throws {
        try #require(OpenSSLCLI.isAvailable)
        let key = Data((0..<37).map { UInt8($0 * 5 % 256) })
        let message = Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        for (algorithm, name, length) in [
            (kCCHmacAlgSHA1, "SHA1", 20), (kCCHmacAlgMD5, "MD5", 16), (kCCHmacAlgSHA224, "SHA224", 28),
            (kCCHmacAlgSHA256, "SHA256", 32), (kCCHmacAlgSHA384, "SHA384", 48), (kCCHmacAlgSHA512, "SHA512", 64),
        ] {
            let result = try OpenSSLCLI.check(
                ["mac", "-digest", name, "-macopt", "hexkey:\(key.hex)", "-binary", "HMAC"], stdin: message)
            #expect(result.stdout == CC.hmac(algorithm, key: key, message, length: length), "\(name)")
        }
    }
}
