import Foundation
import OSecTestSupport
import Security
import Testing

@Suite struct PKCS12ImportTests {
    static let pki = PKCS12TestPKI.shared

    private func importP12(_ data: Data, _ options: [String: Any]) -> (OSStatus, [[String: Any]]?) {
        var items: CFArray?
        let status = SecPKCS12Import(data as CFData, options as CFDictionary, &items)
        return (status, items.map { ($0 as? [[String: Any]]) ?? [] })
    }

    private func ders(_ chain: Any?) -> [Data] {
        ((chain as? [SecCertificate]) ?? []).map { SecCertificateCopyData($0) as Data }
    }

    @Test(arguments: [
        [String](), ["-legacy"], ["-nomac"],
        ["-macalg", "sha512", "-keypbe", "DES-EDE3-CBC", "-certpbe", "AES-128-CBC"],
    ])
    func importsOpenSSLFile(_ args: [String]) throws {
        let pki = Self.pki
        let file = try pki.p12("rsa", args + ["-name", "Facade Label", "-passout", "pass:facade-pw"])
        let (status, items) = importP12(file, [kSecImportExportPassphrase as String: "facade-pw"])
        #expect(status == errSecSuccess)
        let item = try #require(items?.first)
        #expect(items?.count == 1)
        #expect(item[kSecImportItemLabel as String] as? String == "Facade Label")
        #expect(item[kSecImportItemKeyID as String] as? Data == (try pki.sha1(pki.rsaLeafDER)))
        #expect(ders(item[kSecImportItemCertChain as String]) == [pki.rsaLeafDER, pki.intermediateDER, pki.rootDER])

        let anyIdentity = try #require(item[kSecImportItemIdentity as String])
        let identity = try #require(anyIdentity as? SecIdentity)
        var certificate: SecCertificate?
        var key: SecKey?
        #expect(SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess)
        #expect(SecIdentityCopyPrivateKey(identity, &key) == errSecSuccess)
        #expect(certificate.map { SecCertificateCopyData($0) as Data } == pki.rsaLeafDER)
        var error: Unmanaged<CFError>?
        let external = try #require(key.flatMap { SecKeyCopyExternalRepresentation($0, &error) }) as Data
        #expect(external == (try pki.rsaPKCS1()))

        let anyTrust = try #require(item[kSecImportItemTrust as String])
        let trust = try #require(anyTrust as? SecTrust)
        #expect(SecTrustGetCertificateCount(trust) == 3)
    }

    @Test func labelAndKeyFallbacksForECLeaf() throws {
        // No -name: the label is the leaf's subject summary (OU outranks O when there is no CN).
        let file = try Self.pki.p12("ec", ["-passout", "pass:pw"])
        let (status, items) = importP12(file, [kSecImportExportPassphrase as String: "pw"])
        #expect(status == errSecSuccess)
        let item = try #require(items?.first)
        #expect(item[kSecImportItemLabel as String] as? String == "Only Unit")
        var key: SecKey?
        let identity = try #require(item[kSecImportItemIdentity as String] as? SecIdentity)
        #expect(SecIdentityCopyPrivateKey(identity, &key) == errSecSuccess)
        #expect(key.map { SecKeyGetBlockSize($0) } == 32)
    }

    @Test(arguments: [
        [String](), ["-legacy"], ["-nomac"], ["-legacy", "-nomac"],
        ["-keypbe", "PBE-SHA1-2DES", "-certpbe", "PBE-SHA1-3DES"],
    ])
    func wrongPasswordIsAuthFailed(_ args: [String]) throws {
        let file = try Self.pki.p12("ec", args + ["-passout", "pass:right"])
        for options: [String: Any] in [
            [kSecImportExportPassphrase as String: "wrong"], [:], [kSecImportExportPassphrase as String: ""],
        ] {
            var items: CFArray?
            #expect(SecPKCS12Import(file as CFData, options as CFDictionary, &items) == errSecAuthFailed)
            #expect(items == nil)
        }
    }

    @Test func emptyPasswordWithoutPassphraseOption() throws {
        for args in [[String](), ["-legacy"]] {
            let file = try Self.pki.p12("rsa", args + ["-passout", "pass:"])
            let (status, items) = importP12(file, [:])
            #expect(status == errSecSuccess)
            #expect(items?.count == 1)
        }
    }

    @Test func certificatesWithoutKeyGiveEmptyArray() throws {
        let pki = Self.pki
        let out = pki.directory.path("certs-only.p12")
        try OpenSSLCLI.check([
            "pkcs12", "-export", "-nokeys", "-in", pki.directory.path("rsa.pem"), "-certfile",
            pki.directory.path("chain.pem"), "-passout", "pass:pw", "-out", out,
        ])
        let (status, items) = importP12(
            try Data(contentsOf: URL(fileURLWithPath: out)), [kSecImportExportPassphrase as String: "pw"])
        #expect(status == errSecSuccess)
        #expect(items?.isEmpty == true)
    }

