import Foundation
import OSecTestSupport
import OpenSecurityKit
import Security
import Testing

/// Both profiles in both directions against the real `openssl` CLI (and, for the modern profile,
/// `scripts/envelope.py`: openssl plus python3's standard library).
@Suite(.enabled(if: OpenSSLCLI.isAvailable, "needs the openssl CLI"))
struct EnvelopeInteropTests {
    let recipient = KitKeys.rsa
    let message = Data(#"{"merchant_id":"42","amount":"10.00","card":"4111111111111111","note":"订单"}"#.utf8)

    static let python = "/usr/bin/python3"
    static var script: String { Repository.path("scripts/envelope.py") }

    func keyFiles(_ dir: TemporaryDirectory, _ key: SecKey, _ name: String = "recipient") throws {
        try dir.write("\(name).pem", Data(try KitKeys.pem(key).utf8))
        try dir.write("\(name)-public.pem", Data(try KitKeys.pem(KitKeys.publicKey(key)).utf8))
    }

    // MARK: Legacy

    @Test func openSSLOpensOurLegacyEnvelope() throws {
        let dir = try TemporaryDirectory()
        try keyFiles(dir, recipient)
        let envelope = try Envelope.seal(message, to: KitKeys.publicKey(recipient), id: "42", profile: .legacy)
        let json = try #require(try JSONSerialization.jsonObject(with: try envelope.jsonData()) as? [String: String])
        // encryptkey: RSA PKCS#1 v1.5 of the 16-digit key.
        let encryptKeyText = try #require(json["encryptkey"])
        try dir.write("encryptkey", try #require(Data(base64Encoded: encryptKeyText)))
        let key = try OpenSSLCLI.check([
            "pkeyutl", "-decrypt", "-inkey", dir.path("recipient.pem"), "-pkeyopt", "rsa_padding_mode:pkcs1", "-in",
            dir.path("encryptkey"),
        ]).stdout
        #expect(key.count == 16 && key.allSatisfy { (0x30...0x39).contains($0) })
        // data: AES-256-CBC, zero IV, the key's UTF-8 zero-padded to 32 bytes.
        let hexKey = (key + Data(count: 32 - key.count)).hex
        let dataText = try #require(json["data"])
        try dir.write("data", try #require(Data(base64Encoded: dataText)))
        let plaintext = try OpenSSLCLI.check([
            "enc", "-d", "-aes-256-cbc", "-K", hexKey, "-iv", String(repeating: "0", count: 32), "-in",
            dir.path("data"),
        ]).stdout
        #expect(plaintext == message)
        // digest: MD5 hex of the plaintext.
        try dir.write("plain", plaintext)
        let md5 = try OpenSSLCLI.check(["dgst", "-md5", "-r", dir.path("plain")]).stdoutText
        let digest = try #require(json["digest"])
        #expect(md5.hasPrefix(digest + " "))
    }

    @Test func weOpenALegacyEnvelopeMadeByOpenSSL() throws {
        let dir = try TemporaryDirectory()
        try keyFiles(dir, recipient)
        let key = Data("8302741956023817".utf8)
        try dir.write("key", key)
        try dir.write("plain", message)
        let encryptedKey = try OpenSSLCLI.check([
            "pkeyutl", "-encrypt", "-pubin", "-inkey", dir.path("recipient-public.pem"), "-pkeyopt",
            "rsa_padding_mode:pkcs1", "-in", dir.path("key"),
        ]).stdout
        let data = try OpenSSLCLI.check([
            "enc", "-aes-256-cbc", "-K", (key + Data(count: 16)).hex, "-iv", String(repeating: "0", count: 32), "-in",
            dir.path("plain"),
        ]).stdout
        let md5 = String(try OpenSSLCLI.check(["dgst", "-md5", "-r", dir.path("plain")]).stdoutText.prefix(32))
        let json = try JSONSerialization.data(withJSONObject: [
            "encryptkey": encryptedKey.base64EncodedString(), "merchant_id": "42", "data": data.base64EncodedString(),
            "digest": md5,
        ])
        let envelope = try Envelope(json: json, fieldNames: .merchant)
        #expect(envelope.identifier == "42")
        #expect(try envelope.open(with: recipient, profile: .legacy) == message)
        // A server's key need not be digits: any text up to 32 bytes is the guide's key.
        let other = Data("AbCdEfGh12345678xyz".utf8)
        try dir.write("key2", other)
        let otherKey = try OpenSSLCLI.check([
            "pkeyutl", "-encrypt", "-pubin", "-inkey", dir.path("recipient-public.pem"), "-in", dir.path("key2"),
        ]).stdout
        let otherData = try OpenSSLCLI.check([
            "enc", "-aes-256-cbc", "-K", (other + Data(count: 32 - other.count)).hex, "-iv",
            String(repeating: "0", count: 32), "-in", dir.path("plain"),
        ]).stdout
        let reply = Envelope(
            encryptedKey: otherKey, identifier: "server", payload: otherData, digest: md5.uppercased())
        #expect(try reply.open(with: recipient, profile: .legacy) == message)
    }

    // MARK: Modern

    @Test(.enabled(if: Program.isAvailable(python), "needs python3"))
    func theScriptOpensOurModernEnvelopeAndChecksTheSignature() throws {
        let dir = try TemporaryDirectory()
        try keyFiles(dir, recipient)
        try keyFiles(dir, KitKeys.otherRSA, "sender")
        let envelope = try Envelope.seal(
            message, to: KitKeys.publicKey(recipient), id: "merchant-42", signedBy: KitKeys.otherRSA)
        let json = try envelope.jsonData()
        let opened = try Program.run(
            Self.python,
            [Self.script, "open", "--key", dir.path("recipient.pem"), "--sender", dir.path("sender-public.pem")],
            stdin: json)
        try #require(opened.status != 3, "no AES-GCM available to the script: \(opened.stderr)")
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.stdout == message)
        // The script refuses what we refuse: a changed id (the associated data) and a foreign signature.
        var renamed = envelope
        renamed.identifier = "merchant-43"
        let refused = try Program.run(
            Self.python, [Self.script, "open", "--key", dir.path("recipient.pem")], stdin: try renamed.jsonData())
        #expect(refused.status == 1)
        let wrongSender = try Program.run(
            Self.python,
            [Self.script, "open", "--key", dir.path("recipient.pem"), "--sender", dir.path("recipient-public.pem")],
            stdin: json)
        #expect(wrongSender.status == 1)
    }

    /// The one-pass seal (a `Data`, a `Data` slice that does not start at index 0, a byte array) at every size class
    /// gives envelopes an independent implementation opens to the same bytes.
    @Test(.enabled(if: Program.isAvailable(python), "needs python3"))
    func theScriptOpensOurModernEnvelopesOfEverySizeAndSource() throws {
        let dir = try TemporaryDirectory()
        try keyFiles(dir, recipient)
        let source = Data((0..<((1 << 20) + 7)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 3) })
        for length in [0, 1, 1024, 32 * 1024 + 1, 1 << 20] {
            let whole = source.prefix(length)
            let slice = source.dropFirst(source.count - length)  // startIndex > 0
            let envelopes = [
                try Envelope.seal(whole, to: KitKeys.publicKey(recipient), id: "size-\(length)"),
                try Envelope.seal(slice, to: KitKeys.publicKey(recipient), id: "slice-\(length)"),
                try Envelope.seal(bytes: [UInt8](whole), to: KitKeys.publicKey(recipient), id: "bytes-\(length)"),
            ]
            for (envelope, expected) in zip(envelopes, [whole, slice, whole]) {
                let opened = try Program.run(
                    Self.python, [Self.script, "open", "--key", dir.path("recipient.pem")],
                    stdin: try envelope.jsonData())
                try #require(opened.status != 3, "no AES-GCM available to the script: \(opened.stderr)")
                #expect(opened.status == 0, "\(envelope.identifier): \(opened.stderr)")
                #expect(opened.stdout == Data(expected), "\(envelope.identifier)")
            }
        }
    }

    @Test(.enabled(if: Program.isAvailable(python), "needs python3"))
    func weOpenAModernEnvelopeSealedByTheScript() throws {
        let dir = try TemporaryDirectory()
        try keyFiles(dir, recipient)
        try keyFiles(dir, KitKeys.otherRSA, "sender")
        let sealed = try Program.run(
            Self.python,
            [
                Self.script, "seal", "--recipient", dir.path("recipient-public.pem"), "--id", "server-1",
                "--signer", dir.path("sender.pem"),
            ], stdin: message)
        try #require(sealed.status != 3, "no AES-GCM available to the script: \(sealed.stderr)")
        #expect(sealed.status == 0, "\(sealed.stderr)")
        let envelope = try Envelope(json: sealed.stdout)
        #expect(envelope.identifier == "server-1")
        #expect(
            try envelope.open(with: recipient, verifyingSignatureWith: KitKeys.publicKey(KitKeys.otherRSA)) == message)
    }

