import Foundation
import OSecTestSupport
import Security
import Testing

/// SecKey against the real `openssl` CLI, both directions, through Apple's API only.
@Suite(.enabled(if: OpenSSLCLI.isAvailable, "needs the openssl CLI"))
struct SecKeyOpenSSLInteropTests {
    let message = Data("interop message signed and encrypted across implementations".utf8)

    func attrs(_ type: CFString, _ keyClass: CFString) -> CFDictionary {
        [kSecAttrKeyType as String: type, kSecAttrKeyClass as String: keyClass] as CFDictionary
    }

    @Test func openSSLRSAKeySignsHereAndOpenSSLVerifies() throws {
        let dir = try TemporaryDirectory()
        try OpenSSLCLI.check([
            "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", dir.path("key.pem"),
        ])
        try OpenSSLCLI.check([
            "rsa", "-in", dir.path("key.pem"), "-outform", "DER", "-traditional", "-out", dir.path("key.der"),
        ])
        try OpenSSLCLI.check(["rsa", "-in", dir.path("key.pem"), "-pubout", "-out", dir.path("pub.pem")])
        let der = try dir.read("key.der")
        var error: Unmanaged<CFError>?
        let key = try #require(
            SecKeyCreateWithData(der as CFData, attrs(kSecAttrKeyTypeRSA, kSecAttrKeyClassPrivate), &error))
        _ = try dir.write("msg", message)
        for (algorithm, opts) in [
            (SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA256, [String]()),
            (.rsaSignatureMessagePSSSHA256, ["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:32"]),
        ] {
            let sig = try #require(SecKeyCreateSignature(key, algorithm, message as CFData, &error)) as Data
            _ = try dir.write("sig", sig)
            let result = try OpenSSLCLI.run(
                args: ["dgst", "-sha256", "-verify", dir.path("pub.pem")] + opts + [
                    "-signature", dir.path("sig"), dir.path("msg"),
                ])
            #expect(result.status == 0, "\(algorithm.rawValue): \(result.stderr)")
        }
        // And our export of the key is the same PKCS#1 DER openssl wrote.
        #expect(SecKeyCopyExternalRepresentation(key, nil) as Data? == der)
    }

    @Test func openSSLSignaturesVerifyHere() throws {
        let dir = try TemporaryDirectory()
        try OpenSSLCLI.check([
            "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", dir.path("rsa.pem"),
        ])
        try OpenSSLCLI.check([
            "rsa", "-in", dir.path("rsa.pem"), "-pubout", "-outform", "DER", "-out", dir.path("rsa.spki"),
        ])
        _ = try dir.write("msg", message)
        let rsaPublic = try #require(
            SecKeyCreateWithData(
                try dir.read("rsa.spki") as CFData, attrs(kSecAttrKeyTypeRSA, kSecAttrKeyClassPublic), nil))
        let cases: [(String, [String], SecKeyAlgorithm)] = [
            ("-sha256", [], .rsaSignatureMessagePKCS1v15SHA256),
            ("-sha512", [], .rsaSignatureMessagePKCS1v15SHA512),
            (
                "-sha256", ["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:32"],
                .rsaSignatureMessagePSSSHA256
            ),
            (
                "-sha384", ["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:48"],
                .rsaSignatureMessagePSSSHA384
            ),
        ]
        for (digest, opts, algorithm) in cases {
            let sig = try OpenSSLCLI.check(["dgst", digest, "-sign", dir.path("rsa.pem")] + opts + [dir.path("msg")])
                .stdout
            var error: Unmanaged<CFError>?
            #expect(
                SecKeyVerifySignature(rsaPublic, algorithm, message as CFData, sig as CFData, &error),
                "\(algorithm.rawValue)")
        }
        for curve in ["P-256", "P-384", "P-521"] {
            try OpenSSLCLI.check([
                "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:\(curve)", "-out", dir.path("ec.pem"),
            ])
            let spki = try OpenSSLCLI.check(["pkey", "-in", dir.path("ec.pem"), "-pubout", "-outform", "DER"]).stdout
            let pointLength = curve == "P-256" ? 65 : curve == "P-384" ? 97 : 133
            let point = spki.suffix(pointLength)
            let ecPublic = try #require(
                SecKeyCreateWithData(
                    point as CFData, attrs(kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClassPublic), nil))
            let sig = try OpenSSLCLI.check(["dgst", "-sha256", "-sign", dir.path("ec.pem"), dir.path("msg")]).stdout
            var error: Unmanaged<CFError>?
            #expect(
                SecKeyVerifySignature(
                    ecPublic, .ecdsaSignatureMessageX962SHA256, message as CFData, sig as CFData, &error), "\(curve)")
        }
    }

    @Test func oaepAndPKCS1CiphertextsCrossBothWays() throws {
        let dir = try TemporaryDirectory()
        let key = KeyFixtures.rsa2048
        let pkcs1Public = try #require(SecKeyCopyExternalRepresentation(KeyFixtures.publicKey(key), nil)) as Data
        _ = try dir.write("pub.der", pkcs1Public)
        try OpenSSLCLI.check([
            "rsa", "-RSAPublicKey_in", "-inform", "DER", "-in", dir.path("pub.der"), "-pubout", "-out",
            dir.path("pub.pem"),
        ])
        _ = try dir.write("priv.der", try #require(SecKeyCopyExternalRepresentation(key, nil)) as Data)
        try OpenSSLCLI.check(["rsa", "-inform", "DER", "-in", dir.path("priv.der"), "-out", dir.path("priv.pem")])
        _ = try dir.write("msg", message)
        let cases: [([String], SecKeyAlgorithm)] = [
            (["-pkeyopt", "rsa_padding_mode:pkcs1"], .rsaEncryptionPKCS1),
            (["-pkeyopt", "rsa_padding_mode:oaep"], .rsaEncryptionOAEPSHA1),
            (
                [
                    "-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:sha256", "-pkeyopt",
                    "rsa_mgf1_md:sha256",
                ], .rsaEncryptionOAEPSHA256
            ),
            (
                [
                    "-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:sha512", "-pkeyopt",
                    "rsa_mgf1_md:sha512",
                ], .rsaEncryptionOAEPSHA512
            ),
        ]
        for (opts, algorithm) in cases {
            // openssl encrypts → we decrypt
            let ct = try OpenSSLCLI.check(
                ["pkeyutl", "-encrypt", "-pubin", "-inkey", dir.path("pub.pem"), "-in", dir.path("msg")] + opts
            ).stdout
            var error: Unmanaged<CFError>?
            #expect(
                SecKeyCreateDecryptedData(key, algorithm, ct as CFData, &error) as Data? == message,
                "\(algorithm.rawValue)")
            // we encrypt → openssl decrypts
            let ours =
                try #require(
                    SecKeyCreateEncryptedData(KeyFixtures.publicKey(key), algorithm, message as CFData, &error)) as Data
            _ = try dir.write("ct", ours)
            let pt = try OpenSSLCLI.check(
                ["pkeyutl", "-decrypt", "-inkey", dir.path("priv.pem"), "-in", dir.path("ct")] + opts
            ).stdout
            #expect(pt == message, "\(algorithm.rawValue)")
        }
    }

    @Test func ecdhAgreesWithOpenSSL() throws {
        let dir = try TemporaryDirectory()
        try OpenSSLCLI.check([
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", dir.path("peer.pem"),
        ])
        let spki = try OpenSSLCLI.check(["pkey", "-in", dir.path("peer.pem"), "-pubout", "-outform", "DER"]).stdout
        let peer = try #require(
            SecKeyCreateWithData(
                spki.suffix(65) as CFData, attrs(kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClassPublic), nil))
        // Our public key as SPKI PEM for openssl: a fixed P-256 SPKI header + our point.
        let ours = KeyFixtures.p256
        let point = try #require(SecKeyCopyExternalRepresentation(KeyFixtures.publicKey(ours), nil)) as Data
        let header: [UInt8] = [
            0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08,
            0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
        ]
        _ = try dir.write("ours.der", Data(header) + point)
        try OpenSSLCLI.check([
            "pkey", "-pubin", "-inform", "DER", "-in", dir.path("ours.der"), "-out", dir.path("ours.pem"),
        ])
        let theirs = try OpenSSLCLI.check([
            "pkeyutl", "-derive", "-inkey", dir.path("peer.pem"), "-peerkey", dir.path("ours.pem"),
        ]).stdout
        var error: Unmanaged<CFError>?
        let mine =
            SecKeyCopyKeyExchangeResult(ours, .ecdhKeyExchangeStandard, peer, [String: Any]() as CFDictionary, &error)
            as Data?
        #expect(mine == theirs)
        #expect(theirs.count == 32)
    }
}
