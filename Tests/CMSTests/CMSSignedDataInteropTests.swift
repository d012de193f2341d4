import Foundation
import OSecTestSupport
import Security
import Testing

/// SignedData both ways with the openssl CLI: what we sign, `openssl cms -verify` accepts; what openssl signs (DER
/// and `-stream` BER, RSA PKCS#1 v1.5 and PSS, ECDSA, SHA-1…SHA-512), CMSDecoder verifies.
@Suite(.enabled(if: CMSTestPKI.available, "needs the openssl CLI"))
struct CMSSignedDataInteropTests {
    let pki = CMSTestPKI.shared
    let content = Data("Hello, CMS!\nA second line with bytes \u{00e9}\u{00ff}.\n".utf8)

    private func pkiOrThrow() throws -> CMSTestPKI { try #require(pki) }

    /// `openssl cms -verify` of a DER message against the test root; the verified content on success.
    private func opensslVerify(_ message: Data, detached: Data? = nil, _ pki: CMSTestPKI) throws -> OpenSSLCLI.Result {
        let directory = try TemporaryDirectory(prefix: "osec-cms-verify")
        let input = try directory.write("message.der", message)
        var args = [
            "cms", "-verify", "-inform", "DER", "-in", input, "-CAfile", pki.bundlePEM, "-binary", "-purpose", "any",
        ]
        if let detached { args += ["-content", try directory.write("content.bin", detached)] }
        return try OpenSSLCLI.run(args: args)
    }

    @Test func attachedRSASignatureVerifiesWithOpenSSL() throws {
        let pki = try pkiOrThrow()
        let message = try CMS.sign(content, signers: [try pki.identity("rsa")]) { encoder in
            _ = CMSEncoderSetSignerAlgorithm(encoder, kCMSEncoderDigestAlgorithmSHA256)
            _ = CMSEncoderAddSignedAttributes(encoder, [.attrSigningTime, .attrSmimeCapabilities])
        }
        let result = try opensslVerify(message, pki)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == content)
    }

    @Test func defaultDigestIsSHA1AndOpenSSLVerifiesIt() throws {
        let pki = try pkiOrThrow()
        let message = try CMS.sign(content, signers: [try pki.identity("rsa")])
        let result = try opensslVerify(message, pki)
        #expect(result.status == 0, "\(result.stderr)")
        let printed = try OpenSSLCLI.run(args: ["cms", "-cmsout", "-print", "-inform", "DER"], stdin: message)
        #expect(printed.stdoutText.contains("sha1"))
    }