    @Test func openSSLUnwrapsTheModernKeyWithOAEPSHA256() throws {
        let dir = try TemporaryDirectory()
        try keyFiles(dir, recipient)
        let envelope = try Envelope.seal(message, to: KitKeys.publicKey(recipient), id: "x")
        try dir.write("encryptkey", envelope.encryptedKey)
        let key = try OpenSSLCLI.check([
            "pkeyutl", "-decrypt", "-inkey", dir.path("recipient.pem"), "-pkeyopt", "rsa_padding_mode:oaep",
            "-pkeyopt", "rsa_oaep_md:sha256", "-in", dir.path("encryptkey"),
        ]).stdout
        #expect(key.count == 32)
        // And a key openssl wraps unwraps here with the algorithm the envelope uses (the GCM part is the
        // script's, above).
        try dir.write("key", key)
        let wrapped = try OpenSSLCLI.check([
            "pkeyutl", "-encrypt", "-pubin", "-inkey", dir.path("recipient-public.pem"), "-pkeyopt",
            "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:sha256", "-in", dir.path("key"),
        ]).stdout
        #expect(wrapped != envelope.encryptedKey)
        #expect(SecKeyCreateDecryptedData(recipient, .rsaEncryptionOAEPSHA256, wrapped as CFData, nil) as Data? == key)
    }
}

