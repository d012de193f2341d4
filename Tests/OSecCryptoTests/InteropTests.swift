import Foundation
import OSecTestSupport
import Testing

@testable import OSecCrypto

@Suite(.serialized) struct InteropTests {
    let fx: InteropFixtures

    init() throws { fx = try InteropFixtures.shared.get() }

    @Test func importRSAFromEveryFormat() throws {
        let reference = try fx.rsaKey()
        #expect(
            reference.isPrivate && reference.algorithm == .rsa && reference.bitSize == 2048
                && reference.blockSize == 256)
        let pass = fx.passphraseData
        let privates: [AsymmetricKey] = [
            try AsymmetricKey(pem: fx.text("rsa.pem")),
            try AsymmetricKey(pem: fx.text("rsa_pkcs1.pem")),
            try AsymmetricKey(der: fx.data("rsa_pkcs1.der")),
            try AsymmetricKey(pkcs8: fx.data("rsa_pkcs8.der")),
            try AsymmetricKey(der: fx.data("rsa_pkcs8.der")),
            try AsymmetricKey(pem: fx.text("rsa_enc_pkcs8.pem"), passphrase: pass),
            try AsymmetricKey(encryptedPKCS8: fx.data("rsa_enc_pkcs8.der"), passphrase: pass),
            try AsymmetricKey(pem: fx.text("rsa_des3.pem"), passphrase: pass),
            try AsymmetricKey(pemBytes: fx.data("rsa_aes.pem"), passphrase: pass),
        ]
        let publics: [AsymmetricKey] = [
            try AsymmetricKey(pem: fx.text("rsa_spki.pem")),
            try AsymmetricKey(subjectPublicKeyInfo: fx.data("rsa_spki.der")),
            try AsymmetricKey(der: fx.data("rsa_spki.der")),
            try AsymmetricKey(pem: fx.text("rsa_pub_pkcs1.pem")),
            try AsymmetricKey(rsaPublicKeyPKCS1: fx.data("rsa_pub_pkcs1.der")),
            try AsymmetricKey(der: fx.data("rsa_pub_pkcs1.der")),
        ]
        for key in privates { #expect(key.isPrivate && key.isSamePublicKey(as: reference)) }
        for key in publics { #expect(!key.isPrivate && key.isSamePublicKey(as: reference)) }
        #expect(try privates[7].rsaPKCS1DER == fx.data("rsa_pkcs1.der"))
    }

    @Test func wrongPassphrasesAreAuthenticationFailures() throws {
        let wrong = Data("wrong".utf8)
        for name in ["rsa_enc_pkcs8.pem", "rsa_des3.pem", "rsa_aes.pem", "p256_enc.pem"] {
            #expect(throws: CryptoError(.authenticationFailed, ""), "\(name)") {
                try AsymmetricKey(pem: fx.text(name), passphrase: wrong)
            }
            #expect(throws: CryptoError(.authenticationFailed, ""), "\(name)") { try AsymmetricKey(pem: fx.text(name)) }
        }
        #expect(throws: CryptoError(.authenticationFailed, "")) {
            try AsymmetricKey(encryptedPKCS8: fx.data("rsa_enc_pkcs8.der"), passphrase: wrong)
        }
    }

    @Test(arguments: [("p256", ECCurve.p256), ("p384", .p384), ("p521", .p521)])
    func importECFromEveryFormat(_ name: String, _ curve: ECCurve) throws {
        let reference = try fx.ecKey(name)
        #expect(reference.algorithm == .ec(curve) && reference.isPrivate)
        let keys: [AsymmetricKey] = [
            try AsymmetricKey(sec1: fx.data("\(name)_sec1.der")),
            try AsymmetricKey(der: fx.data("\(name)_sec1.der")),
            try AsymmetricKey(pem: fx.text("\(name)_pkcs8.pem")),
            try AsymmetricKey(pem: fx.text("\(name)_enc.pem"), passphrase: fx.passphraseData),
            try AsymmetricKey(pem: fx.text("\(name)_spki.pem")),
            try AsymmetricKey(ecPrivateKeyX963: reference.x963Representation),
            try AsymmetricKey(ecPublicKeyX963: reference.publicKey.x963Representation),
        ]
        for key in keys { #expect(key.isSamePublicKey(as: reference)) }
        #expect(try reference.x963Representation.count == 1 + 3 * curve.fieldSize)
    }

    @Test func exportsAreReadByOpenSSL() throws {
        let rsa = try fx.rsaKey()
        let ec = try fx.ecKey("p256")
        let dir = try TemporaryDirectory()
        let expectedRSAPublic = try fx.text("rsa_spki.pem")
        let expectedECPublic = try fx.text("p256_spki.pem")
        let cases: [(String, String, [String], String)] = [
            ("rsa1.pem", try rsa.pem(.pkcs1), ["rsa"], expectedRSAPublic),
            ("rsa8.pem", try rsa.pem(.pkcs8), ["pkey"], expectedRSAPublic),
            (
                "rsa8e.pem",
                PEMBlock.format(
                    label: "ENCRYPTED PRIVATE KEY",
                    der: try rsa.encryptedPKCS8DER(passphrase: fx.passphraseData, iterations: 1000)),
                ["pkey", "-passin", "pass:\(InteropFixtures.passphrase)"], expectedRSAPublic
            ),
            ("rsapub.pem", try rsa.pem(.spki), ["pkey", "-pubin"], expectedRSAPublic),
            ("rsapub1.pem", try rsa.publicKey.pem(.pkcs1), ["rsa", "-RSAPublicKey_in"], expectedRSAPublic),
            ("ec1.pem", try ec.pem(.sec1), ["ec"], expectedECPublic),
            ("ec8.pem", try ec.pem(.pkcs8), ["pkey"], expectedECPublic),
            ("ecpub.pem", try ec.pem(.spki), ["pkey", "-pubin"], expectedECPublic),
        ]
        for (file, pem, command, expected) in cases {
            let path = try dir.write(file, Data(pem.utf8))
            let result = try OpenSSLCLI.run(args: command + ["-in", path, "-pubout"])
            #expect(result.status == 0, "\(file): \(result.stderr)")
            #expect(result.stdoutText == expected, "\(file)")
        }
        // DER exports.
        #expect(try rsa.subjectPublicKeyInfoDER == fx.data("rsa_spki.der"))
        #expect(try rsa.publicKey.rsaPKCS1DER == fx.data("rsa_pub_pkcs1.der"))
        #expect(try AsymmetricKey(pkcs8: rsa.pkcs8DER).isSamePublicKey(as: rsa))
        #expect(try AsymmetricKey(sec1: ec.sec1DER).isSamePublicKey(as: ec))
        // The default iteration count and a passphrase through pem(_:passphrase:).
        let encrypted = try rsa.pem(.pkcs8, passphrase: fx.passphraseData)
        #expect(try AsymmetricKey(pem: encrypted, passphrase: fx.passphraseData).isSamePublicKey(as: rsa))
    }

    @Test(arguments: [RSAEncryptionPadding.pkcs1, .oaep(.sha256), .oaep(.sha1), .oaep(.sha512)])
    func rsaEncryptionBothWays(_ padding: RSAEncryptionPadding) throws {
        let rsa = try fx.rsaKey()
        let dir = try TemporaryDirectory()
        var options: [String]
        switch padding {
        case .oaep(let digest):
            let md = "\(digest)"
            options = [
                "-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:\(md)", "-pkeyopt", "rsa_mgf1_md:\(md)",
            ]
        default:
            options = ["-pkeyopt", "rsa_padding_mode:pkcs1"]
        }
        let message = Data("interop message".utf8)
        // Ours → openssl.
        let ciphertext = try rsa.publicKey.encrypt(message, padding: padding)
        let ctPath = try dir.write("ct", ciphertext)
        let decrypted = try OpenSSLCLI.check(
            ["pkeyutl", "-decrypt", "-inkey", fx.dir.path("rsa.pem"), "-in", ctPath] + options)
        #expect(decrypted.stdout == message)
        // openssl → ours.
        let encrypted = try OpenSSLCLI.check(
            ["pkeyutl", "-encrypt", "-pubin", "-inkey", fx.dir.path("rsa_spki.pem")] + options,
            stdin: message)
        #expect(try rsa.decrypt(encrypted.stdout, padding: padding) == message)
    }

    @Test func signaturesBothWays() throws {
        let rsa = try fx.rsaKey()
        let ec = try fx.ecKey("p256")
        let dir = try TemporaryDirectory()
        let message = Data("signed message".utf8)
        let msgPath = try dir.write("msg", message)
        let pss = ["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:32"]
        let cases: [(String, AsymmetricKey, SignatureScheme, [String], String, String)] = [
            ("pkcs1", rsa, .rsaPKCS1v15(digest: .sha256, inputIsDigest: false), [], "rsa.pem", "rsa_spki.pem"),
            (
                "pss", rsa, .rsaPSS(digest: .sha256, saltLength: 32, inputIsDigest: false), pss, "rsa.pem",
                "rsa_spki.pem"
            ),
            ("ecdsa", ec, .ecdsaDER(digest: .sha256, inputIsDigest: false), [], "p256_sec1.pem", "p256_spki.pem"),
        ]
        for (label, key, scheme, options, privateFile, publicFile) in cases {
            // Ours → openssl.
            let signature = try key.sign(message, scheme: scheme)
            let sigPath = try dir.write("\(label).sig", signature)
            let verify = try OpenSSLCLI.run(
                args: ["dgst", "-sha256", "-verify", fx.dir.path(publicFile), "-signature", sigPath]
                    + options + [msgPath])
            #expect(verify.status == 0 && verify.stdoutText.contains("Verified OK"), "\(label): \(verify.stderr)")
            // openssl → ours.
            let theirs = try OpenSSLCLI.check(
                ["dgst", "-sha256", "-sign", fx.dir.path(privateFile)] + options + [msgPath])
            #expect(try key.publicKey.verify(theirs.stdout, for: message, scheme: scheme), "\(label)")
            var tampered = theirs.stdout
            tampered[tampered.count - 1] ^= 1
            #expect(try key.publicKey.verify(tampered, for: message, scheme: scheme) == false, "\(label)")
        }
    }
}
