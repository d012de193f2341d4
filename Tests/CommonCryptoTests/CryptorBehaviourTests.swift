import CommonCrypto
import Foundation
import OSecTestSupport
import Testing

/// Apple's status codes and edge cases of the CCCryptor functions.
@Suite struct CryptorStatusTests {
    static let key16 = Data(repeating: 0x11, count: 16)
    static let block = Data(repeating: 0x42, count: 16)

    @Test func keyLengthsOutsideApplesRangesAreKeySizeErrors() {
        let cases: [(Int, [Int], [Int])] = [
            (kCCAlgorithmAES, [16, 24, 32], [0, 8, 15, 17, 31, 33, 64]),
            (kCCAlgorithmDES, [8], [7, 9, 16]),
            (kCCAlgorithm3DES, [24], [8, 16, 23, 25]),  // Apple takes three-key triple DES only
            (kCCAlgorithmCAST, [5, 11, 16], [4, 17]),
            (kCCAlgorithmRC4, [1, 256, 512], [0, 513]),
            (kCCAlgorithmRC2, [1, 64, 128], [0, 129]),
            (kCCAlgorithmBlowfish, [8, 30, 56], [7, 57]),
        ]
        for (algorithm, valid, invalid) in cases {
            for length in valid {
                let made = CC.cryptor(kCCEncrypt, mode: kCCModeCBC, algorithm, key: Data(count: length), iv: nil)
                #expect(made.status == kCCSuccess, "alg \(algorithm) key \(length)")
                CCCryptorRelease(made.cryptor)
            }
            for length in invalid {
                let made = CC.cryptor(kCCEncrypt, mode: kCCModeCBC, algorithm, key: Data(count: length), iv: nil)
                #expect(made.status == kCCKeySizeError, "alg \(algorithm) key \(length)")
                #expect(made.cryptor == nil)
                let oneShot = CC.crypt(kCCEncrypt, algorithm, key: Data(count: length), iv: nil, Self.block)
                #expect(oneShot.status == kCCKeySizeError)
            }
        }
    }

    @Test func unknownSelectorsAreParamErrors() {
        #expect(CC.cryptor(kCCEncrypt, mode: kCCModeCBC, 7, key: Self.key16, iv: nil).status == kCCParamError)
        #expect(CC.cryptor(2, mode: kCCModeCBC, kCCAlgorithmAES, key: Self.key16, iv: nil).status == kCCParamError)
        for mode in [0, kCCModeF8, kCCModeLRW, kCCModeRC4, 13, 99] {
            let made = CC.cryptor(kCCEncrypt, mode: mode, kCCAlgorithmAES, key: Self.key16, iv: nil)
            #expect(made.status == kCCParamError, "mode \(mode)")
        }
        #expect(CC.crypt(kCCEncrypt, 42, key: Self.key16, iv: nil, Self.block).status == kCCParamError)
    }

