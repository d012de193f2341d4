// Baselines for the seckey benchmark suite: OpenSSL's own EVP calls on the same key as the Swift side.
//
// The key arrives as PEM text (PKCS#8 "PRIVATE KEY"), parsed once per call of these functions, outside the timed
// loop, with PEM_read_bio_PrivateKey: a provider-native EVP_PKEY, OpenSSL's fastest kind. Verification uses a
// public-only EVP_PKEY made from it (i2d_PUBKEY + d2i_PUBKEY, also outside the loop). The EVP_MD is fetched once.
// Inside the loop every operation is what a C programmer following OpenSSL's documentation writes:
//   digest input:  EVP_PKEY_CTX_new_from_pkey, EVP_PKEY_{sign,verify}_init, padding/digest/salt settings,
//                  EVP_PKEY_{sign,verify} into a preallocated buffer, EVP_PKEY_CTX_free;
//   message input: EVP_MD_CTX_new, EVP_Digest{Sign,Verify}Init with the pre-fetched EVP_MD, padding/salt settings
//                  on the EVP_PKEY_CTX it returns, one-shot EVP_Digest{Sign,Verify}, EVP_MD_CTX_free.
// A context per operation because EVP_PKEY_CTX and EVP_MD_CTX are not thread-safe (a server signing on several
// threads cannot share one). No pointers cross into Swift.
#ifndef OPENSEC_COPENSSL_SECKEY_BASELINE_H
#define OPENSEC_COPENSSL_SECKEY_BASELINE_H

/// RSASSA-PKCS1-v1_5.
#define OSEC_BASELINE_RSA_PKCS1 0
/// RSASSA-PSS with MGF1 of the same digest and a salt as long as the digest (Apple's PSS algorithms).
#define OSEC_BASELINE_RSA_PSS 1
/// ECDSA with a DER (X9.62) signature.
#define OSEC_BASELINE_ECDSA 2

/// Signs (`verify` = 0) or verifies (`verify` = 1) repeatedly for about `seconds` seconds with the key in
/// `private_key_pem`, `scheme` one of the OSEC_BASELINE_ constants and `digest` an OpenSSL digest name ("SHA256").
/// `message_length` 0 signs a digest (EVP_PKEY_sign / EVP_PKEY_verify); otherwise a message of that many bytes
/// (EVP_DigestSign / EVP_DigestVerify). Returns operations per second, or < 0 on failure.
double osec_baseline_signature(const char *private_key_pem, int scheme, const char *digest, int verify,
                               long message_length, double seconds);

/// RSA-OAEP decryption (MGF1 of the same digest, empty label) of a 32-byte secret: EVP_PKEY_CTX_new_from_pkey,
/// EVP_PKEY_decrypt_init, the OAEP settings and EVP_PKEY_decrypt per operation. Returns operations per second.
double osec_baseline_oaep_decrypt(const char *private_key_pem, const char *digest, double seconds);

/// SubjectPublicKeyInfo with d2i_PUBKEY (generic: OpenSSL 3's decoder framework).
#define OSEC_BASELINE_DECODE_SPKI 0
/// PKCS#8 PrivateKeyInfo with d2i_AutoPrivateKey (generic).
#define OSEC_BASELINE_DECODE_PKCS8 1
/// RSA: PKCS#1 RSAPrivateKey with d2i_AutoPrivateKey (generic).
#define OSEC_BASELINE_DECODE_RSA_PKCS1_GENERIC 2
/// RSA: PKCS#1 RSAPrivateKey with d2i_RSAPrivateKey + EVP_PKEY_assign_RSA (typed, deprecated but fastest).
#define OSEC_BASELINE_DECODE_RSA_PKCS1_TYPED 3
/// EC: the uncompressed public point with EVP_PKEY_fromdata (group name + point).
#define OSEC_BASELINE_DECODE_EC_POINT 4

/// Decoding the key in `private_key_pem` (or its public half) from the encoding `what` (an OSEC_BASELINE_DECODE_
/// constant), made once outside the loop. Returns keys per second, or < 0 on failure.
double osec_baseline_key_decode(const char *private_key_pem, int what, double seconds);

/// OpenSSL's version text (OpenSSL_version(OPENSSL_VERSION)), e.g. "OpenSSL 3.0.19 27 Jan 2026".
const char *osec_baseline_openssl_version(void);

#endif
