import CommonCrypto
import Foundation
import Testing

// MD2 against RFC 1319's test suite, and the digest/HMAC contexts used the way wrapper libraries use them:
// allocated by the caller (uninitialised memory), copied by value to read an intermediate digest.

/// RFC 1319 (B. Kaliski, "The MD2 Message-Digest Algorithm", April 1992), Appendix A.5 "Test suite": the
/// inputs and the MD2 digests the RFC gives for them, copied unchanged.
private let rfc1319TestSuite: [(String, String)] = [
    ("", "8350e5a3e24c153df2275c9f80692773"),
    ("a", "32ec01ec4a6dac72c0ab96fb34c0b5d1"),
    ("abc", "da853b0d3f88d99b30283a69e6ded6bb"),
    ("message digest", "ab4f496bfb2a530b219ff33031fe06b0"),
    ("abcdefghijklmnopqrstuvwxyz", "4e8ddff3650292ab5a4108c3aa47940b"),
    ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "da33def2a42df13975352846c30338cd"),
    (
        "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
        "d5976f79d83d3a0dc9806c3c66f3efd8"
    ),
]

private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

@Suite("MD2 (RFC 1319) and caller-allocated contexts")
struct MD2AndContextTests {
    @Test("CC_MD2 matches RFC 1319's test suite", arguments: rfc1319TestSuite.indices)
    @available(*, deprecated)
    func md2OneShot(_ index: Int) {
        let (input, expected) = rfc1319TestSuite[index]
        let bytes = [UInt8](input.utf8)
        var digest = [UInt8](repeating: 0, count: Int(CC_MD2_DIGEST_LENGTH))
        #expect(CC_MD2(bytes, CC_LONG(bytes.count), &digest) != nil)
        #expect(hex(digest) == expected)
    }

    @Test("CC_MD2_Init/Update/Final in pieces of every size matches the one-shot")
    @available(*, deprecated)
    func md2Incremental() {
        let bytes = [UInt8](rfc1319TestSuite[6].0.utf8)
        for piece in 1...bytes.count {
            var context = CC_MD2_CTX()
            #expect(CC_MD2_Init(&context) == 1)
            var start = 0
            while start < bytes.count {
                let end = min(start + piece, bytes.count)
                let slice = Array(bytes[start..<end])
                #expect(CC_MD2_Update(&context, slice, CC_LONG(slice.count)) == 1)
                start = end
            }
            var digest = [UInt8](repeating: 0, count: 16)
            #expect(CC_MD2_Final(&digest, &context) == 1)
            #expect(hex(digest) == rfc1319TestSuite[6].1, "pieces of \(piece)")
        }
    }

    @Test("MD2's sizes and context fields have Apple's values and types")
    @available(*, deprecated)
    func md2Declarations() {
        #expect(CC_MD2_DIGEST_LENGTH == 16)
        #expect(CC_MD2_BLOCK_BYTES == 64)
        let context = CC_MD2state_st()
        #expect(context.num == 0)
        #expect(context.data.0 == 0 && context.cksm.15 == 0 && context.state.0 == 0)
    }