    @Test func missingKeyOrCryptorPointerIsAParamError() {
        var cryptor: CCCryptorRef?
        let noKey = CCCryptorCreate(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), 0, nil, 16, nil, &cryptor)
        #expect(Int(noKey) == kCCParamError)
        let noRef = Self.key16.withUnsafeBytes {
            CCCryptorCreate(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), 0, $0.baseAddress, 16, nil, nil)
        }
        #expect(Int(noRef) == kCCParamError)
        var moved = 0
        let oneShot = CCCrypt(
            CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), 0, nil, 16, nil, nil, 0, nil, 0, &moved)
        #expect(Int(oneShot) == kCCParamError)
    }

    @Test func combinationsWithoutAnImplementationAreUnimplemented() {
        let key8 = Data(count: 8)
        #expect(
            CC.cryptor(kCCEncrypt, mode: kCCModeXTS, kCCAlgorithmAES, key: Self.key16, iv: nil).status
                == kCCUnimplemented)
        for algorithm in [kCCAlgorithmDES, kCCAlgorithmBlowfish] {
            #expect(CC.cryptor(kCCEncrypt, mode: kCCModeCTR, algorithm, key: key8, iv: nil).status == kCCUnimplemented)
        }
        #expect(
            CC.cryptor(kCCEncrypt, mode: kCCModeCFB8, kCCAlgorithmCAST, key: key8, iv: nil).status == kCCUnimplemented)
        // What OpenSSL has, works: CFB8 for DES and triple DES.
        #expect(CC.cryptor(kCCEncrypt, mode: kCCModeCFB8, kCCAlgorithmDES, key: key8, iv: nil).status == kCCSuccess)
    }

    @Test func rc4IgnoresTheMode() throws {
        let key = Data("Key".utf8)
        for mode in [kCCModeECB, kCCModeCBC, kCCModeRC4, kCCModeF8] {
            let made = CC.cryptor(kCCEncrypt, mode: mode, kCCAlgorithmRC4, key: key, iv: nil)
            let cryptor = try #require(made.cryptor, "mode \(mode)")
            #expect(CC.stream(cryptor, Data("Plaintext".utf8), chunks: [2]).output.hex == "bbf316e8d940af0ad3")
            CCCryptorRelease(cryptor)
        }
        let viaOptions = CC.crypt(
            kCCEncrypt, kCCAlgorithmRC4, options: kCCOptionECBMode | kCCOptionPKCS7Padding, key: key, iv: nil,
            Data("Plaintext".utf8))
        #expect(viaOptions.output.hex == "bbf316e8d940af0ad3")
    }

    @Test func unalignedInputWithoutPaddingIsAnAlignmentError() throws {
        for length in [1, 15, 17, 31] {
            let input = Data(repeating: 7, count: length)
            #expect(CC.crypt(kCCEncrypt, kCCAlgorithmAES, key: Self.key16, iv: nil, input).status == kCCAlignmentError)
            #expect(CC.crypt(kCCDecrypt, kCCAlgorithmAES, key: Self.key16, iv: nil, input).status == kCCAlignmentError)
            // Updates buffer the partial block; only the final call complains (Apple's CommonCryptoNoPad).
            let cryptor = try #require(
                CC.cryptor(kCCEncrypt, mode: kCCModeCBC, kCCAlgorithmAES, key: Self.key16, iv: nil).cryptor)
            defer { CCCryptorRelease(cryptor) }
            var out = [UInt8](repeating: 0, count: 64)
            var moved = 0
            #expect(Int(CCCryptorUpdate(cryptor, [UInt8](input), length, &out, 64, &moved)) == kCCSuccess)
            #expect(moved == length / 16 * 16)
            #expect(Int(CCCryptorFinal(cryptor, &out, 64, &moved)) == kCCAlignmentError)
        }
        let des = CC.crypt(
            kCCEncrypt, kCCAlgorithmDES, options: kCCOptionECBMode, key: Data(count: 8), iv: nil, Data(count: 12))
        #expect(des.status == kCCAlignmentError)
    }

    @Test func badPaddingIsADecodeError() {
        let encrypted = CC.crypt(
            kCCEncrypt, kCCAlgorithmAES, options: kCCOptionPKCS7Padding, key: Self.key16, iv: nil, Data("hello".utf8))
        #expect(encrypted.status == kCCSuccess && encrypted.output.count == 16)
        var wrongKey = Self.key16
        wrongKey[0] ^= 1
        var sawDecodeError = false
        // A wrong key leaves valid-looking padding now and then (1 in 256); try a few keys.
        for flip in 0..<8 {
            wrongKey[1] = UInt8(flip)
            let decrypted = CC.crypt(
                kCCDecrypt, kCCAlgorithmAES, options: kCCOptionPKCS7Padding, key: wrongKey, iv: nil, encrypted.output)
            if decrypted.status == kCCDecodeError { sawDecodeError = true }
            #expect(decrypted.status == kCCDecodeError || decrypted.status == kCCSuccess)
        }
        #expect(sawDecodeError)
        // Encrypted without padding, decrypted with it: the last byte is not a valid pad length.
        let unpadded = CC.crypt(kCCEncrypt, kCCAlgorithmAES, key: Self.key16, iv: nil, Data(repeating: 0xff, count: 16))
        let reversed = CC.crypt(kCCDecrypt, kCCAlgorithmAES, key: Self.key16, iv: nil, unpadded.output)
        #expect(reversed.output == Data(repeating: 0xff, count: 16))
        let decoded = CC.crypt(
            kCCDecrypt, kCCAlgorithmAES, options: kCCOptionPKCS7Padding, key: Self.key16, iv: nil, unpadded.output)
        #expect(decoded.status == kCCDecodeError)
    }

    @Test func paddedDecryptionOfPartialOrNoBlocksFails() {
        let partial = CC.crypt(
            kCCDecrypt, kCCAlgorithmAES, options: kCCOptionPKCS7Padding, key: Self.key16, iv: nil, Data(count: 20))
        #expect(partial.status == kCCAlignmentError)
        let empty = CC.crypt(
            kCCDecrypt, kCCAlgorithmAES, options: kCCOptionPKCS7Padding, key: Self.key16, iv: nil, Data())
        #expect(empty.status == kCCDecodeError)
    }

    @Test func emptyInputEncryptsToOnePaddingBlock() {
        let encrypted = CC.crypt(
            kCCEncrypt, kCCAlgorithmAES, options: kCCOptionPKCS7Padding, key: Self.key16, iv: nil, Data())
        #expect(encrypted.status == kCCSuccess && encrypted.output.count == 16)
        let decrypted = CC.crypt(
            kCCDecrypt, kCCAlgorithmAES, options: kCCOptionPKCS7Padding, key: Self.key16, iv: nil, encrypted.output)
        #expect(decrypted.status == kCCSuccess && decrypted.output.isEmpty)
        let unpadded = CC.crypt(kCCEncrypt, kCCAlgorithmAES, key: Self.key16, iv: nil, Data())
        #expect(unpadded.status == kCCSuccess && unpadded.output.isEmpty)
    }

    @Test func nilIVMeansZerosAndECBIgnoresTheIV() {
        let message = Data(repeating: 9, count: 48)
        let withNil = CC.crypt(kCCEncrypt, kCCAlgorithmAES, key: Self.key16, iv: nil, message)
        let withZeros = CC.crypt(kCCEncrypt, kCCAlgorithmAES, key: Self.key16, iv: Data(count: 16), message)
        #expect(withNil.output == withZeros.output)
        let ecbA = CC.crypt(
            kCCEncrypt, kCCAlgorithmAES, options: kCCOptionECBMode, key: Self.key16, iv: Data(repeating: 1, count: 16),
            message)
        let ecbB = CC.crypt(kCCEncrypt, kCCAlgorithmAES, options: kCCOptionECBMode, key: Self.key16, iv: nil, message)
        #expect(ecbA.output == ecbB.output && ecbA.output != withNil.output)
        for mode in [kCCModeCFB, kCCModeOFB, kCCModeCTR, kCCModeCFB8] {
            let a = CC.cryptor(kCCEncrypt, mode: mode, kCCAlgorithmAES, key: Self.key16, iv: nil).cryptor
            let b = CC.cryptor(kCCEncrypt, mode: mode, kCCAlgorithmAES, key: Self.key16, iv: Data(count: 16)).cryptor
            if let a, let b {
                #expect(CC.stream(a, message, chunks: [5]).output == CC.stream(b, message, chunks: [48]).output)
            } else {
                Issue.record("mode \(mode) did not create")
            }
            CCCryptorRelease(a)
            CCCryptorRelease(b)
        }
    }

    @Test func streamModesIgnorePaddingAndOutputEveryByte() throws {
        let message = Data(repeating: 3, count: 21)
        for mode in [kCCModeCTR, kCCModeCFB, kCCModeCFB8, kCCModeOFB] {
            let cryptor = try #require(
                CC.cryptor(kCCEncrypt, mode: mode, kCCAlgorithmAES, padding: ccPKCS7Padding, key: Self.key16, iv: nil)
                    .cryptor)
            #expect(CCCryptorGetOutputLength(cryptor, 21, true) == 21)
            var out = [UInt8](repeating: 0, count: 21)
            var moved = 0
            #expect(Int(CCCryptorUpdate(cryptor, [UInt8](message), 21, &out, 21, &moved)) == kCCSuccess && moved == 21)
            #expect(Int(CCCryptorFinal(cryptor, nil, 0, &moved)) == kCCSuccess && moved == 0)
            CCCryptorRelease(cryptor)
        }
    }

    @Test func ctrIncrementsTheWholeCounterBigEndianWhateverTheOptions() throws {
        // Counter …ff ff: the next block's counter wraps every byte (a 128-bit big-endian increment).
        let start = Data(repeating: 0xff, count: 16)
        let zeros = Data(count: 32)
        for options in [kCCModeOptionCTR_BE, kCCModeOptionCTR_LE, 0] {
            let cryptor = try #require(
                CC.cryptor(kCCEncrypt, mode: kCCModeCTR, kCCAlgorithmAES, key: Self.key16, iv: start, options: options)
                    .cryptor)
            let keystream = CC.stream(cryptor, zeros, chunks: [32]).output
            CCCryptorRelease(cryptor)
            let blocks = CC.crypt(
                kCCEncrypt, kCCAlgorithmAES, options: kCCOptionECBMode, key: Self.key16, iv: nil,
                start + Data(count: 16))
            #expect(keystream == blocks.output, "options \(options)")
        }
    }

    @Test func inPlaceOperationWorks() throws {
        var buffer = [UInt8](repeating: 0, count: 64)
        for index in buffer.indices { buffer[index] = UInt8(index) }
        let original = buffer
        let expected = CC.crypt(kCCEncrypt, kCCAlgorithmAES, key: Self.key16, iv: nil, Data(original)).output
        var moved = 0
        let status = Self.key16.withUnsafeBytes { key in
            buffer.withUnsafeMutableBytes { bytes in
                CCCrypt(
                    CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), 0, key.baseAddress, 16, nil,
                    bytes.baseAddress, 64, bytes.baseAddress, 64, &moved)
            }
        }
        #expect(Int(status) == kCCSuccess && moved == 64 && Data(buffer) == expected)
        let cryptor = try #require(
            CC.cryptor(kCCDecrypt, mode: kCCModeCTR, kCCAlgorithmAES, key: Self.key16, iv: nil).cryptor)
        defer { CCCryptorRelease(cryptor) }
        var ctr = original
        ctr.withUnsafeMutableBytes { bytes in
            _ = CCCryptorUpdate(cryptor, bytes.baseAddress, 64, bytes.baseAddress, 64, &moved)
        }
        let ctrExpected = CC.stream(
            CC.cryptor(kCCDecrypt, mode: kCCModeCTR, kCCAlgorithmAES, key: Self.key16, iv: nil).cryptor!,
            Data(original), chunks: [64]
        ).output
        #expect(Data(ctr) == ctrExpected)
    }
}

