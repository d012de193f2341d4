import Foundation
import OSecTestSupport
import Security
import Testing

/// macOS's SecItemImport / SecItemExport: every format `security import` / `export` handle, format and type
/// guessing, PEM armour, passphrases, and import into a keychain.
struct MacItemImportExportTests {
    static func identity() throws -> (key: SecKey, certificate: SecCertificate) {
        var error: Unmanaged<CFError>?
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
        ]
        let key = try #require(SecKeyCreateRandomKey(attributes as CFDictionary, &error))
        let certificate = try OpenSecurityCertificates.createSelfSignedCertificate(
            subject: [("CN", "Import Export Test")], privateKey: key, notBefore: Date(timeIntervalSinceNow: -60),
            notAfter: Date(timeIntervalSinceNow: 86_400))
        return (key, certificate)
    }

    private func passphrase(_ text: String) -> SecItemImportExportKeyParameters {
        var parameters = SecItemImportExportKeyParameters()
        // Retained: a bridged temporary would be freed before the call reads it (the test leaks it on purpose).
        parameters.passphrase = Unmanaged.passRetained(text as CFString)
        return parameters
    }

    private func importItems(
        _ data: Data, name: String? = nil, format: SecExternalFormat = .formatUnknown,
        parameters: SecItemImportExportKeyParameters? = nil, keychain: SecKeychain? = nil
    ) -> (status: OSStatus, format: SecExternalFormat, type: SecExternalItemType, items: [AnyObject]) {
        var inputFormat = format
        var itemType = SecExternalItemType.itemTypeUnknown
        var items: CFArray?
        var status: OSStatus
        if var parameters {
            status = SecItemImport(
                data as CFData, name as CFString?, &inputFormat, &itemType, [], &parameters, keychain, &items)
        } else {
            status = SecItemImport(
                data as CFData, name as CFString?, &inputFormat, &itemType, [], nil, keychain, &items)
        }
        return (status, inputFormat, itemType, (items as? [AnyObject]) ?? [])
    }

    @Test func certificateExportsAsDERAndPEMAndImportsBack() throws {
        let (_, certificate) = try Self.identity()
        var der: CFData?
        #expect(SecItemExport(certificate, .formatUnknown, [], nil, &der) == errSecSuccess)
        #expect(der as Data? == SecCertificateCopyData(certificate) as Data)
        var pem: CFData?
        #expect(SecItemExport(certificate, .formatX509Cert, .pemArmour, nil, &pem) == errSecSuccess)
        let text = String(decoding: try #require(pem as Data?), as: UTF8.self)
        #expect(text.hasPrefix("-----BEGIN CERTIFICATE-----"))

        for (data, name) in [(try #require(der as Data?), "server.cer"), (Data(text.utf8), nil)] {
            let result = importItems(data, name: name)
            #expect(result.status == errSecSuccess)
            #expect(result.format == .formatX509Cert && result.type == .itemTypeCertificate)
            let imported = try #require(result.items.first as? SecCertificate)
            #expect(SecCertificateCopyData(imported) as Data == SecCertificateCopyData(certificate) as Data)
        }
        #expect(importItems(Data("not a certificate".utf8), name: "x.cer").status == errSecUnknownFormat)
    }

    @Test func keysExportInOpenSSLAndWrappedPKCS8() throws {
        let (key, _) = try Self.identity()
        var openssl: CFData?
        #expect(SecItemExport(key, .formatOpenSSL, .pemArmour, nil, &openssl) == errSecSuccess)
        let text = String(decoding: try #require(openssl as Data?), as: UTF8.self)
        #expect(text.hasPrefix("-----BEGIN EC PRIVATE KEY-----"))
        let plain = importItems(Data(text.utf8))
        #expect(plain.status == errSecSuccess && plain.format == .formatOpenSSL && plain.type == .itemTypePrivateKey)

        // Wrapped PKCS#8 needs the passphrase both ways.
        var wrapped: CFData?
        #expect(SecItemExport(key, .formatWrappedPKCS8, [], nil, &wrapped) == errSecPassphraseRequired)
        var parameters = passphrase("correct horse")
        #expect(SecItemExport(key, .formatWrappedPKCS8, [], &parameters, &wrapped) == errSecSuccess)
        let data = try #require(wrapped as Data?)
        #expect(importItems(data).status == errSecPassphraseRequired)
        #expect(importItems(data, parameters: passphrase("wrong")).status == errSecAuthFailed)
        let opened = importItems(data, parameters: passphrase("correct horse"))
        #expect(opened.status == errSecSuccess && opened.format == .formatWrappedPKCS8)
        let back = try #require(opened.items.first.map { $0 as AnyObject } as? SecKey)
        let publicKey = try #require(SecKeyCopyPublicKey(key))
        #expect(
            SecKeyCopyExternalRepresentation(try #require(SecKeyCopyPublicKey(back)), nil) as Data?
                == SecKeyCopyExternalRepresentation(publicKey, nil) as Data?)

        // Public keys: SubjectPublicKeyInfo.
        var spki: CFData?
        #expect(SecItemExport(publicKey, .formatUnknown, [], nil, &spki) == errSecSuccess)
        #expect(importItems(try #require(spki as Data?)).type == .itemTypePublicKey)
        #expect(SecItemExport(key, .formatSSH, [], nil, &spki) == errSecUnsupportedFormat)
    }

    @Test func pkcs12AndPEMSequencesCarrySeveralItems() throws {
        let (key, certificate) = try Self.identity()
        let identity = try OpenSecurityCertificates.createIdentity(certificate: certificate, privateKey: key)
        var p12: CFData?
        #expect(SecItemExport(identity, .formatUnknown, [], nil, &p12) == errSecPassphraseRequired)
        var parameters = passphrase("p12 pass")
        #expect(SecItemExport(identity, .formatPKCS12, [], &parameters, &p12) == errSecSuccess)
        let archive = try #require(p12 as Data?)
        let opened = importItems(archive, name: "me.p12", parameters: passphrase("p12 pass"))
        #expect(opened.status == errSecSuccess && opened.format == .formatPKCS12)
        #expect(opened.items.first.map { $0 as AnyObject } is SecIdentity)
        #expect(importItems(archive, name: "me.p12", parameters: passphrase("nope")).status != errSecSuccess)
        // By content alone.
        #expect(importItems(archive, parameters: passphrase("p12 pass")).format == .formatPKCS12)

        var sequence: CFData?
        #expect(SecItemExport([certificate, key] as CFArray, .formatUnknown, [], nil, &sequence) == errSecSuccess)
        let both = importItems(try #require(sequence as Data?), name: "bundle.pem")
        #expect(both.status == errSecSuccess && both.format == .formatPEMSequence)
        #expect(both.type == .itemTypeAggregate && both.items.count == 2)
    }

    @Test func badInputIsRefusedWithApplesCodes() throws {
        #expect(importItems(Data()).status == errSecUnknownFormat)
        #expect(importItems(Data([0x30, 0x82, 0xFF, 0xFF, 0x02])).status == errSecUnknownFormat)
        #expect(
            importItems(Data("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8)).status
                == errSecUnknownFormat)
        #expect(importItems(Data([1, 2, 3]), format: .formatSSH).status == errSecUnsupportedFormat)
        // A PKCS#12 cut short.
        let (key, certificate) = try Self.identity()
        let identity = try OpenSecurityCertificates.createIdentity(certificate: certificate, privateKey: key)
        var parameters = passphrase("cut")
        var p12: CFData?
        #expect(SecItemExport(identity, .formatPKCS12, [], &parameters, &p12) == errSecSuccess)
        let archive = try #require(p12 as Data?)
        let cut = importItems(archive.prefix(archive.count / 2), name: "cut.p12", parameters: passphrase("cut"))
        #expect(cut.status != errSecSuccess && cut.items.isEmpty)
        var out: CFData?
        #expect(SecItemExport([] as CFArray, .formatUnknown, [], nil, &out) == errSecParam)
        #expect(SecItemExport("text" as CFString, .formatUnknown, [], nil, &out) == errSecParam)
    }

    @Test func importIntoAKeychainStoresTheItems() throws {
        let keychain = try TestKeychain()
        let (_, certificate) = try Self.identity()
        let result = importItems(SecCertificateCopyData(certificate) as Data, keychain: keychain.keychain)
        #expect(result.status == errSecSuccess)
        var found: CFTypeRef?
        let query: [String: Any] = [kSecClass as String: kSecClassCertificate, kSecReturnRef as String: true]
        #expect(SecItemCopyMatching(keychain.q(query), &found) == errSecSuccess)
        #expect(found.map { $0 as AnyObject } is SecCertificate)
    }

    @Test func legacyKeychainItemImportExportTakeTheOldParameters() throws {
        let (key, _) = try Self.identity()
        var parameters = SecKeyImportExportParameters(
            version: UInt32(SEC_KEY_IMPORT_EXPORT_PARAMS_VERSION), flags: [],
            passphrase: Unmanaged.passRetained("legacy" as CFString), alertTitle: .passRetained("" as CFString),
            alertPrompt: .passRetained("" as CFString), accessRef: nil, keyUsage: 0, keyAttributes: 0)
        var exported: CFData?
        #expect(SecKeychainItemExport(key, .formatWrappedPKCS8, .pemArmour, &parameters, &exported) == errSecSuccess)
        var items: CFArray?
        #expect(
            SecKeychainItemImport(try #require(exported), nil, nil, nil, [], &parameters, nil, &items)
                == errSecSuccess)
        #expect((items as? [AnyObject])?.count == 1)
    }
}

/// SecItemImport reads what `openssl` writes, and `openssl` reads what SecItemExport writes.
@Suite(.enabled(if: OpenSSLCLI.isAvailable, "needs the openssl CLI"))
struct MacItemImportExportOpenSSLInteropTests {
    @Test func opensslEncryptedKeysAndPKCS12RoundTrip() throws {
        let directory = try TemporaryDirectory(prefix: "osec-itemimport")
        try OpenSSLCLI.check([
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-aes-256-cbc", "-pass",
            "pass:from openssl", "-out", directory.path("key.pem"),
        ])
        let pem = try Data(contentsOf: URL(fileURLWithPath: directory.path("key.pem")))
        var parameters = SecItemImportExportKeyParameters()
        let secret = "from openssl" as CFString
        parameters.passphrase = Unmanaged.passUnretained(secret)
        var format = SecExternalFormat.formatUnknown
        var type = SecExternalItemType.itemTypeUnknown
        var items: CFArray?
        let status = withExtendedLifetime(secret) {
            SecItemImport(pem as CFData, "key.pem" as CFString, &format, &type, [], &parameters, nil, &items)
        }
        #expect(status == errSecSuccess && format == .formatWrappedPKCS8 && type == .itemTypePrivateKey)
        let key = try #require((items as? [AnyObject])?.first as? SecKey)

        let certificate = try OpenSecurityCertificates.createSelfSignedCertificate(
            subject: [("CN", "openssl interop")], privateKey: key, notBefore: Date(timeIntervalSinceNow: -60),
            notAfter: Date(timeIntervalSinceNow: 86_400))
        let identity = try OpenSecurityCertificates.createIdentity(certificate: certificate, privateKey: key)
        var p12: CFData?
        let exported = withExtendedLifetime(secret) { SecItemExport(identity, .formatPKCS12, [], &parameters, &p12) }
        #expect(exported == errSecSuccess)
        try (p12 as Data? ?? Data()).write(to: URL(fileURLWithPath: directory.path("out.p12")))
        let listed = try OpenSSLCLI.check([
            "pkcs12", "-in", directory.path("out.p12"), "-passin", "pass:from openssl", "-nokeys",
        ])
        #expect(listed.stdoutText.contains("-----BEGIN CERTIFICATE-----"))
    }
}

/// The `security` tool imports what SecItemExport writes, and SecItemImport reads what `security export` writes.
@Suite(.enabled(if: SecurityTool.executable != nil, "needs the security executable (swift build)"))
struct MacItemImportExportToolInteropTests {
    @Test func toolAndAPIExchangeFiles() throws {
        let sandbox = try SecurityToolSandbox("osec-itemexport-tool")
        let keychain = try TestKeychain()
        let (key, certificate) = try MacItemImportExportTests.identity()
        var exported: CFData?
        #expect(SecItemExport([certificate, key] as CFArray, .formatPEMSequence, [], nil, &exported) == errSecSuccess)
        let file = sandbox.directory.path("bundle.pem")
        try (exported as Data? ?? Data()).write(to: URL(fileURLWithPath: file))
        let imported = try sandbox.check(["import", file, "-k", keychain.path])
        #expect(imported.stdout.contains("1 identity imported."))

        let written = try sandbox.check(["export", "-k", keychain.path, "-t", "certs", "-f", "pemseq"])
        var format = SecExternalFormat.formatUnknown
        var items: CFArray?
        #expect(SecItemImport(written.stdoutData as CFData, nil, &format, nil, [], nil, nil, &items) == errSecSuccess)
        let back = try #require((items as? [AnyObject])?.first as? SecCertificate)
        #expect(SecCertificateCopyData(back) as Data == SecCertificateCopyData(certificate) as Data)
    }
}
