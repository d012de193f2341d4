import Foundation
import OSecCrypto
import OSecTestSupport
import Testing

@testable import OSecPKCS12

/// One way of running `openssl pkcs12 -export`.
struct OpenSSLFlavour: Sendable, CustomTestStringConvertible {
    let name: String
    let args: [String]
    var leaf: PKCS12Fixtures.Leaf = .rsa
    var password: String = "secret-pw"
    /// Password given to our importer (defaults to `password`).
    var importPassword: String?? = .none
    var chain = true
    var friendlyName: String? = nil
    var expectedIntegrity: PKCS12Contents.Integrity? = nil
    /// False when the file has neither MAC nor encryption (any password opens it).
    var passwordProtected = true

    var testDescription: String { name }

    static let legacyProviders = ["-provider", "legacy", "-provider", "default"]

    static let all: [OpenSSLFlavour] = [
        OpenSSLFlavour(
            name: "default (PBES2 AES-256, SHA-256 MAC)", args: [],
            expectedIntegrity: .mac(digest: .sha256, iterations: 2048)),
        OpenSSLFlavour(name: "default P-256", args: [], leaf: .ec),
        OpenSSLFlavour(name: "-legacy", args: ["-legacy"], expectedIntegrity: .mac(digest: .sha1, iterations: 2048)),
        OpenSSLFlavour(name: "-legacy P-256", args: ["-legacy"], leaf: .ec),
        OpenSSLFlavour(name: "-descert", args: ["-descert"]),
        OpenSSLFlavour(name: "-nomac", args: ["-nomac"], expectedIntegrity: PKCS12Contents.Integrity.none),
        OpenSSLFlavour(name: "-legacy -nomac", args: ["-legacy", "-nomac"]),
        OpenSSLFlavour(
            name: "keypbe/certpbe AES-128-CBC", args: ["-keypbe", "AES-128-CBC", "-certpbe", "AES-128-CBC"]),
        OpenSSLFlavour(
            name: "keypbe/certpbe AES-192-CBC", args: ["-keypbe", "AES-192-CBC", "-certpbe", "AES-192-CBC"]),
        OpenSSLFlavour(
            name: "keypbe/certpbe AES-256-CBC", args: ["-keypbe", "AES-256-CBC", "-certpbe", "AES-256-CBC"]),
        OpenSSLFlavour(
            name: "keypbe/certpbe DES-EDE3-CBC", args: ["-keypbe", "DES-EDE3-CBC", "-certpbe", "DES-EDE3-CBC"]),
        OpenSSLFlavour(
            name: "keypbe/certpbe PBE-SHA1-3DES", args: ["-keypbe", "PBE-SHA1-3DES", "-certpbe", "PBE-SHA1-3DES"]),
        OpenSSLFlavour(
            name: "keypbe/certpbe PBE-SHA1-2DES", args: ["-keypbe", "PBE-SHA1-2DES", "-certpbe", "PBE-SHA1-2DES"]),
        OpenSSLFlavour(
            name: "keypbe/certpbe PBE-SHA1-RC2-40",
            args: legacyProviders + ["-keypbe", "PBE-SHA1-RC2-40", "-certpbe", "PBE-SHA1-RC2-40"]),
        OpenSSLFlavour(
            name: "keypbe/certpbe PBE-SHA1-RC2-128",
            args: legacyProviders + ["-keypbe", "PBE-SHA1-RC2-128", "-certpbe", "PBE-SHA1-RC2-128"]),
        OpenSSLFlavour(
            name: "keypbe/certpbe PBE-SHA1-RC4-128/40",
            args: legacyProviders + ["-keypbe", "PBE-SHA1-RC4-128", "-certpbe", "PBE-SHA1-RC4-40"]),
        OpenSSLFlavour(name: "certpbe NONE (plain cert safe)", args: ["-certpbe", "NONE"]),
        OpenSSLFlavour(name: "keypbe NONE (plain KeyBag)", args: ["-keypbe", "NONE"]),
        OpenSSLFlavour(
            name: "keypbe NONE certpbe NONE -nomac", args: ["-keypbe", "NONE", "-certpbe", "NONE", "-nomac"],
            passwordProtected: false),
        OpenSSLFlavour(name: "-iter 1", args: ["-iter", "1"]),
        OpenSSLFlavour(
            name: "-noiter -nomaciter", args: ["-noiter", "-nomaciter"],
            expectedIntegrity: .mac(digest: .sha256, iterations: 1)),
        OpenSSLFlavour(
            name: "-iter 50000", args: ["-iter", "50000"], expectedIntegrity: .mac(digest: .sha256, iterations: 50000)),
        OpenSSLFlavour(
            name: "-macalg sha1", args: ["-macalg", "sha1"], expectedIntegrity: .mac(digest: .sha1, iterations: 2048)),
        OpenSSLFlavour(
            name: "-macalg sha224", args: ["-macalg", "sha224"],
            expectedIntegrity: .mac(digest: .sha224, iterations: 2048)),
        OpenSSLFlavour(
            name: "-macalg sha256", args: ["-macalg", "sha256"],
            expectedIntegrity: .mac(digest: .sha256, iterations: 2048)),
        OpenSSLFlavour(
            name: "-macalg sha384", args: ["-macalg", "sha384"],
            expectedIntegrity: .mac(digest: .sha384, iterations: 2048)),
        OpenSSLFlavour(
            name: "-macalg sha512", args: ["-macalg", "sha512"],
            expectedIntegrity: .mac(digest: .sha512, iterations: 2048)),
        OpenSSLFlavour(name: "-name", args: ["-name", "My Identity"], friendlyName: "My Identity"),
        OpenSSLFlavour(name: "-legacy -name", args: ["-legacy", "-name", "Legacy Name"], friendlyName: "Legacy Name"),
        OpenSSLFlavour(name: "no chain", args: [], chain: false),
        OpenSSLFlavour(name: "empty password", args: [], password: ""),
        OpenSSLFlavour(name: "empty password -legacy", args: ["-legacy"], password: ""),
        OpenSSLFlavour(
            name: "empty password, imported with no password", args: [], password: "", importPassword: .some(nil)),
        OpenSSLFlavour(
            name: "empty password -legacy, no password", args: ["-legacy"], password: "", importPassword: .some(nil)),
        OpenSSLFlavour(name: "empty password -nomac", args: ["-nomac"], password: ""),
        OpenSSLFlavour(name: "empty password -legacy -nomac", args: ["-legacy", "-nomac"], password: ""),
        OpenSSLFlavour(name: "non-ASCII password", args: [], password: "pässwörd-Ω-😀"),
        OpenSSLFlavour(name: "non-ASCII password -legacy", args: ["-legacy"], password: "pässwörd-Ω-😀"),
        OpenSSLFlavour(name: "non-ASCII password -nomac -legacy", args: ["-legacy", "-nomac"], password: "日本語パスワード"),
    ]
}

