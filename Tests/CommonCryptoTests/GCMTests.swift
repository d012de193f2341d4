import CommonCrypto
import Foundation
import OSecCrypto
import Testing

/// The AES-GCM one-shots of Apple's CommonCryptorSPI.h: Wycheproof and the GCM specification's vectors through
/// the API, Apple's parameter checks in Apple's order, tag truncation, in-place use and the failure contract.
@Suite struct GCMTests {
    /// The result of one call: status, output bytes and tag (the output buffers as they are after the call).
    struct Sealed {
        let status: Int
        let output: Data
        let tag: Data
    }

    /// CCCryptorGCMOneshotEncrypt on Data; a nil argument passes a nil pointer. `outputRoom` sizes the output
    /// buffer (filled with 0xEE first, so tests can see what was written).
    static func encrypt(
        alg: Int = kCCAlgorithmAES, key: Data?, iv: Data?, aad: Data? = nil, _ plaintext: Data?,
        tagLength: Int = 16, lengths: (key: Int?, iv: Int?, aad: Int?, data: Int?) = (nil, nil, nil, nil),
        nilOutput: Bool = false, nilTag: Bool = false
    ) -> Sealed {
        let dataLength = lengths.data ?? plaintext?.count ?? 0
        var output = Data(repeating: 0xEE, count: max(dataLength, 1))
        var tag = Data(repeating: 0xEE, count: max(tagLength, 1))
        let status = withBytes(key) { k in
            withBytes(iv) { i in
                withBytes(aad) { a in
                    withBytes(plaintext) { p in
                        output.withUnsafeMutableBytes { o in
                            tag.withUnsafeMutableBytes { t in
                                CCCryptorGCMOneshotEncrypt(
                                    CCAlgorithm(alg), k, lengths.key ?? key?.count ?? 0, i,
                                    lengths.iv ?? iv?.count ?? 0,
                                    a, lengths.aad ?? aad?.count ?? 0, p, dataLength, nilOutput ? nil : o.baseAddress,
                                    nilTag ? nil : t.baseAddress, tagLength)
                            }
                        }
                    }
                }
            }
        }
        return Sealed(status: Int(status), output: output.prefix(dataLength), tag: tag.prefix(tagLength))
    }

    /// CCCryptorGCMOneshotDecrypt on Data, the same way.
    static func decrypt(
        alg: Int = kCCAlgorithmAES, key: Data?, iv: Data?, aad: Data? = nil, _ ciphertext: Data?, tag: Data?,
        tagLength: Int? = nil, dataLength: Int? = nil, nilOutput: Bool = false
    ) -> (status: Int, output: Data) {
        let length = dataLength ?? ciphertext?.count ?? 0
        var output = Data(repeating: 0xEE, count: max(length, 1))
        let status = withBytes(key) { k in
            withBytes(iv) { i in
                withBytes(aad) { a in
                    withBytes(ciphertext) { c in
                        withBytes(tag) { t in
                            output.withUnsafeMutableBytes { o in
                                CCCryptorGCMOneshotDecrypt(
                                    CCAlgorithm(alg), k, key?.count ?? 0, i, iv?.count ?? 0, a, aad?.count ?? 0, c,
                                    length, nilOutput ? nil : o.baseAddress, t, tagLength ?? tag?.count ?? 0)
                            }
                        }
                    }
                }
            }
        }
        return (Int(status), output.prefix(length))
    }

    /// A pointer to `data`'s bytes (a non-nil pointer even for empty data, as C callers pass), or nil.
    static func withBytes<R>(_ data: Data?, _ body: (UnsafeRawPointer?) -> R) -> R {
        guard let data else { return body(nil) }
        if data.isEmpty { return [UInt8(0)].withUnsafeBytes { body($0.baseAddress) } }
        return data.withUnsafeBytes { body($0.baseAddress) }
    }

    static let key = Data(hex: "feffe9928665731c6d6a8f9467308308")
    static let iv = Data(hex: "cafebabefacedbaddecaf888")
    static let message = Data("the one-shot GCM of CommonCryptorSPI.h".utf8)