    @Test("A caller-allocated, uninitialised CC_SHA256_CTX works (the IDZSwiftCommonCrypto pattern)")
    func allocatedDigestContext() {
        let context = UnsafeMutablePointer<CC_SHA256_CTX>.allocate(capacity: 1)
        defer { context.deallocate() }
        // Fill the memory with garbage first, as a reused heap block may hold.
        let raw = UnsafeMutableRawPointer(context)
        for offset in 0..<MemoryLayout<CC_SHA256_CTX>.size {
            raw.storeBytes(of: 0xA5, toByteOffset: offset, as: UInt8.self)
        }
        #expect(CC_SHA256_Init(context) == 1)
        let abc = [UInt8]("abc".utf8)
        #expect(CC_SHA256_Update(context, abc, 3) == 1)
        var digest = [UInt8](repeating: 0, count: 32)
        #expect(CC_SHA256_Final(&digest, context) == 1)
        #expect(hex(digest) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("Copying a digest context copies the computation (an intermediate digest)")
    func copiedDigestContext() {
        var context = CC_SHA1_CTX()
        CC_SHA1_Init(&context)
        CC_SHA1_Update(&context, [UInt8]("ab".utf8), 2)
        var copy = context
        var intermediate = [UInt8](repeating: 0, count: 20)
        CC_SHA1_Final(&intermediate, &copy)
        #expect(hex(intermediate) == "da23614e02469a0d7c7bd1bdab5c9c474b1904dc")  // SHA-1("ab")
        CC_SHA1_Update(&context, [UInt8]("c".utf8), 1)
        var full = [UInt8](repeating: 0, count: 20)
        CC_SHA1_Final(&full, &context)
        #expect(hex(full) == "a9993e364706816aba3e25717850c26c9cd0d89d")  // SHA-1("abc")
    }

    @Test("A caller-allocated, uninitialised CCHmacContext works")
    func allocatedHMACContext() {
        let context = UnsafeMutablePointer<CCHmacContext>.allocate(capacity: 1)
        defer { context.deallocate() }
        let raw = UnsafeMutableRawPointer(context)
        for offset in 0..<MemoryLayout<CCHmacContext>.size {
            raw.storeBytes(of: 0x5A, toByteOffset: offset, as: UInt8.self)
        }
        // RFC 4231 test case 2.
        let key = [UInt8]("Jefe".utf8)
        let data = [UInt8]("what do ya want for nothing?".utf8)
        CCHmacInit(context, CCHmacAlgorithm(kCCHmacAlgSHA256), key, key.count)
        CCHmacUpdate(context, data, data.count)
        var mac = [UInt8](repeating: 0, count: 32)
        CCHmacFinal(context, &mac)
        #expect(hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test("Apple's context fields and memberwise initialisers exist with Apple's types")
    func contextFields() {
        var md5 = CC_MD5_CTX(
            A: 1, B: 2, C: 3, D: 4, Nl: 5, Nh: 6, data: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), num: 7)
        #expect(md5.A == 1 && md5.num == 7)
        md5.B = 9
        #expect(md5.B == 9)
        let sha256 = CC_SHA256_CTX()
        #expect(sha256.count.0 == 0 && sha256.hash.7 == 0 && sha256.wbuf.15 == 0)
        let sha512 = CC_SHA512_CTX()
        #expect(sha512.count.1 == 0 && sha512.hash.0 == 0 && sha512.wbuf.0 == 0)
        let hmac = CCHmacContext()
        #expect(hmac.ctx.95 == 0)
    }
}

@Suite("CCCryptorGCM (deprecated one-shot)")
struct LegacyGCMOneShotTests {
    // NIST GCM test case 4 (McGrew & Viega, "The Galois/Counter Mode of Operation", Appendix B): AES-128, 96-bit
    // IV, 20 bytes of AAD, 60 bytes of plaintext.
    let key = Data(hex: "feffe9928665731c6d6a8f9467308308")
    let iv = Data(hex: "cafebabefacedbaddecaf888")
    let aad = Data(hex: "feedfacedeadbeeffeedfacedeadbeefabaddad2")
    let plaintext = Data(
        hex: "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
            + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
    let ciphertext = Data(
        hex: "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
            + "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091")
    let tag = Data(hex: "5bc94fbc3221a5db94fae95ae7121a47")

    @available(*, deprecated)
    func run(_ op: Int, _ input: Data, tagIn: [UInt8]) -> (CCCryptorStatus, Data, [UInt8]) {
        var output = [UInt8](repeating: 0, count: input.count)
        var tagBuffer = tagIn
        var tagLength = tagBuffer.count
        let status = CCCryptorGCM(
            CCOperation(op), CCAlgorithm(kCCAlgorithmAES), [UInt8](key), key.count, [UInt8](iv), iv.count,
            [UInt8](aad), aad.count, [UInt8](input), input.count, &output, &tagBuffer, &tagLength)
        return (status, Data(output), tagBuffer)
    }

    @Test("Encrypting gives the ciphertext and the tag")
    @available(*, deprecated)
    func encrypt() {
        let (status, output, tagOut) = run(kCCEncrypt, plaintext, tagIn: [UInt8](repeating: 0, count: 16))
        #expect(status == kCCSuccess)
        #expect(output == ciphertext)
        #expect(Data(tagOut) == tag)
    }

    @Test("Decrypting writes the computed tag and checks nothing, as Apple's (the caller compares)")
    @available(*, deprecated)
    func decrypt() {
        let (status, output, tagOut) = run(kCCDecrypt, ciphertext, tagIn: [UInt8](repeating: 0, count: 16))
        #expect(status == kCCSuccess)
        #expect(output == plaintext)
        #expect(Data(tagOut) == tag)
        // A tampered ciphertext: still success, but the computed tag differs from the real one.
        var tampered = ciphertext
        tampered[0] ^= 1
        let (again, _, tampredTag) = run(kCCDecrypt, tampered, tagIn: [UInt8](tag))
        #expect(again == kCCSuccess)
        #expect(Data(tampredTag) != tag)
    }

    @Test("Bad parameters: Apple's status, nothing written")
    @available(*, deprecated)
    func badParameters() {
        var output = [UInt8](repeating: 0, count: 4)
        var tagBuffer = [UInt8](repeating: 0, count: 16)
        var tagLength = 16
        #expect(
            CCCryptorGCM(
                CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), [UInt8](repeating: 0, count: 15), 15,
                [UInt8](iv), 12, nil, 0, [UInt8](repeating: 1, count: 4), 4, &output, &tagBuffer, &tagLength)
                == kCCKeySizeError)
        #expect(
            CCCryptorGCM(
                CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmDES), [UInt8](key), 16, [UInt8](iv), 12, nil, 0,
                [UInt8](repeating: 1, count: 4), 4, &output, &tagBuffer, &tagLength) == kCCParamError)
        tagLength = 17
        #expect(
            CCCryptorGCM(
                CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), [UInt8](key), 16, [UInt8](iv), 12, nil, 0,
                [UInt8](repeating: 1, count: 4), 4, &output, &tagBuffer, &tagLength) == kCCParamError)
        #expect(output == [0, 0, 0, 0] && tagBuffer.allSatisfy { $0 == 0 })
    }
}

