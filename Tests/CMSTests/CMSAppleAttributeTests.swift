import Foundation
import OSecTestSupport
import Security
import Testing

/// Apple's code-signing signed attributes (hash agility V1/V2, expiration time) written by CMSEncoder and read back
/// by CMSDecoder and by `openssl cms`, the deprecated SecAsn1Oid content type, and the NSS handle accessors.
@Suite(.enabled(if: CMSTestPKI.available, "needs the openssl CLI"))
struct CMSAppleAttributeTests {
    let content = Data("code directory".utf8)

    private func pki() throws -> CMSTestPKI { try #require(CMSTestPKI.shared) }

    @Test func hashAgilityAndExpirationRoundTrip() throws {
        let pki = try pki()
        let plist = Data("<plist><dict><key>cdhashes</key></dict></plist>".utf8)
        let sha256 = Data(repeating: 0xAB, count: 32)
        let sha1 = Data(repeating: 0x11, count: 20)
        let expiration: CFAbsoluteTime = 599_572_800  // 2020-01-01 12:00:00 UTC
        let message = try CMS.sign(content, signers: [try pki.identity("rsa")]) { encoder in
            #expect(CMSEncoderSetAppleCodesigningHashAgility(encoder, plist as CFData) == errSecSuccess)
            let values: [NSNumber: Data] = [192: sha256, 4: sha1]
            #expect(CMSEncoderSetAppleCodesigningHashAgilityV2(encoder, values as CFDictionary) == errSecSuccess)
            #expect(CMSEncoderSetAppleExpirationTime(encoder, expiration) == errSecSuccess)
        }
        let (decoder, status) = CMS.decode(message)
        #expect(status == errSecSuccess)
        let decoded = try #require(decoder)
        #expect(CMS.status(decoded) == .valid)
        var agility: CFData?
        #expect(CMSDecoderCopySignerAppleCodesigningHashAgility(decoded, 0, &agility) == errSecSuccess)
        #expect(agility as Data? == plist)
        var agilityV2: CFDictionary?
        #expect(CMSDecoderCopySignerAppleCodesigningHashAgilityV2(decoded, 0, &agilityV2) == errSecSuccess)
        let dictionary = try #require(agilityV2 as? [NSNumber: Data])
        #expect(dictionary == [192: sha256, 4: sha1])
        var time: CFAbsoluteTime = 0
        #expect(CMSDecoderCopySignerAppleExpirationTime(decoded, 0, &time) == errSecSuccess)
        #expect(time == expiration)
        #expect(CMSDecoderCopySignerAppleExpirationTime(decoded, 1, &time) == errSecParam)

        // openssl parses the signed attributes and verifies the signature over them.
        let directory = try TemporaryDirectory(prefix: "osec-cms-apple")
        let input = try directory.write("message.der", message)
        let verified = try OpenSSLCLI.run(args: [
            "cms", "-verify", "-inform", "DER", "-in", input, "-CAfile", pki.bundlePEM, "-binary", "-purpose", "any",
        ])
        #expect(verified.status == 0, "\(verified.stderr)")
        let printed = try OpenSSLCLI.run(args: ["cms", "-cmsout", "-print", "-inform", "DER", "-in", input])
        let text = String(decoding: printed.stdout, as: UTF8.self)
        #expect(text.contains("1.2.840.113635.100.9.1"))
        #expect(text.contains("1.2.840.113635.100.9.2"))
        #expect(text.contains("1.2.840.113635.100.9.3"))
    }

    @Test func absentAttributesAnswerNilOrParam() throws {
        let pki = try pki()
        let message = try CMS.sign(content, signers: [try pki.identity("ec")])
        let decoded = try #require(CMS.decode(message).0)
        var agility: CFData? = Data([1]) as CFData
        #expect(CMSDecoderCopySignerAppleCodesigningHashAgility(decoded, 0, &agility) == errSecSuccess)
        #expect(agility == nil)
        var agilityV2: CFDictionary? = [:] as CFDictionary
        #expect(CMSDecoderCopySignerAppleCodesigningHashAgilityV2(decoded, 0, &agilityV2) == errSecSuccess)
        #expect(agilityV2 == nil)
        var time: CFAbsoluteTime = 0
        #expect(CMSDecoderCopySignerAppleExpirationTime(decoded, 0, &time) == errSecParam)
        #expect(CMSDecoderCopySignerAppleCodesigningHashAgility(decoded, 3, &agility) == errSecParam)
    }

    @Test func hashAgilityV2RejectsUnknownDigests() throws {
        var encoder: CMSEncoder?
        #expect(CMSEncoderCreate(&encoder) == errSecSuccess)
        let made = try #require(encoder)
        let bad: [NSNumber: Data] = [999: Data([1])]
        #expect(CMSEncoderSetAppleCodesigningHashAgilityV2(made, bad as CFDictionary) == errSecParam)
        let notData: [NSNumber: String] = [192: "x"]
        #expect(CMSEncoderSetAppleCodesigningHashAgilityV2(made, notData as CFDictionary) == errSecParam)
    }

    @Test func contentTypeAsSecAsn1Oid() throws {
        let pki = try pki()
        // 1.2.840.113549.1.9.16.1.4 (id-ct-TSTInfo), content octets only.
        var octets: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x10, 0x01, 0x04]
        let message = try octets.withUnsafeMutableBufferPointer { buffer in
            var oid = SecAsn1Oid(Length: buffer.count, Data: buffer.baseAddress)
            return try CMS.sign(content, signers: [try pki.identity("rsa")]) { encoder in
                #expect(CMSEncoderSetEncapsulatedContentType(encoder, &oid) == errSecSuccess)
            }
        }
        let decoded = try #require(CMS.decode(message).0)
        var type: CFData?
        #expect(CMSDecoderCopyEncapsulatedContentType(decoded, &type) == errSecSuccess)
        #expect(type as Data? == Data(octets))
        var empty = SecAsn1Oid()
        var encoder: CMSEncoder?
        _ = CMSEncoderCreate(&encoder)
        #expect(CMSEncoderSetEncapsulatedContentType(try #require(encoder), &empty) == errSecParam)
    }

