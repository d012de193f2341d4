import CommonCrypto
import Foundation
import OSecTestSupport
import Testing

/// Known answers of FIPS 180-4 (NIST's example values) and RFC 1321 §A.5 through the CommonDigest API.
@Suite struct DigestVectorTests {
    static let msg448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
    static let msg896 =
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrst"
        + "nopqrstu"
    static let millionA = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)

    /// (message, SHA-1, SHA-224, SHA-256, SHA-384, SHA-512)
    static let fips180: [(Data, [String])] = [
        (
            Data(),
            [
                "da39a3ee5e6b4b0d3255bfef95601890afd80709",
                "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f",
                "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b",
                "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
                    + "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e",
            ]
        ),
        (
            Data("abc".utf8),
            [
                "a9993e364706816aba3e25717850c26c9cd0d89d",
                "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
                "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
                "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                    + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
            ]
        ),
        (
            Data(msg448.utf8),
            [
                "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
                "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
                "3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05abfe8f450de5f36bc6b0455a8520bc4e6f5fe95b1fe3c8452b",
                "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c335"
                    + "96fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445",
            ]
        ),
        (
            Data(msg896.utf8),
            [
                "a49b2446a02c645bf419f995b67091253a04a259",
                "c97ca9a559850ce97a04a96def6d99a9e0e0e2ab14e6b8df265fc0b3",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
                "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039",
                "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
                    + "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909",
            ]
        ),
        (
            millionA,
            [
                "34aa973cd4c4daa4f61eeb2bdbad27316534016f",
                "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67",
                "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
                "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985",
                "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
                    + "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b",
            ]
        ),
    ]

    @Test func oneShotDigestsMatchFIPS180() {
        for (message, expected) in Self.fips180 {
            #expect(CC.digest(CC_SHA1, length: CC_SHA1_DIGEST_LENGTH, message).hex == expected[0])
            #expect(CC.digest(CC_SHA224, length: CC_SHA224_DIGEST_LENGTH, message).hex == expected[1])
            #expect(CC.digest(CC_SHA256, length: CC_SHA256_DIGEST_LENGTH, message).hex == expected[2])
            #expect(CC.digest(CC_SHA384, length: CC_SHA384_DIGEST_LENGTH, message).hex == expected[3])
            #expect(CC.digest(CC_SHA512, length: CC_SHA512_DIGEST_LENGTH, message).hex == expected[4])
        }
    }

    @Test func incrementalDigestsMatchFIPS180InOddChunks() {
        for (message, expected) in Self.fips180 {
            for chunk in [1, 3, 63, 64, 65, 127, 4097] where chunk <= max(message.count, 1) {
                #expect(Streamed.sha1(message, chunk) == expected[0], "SHA-1 chunk \(chunk)")
                #expect(Streamed.sha224(message, chunk) == expected[1], "SHA-224 chunk \(chunk)")
                #expect(Streamed.sha256(message, chunk) == expected[2], "SHA-256 chunk \(chunk)")
                #expect(Streamed.sha384(message, chunk) == expected[3], "SHA-384 chunk \(chunk)")
                #expect(Streamed.sha512(message, chunk) == expected[4], "SHA-512 chunk \(chunk)")
                if message.count > 100_000 { break }  // one chunked pass over the million bytes is enough
            }
        }
    }

    /// RFC 1321 §A.5.
    @Test func md5MatchesRFC1321() {
        let suite: [(String, String)] = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
            (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
        ]
        let md5: any DeprecatedDigests = DeprecatedDigestCalls()
        for (text, expected) in suite {
            #expect(md5.md5(Data(text.utf8)).hex == expected)
            #expect(md5.md5Streamed(Data(text.utf8), chunk: 5).hex == expected)
        }
        #expect(CC_MD5_DIGEST_LENGTH == 16 && CC_MD5_BLOCK_BYTES == 64)
    }

    /// RFC 1320 §A.5 (MD4, through OpenSSL's legacy provider).
    @Test func md4MatchesRFC1320() {
        let suite: [(String, String)] = [
            ("", "31d6cfe0d16ae931b73c59d7e0c089c0"),
            ("a", "bde52cb31de33e46245e05fbdbd6fb24"),
            ("abc", "a448017aaf21d8525fc10ae87aa6729d"),
            ("message digest", "d9130a8164549fe818874806e1c7014b"),
            ("abcdefghijklmnopqrstuvwxyz", "d79e1c308aa5bbcdeea8ed63df412da9"),
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "043f8582f241db351ce627e153e7f0e4"),
            (String(repeating: "1234567890", count: 8), "e33b4ddc9c38f2199c3e7b164fcc0536"),
        ]
        let calls: any DeprecatedDigests = DeprecatedDigestCalls()
        for (text, expected) in suite {
            #expect(calls.md4(Data(text.utf8)).hex == expected)
            #expect(calls.md4Streamed(Data(text.utf8), chunk: 7).hex == expected)
        }
        #expect(CC_MD4_DIGEST_LENGTH == 16 && CC_MD4_BLOCK_BYTES == 64)
    }

    @Test func lengthsAreApples() {
        #expect([CC_SHA1_DIGEST_LENGTH, CC_SHA224_DIGEST_LENGTH, CC_SHA256_DIGEST_LENGTH] == [20, 28, 32])
        #expect([CC_SHA384_DIGEST_LENGTH, CC_SHA512_DIGEST_LENGTH] == [48, 64])
        #expect([CC_SHA1_BLOCK_BYTES, CC_SHA224_BLOCK_BYTES, CC_SHA256_BLOCK_BYTES] == [64, 64, 64])
        #expect([CC_SHA384_BLOCK_BYTES, CC_SHA512_BLOCK_BYTES] == [128, 128])
    }
}

