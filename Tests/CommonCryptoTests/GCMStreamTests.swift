import CommonCrypto
import Foundation
import Testing

/// AES-GCM on a cryptor, piece by piece (Apple's `CCCryptorGCMSetIV` / `AddAAD` / `Encrypt` / `Decrypt` /
/// `Finalize` / `Reset` SPI): Wycheproof through the API in uneven pieces, agreement with the one-shots, the
/// order the calls must come in and the statuses when they do not.
@Suite struct GCMStreamTests {
    /// A GCM cryptor driven from `Data`.
    final class Stream {
        var cryptor: CCCryptorRef?
        let status: Int

        init(_ op: Int, key: Data, alg: Int = kCCAlgorithmAES) {
            var made: CCCryptorRef?
            status = Int(
                key.withUnsafeBytes {
                    CCCryptorCreateWithMode(
                        CCOperation(op), CCMode(kCCModeGCM), CCAlgorithm(alg), CCPadding(ccNoPadding), nil,
                        $0.baseAddress, key.count, nil, 0, 0, 0, &made)
                })
            cryptor = made
        }

        deinit { CCCryptorRelease(cryptor) }

        func setIV(_ iv: Data) -> Int {
            Int(iv.withUnsafeBytes { CCCryptorGCMSetIV(cryptor, $0.baseAddress, iv.count) })
        }

        func aad(_ aad: Data) -> Int {
            Int(aad.withUnsafeBytes { CCCryptorGCMAddAAD(cryptor, $0.baseAddress, aad.count) })
        }

        /// Runs `input` through Encrypt or Decrypt in pieces of the given sizes (cycled); nil on a failed call.
        func crypt(_ input: Data, encrypt: Bool, pieces: [Int] = [Int.max]) -> (status: Int, output: Data) {
            var output = Data()
            var offset = 0
            var index = 0
            repeat {
                let length = min(pieces[index % pieces.count], input.count - offset)
                let piece = input.subdata(in: offset..<offset + length)
                var out = Data(count: max(length, 1))
                let status = piece.withUnsafeBytes { i in
                    out.withUnsafeMutableBytes { o in
                        encrypt
                            ? CCCryptorGCMEncrypt(cryptor, i.baseAddress, length, o.baseAddress)
                            : CCCryptorGCMDecrypt(cryptor, i.baseAddress, length, o.baseAddress)
                    }
                }
                guard status == kCCSuccess else { return (Int(status), output) }
                output += out.prefix(length)
                offset += length
                index += 1
            } while offset < input.count
            return (kCCSuccess, output)
        }

        /// Finalize: writes a tag of `length` bytes (encryption) or checks `tag` (decryption).
        func finalize(tag: Data? = nil, length: Int = 16) -> (status: Int, tag: Data) {
            var buffer = tag ?? Data(count: length)
            let status = buffer.withUnsafeMutableBytes { CCCryptorGCMFinalize(cryptor, $0.baseAddress, length) }
            return (Int(status), buffer)
        }
    }

    static let key = Data(hex: "feffe9928665731c6d6a8f9467308308")
    static let iv = Data(hex: "cafebabefacedbaddecaf888")
    static let message = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    /// Every Wycheproof AES-GCM vector with an IV of 12 to 128 bytes, through the stream with the message and
    /// the additional data cut into uneven pieces; shorter IVs are refused by `CCCryptorGCMSetIV`, longer ones
    /// (beyond OpenSSL's GCM provider) too.
    @Test func wycheproofAESGCMInPieces() throws {
        let file = try wycheproof("aes_gcm_test.json", GCMTests.GCMGroup.self)
        var tally = Tally("aes_gcm_test.json (streamed)")
        for group in file.testGroups {
            for vector in group.tests {
                let key = Data(hex: vector.key)
                let iv = Data(hex: vector.iv)
                let aad = Data(hex: vector.aad)
                let msg = Data(hex: vector.msg)
                let ct = Data(hex: vector.ct)
                let tag = Data(hex: vector.tag)
                let sealer = Stream(kCCEncrypt, key: key)
                let opener = Stream(kCCDecrypt, key: key)
                guard (12...128).contains(iv.count) else {
                    let refused = sealer.setIV(iv) == kCCParamError && opener.setIV(iv) == kCCParamError
                    tally.record(vector.tcId, .valid, ok: refused)
                    continue
                }
                let half = aad.count / 2
                let ready =
                    sealer.status == kCCSuccess && sealer.setIV(iv) == kCCSuccess
                    && sealer.aad(aad.prefix(half)) == kCCSuccess && sealer.aad(aad.dropFirst(half)) == kCCSuccess
                    && opener.setIV(iv) == kCCSuccess && opener.aad(aad) == kCCSuccess
                let sealed = sealer.crypt(msg, encrypt: true, pieces: [1, 15, 16, 17, 64])
                let sealedTag = sealer.finalize(length: tag.count)
                let opened = opener.crypt(ct, encrypt: false, pieces: [7, 33])
                let check = opener.finalize(tag: tag, length: tag.count)
                switch vector.result {
                case .valid, .acceptable:
                    let ok =
                        ready && sealed.status == kCCSuccess && sealed.output == ct && sealedTag.status == kCCSuccess
                        && sealedTag.tag == tag && opened.output == msg && check.status == kCCSuccess
                    tally.record(vector.tcId, vector.result, ok: ok)
                case .invalid:
                    tally.record(vector.tcId, vector.result, ok: check.status == kCCUnspecifiedError)
                }
            }
        }
        tally.finish(numberOfTests: file.numberOfTests)
    }

