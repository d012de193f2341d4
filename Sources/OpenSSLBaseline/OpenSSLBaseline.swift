// Swift face of the C baselines: the benchmark executable calls OpenSSL only through this module, so C calls stay
// in wrapper layers. Strings cross as C strings; no pointer to a Swift buffer reaches C.
internal import COpenSSLBaseline

package func osec_baseline_rsa2048_sign_sha256(_ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_rsa2048_sign_sha256(seconds)
}

package func osec_baseline_rsa2048_verify_sha256(_ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_rsa2048_verify_sha256(seconds)
}

package func osec_baseline_rsa2048_oaep_decrypt_sha256(_ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_rsa2048_oaep_decrypt_sha256(seconds)
}

package func osec_baseline_p256_sign_sha256(_ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_p256_sign_sha256(seconds)
}

package func osec_baseline_p256_verify_sha256(_ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_p256_verify_sha256(seconds)
}

package func osec_baseline_aes256gcm_1mib(_ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_aes256gcm_1mib(seconds)
}

package func osec_baseline_sha256_1mib(_ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_sha256_1mib(seconds)
}

package func osec_baseline_rsa2048_private_decode_generic(_ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_rsa2048_private_decode_generic(seconds)
}

package func osec_baseline_rsa2048_private_decode_typed(_ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_rsa2048_private_decode_typed(seconds)
}

package func osec_baseline_p256_public_decode_generic(_ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_p256_public_decode_generic(seconds)
}

package func osec_baseline_p256_public_decode_fromdata(_ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_p256_public_decode_fromdata(seconds)
}

package func osec_baseline_keychain_insert(_ path: String, _ count: Int32) -> Double {
    COpenSSLBaseline.osec_baseline_keychain_insert(path, count)
}

package func osec_baseline_keychain_find(_ path: String, _ count: Int32, _ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_keychain_find(path, count, seconds)
}

package func osec_baseline_keychain_delete(_ path: String, _ count: Int32) -> Double {
    COpenSSLBaseline.osec_baseline_keychain_delete(path, count)
}

package func osec_baseline_pkcs12_parse_file(_ path: String, _ password: String, _ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_pkcs12_parse_file(path, password, seconds)
}

package func osec_baseline_x509_verify_files(
    _ leaf: String, _ intermediate: String, _ root: String, _ host: String, _ at_time: Int64, _ parse_each_time: Int32,
    _ seconds: Double
) -> Double {
    COpenSSLBaseline.osec_baseline_x509_verify_files(leaf, intermediate, root, host, at_time, parse_each_time, seconds)
}

package func osec_baseline_d2i_x509_file(_ path: String, _ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_d2i_x509_file(path, seconds)
}

package func osec_baseline_d2i_x509_cached_extensions_file(_ path: String, _ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_d2i_x509_cached_extensions_file(path, seconds)
}

package func osec_baseline_cc_sha256(_ length: Int32, _ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_cc_sha256(length, seconds)
}

package func osec_baseline_cc_hmac_sha256(_ length: Int32, _ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_cc_hmac_sha256(length, seconds)
}

package func osec_baseline_cc_aes_cbc(_ key_length: Int32, _ length: Int32, _ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_cc_aes_cbc(key_length, length, seconds)
}

/// The seckey suite's signature baseline (see COpenSSLSecKeyBaseline.h): `scheme` is
/// ``OpenSSLSignatureBaseline``, `messageLength` 0 signs a digest, otherwise a message of that many bytes.
package func osec_baseline_signature(
    _ privateKeyPEM: String, _ scheme: OpenSSLSignatureBaseline, _ digest: String, verify: Bool, messageLength: Int,
    _ seconds: Double
) -> Double {
    COpenSSLBaseline.osec_baseline_signature(
        privateKeyPEM, scheme.rawValue, digest, verify ? 1 : 0, messageLength, seconds)
}

/// The signature schemes of ``osec_baseline_signature(_:_:_:verify:messageLength:_:)``.
package enum OpenSSLSignatureBaseline: Int32, Sendable {
    /// RSASSA-PKCS1-v1_5.
    case rsaPKCS1 = 0
    /// RSASSA-PSS, MGF1 of the same digest, salt as long as the digest.
    case rsaPSS = 1
    /// ECDSA with a DER signature.
    case ecdsa = 2
}

/// RSA-OAEP decryption with `digest` for OAEP and MGF1 (see COpenSSLSecKeyBaseline.h).
package func osec_baseline_oaep_decrypt(_ privateKeyPEM: String, _ digest: String, _ seconds: Double) -> Double {
    COpenSSLBaseline.osec_baseline_oaep_decrypt(privateKeyPEM, digest, seconds)
}

/// The OpenSSL library's version text, e.g. "OpenSSL 3.0.19 27 Jan 2026".
package var opensslVersionText: String {
    guard let text = COpenSSLBaseline.osec_baseline_openssl_version() else { return "unknown" }
    return String(cString: text)
}

/// Decoding the key in `privateKeyPEM` (or its public half) from one encoding, with the OpenSSL call a C
/// program would use for it (see COpenSSLSecKeyBaseline.h).
package func osec_baseline_key_decode(
    _ privateKeyPEM: String, _ encoding: OpenSSLKeyDecodeBaseline, _ seconds: Double
) -> Double {
    COpenSSLBaseline.osec_baseline_key_decode(privateKeyPEM, encoding.rawValue, seconds)
}

/// The encodings and entry points of ``osec_baseline_key_decode(_:_:_:)``.
package enum OpenSSLKeyDecodeBaseline: Int32, Sendable {
    /// SubjectPublicKeyInfo, `d2i_PUBKEY`.
    case spki = 0
    /// PKCS#8, `d2i_AutoPrivateKey`.
    case pkcs8 = 1
    /// RSA PKCS#1 RSAPrivateKey, `d2i_AutoPrivateKey`.
    case rsaPKCS1Generic = 2
    /// RSA PKCS#1 RSAPrivateKey, `d2i_RSAPrivateKey` + `EVP_PKEY_assign_RSA`.
    case rsaPKCS1Typed = 3
    /// EC uncompressed point, `EVP_PKEY_fromdata`.
    case ecPoint = 4
}
