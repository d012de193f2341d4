import Foundation
import OSecTestSupport
import OpenSecurityKit
import Security
import Testing

@Suite struct RSAEncryptorTests {
    let key = KitKeys.rsa
    var publicKey: SecKey { KitKeys.publicKey(key) }

    @Test func blockLengthsAreKMinusThePaddingOverhead() {
        #expect(RSAPadding.pkcs1.maximumBlockLength(for: publicKey) == 256 - 11)
        #expect(RSAPadding.oaepSHA1.maximumBlockLength(for: publicKey) == 256 - 42)
        #expect(RSAPadding.oaepSHA256.maximumBlockLength(for: publicKey) == 256 - 66)
        #expect(RSAPadding.oaepSHA512.maximumBlockLength(for: KitKeys.publicKey(KitKeys.rsa1024)) == 0)
    }

    @Test func anyLengthRoundTripsInWholeBlocks() throws {
        for padding in [RSAPadding.pkcs1, .oaepSHA1, .oaepSHA256] {
            let room = padding.maximumBlockLength(for: publicKey)
            for length in [0, 1, room - 1, room, room + 1, 3 * room + 7] {
                let plaintext = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) })
                let ciphertext = try RSAEncryptor.encrypt(plaintext, with: publicKey, padding: padding)
                #expect(ciphertext.count == max(1, (length + room - 1) / room) * 256, "\(padding) \(length)")
                #expect(try RSAEncryptor.decrypt(ciphertext, with: key, padding: padding) == plaintext)
            }
        }
    }

    @Test func aPrivateKeyEncryptsWithItsPublicHalf() throws {
        let ciphertext = try RSAEncryptor.encrypt(Data("x".utf8), with: key)
        #expect(try RSAEncryptor.decrypt(ciphertext, with: key) == Data("x".utf8))
    }

    @Test func base64TextHelpersRoundTripAndAcceptLineBreaks() throws {
        let text = String(repeating: "交易密码=4111-1111-1111-1111; ", count: 20)
        let base64 = try RSAEncryptor.encrypt(text, with: publicKey)
        #expect(try RSAEncryptor.decrypt(base64: base64, with: key) == text)
        // Java's MIME encoder breaks lines at 76 columns.
        var wrapped = ""
        for (index, character) in base64.enumerated() {
            if index > 0 && index % 76 == 0 { wrapped += "\r\n" }
            wrapped.append(character)
        }
        #expect(try RSAEncryptor.decrypt(base64: wrapped, with: key) == text)
        #expect(thrownStatus { try RSAEncryptor.decrypt(base64: "not*base64", with: key) } == errSecDecode)
    }

    @Test func wrongKeysTruncationAndFlippedBitsAreDecodeErrors() throws {
        let ciphertext = try RSAEncryptor.encrypt(Data(repeating: 7, count: 600), with: publicKey)
        #expect(thrownStatus { try RSAEncryptor.decrypt(ciphertext, with: KitKeys.otherRSA) } == errSecDecode)
        #expect(thrownStatus { try RSAEncryptor.decrypt(ciphertext.dropLast(), with: key) } == errSecDecode)
        #expect(thrownStatus { try RSAEncryptor.decrypt(Data(), with: key) } == errSecDecode)
        #expect(thrownStatus { try RSAEncryptor.decrypt(ciphertext.flipping(300), with: key) } == errSecDecode)
        #expect(
            thrownStatus { try RSAEncryptor.decrypt(ciphertext, with: key, padding: .oaepSHA256) } == errSecDecode)
    }

    @Test func keysThatCannotDoItAreParameterErrors() throws {
        #expect(thrownStatus { try RSAEncryptor.encrypt(Data("x".utf8), with: KitKeys.p256) } == errSecParam)
        let ciphertext = try RSAEncryptor.encrypt(Data("x".utf8), with: publicKey)
        #expect(thrownStatus { try RSAEncryptor.decrypt(ciphertext, with: publicKey) } == errSecParam)
        #expect(
            thrownStatus {
                try RSAEncryptor.encrypt(Data("x".utf8), with: KitKeys.publicKey(KitKeys.rsa1024), padding: .oaepSHA512)
            } == errSecParam)
    }

    @Test func oversizedInputIsRefusedBeforeAnyWork() {
        let big = Data(count: RSAEncryptor.maximumLength + 1)
        #expect(thrownStatus { try RSAEncryptor.encrypt(big, with: publicKey) } == errSecDataTooLarge)
        #expect(thrownStatus { try RSAEncryptor.decrypt(big, with: key) } == errSecDataTooLarge)
    }

    @Test func nonUTF8PlaintextIsAConversionErrorForText() throws {
        let base64 = try RSAEncryptor.encrypt(Data([0xC3, 0x28, 0xFF]), with: publicKey).base64EncodedString()
        #expect(thrownStatus { try RSAEncryptor.decrypt(base64: base64, with: key) } == errSecConversionError)
    }
}

@Suite(.enabled(if: OpenSSLCLI.isAvailable, "needs the openssl CLI"))
struct RSAEncryptorOpenSSLTests {
    let key = KitKeys.rsa