    @Test func malformedAndUnsupportedAreDecodeErrors() throws {
        var items: CFArray?
        let options = [kSecImportExportPassphrase as String: "pw"] as CFDictionary
        #expect(SecPKCS12Import(Data() as CFData, options, &items) == errSecDecode)
        #expect(SecPKCS12Import(Data("not a p12".utf8) as CFData, options, &items) == errSecDecode)
        let good = try Self.pki.p12("ec", ["-passout", "pass:pw"])
        #expect(SecPKCS12Import(good.prefix(good.count / 2) as CFData, options, &items) == errSecDecode)

        let camellia = try Self.pki.p12("ec", ["-certpbe", "CAMELLIA-128-CBC", "-passout", "pass:pw"])
        #expect(SecPKCS12Import(camellia as CFData, options, &items) == errSecDecode)
        #expect(items == nil)
        do {
            _ = try OpenSecurityPKCS12.importItems(camellia, passphrase: "pw")
            Issue.record("expected an error")
        } catch let error as NSError {
            #expect(error.code == Int(errSecDecode))
            #expect(error.localizedDescription.contains("1.2.392.200011.61.1.1.1.2"))
        }
    }

    @Test func passphraseOfTheWrongTypeIsParamError() throws {
        let file = try Self.pki.p12("ec", ["-passout", "pass:pw"])
        var items: CFArray?
        let options = [kSecImportExportPassphrase as String: NSNumber(value: 42)] as CFDictionary
        #expect(SecPKCS12Import(file as CFData, options, &items) == errSecParam)
    }

    @Test func nonASCIIPassphrase() throws {
        for args in [[String](), ["-legacy"]] {
            let file = try Self.pki.p12("ec", args + ["-passout", "pass:Grüße-𝄞"])
            #expect(importP12(file, [kSecImportExportPassphrase as String: "Grüße-𝄞"]).0 == errSecSuccess)
            #expect(importP12(file, [kSecImportExportPassphrase as String: "Grusse-𝄞"]).0 == errSecAuthFailed)
        }
    }
}

@Suite struct PKCS12ExportTests {
    static let pki = PKCS12TestPKI.shared

    private func identities() throws -> (SecIdentity, SecIdentity, [SecCertificate]) {
        let pki = Self.pki
        func load(_ leaf: String) throws -> (SecIdentity, [SecCertificate]) {
            var items: CFArray?
            let file = try pki.p12(leaf, ["-passout", "pass:x"])
            #expect(
                SecPKCS12Import(file as CFData, [kSecImportExportPassphrase as String: "x"] as CFDictionary, &items)
                    == errSecSuccess)
            let item = try #require((items as? [[String: Any]])?.first)
            let identity = try #require(item[kSecImportItemIdentity as String] as? SecIdentity)
            let chain = try #require(item[kSecImportItemCertChain as String] as? [SecCertificate])
            return (identity, Array(chain.dropFirst()))
        }
        let (rsa, chain) = try load("rsa")
        let (ec, _) = try load("ec")
        return (rsa, ec, chain)
    }

    @Test(arguments: ["modern", "legacy", "legacyTripleDES"])
    func exportIsReadByOpenSSLKeytoolAndUs(_ profileName: String) throws {
        let pki = Self.pki
        let profile: OpenSecurityPKCS12.ExportProfile =
            profileName == "modern" ? .modern : profileName == "legacy" ? .legacy : .legacyTripleDES
        let (rsa, ec, chain) = try identities()
        let file = try OpenSecurityPKCS12.export(
            identities: [rsa, ec], certificates: chain, passphrase: "out-pw", profile: profile,
            friendlyNames: ["rsa-entry", "ec-entry"])
        let path = try pki.directory.write("facade-\(profileName).p12", file)

        let legacyArgs = profileName == "legacy" ? ["-legacy"] : []
        let info = try OpenSSLCLI.check(
            ["pkcs12", "-info", "-noout", "-in", path, "-passin", "pass:out-pw"] + legacyArgs)
        #expect(info.stderr.contains(profileName == "modern" ? "MAC: sha256" : "MAC: sha1"))
        #expect(
            info.stderr.contains(
                profileName == "modern" ? "PBES2, PBKDF2, AES-256-CBC" : "pbeWithSHA1And3-KeyTripleDES-CBC"))
        #expect(
            try OpenSSLCLI.run(args: ["pkcs12", "-info", "-noout", "-in", path, "-passin", "pass:bad"] + legacyArgs)
                .status != 0)

        let listing = try runKeytool(["-list", "-storetype", "PKCS12", "-keystore", path, "-storepass", "out-pw"])
        #expect(listing.contains("rsa-entry, ") && listing.contains("ec-entry, "))
        #expect(listing.contains("Your keystore contains 2 entries"))

        var items: CFArray?
        #expect(
            SecPKCS12Import(file as CFData, [kSecImportExportPassphrase as String: "out-pw"] as CFDictionary, &items)
                == errSecSuccess)
        let dictionaries = try #require(items as? [[String: Any]])
        #expect(dictionaries.map { $0[kSecImportItemLabel as String] as? String } == ["rsa-entry", "ec-entry"])
        #expect(
            dictionaries.map { (($0[kSecImportItemCertChain as String] as? [SecCertificate]) ?? []).count } == [3, 3])
    }

    @Test func exportWithoutIdentitiesOrCertificatesIsParamError() {
        do {
            _ = try OpenSecurityPKCS12.export(identities: [], passphrase: "pw")
            Issue.record("expected an error")
        } catch let error as NSError {
            #expect(error.code == Int(errSecParam))
        }
    }

    private func runKeytool(_ args: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/keytool")
        process.arguments = args
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "keytool failed: \(text)")
        return text
    }
}