@Suite struct OpenSSLInteropTests {
    static let fixtures = PKCS12Fixtures.shared

    @Test(arguments: OpenSSLFlavour.all)
    func opensslExportImports(_ flavour: OpenSSLFlavour) throws {
        let f = Self.fixtures
        let file = try f.opensslExport(
            flavour.leaf, chain: flavour.chain, args: flavour.args + ["-passout", "pass:\(flavour.password)"])
        let importPassword: String? = flavour.importPassword ?? flavour.password
        let (identities, contents) = try PKCS12File.identities(in: file, password: importPassword)

        try #require(identities.count == 1)
        let identity = identities[0]
        let leafDER = f.leafDER(flavour.leaf)
        #expect(identity.certificate == leafDER)
        #expect(identity.chain == (flavour.chain ? [leafDER, f.intermediateDER, f.rootDER] : [leafDER]))
        #expect(identity.friendlyName == flavour.friendlyName)
        #expect(identity.localKeyID == Digest.hash(.sha1, leafDER))  // OpenSSL's localKeyID: SHA-1 of the cert
        let expectedKey = try f.privateKey(flavour.leaf)
        #expect(identity.privateKey.isSamePublicKey(as: expectedKey))
        #expect(identity.privateKey.isPrivate)
        #expect(contents.certificates.count == (flavour.chain ? 3 : 1))
        if let integrity = flavour.expectedIntegrity { #expect(contents.integrity == integrity) }
    }

    @Test(arguments: OpenSSLFlavour.all.filter(\.passwordProtected))
    func wrongPasswordIsAuthenticationFailure(_ flavour: OpenSSLFlavour) throws {
        let file = try Self.fixtures.opensslExport(
            flavour.leaf, chain: flavour.chain, args: flavour.args + ["-passout", "pass:\(flavour.password)"])
        for wrong in ["wrong", "secret-pW", "", flavour.password + "x"] where wrong != flavour.password {
            #expect(throws: PKCS12Error(.authenticationFailed, "")) {
                _ = try PKCS12File.identities(in: file, password: wrong)
            }
        }
        if !flavour.password.isEmpty {
            #expect(throws: PKCS12Error(.authenticationFailed, "")) {
                _ = try PKCS12File.decode(file, password: nil)
            }
        }
    }

    @Test func certificatesOnlyFileHasNoIdentities() throws {
        let f = Self.fixtures
        let out = f.path("nokeys.p12")
        try OpenSSLCLI.check([
            "pkcs12", "-export", "-nokeys", "-in", f.path("rsa.pem"), "-certfile", f.path("chain.pem"),
            "-passout", "pass:pw", "-out", out,
        ])
        let (identities, contents) = try PKCS12File.identities(
            in: Data(contentsOf: URL(fileURLWithPath: out)), password: "pw")
        #expect(identities.isEmpty)
        #expect(Set(contents.certificates.map(\.der)) == [f.rsaLeafDER, f.intermediateDER, f.rootDER])
    }

    @Test func unsupportedCipherNamesItsOID() throws {
        // Camellia-256-CBC inside PBES2: valid, but not one of ours.
        let file = try Self.fixtures.opensslExport(.rsa, args: ["-keypbe", "CAMELLIA-256-CBC", "-passout", "pass:pw"])
        do {
            _ = try PKCS12File.decode(file, password: "pw")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .unsupportedAlgorithm)
            #expect(error.algorithmOID == "1.2.392.200011.61.1.1.1.4")
            #expect(error.reason.contains("1.2.392.200011.61.1.1.1.4"))
        }
    }

    @Test func opensslReadsWhatWeExport() throws {
        // Quick sanity check of both profiles; the full matrix is in ExportInteropTests.
        let f = Self.fixtures
        let identity = PKCS12ExportIdentity(
            privateKey: try f.privateKey(.rsa), certificate: f.rsaLeafDER, friendlyName: "x")
        let file = try PKCS12Builder.export(identities: [identity], certificates: [], password: "pw")
        let path = try f.directory.write("quick.p12", file)
        try OpenSSLCLI.check(["pkcs12", "-info", "-noout", "-in", path, "-passin", "pass:pw"])
    }
}