    /// Each block goes through `openssl pkeyutl` separately, as a server decrypting the guide's blocks does.
    @Test func openSSLDecryptsEveryBlockAndEncryptsBlocksWeRead() throws {
        let dir = try TemporaryDirectory()
        try dir.write("key.pem", Data(try KitKeys.pem(key).utf8))
        try dir.write("pub.pem", Data(try KitKeys.pem(KitKeys.publicKey(key)).utf8))
        for (padding, options) in [
            (RSAPadding.pkcs1, ["-pkeyopt", "rsa_padding_mode:pkcs1"]),
            (.oaepSHA1, ["-pkeyopt", "rsa_padding_mode:oaep"]),
            (.oaepSHA256, ["-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:sha256"]),
        ] {
            let plaintext = Data((0..<500).map { UInt8(truncatingIfNeeded: $0) })
            let ciphertext = try RSAEncryptor.encrypt(plaintext, with: key, padding: padding)
            var recovered = Data()
            for offset in stride(from: 0, to: ciphertext.count, by: 256) {
                try dir.write("block", ciphertext.subdata(in: offset..<offset + 256))
                recovered += try OpenSSLCLI.check(
                    ["pkeyutl", "-decrypt", "-inkey", dir.path("key.pem"), "-in", dir.path("block")] + options
                ).stdout
            }
            #expect(recovered == plaintext, "\(padding)")
            // And blocks openssl encrypted decrypt here.
            var blocks = Data()
            let room = padding.maximumBlockLength(for: key)
            for offset in stride(from: 0, to: plaintext.count, by: room) {
                try dir.write("chunk", plaintext.subdata(in: offset..<min(offset + room, plaintext.count)))
                blocks += try OpenSSLCLI.check(
                    ["pkeyutl", "-encrypt", "-pubin", "-inkey", dir.path("pub.pem"), "-in", dir.path("chunk")] + options
                ).stdout
            }
            #expect(try RSAEncryptor.decrypt(blocks, with: key, padding: padding) == plaintext, "\(padding)")
        }
    }
}

@Suite struct SignatureTests {
    let message = "amount=10.00&merchant_id=42&order=2024-0001"

    @Test func rsaAndECSignaturesVerifyAndTamperingDoesNot() throws {
        for key in [KitKeys.rsa, KitKeys.p256] {
            for digest in [SignatureDigest.sha1, .sha256, .sha384, .sha512] {
                let signature = try Signatures.sign(message, with: key, digest: digest)
                let publicKey = KitKeys.publicKey(key)
                #expect(try Signatures.verify(base64: signature, of: message, with: publicKey, digest: digest))
                #expect(try !Signatures.verify(base64: signature, of: message + " ", with: publicKey, digest: digest))
                let raw = try #require(Data(base64Encoded: signature))
                #expect(
                    try !Signatures.verify(raw.flipping(5), of: Data(message.utf8), with: publicKey, digest: digest))
                #expect(try !Signatures.verify(base64: "AAAA", of: message, with: publicKey, digest: digest))
                #expect(try !Signatures.verify(base64: "%%%", of: message, with: publicKey, digest: digest))
            }
        }
        let signature = try Signatures.sign(message, with: KitKeys.rsa, digest: .sha1)
        #expect(
            try !Signatures.verify(
                base64: signature, of: message, with: KitKeys.publicKey(KitKeys.otherRSA), digest: .sha1))
        #expect(try !Signatures.verify(base64: signature, of: message, with: KitKeys.publicKey(KitKeys.rsa)))
    }

    @Test func keysThatCannotSignAreParameterErrors() {
        #expect(thrownStatus { try Signatures.sign(message, with: KitKeys.publicKey(KitKeys.rsa)) } == errSecParam)
    }
}

@Suite(.enabled(if: OpenSSLCLI.isAvailable, "needs the openssl CLI"))
struct SignatureOpenSSLTests {
    @Test func openSSLVerifiesOurSignaturesAndWeVerifyItsSignatures() throws {
        let dir = try TemporaryDirectory()
        let message = Data("order=42&amount=10.00".utf8)
        try dir.write("msg", message)
        for key in [KitKeys.rsa, KitKeys.p256] {
            try dir.write("key.pem", Data(try KitKeys.pem(key).utf8))
            try dir.write("pub.pem", Data(try KitKeys.pem(KitKeys.publicKey(key)).utf8))
            for (digest, name) in [(SignatureDigest.sha1, "-sha1"), (.sha256, "-sha256")] {
                try dir.write("sig", try Signatures.sign(message, with: key, digest: digest))
                let verified = try OpenSSLCLI.run(args: [
                    "dgst", name, "-verify", dir.path("pub.pem"), "-signature", dir.path("sig"), dir.path("msg"),
                ])
                #expect(verified.status == 0, "\(digest): \(verified.stderr)")
                let signed = try OpenSSLCLI.check(["dgst", name, "-sign", dir.path("key.pem"), dir.path("msg")]).stdout
                #expect(try Signatures.verify(signed, of: message, with: KitKeys.publicKey(key), digest: digest))
            }
        }
    }
}
