import CommonCrypto
import Foundation
import OSecTestSupport
import Testing

/// Known answers of every algorithm and mode, through CCCrypt, the one-shot; through CCCryptorCreateWithMode
/// fed in odd chunks with exactly the room CCCryptorGetOutputLength announces; and back.
@Suite struct CryptorVectorTests {
    struct Vector: CustomStringConvertible {
        let name: String
        let algorithm: Int
        let mode: Int
        let key: String
        let iv: String?
        let plaintext: String
        let ciphertext: String
        var description: String { name }
    }

    static let sp800_38aPlaintext =
        "6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51 30c81c46a35ce411e5fbc1191a0a52ef"
        + " f69f2445df4f9b17ad2b417be66c3710"
    static let iv = "000102030405060708090a0b0c0d0e0f"
    static let counter = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"
    static let key128 = "2b7e151628aed2a6abf7158809cf4f3c"
    static let key192 = "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b"
    static let key256 = "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"

    /// NIST SP 800-38A appendix F (F.1 ECB, F.2 CBC, F.3.7 CFB8 and F.3.13 CFB128, F.4 OFB, F.5 CTR).
    static let sp800_38a: [Vector] = {
        func aes(_ name: String, _ mode: Int, _ key: String, _ iv: String?, _ ct: String, pt: String? = nil) -> Vector {
            Vector(
                name: name, algorithm: kCCAlgorithmAES, mode: mode, key: key, iv: iv,
                plaintext: pt ?? sp800_38aPlaintext, ciphertext: ct)
        }
        return [
            aes(
                "F.1.1 ECB-AES128", kCCModeECB, key128, nil,
                "3ad77bb40d7a3660a89ecaf32466ef97 f5d3d58503b9699de785895a96fdbaaf 43b1cd7f598ece23881b00e3ed030688"
                    + " 7b0c785e27e8ad3f8223207104725dd4"),
            aes(
                "F.1.3 ECB-AES192", kCCModeECB, key192, nil,
                "bd334f1d6e45f25ff712a214571fa5cc 974104846d0ad3ad7734ecb3ecee4eef ef7afd2270e2e60adce0ba2face6444e"
                    + " 9a4b41ba738d6c72fb16691603c18e0e"),
            aes(
                "F.1.5 ECB-AES256", kCCModeECB, key256, nil,
                "f3eed1bdb5d2a03c064b5a7e3db181f8 591ccb10d410ed26dc5ba74a31362870 b6ed21b99ca6f4f9f153e7b1beafed1d"
                    + " 23304b7a39f9f3ff067d8d8f9e24ecc7"),
            aes(
                "F.2.1 CBC-AES128", kCCModeCBC, key128, iv,
                "7649abac8119b246cee98e9b12e9197d 5086cb9b507219ee95db113a917678b2 73bed6b8e3c1743b7116e69e22229516"
                    + " 3ff1caa1681fac09120eca307586e1a7"),
            aes(
                "F.2.3 CBC-AES192", kCCModeCBC, key192, iv,
                "4f021db243bc633d7178183a9fa071e8 b4d9ada9ad7dedf4e5e738763f69145a 571b242012fb7ae07fa9baac3df102e0"
                    + " 08b0e27988598881d920a9e64f5615cd"),
            aes(
                "F.2.5 CBC-AES256", kCCModeCBC, key256, iv,
                "f58c4c04d6e5f1ba779eabfb5f7bfbd6 9cfc4e967edb808d679f777bc6702c7d 39f23369a9d9bacfa530e26304231461"
                    + " b2eb05e2c39be9fcda6c19078c6a9d1b"),
            aes(
                "F.3.7 CFB8-AES128", kCCModeCFB8, key128, iv, "3b79424c9c0dd436bace9e0ed4586a4f32b9",
                pt: "6bc1bee22e409f96e93d7e117393172aae2d"),
            aes(
                "F.3.13 CFB128-AES128", kCCModeCFB, key128, iv,
                "3b3fd92eb72dad20333449f8e83cfb4a c8a64537a0b3a93fcde3cdad9f1ce58b 26751f67a3cbb140b1808cf187a4f4df"
                    + " c04b05357c5d1c0eeac4c66f9ff7f2e6"),
            aes(
                "F.3.15 CFB128-AES192", kCCModeCFB, key192, iv,
                "cdc80d6fddf18cab34c25909c99a4174 67ce7f7f81173621961a2b70171d3d7a 2e1e8a1dd59b88b1c8e60fed1efac4c9"
                    + " c05f9f9ca9834fa042ae8fba584b09ff"),
            aes(
                "F.3.17 CFB128-AES256", kCCModeCFB, key256, iv,
                "dc7e84bfda79164b7ecd8486985d3860 39ffed143b28b1c832113c6331e5407b df10132415e54b92a13ed0a8267ae2f9"
                    + " 75a385741ab9cef82031623d55b1e471"),
            aes(
                "F.4.1 OFB-AES128", kCCModeOFB, key128, iv,
                "3b3fd92eb72dad20333449f8e83cfb4a 7789508d16918f03f53c52dac54ed825 9740051e9c5fecf64344f7a82260edcc"
                    + " 304c6528f659c77866a510d9c1d6ae5e"),
            aes(
                "F.4.3 OFB-AES192", kCCModeOFB, key192, iv,
                "cdc80d6fddf18cab34c25909c99a4174 fcc28b8d4c63837c09e81700c1100401 8d9a9aeac0f6596f559c6d4daf59a5f2"
                    + " 6d9f200857ca6c3e9cac524bd9acc92a"),
            aes(
                "F.4.5 OFB-AES256", kCCModeOFB, key256, iv,
                "dc7e84bfda79164b7ecd8486985d3860 4febdc6740d20b3ac88f6ad82a4fb08d 71ab47a086e86eedf39d1c5bba97c408"
                    + " 0126141d67f37be8538f5a8be740e484"),
            aes(
                "F.5.1 CTR-AES128", kCCModeCTR, key128, counter,
                "874d6191b620e3261bef6864990db6ce 9806f66b7970fdff8617187bb9fffdff 5ae4df3edbd5d35e5b4f09020db03eab"
                    + " 1e031dda2fbe03d1792170a0f3009cee"),
            aes(
                "F.5.3 CTR-AES192", kCCModeCTR, key192, counter,
                "1abc932417521ca24f2b0459fe7e6e0b 090339ec0aa6faefd5ccc2c6f4ce8e94 1e36b26bd1ebc670d1bd1d665620abf7"
                    + " 4f78a7f6d29809585a97daec58c6b050"),
            aes(
                "F.5.5 CTR-AES256", kCCModeCTR, key256, counter,
                "601ec313775789a5b7a7f504bbf3d228 f443e3ca4d62b59aca84e990cacaf5c5 2b0930daa23de94ce87017ba2d84988d"
                    + " dfc9c58db67aada613c2dd08457941a6"),
        ]
    }()

