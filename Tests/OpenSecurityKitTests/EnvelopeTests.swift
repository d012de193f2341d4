import Foundation
import OpenSecurityKit
import Security
import Testing

@Suite struct EnvelopeTests {
    let recipient = KitKeys.rsa
    var recipientPublic: SecKey { KitKeys.publicKey(recipient) }
    let message = Data(#"{"order":"2024-0001","amount":"10.00","card":"4111111111111111"}"#.utf8)

    /// The one error every failed opening gives.
    func opensNot(_ body: () throws -> Any) -> Bool { thrownStatus(body) == errSecDecode }

    @Test func modernRoundTripsForRSAAndECRecipients() throws {
        for key in [KitKeys.rsa, KitKeys.p256] {
            let envelope = try Envelope.seal(message, to: KitKeys.publicKey(key), id: "merchant-42")
            #expect(envelope.identifier == "merchant-42")
            #expect(envelope.payload.count == 12 + message.count + 16)
            #expect(envelope.signature == nil && envelope.digest == nil)
            #expect(try envelope.open(with: key) == message)
            let json = try envelope.jsonData()
            #expect(try Envelope(json: json).open(with: key) == message)
        }
    }

    @Test func eachEnvelopeHasAFreshKeyAndNonce() throws {
        let first = try Envelope.seal(message, to: recipientPublic, id: "a")
        let second = try Envelope.seal(message, to: recipientPublic, id: "a")
        #expect(first.encryptedKey != second.encryptedKey)
        #expect(first.payload.prefix(12) != second.payload.prefix(12))
        #expect(first.payload != second.payload)
        // Nonces come from a pool refilled every 4 KiB: 400 envelopes (4,800 nonce bytes) cross a refill and
        // still never repeat a nonce.
        var nonces = Set<Data>()
        for _ in 0..<400 { nonces.insert(try Envelope.seal(message, to: recipientPublic, id: "a").payload.prefix(12)) }
        #expect(nonces.count == 400)
    }

    @Test func modernKeyWrapIsOAEPSHA256ForRSAAndECIESForEC() throws {
        let rsa = try Envelope.seal(message, to: recipientPublic, id: "x")
        let key = try #require(
            SecKeyCreateDecryptedData(recipient, .rsaEncryptionOAEPSHA256, rsa.encryptedKey as CFData, nil) as Data?)
        #expect(key.count == 32)
        let ec = try Envelope.seal(message, to: KitKeys.publicKey(KitKeys.p256), id: "x")
        let ecKey =
            SecKeyCreateDecryptedData(
                KitKeys.p256, .eciesEncryptionCofactorVariableIVX963SHA256AESGCM, ec.encryptedKey as CFData, nil)
            as Data?
        #expect(ecKey?.count == 32)
    }

    @Test func emptyAndLargeMessagesRoundTrip() throws {
        for length in [0, 1, 1 << 20] {
            let plaintext = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            for profile in [Envelope.Profile.modern, .legacy] {
                let envelope = try Envelope.seal(plaintext, to: recipientPublic, id: "big", profile: profile)
                let parsed = try Envelope(json: try envelope.jsonData())
                #expect(try parsed.open(with: recipient, profile: profile) == plaintext, "\(profile) \(length)")
            }
        }
    }