    // MARK: Vectors

    struct GCMGroup: Decodable {
        let ivSize: Int
        let keySize: Int
        let tagSize: Int
        let tests: [GCMVector]
    }

    struct GCMVector: Decodable {
        let tcId: Int
        let key: String
        let iv: String
        let aad: String
        let msg: String
        let ct: String
        let tag: String
        let result: WycheproofResult
    }

    /// Every Wycheproof AES-GCM vector (IVs of 0 to 257 bytes, 128- to 256-bit keys). IVs under 12 bytes are a
    /// parameter error in Apple's one-shots, whatever the vector's verdict; the rest must match exactly, and
    /// every invalid vector must fail to decrypt with its output zeroed.
    @Test func wycheproofAESGCMThroughTheOneShots() throws {
        let file = try wycheproof("aes_gcm_test.json", GCMGroup.self)
        var tally = Tally("aes_gcm_test.json")
        var rejectedShortIV = 0
        for group in file.testGroups {
            for vector in group.tests {
                let key = Data(hex: vector.key)
                let iv = Data(hex: vector.iv)
                let aad = Data(hex: vector.aad)
                let msg = Data(hex: vector.msg)
                let ct = Data(hex: vector.ct)
                let tag = Data(hex: vector.tag)
                let opened = Self.decrypt(key: key, iv: iv, aad: aad, ct, tag: tag)
                if iv.count < 12 {
                    let sealed = Self.encrypt(key: key, iv: iv, aad: aad, msg, tagLength: tag.count)
                    let rejected = sealed.status == kCCParamError && opened.status == kCCParamError
                    if rejected { rejectedShortIV += 1 }
                    tally.record(vector.tcId, .valid, ok: rejected)
                    continue
                }
                switch vector.result {
                case .valid, .acceptable:
                    let sealed = Self.encrypt(key: key, iv: iv, aad: aad, msg, tagLength: tag.count)
                    let ok =
                        sealed.status == kCCSuccess && sealed.output == ct && sealed.tag == tag
                        && opened.status == kCCSuccess && opened.output == msg
                    tally.record(vector.tcId, vector.result, ok: ok)
                case .invalid:
                    let ok = opened.status == kCCUnspecifiedError && opened.output.allSatisfy { $0 == 0 }
                    tally.record(vector.tcId, vector.result, ok: ok)
                }
            }
        }
        tally.finish(numberOfTests: file.numberOfTests)
        #expect(rejectedShortIV > 0)
    }

