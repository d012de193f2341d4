import Foundation
import OSecCrypto
import OpenSSLBaseline
import Security

enum BenchSuites {
    static let all: [BenchSuite] = [
        BenchSuite(name: "seckey", rows: KeyBenchmarks.rows),
        BenchSuite(name: "symmetric", rows: SymmetricBenchmarks.rows),
        BenchSuite(name: "crypto-layer", rows: CryptoLayerBenchmarks.rows),
        BenchSuite(name: "keychain", rows: KeychainBenchmarks.rows),
        BenchSuite(name: "pkcs12", rows: PKCS12Benchmarks.rows),
        BenchSuite(name: "x509", rows: X509Benchmarks.rows),
        BenchSuite(name: "trust", rows: TrustBenchmarks.rows),
        BenchSuite(name: "commoncrypto", rows: CommonCryptoBenchmarks.rows),
        BenchSuite(name: "kit", rows: KitBenchmarks.rows),
    ]
}

enum KeyBenchmarks {
    static func rows() -> [BenchRow] {
        var error: Unmanaged<CFError>?
        let rsaParams: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 2048,
        ]
        let ecParams: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
        ]
        guard let rsa = SecKeyCreateRandomKey(rsaParams as CFDictionary, &error),
            let rsaPublic = SecKeyCopyPublicKey(rsa),
            let ec = SecKeyCreateRandomKey(ecParams as CFDictionary, &error),
            let ecPublic = SecKeyCopyPublicKey(ec)
        else {
            print("key generation failed: \(String(describing: error?.takeRetainedValue()))")
            return []
        }
        let digest = Digest.hash(.sha256, Data("benchmark".utf8)) as CFData
        let rsaSignature = SecKeyCreateSignature(rsa, .rsaSignatureDigestPKCS1v15SHA256, digest, nil) ?? NSData()
        let ecSignature = SecKeyCreateSignature(ec, .ecdsaSignatureDigestX962SHA256, digest, nil) ?? NSData()
        let oaepCiphertext = SecKeyCreateEncryptedData(rsaPublic, .rsaEncryptionOAEPSHA256, digest, nil) ?? NSData()
        let rsaDER = (SecKeyCopyExternalRepresentation(rsa, nil) ?? NSData()) as CFData
        let ecPublicX963 = (SecKeyCopyExternalRepresentation(ecPublic, nil) ?? NSData()) as CFData
        let rsaPrivateAttributes =
            [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate]
            as CFDictionary
        let ecPublicAttributes =
            [
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                kSecAttrKeyClass as String: kSecAttrKeyClassPublic,
            ] as CFDictionary

        func check(_ ok: Bool) throws { if !ok { throw BenchFailure() } }
        return [
            BenchRow(
                name: "RSA-2048 sign (PKCS#1 v1.5, SHA-256 digest)", unit: "op/s", opensslLabel: "EVP_PKEY_sign",
                ours: { s in
                    measure(s) {
                        try check(SecKeyCreateSignature(rsa, .rsaSignatureDigestPKCS1v15SHA256, digest, nil) != nil)
                    }
                },
                openssl: { osec_baseline_rsa2048_sign_sha256($0) }),
            BenchRow(
                name: "RSA-2048 verify (PKCS#1 v1.5, SHA-256 digest)", unit: "op/s", opensslLabel: "EVP_PKEY_verify",
                ours: { s in
                    measure(s) {
                        try check(
                            SecKeyVerifySignature(
                                rsaPublic, .rsaSignatureDigestPKCS1v15SHA256, digest, rsaSignature, nil))
                    }
                },
                openssl: { osec_baseline_rsa2048_verify_sha256($0) }),
            BenchRow(
                name: "RSA-2048 OAEP-SHA256 decrypt", unit: "op/s", opensslLabel: "EVP_PKEY_decrypt",
                ours: { s in
                    measure(s) {
                        try check(SecKeyCreateDecryptedData(rsa, .rsaEncryptionOAEPSHA256, oaepCiphertext, nil) != nil)
                    }
                },
                openssl: { osec_baseline_rsa2048_oaep_decrypt_sha256($0) }),
            BenchRow(
                name: "P-256 sign (ECDSA X9.62, SHA-256 digest)", unit: "op/s", opensslLabel: "EVP_PKEY_sign",
                ours: { s in
                    measure(s) {
                        try check(SecKeyCreateSignature(ec, .ecdsaSignatureDigestX962SHA256, digest, nil) != nil)
                    }
                },
                openssl: { osec_baseline_p256_sign_sha256($0) }),
            BenchRow(
                name: "P-256 verify (ECDSA X9.62, SHA-256 digest)", unit: "op/s", opensslLabel: "EVP_PKEY_verify",
                ours: { s in
                    measure(s) {
                        try check(
                            SecKeyVerifySignature(ecPublic, .ecdsaSignatureDigestX962SHA256, digest, ecSignature, nil))
                    }
                },
                openssl: { osec_baseline_p256_verify_sha256($0) }),
            BenchRow(
                name: "SecKeyCreateWithData RSA-2048 private", unit: "op/s",
                opensslLabel: "d2i_AutoPrivateKey (generic)",
                ours: { s in measure(s) { try check(SecKeyCreateWithData(rsaDER, rsaPrivateAttributes, nil) != nil) } },
                openssl: { osec_baseline_rsa2048_private_decode_generic($0) }),
            BenchRow(
                name: "SecKeyCreateWithData RSA-2048 private", unit: "op/s",
                opensslLabel: "d2i_RSAPrivateKey+EVP_PKEY_assign (typed)",
                ours: { s in measure(s) { try check(SecKeyCreateWithData(rsaDER, rsaPrivateAttributes, nil) != nil) } },
                openssl: { osec_baseline_rsa2048_private_decode_typed($0) }),
            BenchRow(
                name: "SecKeyCreateWithData P-256 public", unit: "op/s", opensslLabel: "d2i_PUBKEY (generic)",
                ours: { s in
                    measure(s) { try check(SecKeyCreateWithData(ecPublicX963, ecPublicAttributes, nil) != nil) }
                },
                openssl: { osec_baseline_p256_public_decode_generic($0) }),
            BenchRow(
                name: "SecKeyCreateWithData P-256 public", unit: "op/s", opensslLabel: "EVP_PKEY_fromdata (typed)",
                ours: { s in
                    measure(s) { try check(SecKeyCreateWithData(ecPublicX963, ecPublicAttributes, nil) != nil) }
                },
                openssl: { osec_baseline_p256_public_decode_fromdata($0) }),
        ]
    }
}

struct BenchFailure: Error {}

enum SymmetricBenchmarks {
    static func rows() -> [BenchRow] {
        let mib = Data(count: 1 << 20)
        let key = Data(repeating: 7, count: 32)
        let nonce = Data(count: 12)
        return [
            BenchRow(
                name: "AES-256-GCM seal, 1 MiB", unit: "B/s", opensslLabel: "EVP_EncryptUpdate (AES-256-GCM)",
                ours: { s in
                    measure(s) { _ = try AESGCM.seal(key: key, nonce: nonce, plaintext: mib) } * Double(mib.count)
                },
                openssl: { osec_baseline_aes256gcm_1mib($0) }),
            BenchRow(
                name: "SHA-256, 1 MiB", unit: "B/s", opensslLabel: "EVP_Digest",
                ours: { s in measure(s) { _ = Digest.hash(.sha256, mib) } * Double(mib.count) },
                openssl: { osec_baseline_sha256_1mib($0) }),
        ]
    }
}