    @Test func detachedECDSASignatureVerifiesWithOpenSSL() throws {
        let pki = try pkiOrThrow()
        let message = try CMS.sign(content, signers: [try pki.identity("ec")]) { encoder in
            _ = CMSEncoderSetHasDetachedContent(encoder, true)
            _ = CMSEncoderSetSignerAlgorithm(encoder, kCMSEncoderDigestAlgorithmSHA256)
        }
        #expect(try opensslVerify(message, pki).status != 0)  // no content given: openssl fails
        let result = try opensslVerify(message, detached: content, pki)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func twoSignersVerifyWithOpenSSLAndWithUs() throws {
        let pki = try pkiOrThrow()
        let message = try CMS.sign(content, signers: [try pki.identity("rsa"), try pki.identity("ec")]) { encoder in
            _ = CMSEncoderSetSignerAlgorithm(encoder, kCMSEncoderDigestAlgorithmSHA256)
        }
        let result = try opensslVerify(message, pki)
        #expect(result.status == 0, "\(result.stderr)")
        let (decoder, status) = CMS.decode(message)
        #expect(status == errSecSuccess)
        let decoded = try #require(decoder)
        var count = 0
        #expect(CMSDecoderGetNumSigners(decoded, &count) == errSecSuccess)
        #expect(count == 2)
        #expect(CMS.status(decoded, 0) == .valid)
        #expect(CMS.status(decoded, 1) == .valid)
        #expect(CMS.status(decoded, 2) == .invalidIndex)
    }

    @Test func customContentTypeIsEncodedAndReadBack() throws {
        let pki = try pkiOrThrow()
        let message = try CMS.sign(content, signers: [try pki.identity("ec")]) { encoder in
            #expect(CMSEncoderSetEncapsulatedContentTypeOID(encoder, "1.2.840.113635.100.1.1" as NSString) == 0)
            #expect(CMSEncoderSetEncapsulatedContentTypeOID(encoder, NSNumber(value: 3)) == errSecParam)
        }
        let printed = try OpenSSLCLI.run(args: ["cms", "-cmsout", "-print", "-inform", "DER"], stdin: message)
        let typeLine = printed.stdoutText.split(separator: "\n").first { $0.contains("eContentType") } ?? ""
        #expect(typeLine.contains("1.2.840.113635.100.1.1"), "\(printed.stdoutText)")
        let directory = try TemporaryDirectory(prefix: "osec-cms-oid")
        let result = try OpenSSLCLI.run(args: [
            "cms", "-verify", "-inform", "DER", "-in", try directory.write("m.der", message), "-CAfile",
            pki.bundlePEM, "-binary", "-purpose", "any",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let decoder = try #require(CMS.decode(message).0)
        var type: CFData?
        #expect(CMSDecoderCopyEncapsulatedContentType(decoder, &type) == errSecSuccess)
        #expect((type as Data?) == Data([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x63, 0x64, 0x01, 0x01]))
        #expect(CMS.status(decoder) == .valid)
    }

    @Test func chainModesDecideTheCertificatesCarried() throws {
        let pki = try pkiOrThrow()
        let intermediate = try pki.certificate("intermediate")
        let root = try pki.certificate("root")
        func certificates(_ mode: CMSCertificateChainMode) throws -> Int {
            let message = try CMS.sign(content, signers: [try pki.identity("rsa")]) { encoder in
                _ = CMSEncoderAddSupportingCerts(encoder, [intermediate, root] as NSArray)
                _ = CMSEncoderSetCertificateChainMode(encoder, mode)
            }
            let decoder = try #require(CMS.decode(message).0)
            var all: CFArray?
            _ = CMSDecoderCopyAllCerts(decoder, &all)
            return (all as? [AnyObject])?.count ?? 0
        }
        // Supporting certificates are always carried; the chain adds nothing beyond them here.
        #expect(try certificates(.signerOnly) == 3)
        #expect(try certificates(.chainWithRoot) == 3)
        let noSupporting = try CMS.sign(content, signers: [try pki.identity("rsa")]) { encoder in
            _ = CMSEncoderSetCertificateChainMode(encoder, .none)
        }
        let decoder = try #require(CMS.decode(noSupporting).0)
        var all: CFArray?
        _ = CMSDecoderCopyAllCerts(decoder, &all)
        #expect(all == nil)
        var status = CMSSignerStatus.unsigned
        _ = CMSDecoderCopySignerStatus(decoder, 0, SecPolicyCreateBasicX509(), false, &status, nil, nil)
        #expect(status == .invalidCert)
    }

    // MARK: openssl signs, we verify

    private func opensslSign(
        _ pki: CMSTestPKI, signer: String, extra: [String] = [], detached: Bool = false
    ) throws -> Data {
        let directory = try TemporaryDirectory(prefix: "osec-cms-sign")
        let input = try directory.write("content.bin", content)
        let cert = signer == "rsa" ? pki.rsaCertPEM : pki.ecCertPEM
        let key = signer == "rsa" ? pki.rsaKeyPEM : pki.ecKeyPEM
        var args = [
            "cms", "-sign", "-binary", "-in", input, "-signer", cert, "-inkey", key, "-outform", "DER",
            "-certfile", pki.intermediatePEM,
        ]
        if !detached { args.append("-nodetach") }
        return try OpenSSLCLI.check(args + extra).stdout
    }

    @Test(arguments: [
        ("rsa", [String]()), ("rsa", ["-md", "sha1"]), ("rsa", ["-md", "sha384"]), ("rsa", ["-md", "sha512"]),
        ("rsa", ["-keyopt", "rsa_padding_mode:pss"]), ("rsa", ["-noattr"]), ("ec", [String]()),
        ("ec", ["-md", "sha512"]), ("ec", ["-md", "sha224"]),
    ])
    func opensslSignedDERVerifies(signer: String, options: [String]) throws {
        let pki = try pkiOrThrow()
        let message = try opensslSign(pki, signer: signer, extra: options)
        let decoder = try #require(CMS.decode(message).0)
        #expect(CMS.status(decoder) == .valid)
        var copied: CFData?
        #expect(CMSDecoderCopyContent(decoder, &copied) == errSecSuccess)
        #expect((copied as Data?) == content)
    }

    @Test func opensslStreamedBERVerifies() throws {
        let pki = try pkiOrThrow()
        let message = try opensslSign(pki, signer: "rsa", extra: ["-stream"])
        #expect(message.count > 2 && message[message.startIndex + 1] == 0x80, "expected an indefinite length")
        let decoder = try #require(CMS.decode(message).0)
        #expect(CMS.status(decoder) == .valid)
        var copied: CFData?
        _ = CMSDecoderCopyContent(decoder, &copied)
        #expect((copied as Data?) == content)
    }

    @Test func detachedNeedsContentThenVerifies() throws {
        let pki = try pkiOrThrow()
        let message = try opensslSign(pki, signer: "ec", detached: true)
        let decoder = try #require(CMS.decode(message).0)
        #expect(CMS.status(decoder) == .needsDetachedContent)
        var copied: CFData?
        #expect(CMSDecoderCopyContent(decoder, &copied) == errSecSuccess)
        #expect(copied == nil)
        #expect(CMSDecoderSetDetachedContent(decoder, Data("tampered".utf8) as NSData) == errSecSuccess)
        #expect(CMS.status(decoder) == .invalidSignature)
        #expect(CMSDecoderSetDetachedContent(decoder, content as NSData) == errSecSuccess)
        #expect(CMS.status(decoder) == .valid)
    }

    @Test func trustIsJudgedWithThePolicyAndAnchors() throws {
        let pki = try pkiOrThrow()
        let message = try opensslSign(pki, signer: "rsa", extra: ["-md", "sha256"])
        let decoder = try #require(CMS.decode(message).0)
        var status = CMSSignerStatus.unsigned
        var trust: SecTrust?
        var verifyResult: OSStatus = 0
        // The test root is not a system anchor: the signature verifies, the certificate does not.
        #expect(
            CMSDecoderCopySignerStatus(decoder, 0, SecPolicyCreateBasicX509(), true, &status, &trust, &verifyResult)
                == errSecSuccess)
        #expect(status == .invalidCert)
        #expect(verifyResult != errSecSuccess)
        let evaluated = try #require(trust)
        #expect(SecTrustSetAnchorCertificates(evaluated, [try pki.certificate("root")] as NSArray) == errSecSuccess)
        #expect(SecTrustEvaluateWithError(evaluated, nil))
        #expect(SecTrustGetCertificateCount(evaluated) == 3)
        // Signer details.
        var certificate: SecCertificate?
        #expect(CMSDecoderCopySignerCert(decoder, 0, &certificate) == errSecSuccess)
        #expect(certificate == (try pki.certificate("rsa")))
        var email: CFString?
        #expect(CMSDecoderCopySignerEmailAddress(decoder, 0, &email) == errSecSuccess)
        #expect((email as String?) == "alice@example.com")
        var time: CFAbsoluteTime = 0
        #expect(CMSDecoderCopySignerSigningTime(decoder, 0, &time) == errSecSuccess)
        #expect(abs(Date(timeIntervalSinceReferenceDate: time).timeIntervalSinceNow) < 600)
        var encrypted = DarwinBoolean(true)
        #expect(CMSDecoderIsContentEncrypted(decoder, &encrypted) == errSecSuccess)
        #expect(!encrypted.boolValue)
    }

    @Test func tamperedSignatureIsInvalid() throws {
        let pki = try pkiOrThrow()
        var message = try opensslSign(pki, signer: "rsa")
        // The RSA signature is the last 256 bytes: flip one of them.
        let index = message.endIndex - 10
        message[index] ^= 0x01
        let decoder = try #require(CMS.decode(message).0)
        #expect(CMS.status(decoder) == .invalidSignature)
    }
}