@Suite("CCCryptorGCMFinal on a decryption (Apple's legacy sequence)")
struct LegacyGCMFinalTests {
    // NIST GCM test case 4, as in LegacyGCMOneShotTests.
    let key = [UInt8](Data(hex: "feffe9928665731c6d6a8f9467308308"))
    let iv = [UInt8](Data(hex: "cafebabefacedbaddecaf888"))
    let aad = [UInt8](Data(hex: "feedfacedeadbeeffeedfacedeadbeefabaddad2"))
    let plaintext = Data(
        hex: "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
            + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
    let ciphertext = Data(
        hex: "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
            + "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091")
    let tag = Data(hex: "5bc94fbc3221a5db94fae95ae7121a47")

    /// AddIV (in two pieces), AddAAD, Decrypt in two pieces, Final: the aws-sdk-cpp / matoya sequence.
    @available(*, deprecated)
    func legacyDecrypt(_ input: Data, tagBuffer: [UInt8]) -> (CCCryptorStatus, Data, [UInt8]) {
        var cryptor: CCCryptorRef?
        _ = CCCryptorCreateWithMode(
            CCOperation(kCCDecrypt), CCMode(kCCModeGCM), CCAlgorithm(kCCAlgorithmAES), CCPadding(ccNoPadding), nil,
            key, key.count, nil, 0, 0, 0, &cryptor)
        defer { CCCryptorRelease(cryptor) }
        _ = CCCryptorGCMAddIV(cryptor, Array(iv.prefix(4)), 4)
        _ = CCCryptorGCMAddIV(cryptor, Array(iv.dropFirst(4)), iv.count - 4)
        _ = CCCryptorGCMAddAAD(cryptor, aad, aad.count)
        let bytes = [UInt8](input)
        var output = [UInt8](repeating: 0, count: bytes.count)
        _ = CCCryptorGCMDecrypt(cryptor, Array(bytes.prefix(20)), 20, &output)
        var rest = [UInt8](repeating: 0, count: bytes.count - 20)
        _ = CCCryptorGCMDecrypt(cryptor, Array(bytes.dropFirst(20)), bytes.count - 20, &rest)
        output.replaceSubrange(20..., with: rest)
        var tagOut = tagBuffer
        var tagLength = tagOut.count
        let status = CCCryptorGCMFinal(cryptor, &tagOut, &tagLength)
        return (status, Data(output), tagOut)
    }

    @Test("The computed tag comes back, whatever the buffer held; the caller compares")
    @available(*, deprecated)
    func computedTag() {
        let (status, output, tagOut) = legacyDecrypt(ciphertext, tagBuffer: [UInt8](repeating: 0, count: 16))
        #expect(status == kCCSuccess)
        #expect(output == plaintext)
        #expect(Data(tagOut) == tag)
        var tampered = ciphertext
        tampered[3] ^= 0x40
        let (again, _, tamperedTag) = legacyDecrypt(tampered, tagBuffer: [UInt8](tag))
        #expect(again == kCCSuccess)
        #expect(Data(tamperedTag) != tag)
    }

    @Test("With the IV set by CCCryptorGCMSetIV, CCCryptorGCMFinal checks the tag")
    @available(*, deprecated)
    func setIVChecks() {
        var cryptor: CCCryptorRef?
        _ = CCCryptorCreateWithMode(
            CCOperation(kCCDecrypt), CCMode(kCCModeGCM), CCAlgorithm(kCCAlgorithmAES), CCPadding(ccNoPadding), nil,
            key, key.count, nil, 0, 0, 0, &cryptor)
        defer { CCCryptorRelease(cryptor) }
        #expect(CCCryptorGCMSetIV(cryptor, iv, iv.count) == kCCSuccess)
        #expect(CCCryptorGCMAddAAD(cryptor, aad, aad.count) == kCCSuccess)
        var output = [UInt8](repeating: 0, count: ciphertext.count)
        #expect(CCCryptorGCMDecrypt(cryptor, [UInt8](ciphertext), ciphertext.count, &output) == kCCSuccess)
        var wrong = [UInt8](repeating: 0, count: 16)
        var length = 16
        #expect(CCCryptorGCMFinal(cryptor, &wrong, &length) == kCCUnspecifiedError)
    }
}