    @Test func nssHandlesAreOpaqueTokens() throws {
        let pki = try pki()
        var encoder: CMSEncoder?
        _ = CMSEncoderCreate(&encoder)
        let made = try #require(encoder)
        var message: SecCmsMessageRef?
        #expect(CMSEncoderGetCmsMessage(made, &message) == errSecParam)  // no signer or recipient yet
        #expect(CMSEncoderAddSigners(made, try pki.identity("rsa")) == errSecSuccess)
        #expect(CMSEncoderGetCmsMessage(made, &message) == errSecSuccess)
        #expect(message != nil)
        var nssEncoder: SecCmsEncoderRef?
        #expect(CMSEncoderGetEncoder(made, &nssEncoder) == errSecSuccess)
        #expect(nssEncoder != nil)
        // The configuration is fixed from then on, as Apple's encoder leaves its initial state.
        #expect(CMSEncoderSetHasDetachedContent(made, true) == errSecParam)

        let signed = try CMS.sign(content, signers: [try pki.identity("rsa")])
        var decoder: CMSDecoder?
        _ = CMSDecoderCreate(&decoder)
        let decoding = try #require(decoder)
        var nssDecoder: SecCmsDecoderRef?
        var decodedMessage: SecCmsMessageRef?
        #expect(CMSDecoderGetDecoder(decoding, &nssDecoder) == errSecSuccess && nssDecoder == nil)
        let bytes = [UInt8](signed)
        #expect(CMSDecoderUpdateMessage(decoding, bytes, bytes.count) == errSecSuccess)
        #expect(CMSDecoderGetDecoder(decoding, &nssDecoder) == errSecSuccess && nssDecoder != nil)
        #expect(CMSDecoderGetCmsMessage(decoding, &decodedMessage) == errSecSuccess && decodedMessage == nil)
        #expect(CMSDecoderFinalizeMessage(decoding) == errSecSuccess)
        #expect(CMSDecoderGetDecoder(decoding, &nssDecoder) == errSecSuccess && nssDecoder == nil)
        #expect(CMSDecoderGetCmsMessage(decoding, &decodedMessage) == errSecSuccess && decodedMessage != nil)
    }
}
