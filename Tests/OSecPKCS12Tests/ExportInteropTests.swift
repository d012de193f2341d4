import Foundation
import OSecCrypto
import OSecTestSupport
import Testing

@testable import OSecPKCS12

struct ExportCase: Sendable, CustomTestStringConvertible {
    let name: String
    let profile: PKCS12ExportProfile
    /// Extra `openssl pkcs12` arguments needed to read the file (RC2 needs the legacy provider).
    let opensslArgs: [String]
    var password = "export-pw"
    var leaf: PKCS12Fixtures.Leaf = .rsa
    var testDescription: String { name }

    static let all: [ExportCase] = [
        ExportCase(name: "modern RSA", profile: .modern, opensslArgs: []),
        ExportCase(name: "modern P-256", profile: .modern, opensslArgs: [], leaf: .ec),
        ExportCase(name: "legacy RSA (RC2-40 certs, 3DES key, SHA-1 MAC)", profile: .legacy, opensslArgs: ["-legacy"]),
        ExportCase(name: "legacy P-256", profile: .legacy, opensslArgs: ["-legacy"], leaf: .ec),
        ExportCase(name: "legacy 3DES RSA", profile: .legacyTripleDES, opensslArgs: []),
        ExportCase(name: "modern, non-ASCII password", profile: .modern, opensslArgs: [], password: "pässwörd-😀"),
        ExportCase(
            name: "legacy, non-ASCII password", profile: .legacy, opensslArgs: ["-legacy"], password: "pässwörd-😀"),
        ExportCase(name: "modern, empty password", profile: .modern, opensslArgs: [], password: ""),
    ]
}

@Suite struct ExportInteropTests {
    static let fixtures = PKCS12Fixtures.shared

    private func export(_ c: ExportCase, name: String = "Exported Identity") throws -> Data {
        let f = Self.fixtures
        let identity = PKCS12ExportIdentity(
            privateKey: try f.privateKey(c.leaf), certificate: f.leafDER(c.leaf), friendlyName: name)
        return try PKCS12Builder.export(
            identities: [identity], certificates: [f.intermediateDER, f.rootDER], password: c.password,
            profile: c.profile)
    }

    @Test(arguments: ExportCase.all)
    func opensslReadsExport(_ c: ExportCase) throws {
        let f = Self.fixtures
        let path = try f.directory.write("export-\(UUID().uuidString).p12", try export(c))
        let info = try OpenSSLCLI.check(
            ["pkcs12", "-info", "-noout", "-in", path, "-passin", "pass:\(c.password)"] + c.opensslArgs)
        let macName = c.profile.macDigest == .sha1 ? "MAC: sha1" : "MAC: sha256"
        #expect(info.stderr.contains(macName))
        // Extract the key and certificates and compare with the originals.
        let pem = try OpenSSLCLI.check(
            ["pkcs12", "-in", path, "-nodes", "-passin", "pass:\(c.password)"] + c.opensslArgs
        ).stdoutText
        #expect(pem.contains("friendlyName: Exported Identity"))
        let keyPEM = try #require(pem.range(of: "-----BEGIN PRIVATE KEY-----").map { String(pem[$0.lowerBound...]) })
        let key = try AsymmetricKey(
            pem: keyPEM.components(separatedBy: "-----END PRIVATE KEY-----")[0] + "-----END PRIVATE KEY-----\n")
        #expect(key.isSamePublicKey(as: try f.privateKey(c.leaf)))
        #expect(pem.components(separatedBy: "-----BEGIN CERTIFICATE-----").count - 1 == 3)
    }

    // Java's PKCS12KeyStore rejects non-ASCII passwords ("Password is not ASCII") and empty store passwords.
    @Test(arguments: ExportCase.all.filter { !$0.password.isEmpty && $0.password.allSatisfy(\.isASCII) })
    func keytoolListsExport(_ c: ExportCase) throws {
        let f = Self.fixtures
        let path = try f.directory.write("export-kt-\(UUID().uuidString).p12", try export(c, name: "exported-alias"))
        let listing = try KeytoolCLI.check([
            "-list", "-v", "-storetype", "PKCS12", "-keystore", path, "-storepass", c.password,
        ])
        #expect(listing.contains("Alias name: exported-alias"))
        #expect(listing.contains("Entry type: PrivateKeyEntry"))
        #expect(listing.contains("Certificate chain length: 3"))
    }

