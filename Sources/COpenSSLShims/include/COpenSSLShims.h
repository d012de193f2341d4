// C shims for OSecCrypto.
//
// Why this target exists:
//  * Some fast OpenSSL entry points are deprecated in 3.x (d2i_RSAPrivateKey, EVP_PKEY_assign_RSA,
//    RSA_get0_key, ...). Calling them here, in a file compiled with OPENSSL_SUPPRESS_DEPRECATED, keeps
//    deprecation warnings out of the Swift build while still using the 100x faster typed decoders
//    (see shared/reference/openssl3-performance.md).
//  * Pointer parameters are declared `const void *` / `void *` so Swift raw buffers can be passed
//    without rebinding memory; EVP_PKEY handles are returned as `void *` (an OpaquePointer in Swift).
//  * Building OSSL_PARAM arrays (which point at C strings and buffers) is simpler and safer in C.
#ifndef OPENSEC_COPENSSL_SHIMS_H
#define OPENSEC_COPENSSL_SHIMS_H

#include <stddef.h>

/// Status codes reported by the key shims through their `int *status` out parameter.
enum {
    OSEC_KEY_OK = 0,
    OSEC_KEY_DECODE = 1,          // the bytes do not decode (OpenSSL error queue holds details)
    OSEC_KEY_TRAILING = 2,        // bytes left after the structure
    OSEC_KEY_RSA_SIZE = 3,        // modulus outside 512...16384 bits or even
    OSEC_KEY_RSA_EXPONENT = 4,    // public exponent even, <= 1 or >= n
    OSEC_KEY_RSA_PRIVATE = 5,     // private exponent missing/out of range, or p*q != n
    OSEC_KEY_EC_POINT = 6,        // public point not on the curve / bad encoding
    OSEC_KEY_EC_SCALAR = 7,       // private scalar not in [1, n-1]
    OSEC_KEY_EC_MISMATCH = 8,     // public point != K*G
    OSEC_KEY_INTERNAL = 9         // allocation or unexpected OpenSSL failure
};

/// RSAPrivateKey (PKCS#1) DER -> EVP_PKEY via d2i_RSAPrivateKey + EVP_PKEY_assign_RSA, with cheap sanity checks.
void *osec_rsa_private_from_pkcs1(const void *der, size_t len, int *status);
/// RSAPublicKey (PKCS#1) DER -> EVP_PKEY via d2i_RSAPublicKey + EVP_PKEY_assign_RSA, with cheap sanity checks.
void *osec_rsa_public_from_pkcs1(const void *der, size_t len, int *status);
/// Cheap sanity checks of any RSA EVP_PKEY (modulus size, exponent, p*q == n). Returns an OSEC_KEY_* code.
int osec_rsa_check(const void *pkey, int is_private);

/// Curve index used by the EC shims: 0 = P-256, 1 = P-384, 2 = P-521, 3 = P-192, 4 = P-224.
/// EC public key from an encoded point (uncompressed or compressed) via EVP_PKEY_fromdata.
void *osec_ec_public_from_point(int curve, const void *point, size_t point_len, int *status);
/// EC private key from scalar K (big-endian, any length <= field size). If `point` is non-NULL it must
/// equal K*G (uncompressed or compressed encoding); otherwise the public point is computed.
void *osec_ec_private_from_scalar(int curve, const void *scalar, size_t scalar_len,
                                  const void *point, size_t point_len, int *status);
/// Curve index (0 to 4) of an EC EVP_PKEY, or -1.
int osec_ec_curve_of(const void *pkey);

/// HMAC through a cached per-digest template context (no algorithm fetch per call). Returns 1 on success.
int osec_hmac(const void *md, const void *key, size_t key_len, const void *data, size_t data_len,
              void *out, unsigned int *out_len);

/// Sets the RSA-OAEP label on an encryption/decryption EVP_PKEY_CTX (OpenSSL copies it). Returns 1 on success.
int osec_set_oaep_label(void *ctx, const void *label, size_t label_len);

/// EVP_KDF "PKCS12KDF" (RFC 7292 appendix B) with a pre-fetched `kdf`. Returns 1 on success.
int osec_kdf_pkcs12(const void *kdf, const char *digest, const void *pass, size_t pass_len,
                    const void *salt, size_t salt_len, int iterations, int id, void *out, size_t out_len);
/// EVP_KDF "X963KDF" (ANSI X9.63) with a pre-fetched `kdf`. Returns 1 on success.
int osec_kdf_x963(const void *kdf, const char *digest, const void *secret, size_t secret_len,
                  const void *info, size_t info_len, void *out, size_t out_len);

/// AES-GCM with an IV longer than the 128 bytes OpenSSL 3.0's GCM provider accepts, through libcrypto's exported
/// GCM128 mode functions (the same GHASH/CTR code the provider uses). `encrypt` 1: seals `in` into `out` and
/// writes `tag_len` tag bytes; 0: opens `in` into `out` and checks `tag` (constant time); 2: decrypts `in` into
/// `out` and writes the tag computed over `in` to `tag` without checking anything (Apple's deprecated
/// `CCCryptorGCM`, whose caller compares). Returns 1 on success, 0 on a tag mismatch, -1 on any other failure.
int osec_aes_gcm_long_iv(int encrypt, const void *key, size_t key_len, const void *iv, size_t iv_len,
                         const void *aad, size_t aad_len, const void *in, size_t in_len, void *out,
                         void *tag, size_t tag_len);

