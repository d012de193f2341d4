import Foundation
import OSecASN1
import OSecCMS
import OSecCrypto
import OSecTestSupport
import OSecX509
import Testing

/// The pure-Swift layer directly: signatures without signed attributes and with subjectKeyIdentifier signer ids
/// (forms Apple's encoder does not offer), checked by openssl and by our verifier; re-encoding of BER as DER.
@Suite(.enabled(if: CMSTestPKI.available, "needs the openssl CLI"))
struct CMSBuilderTests {
    let content: [UInt8] = Array("builder content\n".utf8)

    private func signer(_ name: String, ski: Bool, digest: DigestAlgorithm) throws -> SignedDataBuilder.Signer {
        let pki = try #require(CMSTestPKI.shared)
        let certificate = try Certificate(derEncoded: [UInt8](try pki.directory.read("\(name).der")))
        let key = try AsymmetricKey(pemBytes: try pki.directory.read("\(name).key"))
        return SignedDataBuilder.Signer(
            certificate: certificate, key: CMSSigningKey(key), digest: digest, useSubjectKeyIdentifier: ski)
    }

    private func opensslVerifies(_ message: [UInt8], detached: [UInt8]? = nil) throws -> OpenSSLCLI.Result {
        let pki = try #require(CMSTestPKI.shared)
        let directory = try TemporaryDirectory(prefix: "osec-cms-builder")
        var args = [
            "cms", "-verify", "-inform", "DER", "-in", try directory.write("m.der", Data(message)), "-CAfile",
            pki.bundlePEM, "-binary", "-purpose", "any",
        ]
        if let detached { args += ["-content", try directory.write("c.bin", Data(detached))] }
        return try OpenSSLCLI.run(args: args)
    }

    @Test(arguments: [("rsa", false), ("ec", false), ("rsa", true), ("ec", true)])
    func withoutSignedAttributes(name: String, ski: Bool) throws {
        var builder = SignedDataBuilder()
        builder.signers = [try signer(name, ski: ski, digest: .sha256)]
        builder.includeSignedAttributes = false
        let signed = try builder.build(content: content)
        #expect(signed.signers.first?.signedAttributes == nil)
        let message = try signed.contentInfoDER()
        let result = try opensslVerifies(message)
        #expect(result.status == 0, "\(result.stderr)")
        guard case .signedData(let parsed) = try CMSMessage.parse(message) else {
            Issue.record("not a SignedData")
            return
        }
        #expect(parsed.version == (ski ? 3 : 1))
        #expect(parsed.verify(signerAt: 0) == .valid)
    }

    @Test func subjectKeyIdentifierSignersWithAttributesAndSeveralDigests() throws {
        var builder = SignedDataBuilder()
        builder.signers = [
            try signer("rsa", ski: true, digest: .sha384), try signer("ec", ski: false, digest: .sha512),
        ]
        builder.attributes = [.signingTime, .smimeCapabilities, .encryptionKeyPreference]
        builder.detached = true
        let message = try builder.build(content: content).contentInfoDER()
        let result = try opensslVerifies(message, detached: content)
        #expect(result.status == 0, "\(result.stderr)")
        guard case .signedData(let parsed) = try CMSMessage.parse(message) else {
            Issue.record("not a SignedData")
            return
        }
        #expect(parsed.content == nil)
        #expect(parsed.verify(signerAt: 0) == .needsDetachedContent)
        #expect(parsed.verify(signerAt: 0, detachedContent: content) == .valid)
        #expect(parsed.verify(signerAt: 1, detachedContent: content) == .valid)
        #expect(parsed.verify(signerAt: 1, detachedContent: content + [0]) == .invalidSignature)
    }

    @Test func signedAttributesAreASortedDERSet() throws {
        var builder = SignedDataBuilder()
        builder.signers = [try signer("ec", ski: false, digest: .sha256)]
        builder.attributes = [.signingTime, .smimeCapabilities, .microsoftEncryptionKeyPreference]
        let signed = try builder.build(content: content)
        let der = try #require(signed.signers.first?.signedAttributesDER)
        let set = try DER.parse(der)  // strict DER: sorted SET OF, minimal lengths
        let children = try #require(set.children)
        let encodings = children.map { [UInt8]($0.encodedBytes) }
        #expect(encodings == encodings.sorted { $0.lexicographicallyPrecedes($1) })
        #expect(encodings.count == 5)
    }

    @Test func berFromOpenSSLIsResignedAsDER() throws {
        let pki = try #require(CMSTestPKI.shared)
        let directory = try TemporaryDirectory(prefix: "osec-cms-ber")
        let ber = try OpenSSLCLI.check([
            "cms", "-sign", "-binary", "-stream", "-nodetach", "-outform", "DER", "-in",
            try directory.write("c.bin", Data(content)), "-signer", pki.ecCertPEM, "-inkey", pki.ecKeyPEM,
        ]).stdout
        #expect(throws: (any Error).self) { try DER.parse([UInt8](ber)) }  // BER, not DER
        guard case .signedData(let parsed) = try CMSMessage.parse([UInt8](ber)) else {
            Issue.record("not a SignedData")
            return
        }
        #expect(parsed.verify(signerAt: 0) == .valid)
        let der = try parsed.contentInfoDER()
        _ = try DER.parse(der)  // strict DER now
        let result = try opensslVerifies(der)
        #expect(result.status == 0, "\(result.stderr)")
    }
}