    /// Known answers of the other ciphers: FIPS 81 (DES), NIST SP 800-67 (triple DES), RFC 2144 B.1 (CAST-128),
    /// Eric Young's Blowfish set, RFC 2268 §5 (RC2, where effective key bits = 8 × key length, as CommonCrypto
    /// uses), RFC 6229 (RC4).
    static let legacy: [Vector] = [
        Vector(
            name: "FIPS 81 DES-ECB", algorithm: kCCAlgorithmDES, mode: kCCModeECB, key: "0123456789abcdef", iv: nil,
            plaintext: "4e6f772069732074 68652074696d6520 666f7220616c6c20",
            ciphertext: "3fa40e8a984d4815 6a271787ab8883f9 893d51ec4b563b53"),
        Vector(
            name: "FIPS 81 DES-CBC", algorithm: kCCAlgorithmDES, mode: kCCModeCBC, key: "0123456789abcdef",
            iv: "1234567890abcdef", plaintext: "4e6f772069732074 68652074696d6520 666f7220616c6c20",
            ciphertext: "e5c7cdde872bf27c 43e934008c389c0f 683788499a7c05f6"),
        Vector(
            name: "DES-ECB textbook", algorithm: kCCAlgorithmDES, mode: kCCModeECB, key: "133457799bbcdff1", iv: nil,
            plaintext: "0123456789abcdef", ciphertext: "85e813540f0ab405"),
        Vector(
            name: "SP 800-67 TDEA-ECB", algorithm: kCCAlgorithm3DES, mode: kCCModeECB,
            key: "0123456789abcdef 23456789abcdef01 456789abcdef0123", iv: nil,
            plaintext: "5468652071756663 6b2062726f776e20 666f78206a756d70",
            ciphertext: "a826fd8ce53b855f cce21c8112256fe6 68d5c05dd9b6b900"),
        Vector(
            name: "RFC 2144 CAST-128 128-bit key", algorithm: kCCAlgorithmCAST, mode: kCCModeECB,
            key: "0123456712345678234567893456789a", iv: nil, plaintext: "0123456789abcdef",
            ciphertext: "238b4fe5847e44b2"),
        Vector(
            name: "RFC 2144 CAST-128 80-bit key", algorithm: kCCAlgorithmCAST, mode: kCCModeECB,
            key: "01234567123456782345", iv: nil, plaintext: "0123456789abcdef", ciphertext: "eb6a711a2c02271b"),
        Vector(
            name: "RFC 2144 CAST-128 40-bit key", algorithm: kCCAlgorithmCAST, mode: kCCModeECB, key: "0123456712",
            iv: nil, plaintext: "0123456789abcdef", ciphertext: "7ac816d16e9b302e"),
        Vector(
            name: "Blowfish zero key", algorithm: kCCAlgorithmBlowfish, mode: kCCModeECB, key: "0000000000000000",
            iv: nil, plaintext: "0000000000000000", ciphertext: "4ef997456198dd78"),
        Vector(
            name: "Blowfish ones", algorithm: kCCAlgorithmBlowfish, mode: kCCModeECB, key: "ffffffffffffffff", iv: nil,
            plaintext: "ffffffffffffffff", ciphertext: "51866fd5b85ecb8a"),
        Vector(
            name: "Blowfish 3000…", algorithm: kCCAlgorithmBlowfish, mode: kCCModeECB, key: "3000000000000000",
            iv: nil, plaintext: "1000000000000001", ciphertext: "7d856f9a613063f2"),
        Vector(
            name: "Blowfish CBC", algorithm: kCCAlgorithmBlowfish, mode: kCCModeCBC,
            key: "0123456789abcdeff0e1d2c3b4a59687", iv: "fedcba9876543210",
            plaintext: "37363534333231204e6f77206973207468652074696d6520666f722000000000",
            ciphertext: "6b77b4d63006dee605b156e27403979358deb9e7154616d959f1652bd5ff92cc"),
        Vector(
            name: "RFC 2268 RC2 8-byte key", algorithm: kCCAlgorithmRC2, mode: kCCModeECB, key: "ffffffffffffffff",
            iv: nil, plaintext: "ffffffffffffffff", ciphertext: "278b27e42e2f0d49"),
        Vector(
            name: "RFC 2268 RC2 8-byte key 2", algorithm: kCCAlgorithmRC2, mode: kCCModeECB, key: "3000000000000000",
            iv: nil, plaintext: "1000000000000001", ciphertext: "30649edf9be7d2c2"),
        Vector(
            name: "RFC 2268 RC2 16-byte key", algorithm: kCCAlgorithmRC2, mode: kCCModeECB,
            key: "88bca90e90875a7f0f79c384627bafb2", iv: nil, plaintext: "0000000000000000",
            ciphertext: "2269552ab0f85ca6"),
        Vector(
            name: "RFC 6229 RC4 40-bit key", algorithm: kCCAlgorithmRC4, mode: kCCModeRC4, key: "0102030405", iv: nil,
            plaintext: String(repeating: "00", count: 32),
            ciphertext: "b2396305f03dc027ccc3524a0a1118a8 6982944f18fc82d589c403a47a0d0919"),
        Vector(
            name: "RFC 6229 RC4 128-bit key", algorithm: kCCAlgorithmRC4, mode: kCCModeRC4,
            key: "0102030405060708090a0b0c0d0e0f10", iv: nil, plaintext: String(repeating: "00", count: 32),
            ciphertext: "9ac7cc9a609d1ef7b2932899cde41b97 5248c4959014126a6e8a84f11d1a9e1c"),
        Vector(
            name: "RC4 Key/Plaintext", algorithm: kCCAlgorithmRC4, mode: kCCModeRC4, key: Data("Key".utf8).hex,
            iv: nil, plaintext: Data("Plaintext".utf8).hex, ciphertext: "bbf316e8d940af0ad3"),
        Vector(
            name: "RC4 Secret/Attack at dawn", algorithm: kCCAlgorithmRC4, mode: kCCModeRC4,
            key: Data("Secret".utf8).hex, iv: nil, plaintext: Data("Attack at dawn".utf8).hex,
            ciphertext: "45a01f645fc35b383552544b9bf5"),
    ]