/// One AES-GCM message on a context that already holds its key (set once with `EVP_CipherInit_ex2`, in the
/// direction `encrypt` gives): sets the 12-byte IV, feeds `aad`, processes `in` into `out` (same length), and
/// writes (encrypt) or checks (decrypt, constant time) the `tag_len`-byte tag. The tag goes through
/// `OSSL_PARAM`s directly rather than `EVP_CIPHER_CTX_ctrl`, which translates every call by name. One call
/// instead of six keeps small messages (keychain secrets) cheap. Returns 1 on success, 0 on a tag mismatch
/// (the output is cleansed), -1 on any other failure.
int osec_aes_gcm_prepared(void *ctx, int encrypt, const void *iv, size_t iv_len, const void *aad,
                          size_t aad_len, const void *in, size_t in_len, void *out, void *tag, size_t tag_len);

/// One AES-GCM message in one call on caller buffers (CommonCrypto's `CCCryptorGCMOneshotEncrypt`/`Decrypt`):
/// `cipher` is the fetched AES-GCM cipher for the `key_len`-byte key. Any IV length from 1 byte on: up to 128
/// bytes through the EVP provider, longer ones through `osec_aes_gcm_long_iv`. `aad`, `in` and `out` may be
/// NULL when their lengths are 0; `out` may equal `in`; lengths above INT_MAX are fed in pieces. `encrypt` 1:
/// seals `in` into `out` and writes `tag_len` (1...16) tag bytes to `tag_out`; 0: opens `in` into `out` and
/// checks the `tag_len` bytes at `tag_in` (constant time; the tag is copied first, so it may overlap `out`).
/// Returns 1 on success, 0 on a tag mismatch (the output is cleansed and the error queue left empty), -1 on
/// any other failure (a decryption's output is cleansed).
int osec_aes_gcm_oneshot(const void *cipher, int encrypt, const void *key, size_t key_len, const void *iv,
                         size_t iv_len, const void *aad, size_t aad_len, const void *in, size_t in_len, void *out,
                         void *tag_out, const void *tag_in, size_t tag_len);

/// One-shot digest on a per-thread cached EVP_MD_CTX: `slot` (0 ... OSEC_DIGEST_CACHE_SLOTS - 1) picks the
/// thread's context for this digest, which is re-initialised rather than allocated on every call (EVP_Digest
/// allocates and frees a context each time). Any other slot uses a fresh context. `data` may be NULL when
/// `len` is 0. Writes the digest to `out`. Returns 1 on success.
#define OSEC_DIGEST_CACHE_SLOTS 8
int osec_digest_cached(const void *md, int slot, const void *data, size_t len, void *out, unsigned int *out_len);

/// Incremental HMAC on an HMAC_CTX (deprecated API, called here with deprecation warnings suppressed; it is
/// about twice as fast as EVP_MAC for short messages). `key` may be NULL when `key_len` is 0. Returns the
/// context, or NULL on failure.
void *osec_hmac_ctx_new(const void *md, const void *key, size_t key_len);
/// Feeds `len` bytes (`data` may be NULL when `len` is 0). Returns 1 on success.
int osec_hmac_ctx_update(void *ctx, const void *data, size_t len);
/// Writes the MAC to `out` (at most EVP_MAX_MD_SIZE bytes). Returns 1 on success.
int osec_hmac_ctx_final(void *ctx, void *out, unsigned int *out_len);
/// An independent copy of `ctx` (HMAC_CTX_copy), or NULL.
void *osec_hmac_ctx_dup(const void *ctx);
/// Frees (and cleanses) a context; NULL is ignored.
void osec_hmac_ctx_free(void *ctx);


/// Incremental digests whose whole state is plain bytes owned by the caller (the low-level MD4_CTX, MD5_CTX,
/// SHA_CTX, SHA256_CTX and SHA512_CTX, deprecated API called here with deprecation warnings suppressed), for
/// CommonCrypto's `CC_*_CTX`, which code allocates itself and copies by value. `algorithm`: 0 MD4, 1 MD5,
/// 2 SHA-1, 3 SHA-224, 4 SHA-256, 5 SHA-384, 6 SHA-512. `state` is at least OSEC_PLAIN_DIGEST_STATE_SIZE
/// bytes, 8-aligned. Each returns 1 on success, 0 for an unknown algorithm or a failure.
#define OSEC_PLAIN_DIGEST_STATE_SIZE 224
int osec_plain_digest_init(int algorithm, void *state);
/// Feeds `len` bytes (`data` may be NULL when `len` is 0).
int osec_plain_digest_update(int algorithm, void *state, const void *data, size_t len);
/// Writes the digest to `out` (the algorithm's length) and cleanses `state`.
int osec_plain_digest_final(int algorithm, void *state, void *out);

#endif