/// Apple's edge cases of the CommonDigest functions.
@Suite struct DigestBehaviourTests {
    @Test func oneShotReturnsItsOutputPointerOrNil() {
        var out = [UInt8](repeating: 0, count: 32)
        let returned = out.withUnsafeMutableBufferPointer { buffer in
            CC_SHA256("abc", 3, buffer.baseAddress) == buffer.baseAddress
        }
        #expect(returned)
        #expect(CC_SHA256("abc", 3, nil) == nil)  // no output buffer
        #expect(CC_SHA256(nil, 3, &out) == nil)  // no input with a non-zero length
        #expect(CC_SHA256(nil, 0, &out) != nil)  // the empty message needs no input
        #expect(Data(out).hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func updateIgnoresNilDataAndZeroLength() {
        var ctx = CC_SHA256_CTX()
        #expect(CC_SHA256_Init(&ctx) == 1)
        #expect(CC_SHA256_Update(&ctx, nil, 10) == 1)
        #expect(CC_SHA256_Update(&ctx, "abc", 0) == 1)
        #expect(CC_SHA256_Update(&ctx, "abc", 3) == 1)
        var out = [UInt8](repeating: 0, count: 32)
        #expect(CC_SHA256_Final(&out, &ctx) == 1)
        #expect(Data(out).hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func finalWithoutOutputLeavesTheContextAlone() {
        var ctx = CC_SHA1_CTX()
        CC_SHA1_Init(&ctx)
        CC_SHA1_Update(&ctx, "ab", 2)
        #expect(CC_SHA1_Final(nil, &ctx) == 1)
        CC_SHA1_Update(&ctx, "c", 1)
        var out = [UInt8](repeating: 0, count: 20)
        CC_SHA1_Final(&out, &ctx)
        #expect(Data(out).hex == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }

    @Test func copiedContextsAreIndependent() {
        var ctx = CC_SHA512_CTX()
        CC_SHA512_Init(&ctx)
        CC_SHA512_Update(&ctx, "a", 1)
        var copy = ctx
        CC_SHA512_Update(&ctx, "bc", 2)
        CC_SHA512_Update(&copy, "bc", 2)
        CC_SHA512_Update(&copy, "d", 1)
        var first = [UInt8](repeating: 0, count: 64)
        var second = [UInt8](repeating: 0, count: 64)
        CC_SHA512_Final(&first, &ctx)
        CC_SHA512_Final(&second, &copy)
        #expect(Data(first) == CC.digest(CC_SHA512, length: 64, Data("abc".utf8)))
        #expect(Data(second) == CC.digest(CC_SHA512, length: 64, Data("abcd".utf8)))
    }

    @Test func sha224AndSha384ShareTheirBigSiblingsContexts() {
        var small = CC_SHA256_CTX()
        CC_SHA224_Init(&small)
        CC_SHA224_Update(&small, "abc", 3)
        var out224 = [UInt8](repeating: 0, count: 28)
        CC_SHA224_Final(&out224, &small)
        #expect(Data(out224).hex == "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7")
        var big = CC_SHA512_CTX()
        CC_SHA384_Init(&big)
        CC_SHA384_Update(&big, "abc", 3)
        var out384 = [UInt8](repeating: 0, count: 48)
        CC_SHA384_Final(&out384, &big)
        #expect(Data(out384) == CC.digest(CC_SHA384, length: 48, Data("abc".utf8)))
    }

    @Test func aFinalisedContextStartsOverOnTheNextUpdate() {
        var ctx = CC_SHA256_CTX()
        CC_SHA256_Init(&ctx)
        CC_SHA256_Update(&ctx, "xyz", 3)
        var out = [UInt8](repeating: 0, count: 32)
        CC_SHA256_Final(&out, &ctx)
        CC_SHA256_Update(&ctx, "abc", 3)
        CC_SHA256_Final(&out, &ctx)
        #expect(Data(out).hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func nilContextsFailWithoutCrashing() {
        #expect(CC_SHA256_Init(nil) == 0)
        #expect(CC_SHA256_Update(nil, "a", 1) == 0)
        var out = [UInt8](repeating: 0, count: 32)
        #expect(CC_SHA256_Final(&out, nil) == 0)
    }

    @Test func contextsDoNotPrintState() {
        var ctx = CC_SHA256_CTX()
        CC_SHA256_Init(&ctx)
        CC_SHA256_Update(&ctx, "secret", 6)
        #expect(String(describing: ctx) == "<digest context>")
    }

    @Test func digestsMatchOpenSSLDgst() throws {
        try #require(OpenSSLCLI.isAvailable)
        let message = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let cases: [(String, Data)] = [
            ("sha1", CC.digest(CC_SHA1, length: 20, message)),
            ("sha224", CC.digest(CC_SHA224, length: 28, message)),
            ("sha256", CC.digest(CC_SHA256, length: 32, message)),
            ("sha384", CC.digest(CC_SHA384, length: 48, message)),
            ("sha512", CC.digest(CC_SHA512, length: 64, message)),
            ("md5", (DeprecatedDigestCalls() as any DeprecatedDigests).md5(message)),
            ("md4", (DeprecatedDigestCalls() as any DeprecatedDigests).md4(message)),
        ]
        for (name, ours) in cases {
            let legacy = name == "md4" ? ["-provider", "legacy", "-provider", "default"] : []
            let result = try OpenSSLCLI.check(["dgst", "-\(name)", "-binary"] + legacy, stdin: message)
            #expect(result.stdout == ours, "\(name)")
        }
    }
}

/// The incremental functions over `chunk`-sized pieces, as hex.
enum Streamed {
    static func sha1(_ data: Data, _ chunk: Int) -> String {
        var ctx = CC_SHA1_CTX()
        CC_SHA1_Init(&ctx)
        feed(data, chunk) { CC_SHA1_Update(&ctx, $0, $1) }
        var out = [UInt8](repeating: 0, count: 20)
        CC_SHA1_Final(&out, &ctx)
        return Data(out).hex
    }