    @Test(arguments: ExportCase.all)
    func roundTripsThroughOurImporter(_ c: ExportCase) throws {
        let f = Self.fixtures
        let file = try export(c)
        let (identities, contents) = try PKCS12File.identities(in: file, password: c.password)
        try #require(identities.count == 1)
        #expect(identities[0].chain == [f.leafDER(c.leaf), f.intermediateDER, f.rootDER])
        #expect(identities[0].friendlyName == "Exported Identity")
        #expect(identities[0].localKeyID == Digest.hash(.sha1, f.leafDER(c.leaf)))
        if let digest = c.profile.macDigest {
            #expect(contents.integrity == .mac(digest: digest, iterations: c.profile.macIterations))
        }
        #expect(throws: PKCS12Error(.authenticationFailed, "")) {
            _ = try PKCS12File.decode(file, password: c.password + "!")
        }
    }

    @Test func twoIdentitiesKeepTheirOrderAndLabels() throws {
        let f = Self.fixtures
        let file = try PKCS12Builder.export(
            identities: [
                PKCS12ExportIdentity(
                    privateKey: try f.privateKey(.ec), certificate: f.ecLeafDER, friendlyName: "first"),
                PKCS12ExportIdentity(
                    privateKey: try f.privateKey(.rsa), certificate: f.rsaLeafDER, friendlyName: "second"),
            ],
            certificates: [f.rootDER, f.intermediateDER], password: "pw")
        let identities = try PKCS12File.identities(in: file, password: "pw").identities
        #expect(identities.map(\.friendlyName) == ["first", "second"])
        #expect(identities.map(\.certificate) == [f.ecLeafDER, f.rsaLeafDER])
        #expect(identities.allSatisfy { $0.chain.count == 3 })
        let path = try f.directory.write("two.p12", file)
        let listing = try KeytoolCLI.check(["-list", "-storetype", "PKCS12", "-keystore", path, "-storepass", "pw"])
        #expect(listing.contains("first,") && listing.contains("second,"))
        #expect(listing.contains("Your keystore contains 2 entries"))
    }

    @Test func nonASCIIFriendlyNameIsReadByOpenSSL() throws {
        let f = Self.fixtures
        let name = "Zoë’s key 🔑"
        let identity = PKCS12ExportIdentity(
            privateKey: try f.privateKey(.ec), certificate: f.ecLeafDER, friendlyName: name)
        let file = try PKCS12Builder.export(identities: [identity], certificates: [], password: "pw")
        let path = try f.directory.write("utf-name.p12", file)
        let pem = try OpenSSLCLI.check(["pkcs12", "-in", path, "-nodes", "-passin", "pass:pw"]).stdoutText
        // OpenSSL 3.0 prints BMPStrings lossily (one byte per code unit); check the readable prefix.
        #expect(pem.contains("friendlyName: Zo"))
        #expect(try PKCS12File.identities(in: file, password: "pw").identities.first?.friendlyName == name)
    }

    @Test func mismatchedKeyAndCertificateIsRejected() throws {
        let f = Self.fixtures
        #expect(throws: PKCS12Error(.invalidParameter, "")) {
            _ = try PKCS12Builder.export(
                identities: [PKCS12ExportIdentity(privateKey: try f.privateKey(.ec), certificate: f.rsaLeafDER)],
                certificates: [], password: "pw")
        }
    }
}

@Suite struct KeytoolInteropTests {
    static let fixtures = PKCS12Fixtures.shared

    @Test(arguments: ["RSA", "EC"])
    func keytoolGeneratedKeystoreImports(_ algorithm: String) throws {
        let f = Self.fixtures
        let path = f.path("keytool-\(algorithm).p12")
        try? FileManager.default.removeItem(atPath: path)
        try KeytoolCLI.check([
            "-genkeypair", "-storetype", "PKCS12", "-keystore", path, "-storepass", "kt-pass", "-alias",
            "my-\(algorithm)",
            "-keyalg", algorithm, "-keysize", algorithm == "RSA" ? "2048" : "256", "-dname",
            "CN=Keytool \(algorithm), O=Java",
            "-validity", "3",
        ])
        let (identities, contents) = try PKCS12File.identities(
            in: Data(contentsOf: URL(fileURLWithPath: path)), password: "kt-pass")
        try #require(identities.count == 1)
        #expect(identities[0].friendlyName == "my-\(algorithm.lowercased())")  // keytool lower-cases aliases
        #expect(identities[0].chain.count == 1)
        #expect(identities[0].localKeyID != nil)
        #expect(contents.integrity == .mac(digest: .sha256, iterations: 10000))
        #expect(throws: PKCS12Error(.authenticationFailed, "")) {
            _ = try PKCS12File.decode(Data(contentsOf: URL(fileURLWithPath: path)), password: "kt-wrong")
        }
    }

    @Test func keytoolImportKeystoreOfOpenSSLFile() throws {
        let f = Self.fixtures
        let source = try f.directory.write(
            "kt-src.p12", try f.opensslExport(.rsa, args: ["-name", "from-openssl", "-passout", "pass:src-pw"]))
        let dest = f.path("kt-dest.p12")
        try? FileManager.default.removeItem(atPath: dest)
        try KeytoolCLI.check([
            "-importkeystore", "-noprompt", "-srckeystore", source, "-srcstoretype", "PKCS12", "-srcstorepass",
            "src-pw",
            "-destkeystore", dest, "-deststoretype", "PKCS12", "-deststorepass", "dest-pw",
        ])
        let identities = try PKCS12File.identities(
            in: Data(contentsOf: URL(fileURLWithPath: dest)), password: "dest-pw"
        ).identities
        try #require(identities.count == 1)
        #expect(identities[0].friendlyName == "from-openssl")
        #expect(identities[0].chain == [f.rsaLeafDER, f.intermediateDER, f.rootDER])
        #expect(identities[0].privateKey.isSamePublicKey(as: try f.privateKey(.rsa)))
    }

    @Test func keytoolStoreWithTwoKeysAndATrustedCertificate() throws {
        let f = Self.fixtures
        let path = f.path("keytool-multi.p12")
        try? FileManager.default.removeItem(atPath: path)
        for alias in ["alpha", "beta"] {
            try KeytoolCLI.check([
                "-genkeypair", "-storetype", "PKCS12", "-keystore", path, "-storepass", "multi-pw", "-alias", alias,
                "-keyalg", "EC", "-dname", "CN=\(alias)", "-validity", "3",
            ])
        }
        try KeytoolCLI.check([
            "-importcert", "-noprompt", "-storetype", "PKCS12", "-keystore", path, "-storepass", "multi-pw",
            "-alias", "trusted-root", "-file", f.path("root.pem"),
        ])
        let (identities, contents) = try PKCS12File.identities(
            in: Data(contentsOf: URL(fileURLWithPath: path)), password: "multi-pw")
        #expect(Set(identities.compactMap(\.friendlyName)) == ["alpha", "beta"])
        #expect(contents.certificates.contains { $0.der == f.rootDER })
        #expect(identities.allSatisfy { $0.chain.count == 1 })
    }
}