    static let all = sp800_38a + legacy

    @Test(arguments: all)
    func oneShotMatchesKnownAnswer(_ vector: Vector) {
        let key = Data(hex: vector.key)
        let iv = vector.iv.map { Data(hex: $0) }
        let plaintext = Data(hex: vector.plaintext)
        let ciphertext = Data(hex: vector.ciphertext)
        // CCCrypt knows only ECB and CBC (and RC4); the other modes go through CCCryptorCreateWithMode below.
        guard vector.mode == kCCModeECB || vector.mode == kCCModeCBC || vector.mode == kCCModeRC4 else { return }
        let options = vector.mode == kCCModeECB ? kCCOptionECBMode : 0
        let encrypted = CC.crypt(kCCEncrypt, vector.algorithm, options: options, key: key, iv: iv, plaintext)
        #expect(encrypted.status == kCCSuccess)
        #expect(encrypted.output.hex == ciphertext.hex)
        let decrypted = CC.crypt(kCCDecrypt, vector.algorithm, options: options, key: key, iv: iv, ciphertext)
        #expect(decrypted.status == kCCSuccess)
        #expect(decrypted.output == plaintext)
    }

    @Test(arguments: all)
    func streamingInOddChunksMatchesKnownAnswer(_ vector: Vector) throws {
        let key = Data(hex: vector.key)
        let iv = vector.iv.map { Data(hex: $0) }
        let plaintext = Data(hex: vector.plaintext)
        let ciphertext = Data(hex: vector.ciphertext)
        for chunks in [[1], [3, 5], [7, 1, 16], [17], [1000]] {
            for (op, input, expected) in [(kCCEncrypt, plaintext, ciphertext), (kCCDecrypt, ciphertext, plaintext)] {
                let made = CC.cryptor(op, mode: vector.mode, vector.algorithm, key: key, iv: iv)
                #expect(made.status == kCCSuccess)
                let cryptor = try #require(made.cryptor)
                defer { CCCryptorRelease(cryptor) }
                let result = CC.stream(cryptor, input, chunks: chunks)
                #expect(result.status == kCCSuccess, "\(vector) \(chunks)")
                #expect(result.output.hex == expected.hex, "\(vector) \(op) \(chunks)")
            }
        }
    }
}