/// The buffer-too-small protocol and CCCryptorGetOutputLength, checked against Apple's own rules (its
/// CommonCryptoOutputLength and CommonCryptoSymRegression tests).
@Suite struct CryptorLengthTests {
    static let key = Data(repeating: 0x21, count: 16)

    @Test func cccryptReportsTheNeededRoom() {
        let message = Data(repeating: 1, count: 37)
        let tooSmall = CC.crypt(
            kCCEncrypt, kCCAlgorithmAES, options: kCCOptionPKCS7Padding, key: Self.key, iv: nil, message, room: 0)
        #expect(tooSmall.status == kCCBufferTooSmall && tooSmall.moved == 48)
        let justShort = CC.crypt(
            kCCEncrypt, kCCAlgorithmAES, options: kCCOptionPKCS7Padding, key: Self.key, iv: nil, message, room: 47)
        #expect(justShort.status == kCCBufferTooSmall && justShort.moved == 48)
        let exact = CC.crypt(
            kCCEncrypt, kCCAlgorithmAES, options: kCCOptionPKCS7Padding, key: Self.key, iv: nil, message, room: 48)
        #expect(exact.status == kCCSuccess && exact.moved == 48)
        // Decrypting needs room for the whole input (the padding length is known only afterwards).
        let decryptShort = CC.crypt(
            kCCDecrypt, kCCAlgorithmAES, options: kCCOptionPKCS7Padding, key: Self.key, iv: nil, exact.output, room: 40)
        #expect(decryptShort.status == kCCBufferTooSmall && decryptShort.moved == 48)
        let decrypted = CC.crypt(
            kCCDecrypt, kCCAlgorithmAES, options: kCCOptionPKCS7Padding, key: Self.key, iv: nil, exact.output, room: 48)
        #expect(decrypted.status == kCCSuccess && decrypted.output == message)
        let aligned = CC.crypt(
            kCCEncrypt, kCCAlgorithmAES, options: kCCOptionPKCS7Padding, key: Self.key, iv: nil, Data(count: 32),
            room: 0)
        #expect(aligned.moved == 48)  // a whole block of padding
    }

