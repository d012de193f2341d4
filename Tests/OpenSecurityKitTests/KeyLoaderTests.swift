import Foundation
import OSecTestSupport
import OpenSecurityKit
import Security
import Testing

@Suite(.enabled(if: OpenSSLFixtures.shared != nil, "needs the openssl CLI"))
struct KeyLoaderTests {
    var files: OpenSSLFixtures { OpenSSLFixtures.shared! }
    var passphrase: String { OpenSSLFixtures.passphrase }

    /// The fixture key pair, for comparing what each loader returns.
    var referencePublicKey: Data {
        get throws {
            let key = try KeyLoader.key(contentsOf: files.url("rsa-spki.der"))
            return try #require(SecKeyCopyExternalRepresentation(key, nil) as Data?)
        }
    }

    func external(_ key: SecKey) -> Data? {
        SecKeyCopyExternalRepresentation(SecKeyCopyPublicKey(key) ?? key, nil) as Data?
    }

    @Test func certificateFilesGiveTheirPublicKeyThroughSecTrust() throws {
        let reference = try referencePublicKey
        for name in ["guide-cert.cer", "guide-cert.pem"] {
            let key = try KeyLoader.publicKey(certificateAt: files.url(name))
            #expect(external(key) == reference, "\(name)")
        }
        let ecKey = try KeyLoader.publicKey(certificate: try files.data("ec-cert.pem"))
        #expect(SecKeyGetBlockSize(ecKey) == 32)
    }