/// AES-CBC with PKCS#7 padding: every vector of Wycheproof's aes_cbc_pkcs5_test.json through CCCrypt and a
/// chunked CCCryptor, in both directions (invalid vectors are bad paddings: they must fail to decrypt).
@Suite struct WycheproofCBCTests {
    struct Vector: Decodable {
        let tcId: Int
        let key, iv, msg, ct: String
        let result: WycheproofResult
    }
    struct Group: Decodable { let tests: [Vector] }

    @Test func everyVectorBehaves() throws {
        let file = "aes_cbc_pkcs5_test.json"
        let vectors = try wycheproof(file, Group.self)
        var tally = Tally(file)
        for vector in vectors.testGroups.flatMap(\.tests) {
            let key = Data(hex: vector.key)
            let iv = Data(hex: vector.iv)
            let message = Data(hex: vector.msg)
            let ciphertext = Data(hex: vector.ct)
            let decrypted = CC.crypt(
                kCCDecrypt, kCCAlgorithmAES, options: kCCOptionPKCS7Padding, key: key, iv: iv, ciphertext)
            var streamed: (status: Int, output: Data) = (kCCParamError, Data())
            if let cryptor = CC.cryptor(
                kCCDecrypt, mode: kCCModeCBC, kCCAlgorithmAES, padding: ccPKCS7Padding, key: key, iv: iv
            ).cryptor {
                streamed = CC.stream(cryptor, ciphertext, chunks: [5, 11])
                CCCryptorRelease(cryptor)
            }
            switch vector.result {
            case .valid:
                let encrypted = CC.crypt(
                    kCCEncrypt, kCCAlgorithmAES, options: kCCOptionPKCS7Padding, key: key, iv: iv, message)
                let ok =
                    decrypted.status == kCCSuccess && decrypted.output == message && streamed.output == message
                    && encrypted.status == kCCSuccess && encrypted.output == ciphertext
                tally.record(vector.tcId, vector.result, ok: ok)
            case .invalid, .acceptable:
                // Bad padding is kCCDecodeError; a ciphertext that is not whole blocks is kCCAlignmentError.
                let rejected =
                    [kCCDecodeError, kCCAlignmentError].contains(decrypted.status)
                    && [kCCDecodeError, kCCAlignmentError].contains(streamed.status)
                tally.record(vector.tcId, vector.result, ok: rejected)
            }
        }
        tally.finish(numberOfTests: vectors.numberOfTests)
    }
}