    @Test func updateReportsTheNeededRoomAndKeepsItsState() throws {
        let cryptor = try #require(
            CC.cryptor(kCCEncrypt, mode: kCCModeCBC, kCCAlgorithmAES, key: Self.key, iv: nil).cryptor)
        defer { CCCryptorRelease(cryptor) }
        let input = [UInt8](repeating: 5, count: 40)
        var out = [UInt8](repeating: 0, count: 64)
        var moved = -1
        #expect(Int(CCCryptorUpdate(cryptor, input, 40, &out, 31, &moved)) == kCCBufferTooSmall)
        #expect(moved == 32)
        #expect(Int(CCCryptorUpdate(cryptor, input, 40, &out, 32, &moved)) == kCCSuccess && moved == 32)
        #expect(CCCryptorGetOutputLength(cryptor, 0, false) == 0)
        #expect(CCCryptorGetOutputLength(cryptor, 8, false) == 16)
        #expect(Int(CCCryptorUpdate(cryptor, input, 8, &out, 16, &moved)) == kCCSuccess && moved == 16)
        let reference = CC.crypt(kCCEncrypt, kCCAlgorithmAES, key: Self.key, iv: nil, Data(repeating: 5, count: 48))
            .output
        #expect(Data(out.prefix(16)) == reference.suffix(16))
        #expect(Int(CCCryptorUpdate(cryptor, input, 0, &out, 0, &moved)) == kCCSuccess && moved == 0)
    }

    @Test func finalWithTooLittleRoomDeliversOnTheNextCall() throws {
        let cryptor = try #require(
            CC.cryptor(kCCEncrypt, mode: kCCModeCBC, kCCAlgorithmAES, padding: ccPKCS7Padding, key: Self.key, iv: nil)
                .cryptor)
        defer { CCCryptorRelease(cryptor) }
        var out = [UInt8](repeating: 0, count: 32)
        var moved = -1
        #expect(Int(CCCryptorUpdate(cryptor, "hello", 5, &out, 32, &moved)) == kCCSuccess && moved == 0)
        #expect(Int(CCCryptorFinal(cryptor, &out, 8, &moved)) == kCCBufferTooSmall && moved == 0)
        #expect(Int(CCCryptorFinal(cryptor, &out, 16, &moved)) == kCCSuccess && moved == 16)
        let reference = CC.crypt(
            kCCEncrypt, kCCAlgorithmAES, options: kCCOptionPKCS7Padding, key: Self.key, iv: nil, Data("hello".utf8))
        #expect(Data(out.prefix(16)) == reference.output)
    }

    /// Apple's CommonCryptoOutputLength test, ported: CTR, ECB/CBC without padding and CBC with PKCS#7, both
    /// directions, every buffered prefix and input length.
    @Test func outputLengthsFollowApplesRules() throws {
        func check(
            _ op: Int, _ mode: Int, _ alg: Int, _ keyLength: Int, _ padding: Int, buffered: Int, input: Int,
            final: Bool, expected: Int
        ) throws {
            let cryptor = try #require(
                CC.cryptor(op, mode: mode, alg, padding: padding, key: Data(count: keyLength), iv: nil).cryptor)
            defer { CCCryptorRelease(cryptor) }
            var out = [UInt8](repeating: 0, count: 128)
            var moved = 0
            let start = [UInt8](repeating: 0, count: 64)
            #expect(Int(CCCryptorUpdate(cryptor, start, buffered, &out, 128, &moved)) == kCCSuccess)
            #expect(
                CCCryptorGetOutputLength(cryptor, input, final) == expected,
                "op \(op) mode \(mode) buffered \(buffered) input \(input) final \(final)")
        }
        func roundDown(_ length: Int, _ block: Int) -> Int { length / block * block }
        func paddedDecryptUpdate(_ length: Int, _ block: Int) -> Int {
            if length <= block { return 0 }
            return length % block == 0 ? length - block : roundDown(length, block)
        }
        for input in stride(from: 0, to: 48, by: 5) {
            for buffered in 0..<16 {
                try check(
                    kCCEncrypt, kCCModeCTR, kCCAlgorithmAES, 16, ccNoPadding, buffered: buffered, input: input,
                    final: false, expected: input)
                let total = input + buffered
                try check(
                    kCCEncrypt, kCCModeECB, kCCAlgorithmAES, 16, ccNoPadding, buffered: buffered, input: input,
                    final: false, expected: roundDown(total, 16))
                try check(
                    kCCEncrypt, kCCModeCBC, kCCAlgorithmAES, 16, ccPKCS7Padding, buffered: buffered, input: input,
                    final: false, expected: roundDown(total, 16))
                try check(
                    kCCEncrypt, kCCModeCBC, kCCAlgorithmAES, 16, ccPKCS7Padding, buffered: buffered, input: input,
                    final: true, expected: roundDown(total, 16) + 16)
                try check(
                    kCCDecrypt, kCCModeCTR, kCCAlgorithmAES, 16, ccNoPadding, buffered: buffered, input: input,
                    final: false, expected: input)
            }
            for buffered in 1...16 {
                try check(
                    kCCDecrypt, kCCModeCBC, kCCAlgorithmAES, 16, ccPKCS7Padding, buffered: buffered, input: input,
                    final: false, expected: paddedDecryptUpdate(input + buffered, 16))
            }
            for buffered in 0..<8 {
                let total = input + buffered
                try check(
                    kCCEncrypt, kCCModeCBC, kCCAlgorithm3DES, 24, ccPKCS7Padding, buffered: buffered, input: input,
                    final: true, expected: roundDown(total, 8) + 8)
            }
        }
        for input in stride(from: 0, to: 48, by: 16) {
            try check(
                kCCDecrypt, kCCModeCBC, kCCAlgorithmAES, 16, ccPKCS7Padding, buffered: 16, input: input, final: true,
                expected: input + 16)
        }
    }

    @Test func aNilOrReleasedCryptorGivesApplesAnswers() throws {
        #expect(CCCryptorGetOutputLength(nil, 10, true) == kCCParamError)
        var moved = 0
        var out = [UInt8](repeating: 0, count: 16)
        #expect(Int(CCCryptorUpdate(nil, "x", 1, &out, 16, &moved)) == kCCParamError)
        #expect(Int(CCCryptorFinal(nil, &out, 16, &moved)) == kCCSuccess)  // Apple's answer
        #expect(Int(CCCryptorReset(nil, nil)) == kCCParamError)
        #expect(Int(CCCryptorRelease(nil)) == kCCSuccess)
        let cryptor = try #require(
            CC.cryptor(kCCEncrypt, mode: kCCModeCBC, kCCAlgorithmAES, key: Self.key, iv: nil).cryptor)
        #expect(Int(CCCryptorRelease(cryptor)) == kCCSuccess)
        #expect(Int(CCCryptorRelease(cryptor)) == kCCSuccess)
        #expect(Int(CCCryptorUpdate(cryptor, "x", 1, &out, 16, &moved)) == kCCParamError)
        #expect(CCCryptorGetOutputLength(cryptor, 1, false) == kCCParamError)
        #expect(Int(CCCryptorReset(cryptor, nil)) == kCCParamError)
        // The handle is an `OpaquePointer`, as Apple's: printing it shows a number, nothing key-derived.
        #expect(String(describing: cryptor).hasPrefix("0x"))
    }
}

