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