    /// A 1 MiB message in pieces of every size gives the one-shot's ciphertext and tag, and opens back.
    @Test func streamAgreesWithTheOneShot() {
        let big = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 ^ ($0 >> 9)) })
        let aad = Data("header".utf8)
        let oneShot = GCMTests.encrypt(key: Self.key, iv: Self.iv, aad: aad, big)
        let sealer = Stream(kCCEncrypt, key: Self.key)
        #expect(sealer.setIV(Self.iv) == kCCSuccess && sealer.aad(aad) == kCCSuccess)
        let sealed = sealer.crypt(big, encrypt: true, pieces: [4096, 1, 65_536, 3, 100_000])
        let tag = sealer.finalize()
        #expect(sealed.status == kCCSuccess && sealed.output == oneShot.output)
        #expect(tag.status == kCCSuccess && tag.tag == oneShot.tag)
        let opener = Stream(kCCDecrypt, key: Self.key)
        #expect(opener.setIV(Self.iv) == kCCSuccess && opener.aad(aad) == kCCSuccess)
        #expect(opener.crypt(sealed.output, encrypt: false, pieces: [65_536]).output == big)
        #expect(opener.finalize(tag: tag.tag).status == kCCSuccess)
    }

    /// The calls must come in order: IV, additional data, message, tag; out of order is `kCCParamError`, and
    /// the stream goes on as if the call had not been made.
    @Test func callsOutOfOrderAreParameterErrors() {
        let stream = Stream(kCCEncrypt, key: Self.key)
        #expect(stream.aad(Data("early".utf8)) == kCCParamError)
        #expect(stream.crypt(Self.message, encrypt: true).status == kCCParamError)
        #expect(stream.finalize().status == kCCParamError)
        #expect(stream.setIV(Data(count: 11)) == kCCParamError)
        #expect(stream.setIV(Self.iv) == kCCSuccess)
        #expect(stream.setIV(Self.iv) == kCCParamError)
        #expect(stream.crypt(Self.message, encrypt: false).status == kCCParamError)  // a decryption call
        let sealed = stream.crypt(Self.message, encrypt: true)
        #expect(stream.aad(Data("late".utf8)) == kCCParamError)
        let tag = stream.finalize()
        #expect(stream.finalize().status == kCCParamError)
        #expect(stream.crypt(Self.message, encrypt: true).status == kCCParamError)
        let oneShot = GCMTests.encrypt(key: Self.key, iv: Self.iv, Self.message)
        #expect(sealed.output == oneShot.output && tag.tag == oneShot.tag)
        #expect(stream.finalize(length: 7).status == kCCParamError)
    }

    /// Reset keeps the key: the next message under a new IV equals a fresh cryptor's.
    @Test func resetStartsTheNextMessage() {
        let stream = Stream(kCCEncrypt, key: Self.key)
        #expect(stream.setIV(Self.iv) == kCCSuccess)
        _ = stream.crypt(Self.message, encrypt: true)
        _ = stream.finalize()
        #expect(CCCryptorGCMReset(stream.cryptor) == kCCSuccess)
        #expect(stream.crypt(Self.message, encrypt: true).status == kCCParamError)  // a new IV first
        let otherIV = Data(repeating: 0x42, count: 12)
        #expect(stream.setIV(otherIV) == kCCSuccess)
        let again = stream.crypt(Self.message, encrypt: true)
        let tag = stream.finalize(length: 12)
        let oneShot = GCMTests.encrypt(key: Self.key, iv: otherIV, Self.message, tagLength: 12)
        #expect(again.output == oneShot.output && tag.tag == oneShot.tag)
    }

    /// A wrong tag, a flipped ciphertext byte or other additional data: `kCCUnspecifiedError` at Finalize.
    @Test func tamperingFailsAtFinalize() {
        let oneShot = GCMTests.encrypt(key: Self.key, iv: Self.iv, aad: Data("a".utf8), Self.message)
        var flipped = oneShot.output
        flipped[10] ^= 1
        var badTag = oneShot.tag
        badTag[0] ^= 0x80
        for (ciphertext, tag, aad) in [
            (flipped, oneShot.tag, Data("a".utf8)), (oneShot.output, badTag, Data("a".utf8)),
            (oneShot.output, oneShot.tag, Data("b".utf8)),
        ] {
            let opener = Stream(kCCDecrypt, key: Self.key)
            #expect(opener.setIV(Self.iv) == kCCSuccess && opener.aad(aad) == kCCSuccess)
            _ = opener.crypt(ciphertext, encrypt: false)
            #expect(opener.finalize(tag: tag).status == kCCUnspecifiedError)
        }
    }

    /// Creation checks (AES only, AES key sizes), released and non-GCM cryptors, the deprecated IV and tag calls
    /// and in-place encryption.
    @Test func creationReleaseDeprecatedFormsAndInPlace() {
        #expect(Stream(kCCEncrypt, key: Self.key, alg: kCCAlgorithmDES).status == kCCParamError)
        #expect(Stream(kCCEncrypt, key: Data(count: 20)).status == kCCKeySizeError)
        #expect(CCCryptorGCMSetIV(nil, nil, 12) == kCCParamError)

        var cbc: CCCryptorRef?
        _ = Self.key.withUnsafeBytes {
            CCCryptorCreate(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), 0, $0.baseAddress, 16, nil, &cbc)
        }
        #expect(Self.iv.withUnsafeBytes { CCCryptorGCMSetIV(cbc, $0.baseAddress, 12) } == kCCParamError)
        CCCryptorRelease(cbc)

        let released = Stream(kCCEncrypt, key: Self.key)
        CCCryptorRelease(released.cryptor)
        #expect(released.setIV(Self.iv) == kCCParamError)

        // The IV in two AddIV pieces, the tag through CCCryptorGCMFinal, the message encrypted in place.
        let legacy = Stream(kCCEncrypt, key: Self.key)
        for part in [Self.iv.prefix(5), Self.iv.dropFirst(5)] {
            #expect(part.withUnsafeBytes { legacyAddIV(legacy.cryptor, $0.baseAddress, part.count) } == kCCSuccess)
        }
        var buffer = Self.message
        let status = buffer.withUnsafeMutableBytes {
            CCCryptorGCMEncrypt(legacy.cryptor, $0.baseAddress, $0.count, $0.baseAddress)
        }
        var tag = Data(count: 16)
        var tagLength = 16
        let final = tag.withUnsafeMutableBytes { legacyFinal(legacy.cryptor, $0.baseAddress, &tagLength) }
        let oneShot = GCMTests.encrypt(key: Self.key, iv: Self.iv, Self.message)
        #expect(status == kCCSuccess && final == kCCSuccess)
        #expect(buffer == oneShot.output && tag == oneShot.tag)
    }
}