@Suite struct CryptorResetTests {
    static let key = Data(repeating: 0x33, count: 16)

    @Test func resetRestartsCBCAndCTRWithTheNewIV() throws {
        let message = Data((0..<40).map { UInt8($0) })
        let iv = Data(repeating: 0x44, count: 16)
        for (mode, padding) in [(kCCModeCBC, ccPKCS7Padding), (kCCModeCTR, ccNoPadding)] {
            let cryptor = try #require(
                CC.cryptor(kCCEncrypt, mode: mode, kCCAlgorithmAES, padding: padding, key: Self.key, iv: nil).cryptor)
            defer { CCCryptorRelease(cryptor) }
            var scratch = [UInt8](repeating: 0, count: 64)
            var moved = 0
            _ = CCCryptorUpdate(cryptor, [UInt8](message), 21, &scratch, 64, &moved)  // leave a partial block
            #expect(Int(iv.withUnsafeBytes { CCCryptorReset(cryptor, $0.baseAddress) }) == kCCSuccess)
            let afterReset = CC.stream(cryptor, message, chunks: [7])
            let fresh = try #require(
                CC.cryptor(kCCEncrypt, mode: mode, kCCAlgorithmAES, padding: padding, key: Self.key, iv: iv).cryptor)
            #expect(afterReset.output == CC.stream(fresh, message, chunks: [40]).output, "mode \(mode)")
            CCCryptorRelease(fresh)
            #expect(Int(CCCryptorReset(cryptor, nil)) == kCCSuccess)
            let zeroIV = CC.stream(cryptor, message, chunks: [40]).output
            let zeroFresh = try #require(
                CC.cryptor(kCCEncrypt, mode: mode, kCCAlgorithmAES, padding: padding, key: Self.key, iv: nil).cryptor)
            #expect(zeroIV == CC.stream(zeroFresh, message, chunks: [40]).output)
            CCCryptorRelease(zeroFresh)
        }
    }

    @Test func otherModesDoNotReset() throws {
        for (mode, algorithm, keyLength) in [
            (kCCModeECB, kCCAlgorithmAES, 16), (kCCModeCFB, kCCAlgorithmAES, 16), (kCCModeOFB, kCCAlgorithmAES, 16),
            (kCCModeRC4, kCCAlgorithmRC4, 16),
        ] {
            let cryptor = try #require(
                CC.cryptor(kCCEncrypt, mode: mode, algorithm, key: Data(count: keyLength), iv: nil).cryptor)
            #expect(Int(CCCryptorReset(cryptor, nil)) == kCCUnimplemented, "mode \(mode)")
            CCCryptorRelease(cryptor)
        }
    }
}

