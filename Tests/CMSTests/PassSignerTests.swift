import Foundation
import OSecTestSupport
import OpenSecurityKit
import Security
import Testing

/// Wallet pass signatures verified by `openssl smime -verify -binary -content manifest.json`, and App Store
/// receipt reading.
@Suite(.enabled(if: CMSTestPKI.available, "needs the openssl CLI"))
struct PassSignerTests {
    @Test func signedPassVerifiesWithOpenSSLSmime() throws {
        let pki = try #require(CMSTestPKI.shared)
        let pass = try TemporaryDirectory(prefix: "osec-pass")
        try pass.write("pass.json", Data(#"{"formatVersion":1,"serialNumber":"42"}"#.utf8))
        try pass.write("icon.png", Data([0x89, 0x50, 0x4E, 0x47, 0, 1, 2, 3]))
        try FileManager.default.createDirectory(atPath: pass.path("en.lproj"), withIntermediateDirectories: true)
        try pass.write("en.lproj/pass.strings", Data("\"a\" = \"b\";".utf8))
        let signer = PassSigner(identity: try pki.identity("rsa"), intermediate: try pki.certificate("intermediate"))
        try signer.signPass(at: pass.url)

        let manifest = try JSONSerialization.jsonObject(with: try pass.read("manifest.json")) as? [String: String]
        #expect(manifest?.count == 3)
        #expect(manifest?["en.lproj/pass.strings"] != nil)
        let expected = try OpenSSLCLI.check(["dgst", "-sha1", "-r", pass.path("icon.png")]).stdoutText
        #expect(expected.hasPrefix(manifest?["icon.png"] ?? "-"))

        // Verified against the root alone: the intermediate must be inside the signature.
        let result = try OpenSSLCLI.run(args: [
            "smime", "-verify", "-binary", "-inform", "DER", "-in", pass.path("signature"), "-content",
            pass.path("manifest.json"), "-CAfile", pki.rootPEM, "-purpose", "any",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let printed = try OpenSSLCLI.check([
            "cms", "-cmsout", "-print", "-inform", "DER", "-in", pass.path("signature"),
        ]).stdoutText
        #expect(printed.contains("sha256"))
        #expect(printed.contains("signingTime"))
        #expect(printed.contains("CMS Test WWDR"))
        #expect(!printed.contains("eContent: <ABSENT>") == false)
    }

    @Test func fromPKCS12() throws {
        let pki = try #require(CMSTestPKI.shared)
        let signer = try PassSigner(
            pkcs12: try pki.directory.read("ec.p12"), password: CMSTestPKI.password,
            intermediateDER: try pki.directory.read("intermediate.der"))
        let signature = try signer.signature(forManifest: Data("{}".utf8))
        #expect(signature.count > 100)
        #expect(throws: SecurityKitError.authFailed) {
            try PassSigner(
                pkcs12: try pki.directory.read("ec.p12"), password: "wrong",
                intermediateDER: try pki.directory.read("intermediate.der"))
        }
    }

    @Test func appStoreReceiptPayloadAndSignerStatus() throws {
        let pki = try #require(CMSTestPKI.shared)
        let directory = try TemporaryDirectory(prefix: "osec-receipt")
        let payload = Data([0x31, 0x03, 0x02, 0x01, 0x05])
        let receipt = try OpenSSLCLI.check([
            "cms", "-sign", "-binary", "-nodetach", "-outform", "DER", "-in", try directory.write("p", payload),
            "-signer", pki.rsaCertPEM, "-inkey", pki.rsaKeyPEM, "-certfile", pki.intermediatePEM, "-md", "sha256",
        ]).stdout
        let parsed = try AppStoreReceipt(data: receipt)
        #expect(parsed.payload == payload)
        #expect(parsed.signerCertificate == (try pki.certificate("rsa")))
        #expect(parsed.certificates.count == 2)
        #expect(parsed.signerStatus(anchors: [try pki.certificate("root")]) == .valid)
        #expect(parsed.signerStatus(anchors: [try pki.certificate("ec")]) == .invalidCert)
        #expect(throws: SecurityKitError.self) { try AppStoreReceipt(data: Data("junk".utf8)) }
    }
}