/// Apple's deprecated calls, acknowledged in one place (called through a protocol, so no warning).
private protocol LegacyGCMCalls {
    func addIV(_ cryptor: CCCryptorRef?, _ iv: UnsafeRawPointer?, _ count: Int) -> CCCryptorStatus
    func final(
        _ cryptor: CCCryptorRef?, _ tag: UnsafeMutableRawPointer?, _ length: UnsafeMutablePointer<Int>
    )
        -> CCCryptorStatus
}

private struct LegacyGCM: LegacyGCMCalls {
    @available(*, deprecated)
    func addIV(_ cryptor: CCCryptorRef?, _ iv: UnsafeRawPointer?, _ count: Int) -> CCCryptorStatus {
        CCCryptorGCMAddIV(cryptor, iv, count)
    }

    @available(*, deprecated)
    func final(
        _ cryptor: CCCryptorRef?, _ tag: UnsafeMutableRawPointer?, _ length: UnsafeMutablePointer<Int>
    )
        -> CCCryptorStatus
    {
        CCCryptorGCMFinal(cryptor, tag, length)
    }
}

private func legacyAddIV(_ cryptor: CCCryptorRef?, _ iv: UnsafeRawPointer?, _ count: Int) -> CCCryptorStatus {
    (LegacyGCM() as any LegacyGCMCalls).addIV(cryptor, iv, count)
}

private func legacyFinal(
    _ cryptor: CCCryptorRef?, _ tag: UnsafeMutableRawPointer?, _ length: UnsafeMutablePointer<Int>
) -> CCCryptorStatus {
    (LegacyGCM() as any LegacyGCMCalls).final(cryptor, tag, length)
}