@Suite struct CryptorFromDataTests {
    @Test func callerMemoryProtocol() throws {
        let key = Data(repeating: 1, count: 16)
        var cryptor: CCCryptorRef?
        var used = -1
        let noMemory = key.withUnsafeBytes {
            CCCryptorCreateFromData(
                CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), 0, $0.baseAddress, 16, nil, nil, 0, &cryptor,
                &used)
        }
        #expect(Int(noMemory) == kCCBufferTooSmall && used >= 16 && used < 24)
        let memory = [UInt8](repeating: 0, count: 64)
        let tooSmall = key.withUnsafeBytes { keyBytes in
            memory.withUnsafeBytes {
                CCCryptorCreateFromData(
                    CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), 0, keyBytes.baseAddress, 16, nil,
                    $0.baseAddress, 8, &cryptor, &used)
            }
        }
        #expect(Int(tooSmall) == kCCBufferTooSmall && cryptor == nil)
        let created = key.withUnsafeBytes { keyBytes in
            memory.withUnsafeBytes {
                CCCryptorCreateFromData(
                    CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), 0, keyBytes.baseAddress, 16, nil,
                    $0.baseAddress, 64, &cryptor, &used)
            }
        }
        #expect(Int(created) == kCCSuccess)
        let made = try #require(cryptor)
        let output = CC.stream(made, Data(count: 32), chunks: [32]).output
        #expect(output == CC.crypt(kCCEncrypt, kCCAlgorithmAES, key: key, iv: nil, Data(count: 32)).output)
        CCCryptorRelease(made)
    }
}