    /// Test cases 1–4 of McGrew and Viega, "The Galois/Counter Mode of Operation" (the GCM specification).
    @Test func gcmSpecificationVectors() {
        let zeroKey = Data(count: 16)
        let zeroIV = Data(count: 12)
        let one = Self.encrypt(key: zeroKey, iv: zeroIV, Data())
        #expect(one.status == kCCSuccess)
        #expect(one.tag.hex == "58e2fccefa7e3061367f1d57a4e7455a")
        let two = Self.encrypt(key: zeroKey, iv: zeroIV, Data(count: 16))
        #expect(two.output.hex == "0388dace60b6a392f328c2b971b2fe78")
        #expect(two.tag.hex == "ab6e47d42cec13bdf53a67b21257bddf")
        let plaintext = Data(
            hex: "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525"
                + "b16aedf5aa0de657ba637b391aafd255")
        let three = Self.encrypt(key: Self.key, iv: Self.iv, plaintext)
        #expect(
            three.output.hex
                == "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa05"
                + "1ba30b396a0aac973d58e091473f5985")
        #expect(three.tag.hex == "4d5c2af327cd64a62cf35abd2ba6fab4")
        let aad = Data(hex: "feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let four = Self.encrypt(key: Self.key, iv: Self.iv, aad: aad, plaintext.prefix(60))
        #expect(
            four.output.hex
                == "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa05"
                + "1ba30b396a0aac973d58e091")
        #expect(four.tag.hex == "5bc94fbc3221a5db94fae95ae7121a47")
        let opened = Self.decrypt(key: Self.key, iv: Self.iv, aad: aad, four.output, tag: four.tag)
        #expect(opened.status == kCCSuccess)
        #expect(opened.output == plaintext.prefix(60))
    }

    // MARK: Tags

    /// A tag of 8 to 16 bytes is the leading bytes of the full tag (SP 800-38D §7.1 MSB_t), and decrypts.
    @Test func shortTagsAreThePrefixOfTheFullTagAndOpen() {
        let full = Self.encrypt(key: Self.key, iv: Self.iv, Self.message)
        #expect(full.status == kCCSuccess)
        for length in 8...16 {
            let sealed = Self.encrypt(key: Self.key, iv: Self.iv, Self.message, tagLength: length)
            #expect(sealed.status == kCCSuccess)
            #expect(sealed.output == full.output)
            #expect(sealed.tag == full.tag.prefix(length), "tag length \(length)")
            let opened = Self.decrypt(key: Self.key, iv: Self.iv, sealed.output, tag: sealed.tag)
            #expect(opened.status == kCCSuccess)
            #expect(opened.output == Self.message)
        }
    }

    /// Tags of 0 to 7 and over 16 bytes are parameter errors in both directions, with nothing written.
    @Test func tagLengthsOutsideEightToSixteenAreParameterErrors() {
        for length in [0, 1, 4, 7, 17, 32] {
            let sealed = Self.encrypt(key: Self.key, iv: Self.iv, Self.message, tagLength: length)
            #expect(sealed.status == kCCParamError, "tag length \(length)")
            #expect(sealed.output.allSatisfy { $0 == 0xEE })
            let opened = Self.decrypt(
                key: Self.key, iv: Self.iv, Self.message, tag: Data(count: max(length, 1)), tagLength: length)
            #expect(opened.status == kCCParamError, "tag length \(length)")
            #expect(opened.output.allSatisfy { $0 == 0xEE })
        }
    }

    /// Any change to the key, IV, additional data, ciphertext or tag fails with Apple's kCCUnspecifiedError and
    /// zeroes the output.
    @Test func anyAlterationFailsAndZeroesTheOutput() {
        let aad = Data("header".utf8)
        let sealed = Self.encrypt(key: Self.key, iv: Self.iv, aad: aad, Self.message)
        #expect(sealed.status == kCCSuccess)
        func flipped(_ data: Data, at index: Int) -> Data {
            var copy = data
            copy[copy.startIndex + index] ^= 0x01
            return copy
        }
        let attempts: [(String, (status: Int, output: Data))] = [
            ("key", Self.decrypt(key: flipped(Self.key, at: 3), iv: Self.iv, aad: aad, sealed.output, tag: sealed.tag)),
            ("iv", Self.decrypt(key: Self.key, iv: flipped(Self.iv, at: 11), aad: aad, sealed.output, tag: sealed.tag)),
            ("aad", Self.decrypt(key: Self.key, iv: Self.iv, aad: flipped(aad, at: 0), sealed.output, tag: sealed.tag)),
            ("no aad", Self.decrypt(key: Self.key, iv: Self.iv, sealed.output, tag: sealed.tag)),
            (
                "ciphertext",
                Self.decrypt(key: Self.key, iv: Self.iv, aad: aad, flipped(sealed.output, at: 5), tag: sealed.tag)
            ),
            (
                "tag",
                Self.decrypt(key: Self.key, iv: Self.iv, aad: aad, sealed.output, tag: flipped(sealed.tag, at: 15))
            ),
            (
                "truncated ciphertext",
                Self.decrypt(key: Self.key, iv: Self.iv, aad: aad, sealed.output.dropLast(), tag: sealed.tag)
            ),
        ]
        for (name, opened) in attempts {
            #expect(opened.status == kCCUnspecifiedError, "altered \(name)")
            #expect(opened.output.allSatisfy { $0 == 0 }, "altered \(name): output not zeroed")
        }
    }

    // MARK: Apple's parameter checks

    /// Apple's order: the algorithm first (kCCParamError), then the key length (kCCKeySizeError), then the IV
    /// length, tag length and pointers (kCCParamError). Nothing is written on any of them.
    @Test func parameterChecksFollowApplesOrder() {
        let cases: [(String, Sealed, Int)] = [
            ("DES", Self.encrypt(alg: kCCAlgorithmDES, key: Self.key, iv: Self.iv, Self.message), kCCParamError),
            (
                "3DES with a bad key length",
                Self.encrypt(alg: kCCAlgorithm3DES, key: Data(count: 20), iv: Data(count: 4), Self.message),
                kCCParamError
            ),
            ("20-byte key", Self.encrypt(key: Data(count: 20), iv: Self.iv, Self.message), kCCKeySizeError),
            ("0-byte key", Self.encrypt(key: Data(), iv: Self.iv, Self.message), kCCKeySizeError),
            (
                "bad key length and short IV", Self.encrypt(key: Data(count: 8), iv: Data(count: 4), Self.message),
                kCCKeySizeError
            ),
            ("11-byte IV", Self.encrypt(key: Self.key, iv: Data(count: 11), Self.message), kCCParamError),
            ("0-byte IV", Self.encrypt(key: Self.key, iv: Data(), Self.message), kCCParamError),
            ("nil key", Self.encrypt(key: nil, iv: Self.iv, Self.message, lengths: (16, nil, nil, nil)), kCCParamError),
            ("nil IV", Self.encrypt(key: Self.key, iv: nil, Self.message, lengths: (nil, 12, nil, nil)), kCCParamError),
            ("nil tag", Self.encrypt(key: Self.key, iv: Self.iv, Self.message, nilTag: true), kCCParamError),
            ("nil output", Self.encrypt(key: Self.key, iv: Self.iv, Self.message, nilOutput: true), kCCParamError),
            (
                "nil input with a length",
                Self.encrypt(key: Self.key, iv: Self.iv, nil, lengths: (nil, nil, nil, 16)), kCCParamError
            ),
            (
                "nil additional data with a length",
                Self.encrypt(key: Self.key, iv: Self.iv, aad: nil, Self.message, lengths: (nil, nil, 4, nil)),
                kCCParamError
            ),
        ]
        for (name, sealed, expected) in cases {
            #expect(sealed.status == expected, "\(name)")
            #expect(sealed.output.allSatisfy { $0 == 0xEE }, "\(name): output written")
            #expect(sealed.tag.allSatisfy { $0 == 0xEE }, "\(name): tag written")
        }
        let tag = Data(count: 16)
        #expect(
            Self.decrypt(alg: kCCAlgorithmRC4, key: Self.key, iv: Self.iv, Self.message, tag: tag).status
                == kCCParamError)
        #expect(Self.decrypt(key: Data(count: 31), iv: Self.iv, Self.message, tag: tag).status == kCCKeySizeError)
        #expect(Self.decrypt(key: Self.key, iv: Data(count: 8), Self.message, tag: tag).status == kCCParamError)
        #expect(Self.decrypt(key: Self.key, iv: Self.iv, Self.message, tag: nil, tagLength: 16).status == kCCParamError)
        #expect(
            Self.decrypt(key: Self.key, iv: Self.iv, Self.message, tag: tag, nilOutput: true).status == kCCParamError)
        #expect(Self.decrypt(key: Self.key, iv: Self.iv, nil, tag: tag, dataLength: 16).status == kCCParamError)
    }

    /// An empty message needs no buffers (nil input and output) and still authenticates the additional data.
    @Test func emptyMessageNeedsNoBuffersAndAuthenticatesTheAdditionalData() {
        let aad = Data("only authenticated".utf8)
        let sealed = Self.encrypt(key: Self.key, iv: Self.iv, aad: aad, nil, nilOutput: true)
        #expect(sealed.status == kCCSuccess)
        #expect(
            Self.decrypt(key: Self.key, iv: Self.iv, aad: aad, nil, tag: sealed.tag, nilOutput: true).status
                == kCCSuccess)
        let forged = Self.decrypt(
            key: Self.key, iv: Self.iv, aad: Data("other".utf8), nil, tag: sealed.tag, nilOutput: true)
        #expect(forged.status == kCCUnspecifiedError)
    }

    // MARK: Buffers

    /// Encryption and decryption in place (`dataOut` == `dataIn`), as C callers do.
    @Test func inPlaceEncryptionAndDecryption() {
        let reference = Self.encrypt(key: Self.key, iv: Self.iv, Self.message)
        var buffer = [UInt8](Self.message)
        var tag = [UInt8](repeating: 0, count: 16)
        let sealed = Self.key.withUnsafeBytes { k in
            Self.iv.withUnsafeBytes { i in
                buffer.withUnsafeMutableBytes { b in
                    CCCryptorGCMOneshotEncrypt(
                        CCAlgorithm(kCCAlgorithmAES), k.baseAddress, k.count, i.baseAddress, i.count, nil, 0,
                        b.baseAddress, b.count, b.baseAddress, &tag, tag.count)
                }
            }
        }
        #expect(sealed == CCCryptorStatus(kCCSuccess))
        #expect(Data(buffer) == reference.output)
        #expect(Data(tag) == reference.tag)
        let opened = Self.key.withUnsafeBytes { k in
            Self.iv.withUnsafeBytes { i in
                buffer.withUnsafeMutableBytes { b in
                    CCCryptorGCMOneshotDecrypt(
                        CCAlgorithm(kCCAlgorithmAES), k.baseAddress, k.count, i.baseAddress, i.count, nil, 0,
                        b.baseAddress, b.count, b.baseAddress, tag, tag.count)
                }
            }
        }
        #expect(opened == CCCryptorStatus(kCCSuccess))
        #expect(Data(buffer) == Self.message)
    }

    /// A message of several MiB (fed to OpenSSL in pieces) and IVs past the 128 bytes of OpenSSL's EVP GCM give
    /// what the crypto layer's one-update `Data` API gives, for every key size; with a 12-byte IV the ciphertext
    /// is also AES-CTR from the counter block IV ‖ 00000002 (SP 800-38D §7.1), through CommonCrypto's CTR mode.
    @Test func largeMessagesAndLongIVsMatchTheCryptoLayer() throws {
        let large = Data((0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        for keyLength in [16, 24, 32] {
            let key = Data((0..<keyLength).map { UInt8($0) })
            for iv in [Data(count: 12), Data(repeating: 7, count: 128), Data(repeating: 9, count: 129)] {
                let message = iv.count == 12 ? large : Self.message
                let sealed = Self.encrypt(key: key, iv: iv, aad: Data("aad".utf8), message)
                #expect(sealed.status == kCCSuccess)
                let reference = try AESGCM.seal(key: key, nonce: iv, plaintext: message, aad: Data("aad".utf8))
                #expect(sealed.output == reference.ciphertext, "key \(keyLength), IV \(iv.count)")
                #expect(sealed.tag == reference.tag, "key \(keyLength), IV \(iv.count)")
                let opened = Self.decrypt(key: key, iv: iv, aad: Data("aad".utf8), sealed.output, tag: sealed.tag)
                #expect(opened.status == kCCSuccess)
                #expect(opened.output == message)
                if iv.count == 12 {
                    let counter = iv + Data([0, 0, 0, 2])
                    let made = CC.cryptor(kCCEncrypt, mode: kCCModeCTR, kCCAlgorithmAES, key: key, iv: counter)
                    guard let cryptor = made.cryptor else {
                        Issue.record("CTR cryptor: \(made.status)")
                        continue
                    }
                    defer { CCCryptorRelease(cryptor) }
                    let keystreamed = CC.stream(cryptor, message, chunks: [message.count])
                    #expect(keystreamed.status == kCCSuccess)
                    #expect(keystreamed.output == sealed.output, "key \(keyLength): GCM ciphertext is not CTR")
                }
            }
        }
    }
}