/// The transport guide's own flow end to end: `openssl genrsa -des3`, `req -x509`, `x509 -outform der`,
/// `pkcs12 -export -name test-alias`; the client encrypts with the `.cer`, the server side decrypts with the `.pfx`.
@Suite(.enabled(if: OpenSSLFixtures.shared != nil, "needs the openssl CLI"))
struct GuideFlowTests {
    var files: OpenSSLFixtures { OpenSSLFixtures.shared! }

    @Test func encryptWithTheCerDecryptWithThePfx() throws {
        let serverKey = try KeyLoader.publicKey(certificateAt: files.url("guide-cert.cer"))
        let server = try KeyLoader.identity(pkcs12At: files.url("guide.pfx"), password: OpenSSLFixtures.exportPassword)
        #expect(server.label == "test-alias")
        let order = #"{"orderId":"20240101","amount":"88.00"}"#

        // The guide's RSA helper: blocks, base64.
        let base64 = try RSAEncryptor.encrypt(order, with: serverKey)
        #expect(try RSAEncryptor.decrypt(base64: base64, with: server.privateKey) == order)

        // Its SHA-1 signature check.
        let signature = try Signatures.sign(order, with: server.privateKey, digest: .sha1)
        #expect(try Signatures.verify(base64: signature, of: order, with: serverKey, digest: .sha1))

        // Both envelope profiles.
        for profile in [Envelope.Profile.modern, .legacy] {
            let envelope = try Envelope.seal(order, to: serverKey, id: "merchant-1", profile: profile)
            let received = try Envelope(json: try envelope.jsonData())
            #expect(try received.openText(with: server.privateKey, profile: profile) == order, "\(profile)")
        }

        // The -des3 key file itself also opens with its passphrase, and is the .pfx's key.
        let pemKey = try KeyLoader.key(contentsOf: files.url("guide-key.pem"), passphrase: OpenSSLFixtures.passphrase)
        #expect(
            SecKeyCopyExternalRepresentation(KitKeys.publicKey(pemKey), nil) as Data?
                == SecKeyCopyExternalRepresentation(server.publicKey, nil) as Data?)
        #expect(
            thrownStatus { try KeyLoader.identity(pkcs12At: files.url("guide.pfx"), password: "nope") }
                == errSecAuthFailed)
    }
}