    /// `Data` is lent to the cipher as it is (OSecCrypto's one-pass seal; it used to be streamed in 32 KiB pieces):
    /// every length around the old piece boundaries, and slices that do not start at index 0, give the ciphertext
    /// the byte-array path gives (same key and nonce cannot be forced, so each is checked by opening it, in both
    /// directions of the two paths).
    @Test func streamedDataMessagesOpenAtEveryPieceBoundary() throws {
        let piece = 32 * 1024
        let source = Data((0..<(3 * piece + 9)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) })
        for length in [piece, piece + 1, 2 * piece - 1, 3 * piece + 9] {
            let whole = source.prefix(length)
            let slice = source.dropFirst(source.count - length)  // startIndex > 0
            for message in [whole, slice] {
                let envelope = try Envelope.seal(message, to: recipientPublic, id: "piece")
                #expect(try envelope.openBytes(with: recipient) == [UInt8](message), "\(length)")
                let parsed = try Envelope(json: try envelope.jsonData())
                #expect(try parsed.open(with: recipient) == Data(message))
            }
            let fromBytes = try Envelope.seal(bytes: [UInt8](whole), to: recipientPublic, id: "piece")
            #expect(try fromBytes.open(with: recipient) == Data(whole))
        }
    }

    @Test func textAndByteVariants() throws {
        let envelope = try Envelope.seal("订单 ✓", to: recipientPublic, id: "t")
        #expect(try envelope.openText(with: recipient) == "订单 ✓")
        let bytes = try Envelope.seal(bytes: [1, 2, 3], to: recipientPublic, id: "b")
        #expect(try bytes.openBytes(with: recipient) == [1, 2, 3])
        let binary = try Envelope.seal(Data([0xFF, 0xFE, 0xC3]), to: recipientPublic, id: "n")
        #expect(thrownStatus { try binary.openText(with: recipient) } == errSecConversionError)
    }

    @Test func fieldNamesAreConfigurable() throws {
        let names = Envelope.FieldNames.merchant
        let envelope = try Envelope.seal(message, to: recipientPublic, id: "m-1", fieldNames: names)
        let object = try #require(try JSONSerialization.jsonObject(with: try envelope.jsonData()) as? [String: Any])
        #expect(Set(object.keys) == ["encryptkey", "merchant_id", "data"])
        #expect(object["merchant_id"] as? String == "m-1")
        #expect(try Envelope(json: try envelope.jsonData(), fieldNames: names).open(with: recipient) == message)
        // Read with the wrong names: the same single error.
        #expect(opensNot { try Envelope(json: try envelope.jsonData()) })
        let custom = Envelope.FieldNames(key: "k", identifier: "who", data: "body", signature: "sig", digest: "md5")
        let signed = try Envelope.seal(
            message, to: recipientPublic, id: "c", signedBy: KitKeys.otherRSA, fieldNames: custom)
        let keys = try #require(try JSONSerialization.jsonObject(with: try signed.jsonData()) as? [String: Any]).keys
        #expect(Set(keys) == ["k", "who", "body", "sig"])
        let clash = Envelope.FieldNames(key: "x", identifier: "x")
        var bad = signed
        bad.fieldNames = clash
        #expect(thrownStatus { try bad.jsonData() } == errSecParam)
    }

    @Test func jsonIsCompactWithBase64Fields() throws {
        let envelope = try Envelope.seal(message, to: recipientPublic, id: "id/with/slashes")
        let text = try envelope.jsonString()
        #expect(text.hasPrefix(#"{"data":""#))
        #expect(text.contains(#""id":"id/with/slashes""#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String])
        #expect(Data(base64Encoded: try #require(object["encryptkey"]))?.count == 256)
        #expect(Data(base64Encoded: try #require(object["data"])) == envelope.payload)
        // Codable through any encoder: the fields as stored.
        let decoder = JSONDecoder()
        decoder.userInfo[.envelopeFieldNames] = Envelope.FieldNames.standard
        #expect(try decoder.decode(Envelope.self, from: Data(text.utf8)) == envelope)
    }

    @Test func everyTamperingGivesTheSameSingleError() throws {
        let envelope = try Envelope.seal(message, to: recipientPublic, id: "merchant-42")
        var cases: [(String, Envelope)] = []
        for index in [0, 11, 12, 20, envelope.payload.count - 17, envelope.payload.count - 1] {
            var copy = envelope
            copy.payload = envelope.payload.flipping(index, bit: 2)
            cases.append(("payload byte \(index)", copy))
        }
        for index in [0, 100, 255] {
            var copy = envelope
            copy.encryptedKey = envelope.encryptedKey.flipping(index)
            cases.append(("key byte \(index)", copy))
        }
        var renamed = envelope
        renamed.identifier = "merchant-43"
        cases.append(("identifier", renamed))
        var truncated = envelope
        truncated.payload = envelope.payload.dropLast()
        cases.append(("payload truncated", truncated))
        var short = envelope
        short.payload = envelope.payload.prefix(27)
        cases.append(("payload shorter than nonce and tag", short))
        var keyCut = envelope
        keyCut.encryptedKey = envelope.encryptedKey.dropLast()
        cases.append(("key truncated", keyCut))
        var empty = envelope
        empty.encryptedKey = Data()
        empty.payload = Data()
        cases.append(("empty", empty))
        for (name, tampered) in cases {
            #expect(opensNot { try tampered.open(with: recipient) }, "\(name)")
        }
        #expect(opensNot { try envelope.open(with: KitKeys.otherRSA) }, "wrong key")
        #expect(opensNot { try envelope.open(with: recipient, profile: .legacy) }, "wrong profile")
    }

    @Test func everyTruncationOfTheJSONGivesTheSameSingleError() throws {
        let json = try Envelope.seal(message, to: recipientPublic, id: "j").jsonData()
        for length in stride(from: 0, to: json.count, by: 13) {
            #expect(opensNot { try Envelope(json: json.prefix(length)).open(with: recipient) }, "\(length)")
        }
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: String])
        for field in ["encryptkey", "id", "data"] {
            var missing = object
            missing[field] = nil
            let data = try JSONSerialization.data(withJSONObject: missing)
            #expect(opensNot { try Envelope(json: data).open(with: recipient) }, "without \(field)")
        }
        var notBase64 = object
        notBase64["data"] = "!!" + (object["data"] ?? "")
        #expect(opensNot { try Envelope(json: try JSONSerialization.data(withJSONObject: notBase64)) })
        #expect(opensNot { try Envelope(json: "[1,2,3]") })
        #expect(opensNot { try Envelope(json: Data([0xFF, 0x00])) })
    }

    @Test func signaturesCoverTheWholeEnvelope() throws {
        let sender = KitKeys.otherRSA
        let senderPublic = KitKeys.publicKey(sender)
        let envelope = try Envelope.seal(message, to: recipientPublic, id: "signed", signedBy: sender)
        #expect(envelope.signature?.count == 256)
        #expect(try envelope.open(with: recipient, verifyingSignatureWith: senderPublic) == message)
        // Unchecked unless a sender key is given.
        #expect(try envelope.open(with: recipient) == message)
        var forged = envelope
        forged.signature = envelope.signature?.flipping(3)
        #expect(opensNot { try forged.open(with: recipient, verifyingSignatureWith: senderPublic) })
        var unsigned = envelope
        unsigned.signature = nil
        #expect(opensNot { try unsigned.open(with: recipient, verifyingSignatureWith: senderPublic) })
        #expect(opensNot { try envelope.open(with: recipient, verifyingSignatureWith: KitKeys.publicKey(KitKeys.rsa)) })
        // Re-encrypting the same message under the same id for the recipient breaks the signature.
        var swapped = try Envelope.seal(message, to: recipientPublic, id: "signed")
        swapped.signature = envelope.signature
        #expect(opensNot { try swapped.open(with: recipient, verifyingSignatureWith: senderPublic) })
        // EC senders sign with ECDSA.
        let ecSigned = try Envelope.seal(message, to: recipientPublic, id: "ec", signedBy: KitKeys.p256)
        #expect(try ecSigned.open(with: recipient, verifyingSignatureWith: KitKeys.publicKey(KitKeys.p256)) == message)
    }

    @Test func aSenderIdentitySigns() throws {
        let identity = try KitIdentity.make()
        let envelope = try Envelope.seal(message, to: recipientPublic, id: "id", signedBy: identity.identity)
        #expect(try envelope.open(with: recipient, verifyingSignatureWith: identity.publicKey) == message)
    }

    @Test func legacyRoundTripsAndHasTheGuidesShape() throws {
        let envelope = try Envelope.seal(message, to: recipientPublic, id: "m", profile: .legacy)
        #expect(envelope.signature == nil)
        let digest = try #require(envelope.digest)
        #expect(digest.count == 32 && digest == digest.lowercased())
        #expect(envelope.payload.count == (message.count / 16 + 1) * 16)
        let key = try #require(
            SecKeyCreateDecryptedData(recipient, .rsaEncryptionPKCS1, envelope.encryptedKey as CFData, nil) as Data?)
        #expect(key.count == 16)
        #expect(key.allSatisfy { (0x30...0x39).contains($0) })
        #expect(try envelope.open(with: recipient, profile: .legacy) == message)
        let names = try #require(try JSONSerialization.jsonObject(with: try envelope.jsonData()) as? [String: Any])
        #expect(Set(names.keys) == ["encryptkey", "id", "data", "digest"])
        // An uppercase hex digest from a server is accepted.
        var upper = envelope
        upper.digest = digest.uppercased()
        #expect(try upper.open(with: recipient, profile: .legacy) == message)
    }

    @Test func legacyKeysUseEveryDigit() throws {
        var seen = Set<UInt8>()
        for _ in 0..<6 {
            let envelope = try Envelope.seal(Data("x".utf8), to: recipientPublic, id: "d", profile: .legacy)
            let key = try #require(
                SecKeyCreateDecryptedData(recipient, .rsaEncryptionPKCS1, envelope.encryptedKey as CFData, nil) as Data?
            )
            seen.formUnion(key)
        }
        // 96 digits: the chance of a digit missing by luck is below 10 × 0.9^96 ≈ 4e-4.
        #expect(seen == Set((0x30...0x39).map { UInt8($0) }), "digits seen: \(seen.sorted())")
    }

    @Test func legacyTamperingGivesTheSameSingleError() throws {
        let envelope = try Envelope.seal(message, to: recipientPublic, id: "m", profile: .legacy)
        var cases: [(String, Envelope)] = []
        for index in [0, 15, envelope.payload.count - 1] {
            var copy = envelope
            copy.payload = envelope.payload.flipping(index)
            cases.append(("payload \(index)", copy))
        }
        var key = envelope
        key.encryptedKey = envelope.encryptedKey.flipping(77)
        cases.append(("key", key))
        var digest = envelope
        digest.digest = String(repeating: "0", count: 32)
        cases.append(("digest", digest))
        var noDigest = envelope
        noDigest.digest = nil
        cases.append(("no digest", noDigest))
        var truncated = envelope
        truncated.payload = envelope.payload.dropLast(16)
        cases.append(("truncated", truncated))
        var odd = envelope
        odd.payload = envelope.payload.dropLast(3)
        cases.append(("not whole blocks", odd))
        for (name, tampered) in cases {
            #expect(opensNot { try tampered.open(with: recipient, profile: .legacy) }, "\(name)")
        }
        #expect(opensNot { try envelope.open(with: KitKeys.otherRSA, profile: .legacy) }, "wrong key")
        #expect(opensNot { try envelope.open(with: recipient) }, "opened as modern")
    }

    @Test func wrongKeysAndOptionsAreParameterErrors() throws {
        #expect(thrownStatus { try Envelope.seal(message, to: KitKeys.p256, id: "x", profile: .legacy) } == errSecParam)
        #expect(
            thrownStatus {
                try Envelope.seal(message, to: recipientPublic, id: "x", profile: .legacy, signedBy: KitKeys.otherRSA)
            } == errSecParam)
        let envelope = try Envelope.seal(message, to: recipientPublic, id: "x")
        #expect(thrownStatus { try envelope.open(with: recipientPublic) } == errSecParam)
    }

    @Test func oversizedMessagesAreRefusedBeforeAnyWork() {
        let big = Data(count: Envelope.maximumPlaintextLength + 1)
        #expect(thrownStatus { try Envelope.seal(big, to: recipientPublic, id: "x") } == errSecDataTooLarge)
        #expect(opensNot { try Envelope(json: Data(count: Envelope.maximumJSONLength + 1)) })
    }
}

/// A self-signed identity made through OpenSecurity's certificate API (for the signing-identity test).
struct KitIdentity {
    let identity: SecIdentity
    let publicKey: SecKey

    static func make() throws -> KitIdentity {
        let key = KitKeys.otherP256
        let certificate = try OpenSecurityCertificates.createSelfSignedCertificate(
            subject: [("CN", "sender.example.com")], privateKey: key, notBefore: Date(timeIntervalSinceNow: -60),
            notAfter: Date(timeIntervalSinceNow: 86_400))
        let identity = try OpenSecurityCertificates.createIdentity(certificate: certificate, privateKey: key)
        return KitIdentity(identity: identity, publicKey: KitKeys.publicKey(key))
    }
}