    @Test func trustCanBeRequiredForTheCertificate() throws {
        let data = try files.data("guide-cert.cer")
        let certificate = try KeyLoader.certificate(data)
        // Self-signed and not an anchor: untrusted.
        #expect(
            thrownStatus { try KeyLoader.publicKey(certificate: data, evaluatingTrustWith: SecPolicyCreateBasicX509()) }
                == errSecNotTrusted)
        // Anchored at itself: trusted.
        let key = try KeyLoader.publicKey(
            certificate: data, evaluatingTrustWith: SecPolicyCreateBasicX509(), anchors: [certificate])
        #expect(external(key) == (try referencePublicKey))
    }

    @Test func somethingThatIsNotACertificateIsADecodeErrorWithAReason() throws {
        do {
            _ = try KeyLoader.publicKey(certificate: Data("-----BEGIN CERTIFICATE-----\nAAAA\n".utf8))
            Issue.record("garbage loaded as a certificate")
        } catch {
            #expect(error.status == errSecDecode)
            #expect(error.reason.contains("certificate"))
        }
        #expect(thrownStatus { try KeyLoader.publicKey(certificate: try files.data("rsa-spki.der")) } == errSecDecode)
    }

    @Test func pkcs12GivesTheIdentityItsKeyAndCertificate() throws {
        let loaded = try KeyLoader.identity(pkcs12At: files.url("guide.pfx"), password: OpenSSLFixtures.exportPassword)
        #expect(loaded.label == "test-alias")
        #expect(external(loaded.publicKey) == (try referencePublicKey))
        #expect(SecCertificateCopyData(loaded.certificate) as Data == (try files.data("guide-cert.cer")))
        #expect(loaded.chain.count == 1)
        var key: SecKey?
        #expect(SecIdentityCopyPrivateKey(loaded.identity, &key) == errSecSuccess)
        #expect(key == loaded.privateKey)
    }

    @Test func aWrongPkcs12PasswordIsAuthFailed() throws {
        let data = try files.data("guide.pfx")
        do {
            _ = try KeyLoader.identity(pkcs12: data, password: "wrong")
            Issue.record("a wrong password opened the .p12")
        } catch {
            #expect(error.status == errSecAuthFailed)
            #expect(error.reason.contains("password"))
        }
        #expect(thrownStatus { try KeyLoader.identity(pkcs12: Data("junk".utf8), password: "x") } == errSecDecode)
    }

    @Test func aPkcs12WithoutAKeyIsItemNotFound() throws {
        let dir = try TemporaryDirectory()
        try OpenSSLCLI.check([
            "pkcs12", "-export", "-nokeys", "-in", files.path("guide-cert.pem"), "-passout", "pass:x", "-out",
            dir.path("certs-only.p12"),
        ])
        #expect(
            thrownStatus { try KeyLoader.identity(pkcs12: try dir.read("certs-only.p12"), password: "x") }
                == errSecItemNotFound)
    }

    @Test func everyKeyFormatOpenSSLWritesLoads() throws {
        let reference = try referencePublicKey
        let plain = [
            "rsa-pkcs1.pem", "rsa-pkcs1.der", "rsa-pkcs8.pem", "rsa-pkcs8.der", "rsa-spki.pem", "rsa-spki.der",
            "rsa-public-pkcs1.pem", "rsa-public-pkcs1.der",
        ]
        for name in plain {
            let key = try KeyLoader.key(contentsOf: files.url(name))
            #expect(external(key) == reference, "\(name)")
        }
        for name in ["guide-key.pem", "rsa-pkcs8-encrypted.pem", "rsa-pkcs8-encrypted.der"] {
            let key = try KeyLoader.key(contentsOf: files.url(name), passphrase: passphrase)
            #expect(external(key) == reference, "\(name)")
        }
        let genrsa = try KeyLoader.key(contentsOf: files.url("rsa-genrsa3.pem"), passphrase: passphrase)
        #expect(SecKeyGetBlockSize(genrsa) == 256)
        var ecKeys: [Data?] = []
        for name in ["ec-sec1.pem", "ec-sec1.der", "ec-pkcs8.pem", "ec-spki.pem"] {
            ecKeys.append(external(try KeyLoader.key(contentsOf: files.url(name))))
        }
        ecKeys.append(
            external(try KeyLoader.key(contentsOf: files.url("ec-sec1-encrypted.pem"), passphrase: passphrase)))
        #expect(Set(ecKeys).count == 1 && ecKeys[0]?.count == 65)
        // Apple's own external representation works too.
        let x963 = try #require(ecKeys[0])
        #expect(external(try KeyLoader.key(x963)) == x963)
    }

    @Test func encryptedKeysNeedTheRightPassphrase() throws {
        for name in ["guide-key.pem", "rsa-pkcs8-encrypted.pem", "rsa-pkcs8-encrypted.der", "ec-sec1-encrypted.pem"] {
            let data = try files.data(name)
            #expect(thrownStatus { try KeyLoader.key(data) } == errSecPassphraseRequired, "\(name) without passphrase")
            #expect(thrownStatus { try KeyLoader.key(data, passphrase: "wrong") } == errSecAuthFailed, "\(name)")
        }
    }

    @Test func brokenKeyFilesAreDecodeErrors() throws {
        let pkcs8 = try files.data("rsa-pkcs8.der")
        let broken: [(String, Data)] = [
            ("empty", Data()), ("text", Data("hello".utf8)), ("truncated DER", pkcs8.prefix(pkcs8.count / 2)),
            ("flipped DER", pkcs8.flipping(10, bit: 3)),
            ("PEM with garbage", Data("-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----\n".utf8)),
            ("certificate PEM", try files.data("guide-cert.pem")),
        ]
        for (name, data) in broken {
            #expect(thrownStatus { try KeyLoader.key(data) } == errSecDecode, "\(name)")
        }
    }

    @Test func unreadableFilesSayWhy() throws {
        let missing = URL(fileURLWithPath: files.path("does-not-exist.der"))
        #expect(thrownStatus { try KeyLoader.key(contentsOf: missing) } == errSecIO)
        #expect(thrownStatus { try KeyLoader.publicKey(certificateAt: missing) } == errSecIO)
        let dir = try TemporaryDirectory()
        let big = try dir.write("big.der", Data(count: KeyLoader.maximumFileSize + 1))
        #expect(thrownStatus { try KeyLoader.key(contentsOf: URL(fileURLWithPath: big)) } == errSecDataTooLarge)
    }
}
