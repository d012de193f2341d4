import Foundation
import OSecTestSupport
import Security
import Testing

/// `security cms` as a separate process: `-D` prints the content exactly and exits 0 even for a bad signature,
/// `-h` reports signer status, `-S` signs with a keychain identity.
@Suite(.enabled(if: CMSTestPKI.available && BuiltExecutable.path("security") != nil, "needs openssl and security"))
struct SecurityCMSCommandTests {
    let sandbox: TemporaryDirectory

    init() throws { sandbox = try TemporaryDirectory(prefix: "osec-cms-tool") }

    struct Run {
        let status: Int32
        let stdout: Data
        let stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    func security(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltExecutable.path("security") ?? "/nonexistent")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["OPENSECURITY_KEYCHAIN"] = sandbox.path("login.keychain-db")
        environment["OPENSECURITY_KEYCHAIN_AGENT"] = nil
        environment["XDG_CONFIG_HOME"] = sandbox.path("config")
        environment["XDG_DATA_HOME"] = sandbox.path("data")
        environment["XDG_RUNTIME_DIR"] = sandbox.path("run")
        environment["OPENSECURITY_USER_TRUST_SETTINGS"] = sandbox.path("trust/user.plist")
        environment["OPENSECURITY_ADMIN_TRUST_SETTINGS"] = sandbox.path("trust/admin.plist")
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try FileManager.default.createDirectory(
            atPath: sandbox.path("run"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: stdout, stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// A provisioning-profile-like message: a plist signed by openssl (DER).
    func profile(_ pki: CMSTestPKI) throws -> (message: Data, plist: Data) {
        let plist = Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>Name</key>
            \t<string>Test Profile</string>
            </dict>
            </plist>

            """.utf8)
        let message = try OpenSSLCLI.check([
            "cms", "-sign", "-binary", "-nodetach", "-outform", "DER", "-in", try sandbox.write("profile.plist", plist),
            "-signer", pki.rsaCertPEM, "-inkey", pki.rsaKeyPEM, "-certfile", pki.intermediatePEM, "-md", "sha256",
        ]).stdout
        return (message, plist)
    }

    @Test func decodePrintsTheEmbeddedContentExactly() throws {
        let pki = try #require(CMSTestPKI.shared)
        let (message, plist) = try profile(pki)
        let input = try sandbox.write("profile.mobileprovision", message)
        let run = try security(["cms", "-D", "-i", input])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == plist)
        let output = sandbox.path("out.plist")
        #expect(try security(["cms", "-D", "-i", input, "-o", output]).status == 0)
        #expect(try sandbox.read("out.plist") == plist)
    }

    @Test func decodeExitsZeroForABadSignatureAndHeaderReportsIt() throws {
        let pki = try #require(CMSTestPKI.shared)
        var (message, plist) = try profile(pki)
        message[message.endIndex - 5] ^= 0x40
        let input = try sandbox.write("bad.mobileprovision", message)
        let run = try security(["cms", "-D", "-i", input])
        #expect(run.status == 0)
        #expect(run.stdout == plist)
        let header = try security(["cms", "-D", "-h", "0", "-n", "-i", input])
        #expect(header.status == 0)
        #expect(header.text.contains("nsigners=1"))
        #expect(header.text.contains("signer0.status=BadSignature"), "\(header.text)")
        let good = try security(["cms", "-D", "-h", "1", "-n", "-i", try sandbox.write("good.der", try profile(pki).0)])
        // The test root is not a system anchor.
        #expect(good.text.contains("signer0.status=SigningCertNotTrusted"), "\(good.text)")
        #expect(good.text.contains("alice@example.com"))
    }

    @Test func malformedInputAndUsageErrors() throws {
        let garbage = try sandbox.write("garbage", Data("garbage".utf8))
        #expect(try security(["cms", "-D", "-i", garbage]).status == 1)
        #expect(try security(["cms", "-i", garbage]).status == 2)
        #expect(try security(["cms", "-D", "-S", "-i", garbage]).status == 2)
        #expect(try security(["cms", "-D", "-i", sandbox.path("missing")]).status == 1)
    }

    @Test func signWithAKeychainIdentityVerifiesWithOpenSSL() throws {
        let pki = try #require(CMSTestPKI.shared)
        let keychain = sandbox.path("cms.keychain-db")
        #expect(try security(["create-keychain", "-p", "pw", keychain]).status == 0)
        let imported = try security([
            "import", pki.directory.path("rsa.p12"), "-k", keychain, "-P", CMSTestPKI.password,
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let content = try sandbox.write("content.txt", Data("signed by security cms\n".utf8))
        let output = sandbox.path("signed.p7m")
        let run = try security([
            "cms", "-S", "-N", "CMS RSA Signer", "-k", keychain, "-H", "SHA256", "-G", "-i", content, "-o", output,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let verified = try OpenSSLCLI.run(args: [
            "cms", "-verify", "-inform", "DER", "-in", output, "-CAfile", pki.bundlePEM, "-binary", "-purpose", "any",
        ])
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(verified.stdoutText == "signed by security cms\n")
        let missing = try security(["cms", "-S", "-N", "nobody", "-k", keychain, "-i", content])
        #expect(missing.status == 1)
    }

    @Test func envelopeAndDecodeWithAKeychainIdentity() throws {
        let pki = try #require(CMSTestPKI.shared)
        let keychain = sandbox.path("env.keychain-db")
        #expect(try security(["create-keychain", "-p", "pw", keychain]).status == 0)
        let imported = try security(["import", pki.directory.path("ec.p12"), "-k", keychain, "-P", CMSTestPKI.password])
        #expect(imported.status == 0, "\(imported.stderr)")
        let content = Data("for the EC recipient\n".utf8)
        let input = try sandbox.write("plain.txt", content)
        let output = sandbox.path("enveloped.p7m")
        let run = try security(["cms", "-E", "-r", "CMS EC Signer", "-k", keychain, "-i", input, "-o", output])
        #expect(run.status == 0, "\(run.stderr)")
        let opened = try OpenSSLCLI.run(args: [
            "cms", "-decrypt", "-binary", "-inform", "DER", "-in", output, "-recip", pki.ecCertPEM, "-inkey",
            pki.ecKeyPEM,
        ])
        #expect(opened.stdout == content, "\(opened.stderr)")
        let decoded = try security(["cms", "-D", "-k", keychain, "-i", output])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        #expect(decoded.stdout == content)
        #expect(try security(["cms", "-E", "-r", "nobody@example.com", "-k", keychain, "-i", input]).status == 1)
    }

    @Test func typeIdentifiersAreDistinct() {
        var encoder: CMSEncoder?
        var decoder: CMSDecoder?
        _ = CMSEncoderCreate(&encoder)
        _ = CMSDecoderCreate(&decoder)
        #expect(CFGetTypeID(encoder) == CMSEncoderGetTypeID())
        #expect(CFGetTypeID(decoder) == CMSDecoderGetTypeID())
        #expect(CMSEncoderGetTypeID() != CMSDecoderGetTypeID())
    }
}
