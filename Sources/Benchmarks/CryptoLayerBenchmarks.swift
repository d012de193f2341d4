import Foundation
import OSecCrypto
import OpenSSLBaseline

/// The same operations one layer down (OSecCrypto), to show what the Apple-API facade costs on top.
enum CryptoLayerBenchmarks {
    static func rows() -> [BenchRow] {
        guard let rsa = try? AsymmetricKey.generateRSA(bits: 2048), let ec = try? AsymmetricKey.generateEC(.p256),
            let rsaDER = try? rsa.rsaPKCS1DER, let ecPoint = try? ec.publicKey.x963Representation
        else { return [] }
        let rsaPublic = rsa.publicKey
        let ecPublic = ec.publicKey
        let digest = Digest.hash(.sha256, Data("benchmark".utf8))
        let rsaScheme = SignatureScheme.rsaPKCS1v15(digest: .sha256, inputIsDigest: true)
        let ecScheme = SignatureScheme.ecdsaDER(digest: .sha256, inputIsDigest: true)
        let rsaSignature = (try? rsa.sign(digest, scheme: rsaScheme)) ?? Data()
        let ecSignature = (try? ec.sign(digest, scheme: ecScheme)) ?? Data()
        let ciphertext = (try? rsaPublic.encrypt(digest, padding: .oaep(.sha256))) ?? Data()
        func check(_ ok: Bool) throws { if !ok { throw BenchFailure() } }
        return [
            BenchRow(
                name: "[crypto layer] RSA-2048 verify", unit: "op/s", opensslLabel: "EVP_PKEY_verify",
                ours: { s in
                    measure(s) { try check(try rsaPublic.verify(rsaSignature, for: digest, scheme: rsaScheme)) }
                },
                openssl: { osec_baseline_rsa2048_verify_sha256($0) }),
            BenchRow(
                name: "[crypto layer] RSA-2048 OAEP-SHA256 decrypt", unit: "op/s", opensslLabel: "EVP_PKEY_decrypt",
                ours: { s in measure(s) { _ = try rsa.decrypt(ciphertext, padding: .oaep(.sha256)) } },
                openssl: { osec_baseline_rsa2048_oaep_decrypt_sha256($0) }),
            BenchRow(
                name: "[crypto layer] P-256 verify", unit: "op/s", opensslLabel: "EVP_PKEY_verify",
                ours: { s in measure(s) { try check(try ecPublic.verify(ecSignature, for: digest, scheme: ecScheme)) }
                },
                openssl: { osec_baseline_p256_verify_sha256($0) }),
            BenchRow(
                name: "[crypto layer] RSA-2048 private PKCS#1 import", unit: "op/s",
                opensslLabel: "d2i_RSAPrivateKey+EVP_PKEY_assign (typed)",
                ours: { s in measure(s) { _ = try AsymmetricKey(rsaPrivateKeyPKCS1: rsaDER) } },
                openssl: { osec_baseline_rsa2048_private_decode_typed($0) }),
            BenchRow(
                name: "[crypto layer] P-256 public X9.63 import", unit: "op/s",
                opensslLabel: "EVP_PKEY_fromdata (typed)",
                ours: { s in measure(s) { _ = try AsymmetricKey(ecPublicKeyX963: ecPoint) } },
                openssl: { osec_baseline_p256_public_decode_fromdata($0) }),
        ]
    }
}
