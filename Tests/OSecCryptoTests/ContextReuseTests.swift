import Foundation
import OSecCryptoFoundation
import OSecTestSupport
import Testing

@testable import OSecCrypto

/// A key reuses the OpenSSL contexts of finished operations (``PKeyContextPool``). These tests interleave
/// operations with different parameters on one key, so a context configured for one must never serve another.
@Suite struct ContextReuseTests {
    /// A fixed RSA-2048 key from the Wycheproof PKCS#1 decryption file (no key generation needed).
    private static func rsaKey() throws -> AsymmetricKey {
        struct Group: Decodable { let privateKeyPkcs8: String }
        let file = try Wycheproof.load("rsa_pkcs1_2048_test.json", Group.self)
        return try AsymmetricKey(pkcs8: Hex.data(try #require(file.testGroups.first).privateKeyPkcs8))
    }

    @Test func interleavedPSSSaltLengthsAndDigestsStayApart() throws {
        let key = try Self.rsaKey()
        let publicKey = key.publicKey
        let message = Data("interleaved".utf8)
        let schemes: [SignatureScheme] = [
            .rsaPSS(digest: .sha256, saltLength: 32, inputIsDigest: false),
            .rsaPSS(digest: .sha256, saltLength: 0, inputIsDigest: false),
            .rsaPSS(digest: .sha384, saltLength: 48, inputIsDigest: false),
            .rsaPKCS1v15(digest: .sha256, inputIsDigest: false),
            .rsaPKCS1v15(digest: .sha512, inputIsDigest: false),
        ]
        for _ in 0..<3 {
            for scheme in schemes {
                let signature = try key.sign(message, scheme: scheme)
                for other in schemes {
                    // Each signature verifies under its own parameters only, whatever ran on the key before.
                    #expect(try publicKey.verify(signature, for: message, scheme: other) == (other == scheme))
                }
            }
        }
    }

    @Test func decryptionPaddingsStayApartOnOneKey() throws {
        let key = try Self.rsaKey()
        let publicKey = key.publicKey
        let secret = Data(repeating: 7, count: 20)
        let paddings: [RSAEncryptionPadding] = [.oaep(.sha1), .oaep(.sha256), .pkcs1]
        for _ in 0..<3 {
            for padding in paddings {
                let ciphertext = try publicKey.encrypt(secret, padding: padding)
                #expect(try key.decrypt(ciphertext, padding: padding) == secret)
                // (PKCS#1 v1.5 decoding of an OAEP block succeeds by chance about once in 2^16; not asserted.)
                for other in paddings where other != padding && other != .pkcs1 {
                    #expect(throws: CryptoError(.decryptionFailed, "")) {
                        try key.decrypt(ciphertext, padding: other)
                    }
                }
            }
        }
        // A labelled OAEP ciphertext needs the label; the pooled (label-less) context must not decrypt it.
        let labelled = try publicKey.encrypt(secret, padding: .oaep(.sha256), label: Data("label".utf8))
        #expect(throws: CryptoError(.decryptionFailed, "")) { try key.decrypt(labelled, padding: .oaep(.sha256)) }
        #expect(try key.decrypt(labelled, padding: .oaep(.sha256), label: Data("label".utf8)) == secret)
        #expect(
            try key.decrypt(try publicKey.encrypt(secret, padding: .oaep(.sha256)), padding: .oaep(.sha256)) == secret)
    }

    @Test func failedVerificationDoesNotSpoilTheNextOne() throws {
        let key = try AsymmetricKey.generateEC(.p256)
        let publicKey = key.publicKey
        let message = Data("next".utf8)
        let scheme = SignatureScheme.ecdsaDER(digest: .sha256, inputIsDigest: false)
        let signature = try key.sign(message, scheme: scheme)
        for malformed in [Data([0x30]), Data([0x30, 0x00]), signature + Data([0]), Data(count: 72)] {
            #expect(try !publicKey.verify(malformed, for: message, scheme: scheme))
            #expect(try publicKey.verify(signature, for: message, scheme: scheme))
        }
        // Non-minimal DER (a long-form length) is rejected like OpenSSL's own re-encoding check does.
        var longForm = Data([0x30, 0x81, signature[1]])
        longForm.append(signature.dropFirst(2))
        #expect(try !publicKey.verify(longForm, for: message, scheme: scheme))
    }

    @Test func signaturesComeBackAsDataOrNSDataWithTheSameBytes() throws {
        let key = try AsymmetricKey.generateEC(.p384)
        let message = NSData(data: Data("either container".utf8))
        let scheme = SignatureScheme.ecdsaRaw(digest: .sha384, inputIsDigest: false)
        let asNSData = try key.sign(message, scheme: scheme, as: .nsData)
        let asData = try key.sign(message.cryptoData, scheme: scheme)
        #expect(asNSData.length == 96 && asData.count == 96)
        #expect(try key.publicKey.verify(asNSData, for: message, scheme: scheme))
        #expect(try key.publicKey.verify(asData, for: [UInt8](message.cryptoData), scheme: scheme))
    }
}