    static func sha224(_ data: Data, _ chunk: Int) -> String {
        var ctx = CC_SHA256_CTX()
        CC_SHA224_Init(&ctx)
        feed(data, chunk) { CC_SHA224_Update(&ctx, $0, $1) }
        var out = [UInt8](repeating: 0, count: 28)
        CC_SHA224_Final(&out, &ctx)
        return Data(out).hex
    }

    static func sha256(_ data: Data, _ chunk: Int) -> String {
        var ctx = CC_SHA256_CTX()
        CC_SHA256_Init(&ctx)
        feed(data, chunk) { CC_SHA256_Update(&ctx, $0, $1) }
        var out = [UInt8](repeating: 0, count: 32)
        CC_SHA256_Final(&out, &ctx)
        return Data(out).hex
    }

    static func sha384(_ data: Data, _ chunk: Int) -> String {
        var ctx = CC_SHA512_CTX()
        CC_SHA384_Init(&ctx)
        feed(data, chunk) { CC_SHA384_Update(&ctx, $0, $1) }
        var out = [UInt8](repeating: 0, count: 48)
        CC_SHA384_Final(&out, &ctx)
        return Data(out).hex
    }

    static func sha512(_ data: Data, _ chunk: Int) -> String {
        var ctx = CC_SHA512_CTX()
        CC_SHA512_Init(&ctx)
        feed(data, chunk) { CC_SHA512_Update(&ctx, $0, $1) }
        var out = [UInt8](repeating: 0, count: 64)
        CC_SHA512_Final(&out, &ctx)
        return Data(out).hex
    }

    /// Calls `update` with consecutive pieces of `data`.
    static func feed(_ data: Data, _ chunk: Int, _ update: (UnsafeRawPointer?, CC_LONG) -> Int32) {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let size = min(chunk, buffer.count - offset)
                _ = update(buffer.baseAddress?.advanced(by: offset), CC_LONG(size))
                offset += size
            }
        }
    }
}

/// Apple's deprecated MD5 functions, called through a protocol so these tests build without deprecation
/// warnings (the build treats warnings as errors).
protocol DeprecatedDigests {
    func md5(_ data: Data) -> Data
    func md5Streamed(_ data: Data, chunk: Int) -> Data
    func md4(_ data: Data) -> Data
    func md4Streamed(_ data: Data, chunk: Int) -> Data
}

struct DeprecatedDigestCalls: DeprecatedDigests {
    @available(*, deprecated)
    func md5(_ data: Data) -> Data { CC.digest(CC_MD5, length: CC_MD5_DIGEST_LENGTH, data) }

    @available(*, deprecated)
    func md5Streamed(_ data: Data, chunk: Int) -> Data {
        var ctx = CC_MD5_CTX()
        CC_MD5_Init(&ctx)
        Streamed.feed(data, chunk) { CC_MD5_Update(&ctx, $0, $1) }
        var out = [UInt8](repeating: 0, count: 16)
        CC_MD5_Final(&out, &ctx)
        return Data(out)
    }

    @available(*, deprecated)
    func md4(_ data: Data) -> Data { CC.digest(CC_MD4, length: CC_MD4_DIGEST_LENGTH, data) }

    @available(*, deprecated)
    func md4Streamed(_ data: Data, chunk: Int) -> Data {
        var ctx = CC_MD4_CTX()
        CC_MD4_Init(&ctx)
        Streamed.feed(data, chunk) { CC_MD4_Update(&ctx, $0, $1) }
        var out = [UInt8](repeating: 0, count: 16)
        CC_MD4_Final(&out, &ctx)
        return Data(out)
    }
}
