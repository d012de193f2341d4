import Foundation
import OSecASN1
import OSecTestSupport
import Security
import Testing

/// EnvelopedData and AuthEnvelopedData both ways with the openssl CLI, for RSA and EC recipients.
@Suite(.enabled(if: CMSTestPKI.available, "needs the openssl CLI"))
struct CMSEnvelopedDataInteropTests {
    let content = Data("secret content for the recipient\n".utf8)

    private func encrypt(_ recipients: [SecCertificate], signers: [SecIdentity] = []) throws -> Data {
        var created: CMSEncoder?
        try CMS.expect(CMSEncoderCreate(&created))
        let encoder = try #require(created)
        try CMS.expect(CMSEncoderAddRecipients(encoder, recipients as NSArray))
        if !signers.isEmpty { try CMS.expect(CMSEncoderAddSigners(encoder, signers as NSArray)) }
        let bytes = [UInt8](content)
        try CMS.expect(CMSEncoderUpdateContent(encoder, bytes, bytes.count))
        var encoded: CFData?
        try CMS.expect(CMSEncoderCopyEncodedContent(encoder, &encoded))
        return try #require(encoded as Data?)
    }

    private func opensslDecrypt(_ message: Data, _ name: String) throws -> OpenSSLCLI.Result {
        let pki = try #require(CMSTestPKI.shared)
        let directory = try TemporaryDirectory(prefix: "osec-cms-decrypt")
        return try OpenSSLCLI.run(args: [
            "cms", "-decrypt", "-binary", "-inform", "DER", "-in", try directory.write("m.der", message), "-recip",
            name == "rsa" ? pki.rsaCertPEM : pki.ecCertPEM, "-inkey", name == "rsa" ? pki.rsaKeyPEM : pki.ecKeyPEM,
        ])
    }

    private func decode(_ message: Data, with identities: [SecIdentity]) -> (CMSDecoder?, OSStatus) {
        var decoder: CMSDecoder?
        _ = CMSDecoderCreate(&decoder)
        guard let decoder else { return (nil, errSecAllocate) }
        _ = OpenSecurityCMS.setDecryptionIdentities(decoder, identities as NSArray)
        let bytes = [UInt8](message)
        let update = CMSDecoderUpdateMessage(decoder, bytes, bytes.count)
        guard update == errSecSuccess else { return (nil, update) }
        let status = CMSDecoderFinalizeMessage(decoder)
        return (status == errSecSuccess ? decoder : nil, status)
    }

    @Test(arguments: ["rsa", "ec"])
    func oursEncryptsOpenSSLDecrypts(name: String) throws {
        let pki = try #require(CMSTestPKI.shared)
        let message = try encrypt([try pki.certificate(name)])
        let result = try opensslDecrypt(message, name)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == content)
        // And back through our decoder.
        let (decoder, status) = decode(message, with: [try pki.identity(name)])
        #expect(status == errSecSuccess)
        var plain: CFData?
        _ = decoder.map { CMSDecoderCopyContent($0, &plain) }
        #expect((plain as Data?) == content)
        var encrypted = DarwinBoolean(false)
        _ = decoder.map { CMSDecoderIsContentEncrypted($0, &encrypted) }
        #expect(encrypted.boolValue)
    }

    @Test func twoRecipientsEachDecrypt() throws {
        let pki = try #require(CMSTestPKI.shared)
        let message = try encrypt([try pki.certificate("rsa"), try pki.certificate("ec")])
        #expect(try opensslDecrypt(message, "rsa").stdout == content)
        #expect(try opensslDecrypt(message, "ec").stdout == content)
    }

    @Test func signedAndEncryptedOpensWithOpenSSLAndVerifies() throws {
        let pki = try #require(CMSTestPKI.shared)
        let message = try encrypt([try pki.certificate("ec")], signers: [try pki.identity("rsa")])
        let inner = try opensslDecrypt(message, "ec")
        #expect(inner.status == 0, "\(inner.stderr)")
        let directory = try TemporaryDirectory(prefix: "osec-cms-signenc")
        // openssl prints the decrypted content: the SignedData itself (RFC 5652 §6.1), to wrap in a ContentInfo.
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(ASN1ObjectIdentifier(arcs: [1, 2, 840, 113549, 1, 7, 2]))
            coder.appendConstructedNode(identifier: .contextSpecific(0, constructed: true)) {
                $0.appendRawBytes([UInt8](inner.stdout))
            }
        }
        let verified = try OpenSSLCLI.run(args: [
            "cms", "-verify", "-inform", "DER", "-in", try directory.write("s.der", Data(coder.serializedBytes)),
            "-CAfile",
            pki.bundlePEM, "-binary", "-purpose", "any",
        ])
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(verified.stdout == content)
        let (decoder, status) = decode(message, with: [try pki.identity("ec")])
        #expect(status == errSecSuccess)
        let opened = try #require(decoder)
        #expect(CMS.status(opened) == .valid)
        var plain: CFData?
        _ = CMSDecoderCopyContent(opened, &plain)
        #expect((plain as Data?) == content)
    }

    @Test(arguments: [
        ("rsa", ["-aes256"]), ("rsa", ["-aes128", "-keyopt", "rsa_padding_mode:oaep"]),
        ("rsa", ["-aes192", "-keyopt", "rsa_padding_mode:oaep", "-keyopt", "rsa_oaep_md:sha256"]),
        ("ec", ["-aes256"]), ("ec", ["-aes128"]), ("rsa", ["-aes-256-gcm"]), ("ec", ["-aes-128-gcm"]),
        ("rsa", ["-aes256", "-stream"]),
    ])
    func opensslEncryptsOursDecrypts(name: String, options: [String]) throws {
        let pki = try #require(CMSTestPKI.shared)
        let directory = try TemporaryDirectory(prefix: "osec-cms-encrypt")
        let message = try OpenSSLCLI.check(
            [
                "cms", "-encrypt", "-binary", "-outform", "DER", "-in", try directory.write("c.bin", content),
            ] + options.filter { $0.hasPrefix("-aes") || $0 == "-stream" }
                + ["-recip", name == "rsa" ? pki.rsaCertPEM : pki.ecCertPEM]
                + options.filter { !$0.hasPrefix("-aes") && $0 != "-stream" }
        ).stdout
        let (decoder, status) = decode(message, with: [try pki.identity("ec"), try pki.identity("rsa")])
        #expect(status == errSecSuccess)
        var plain: CFData?
        _ = decoder.map { CMSDecoderCopyContent($0, &plain) }
        #expect((plain as Data?) == content)
    }

    @Test func tamperedAuthEnvelopedDataFails() throws {
        let pki = try #require(CMSTestPKI.shared)
        let directory = try TemporaryDirectory(prefix: "osec-cms-gcm")
        var message = try OpenSSLCLI.check([
            "cms", "-encrypt", "-binary", "-outform", "DER", "-in", try directory.write("c.bin", content),
            "-aes-256-gcm", "-recip", pki.rsaCertPEM,
        ]).stdout
        message[message.endIndex - 3] ^= 0x01  // inside the MAC
        let (_, status) = decode(message, with: [try pki.identity("rsa")])
        #expect(status == errSecDecode)
    }
}