/// Our ciphertexts decrypt with `openssl enc`, and `openssl enc`'s with us.
@Suite struct CryptorOpenSSLInteropTests {
    static let message = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })

    @Test(arguments: [
        ("aes-128-cbc", kCCAlgorithmAES, kCCModeCBC, 16, true, false),
        ("aes-192-ecb", kCCAlgorithmAES, kCCModeECB, 24, true, false),
        ("aes-256-ctr", kCCAlgorithmAES, kCCModeCTR, 32, false, false),
        ("aes-128-cfb", kCCAlgorithmAES, kCCModeCFB, 16, false, false),
        ("aes-256-cfb8", kCCAlgorithmAES, kCCModeCFB8, 32, false, false),
        ("aes-128-ofb", kCCAlgorithmAES, kCCModeOFB, 16, false, false),
        ("des-ede3-cbc", kCCAlgorithm3DES, kCCModeCBC, 24, true, false),
        ("des-cbc", kCCAlgorithmDES, kCCModeCBC, 8, true, true),
        ("bf-cbc", kCCAlgorithmBlowfish, kCCModeCBC, 16, true, true),
        ("cast5-cbc", kCCAlgorithmCAST, kCCModeCBC, 16, true, true),
        ("rc2-cbc", kCCAlgorithmRC2, kCCModeCBC, 16, true, true),
        ("rc4", kCCAlgorithmRC4, kCCModeRC4, 16, false, true),
    ])
    func roundTripsWithOpenSSLEnc(
        _ name: String, _ algorithm: Int, _ mode: Int, _ keyLength: Int, _ padded: Bool, _ legacy: Bool
    ) throws {
        try #require(OpenSSLCLI.isAvailable)
        let key = Data((0..<keyLength).map { UInt8(truncatingIfNeeded: $0 &* 17 &+ 3) })
        let blockSize = algorithm == kCCAlgorithmAES ? 16 : 8
        let iv = Data((0..<blockSize).map { UInt8(truncatingIfNeeded: $0 &+ 100) })
        var args = ["enc", "-\(name)", "-K", key.hex]
        if mode != kCCModeECB && mode != kCCModeRC4 { args += ["-iv", iv.hex] }
        if legacy { args += ["-provider", "legacy", "-provider", "default"] }
        let padding = padded ? ccPKCS7Padding : ccNoPadding
        let encryptor = try #require(
            CC.cryptor(kCCEncrypt, mode: mode, algorithm, padding: padding, key: key, iv: iv).cryptor)
        let ours = CC.stream(encryptor, Self.message, chunks: [100, 3])
        CCCryptorRelease(encryptor)
        #expect(ours.status == kCCSuccess)
        let theirs = try OpenSSLCLI.check(args + ["-e"], stdin: Self.message).stdout
        #expect(ours.output == theirs, "\(name) encrypt")
        let decrypted = try OpenSSLCLI.check(args + ["-d"], stdin: ours.output).stdout
        #expect(decrypted == Self.message, "\(name) openssl decrypts ours")
        let decryptor = try #require(
            CC.cryptor(kCCDecrypt, mode: mode, algorithm, padding: padding, key: key, iv: iv).cryptor)
        #expect(CC.stream(decryptor, theirs, chunks: [9]).output == Self.message, "\(name) we decrypt openssl's")
        CCCryptorRelease(decryptor)
    }
}
