#define OPENSSL_SUPPRESS_DEPRECATED 1  // d2i_RSAPrivateKey + EVP_PKEY_assign_RSA: the typed fast path
// OpenSSL 3 baselines for the seckey suite (see COpenSSLSecKeyBaseline.h for what is measured and why).
#include "COpenSSLSecKeyBaseline.h"
#include "baseline_support.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <stdlib.h>
#include <string.h>

/// Largest signature or RSA block of the benchmarked keys (RSA-4096: 512 bytes; P-521 DER: 139 bytes).
#define MAX_OUTPUT 1024

typedef struct {
    EVP_PKEY *private_key;
    EVP_PKEY *public_key;
    EVP_MD *md;
    int scheme;
    unsigned char *input;
    size_t input_length;
    unsigned char signature[MAX_OUTPUT];
    size_t signature_length;
} fixture;

static EVP_PKEY *read_private_key(const char *pem) {
    BIO *bio = BIO_new_mem_buf(pem, -1);
    EVP_PKEY *key = bio ? PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL) : NULL;
    BIO_free(bio);
    return key;
}

static EVP_PKEY *public_half(EVP_PKEY *key) {
    unsigned char *der = NULL;
    int length = i2d_PUBKEY(key, &der);
    const unsigned char *cursor = der;
    EVP_PKEY *result = length > 0 ? d2i_PUBKEY(NULL, &cursor, length) : NULL;
    OPENSSL_free(der);
    return result;
}

/// Padding and salt settings on a context set up for signing or verification.
static int configure(EVP_PKEY_CTX *ctx, int scheme) {
    switch (scheme) {
    case OSEC_BASELINE_RSA_PKCS1:
        return EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) == 1;
    case OSEC_BASELINE_RSA_PSS:
        return EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PSS_PADDING) == 1 &&
               EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx, RSA_PSS_SALTLEN_DIGEST) == 1;
    default:
        return 1;
    }
}

static int sign_digest(fixture *f) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, f->private_key, NULL);
    f->signature_length = sizeof f->signature;
    int ok = ctx != NULL && EVP_PKEY_sign_init(ctx) == 1 && configure(ctx, f->scheme) &&
             EVP_PKEY_CTX_set_signature_md(ctx, f->md) == 1 &&
             EVP_PKEY_sign(ctx, f->signature, &f->signature_length, f->input, f->input_length) == 1;
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

static int verify_digest(fixture *f) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, f->public_key, NULL);
    int ok = ctx != NULL && EVP_PKEY_verify_init(ctx) == 1 && configure(ctx, f->scheme) &&
             EVP_PKEY_CTX_set_signature_md(ctx, f->md) == 1 &&
             EVP_PKEY_verify(ctx, f->signature, f->signature_length, f->input, f->input_length) == 1;
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

static int sign_message(fixture *f) {
    EVP_MD_CTX *md_ctx = EVP_MD_CTX_new();
    EVP_PKEY_CTX *ctx = NULL;
    f->signature_length = sizeof f->signature;
    int ok = md_ctx != NULL && EVP_DigestSignInit(md_ctx, &ctx, f->md, NULL, f->private_key) == 1 &&
             configure(ctx, f->scheme) &&
             EVP_DigestSign(md_ctx, f->signature, &f->signature_length, f->input, f->input_length) == 1;
    EVP_MD_CTX_free(md_ctx);
    return ok;
}

static int verify_message(fixture *f) {
    EVP_MD_CTX *md_ctx = EVP_MD_CTX_new();
    EVP_PKEY_CTX *ctx = NULL;
    int ok = md_ctx != NULL && EVP_DigestVerifyInit(md_ctx, &ctx, f->md, NULL, f->public_key) == 1 &&
             configure(ctx, f->scheme) &&
             EVP_DigestVerify(md_ctx, f->signature, f->signature_length, f->input, f->input_length) == 1;
    EVP_MD_CTX_free(md_ctx);
    return ok;
}

double osec_baseline_signature(const char *private_key_pem, int scheme, const char *digest, int verify,
                               long message_length, double seconds) {
    double result = -1;
    fixture f = {0};
    f.scheme = scheme;
    f.private_key = read_private_key(private_key_pem);
    f.md = EVP_MD_fetch(NULL, digest, NULL);
    if (f.private_key == NULL || f.md == NULL || message_length < 0) goto done;
    f.public_key = public_half(f.private_key);
    f.input_length = message_length > 0 ? (size_t)message_length : (size_t)EVP_MD_get_size(f.md);
    f.input = malloc(f.input_length);
    if (f.public_key == NULL || f.input == NULL) goto done;
    for (size_t i = 0; i < f.input_length; i++) f.input[i] = (unsigned char)(i * 7 + 1);
    int (*sign)(fixture *) = message_length > 0 ? sign_message : sign_digest;
    int (*check)(fixture *) = message_length > 0 ? verify_message : verify_digest;
    if (!sign(&f)) goto done;
    if (verify) {
        OSEC_BENCH_MEASURE(seconds, check(&f), result);
    } else {
        OSEC_BENCH_MEASURE(seconds, sign(&f), result);
    }
done:
    free(f.input);
    EVP_MD_free(f.md);
    EVP_PKEY_free(f.public_key);
    EVP_PKEY_free(f.private_key);
    return result;
}

static int oaep_configure(EVP_PKEY_CTX *ctx, const EVP_MD *md) {
    return EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) == 1 &&
           EVP_PKEY_CTX_set_rsa_oaep_md(ctx, md) == 1 && EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, md) == 1;
}

static int oaep_decrypt_once(EVP_PKEY *key, const EVP_MD *md, const unsigned char *ciphertext, size_t length) {
    unsigned char plaintext[MAX_OUTPUT];
    size_t plaintext_length = sizeof plaintext;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    int ok = ctx != NULL && EVP_PKEY_decrypt_init(ctx) == 1 && oaep_configure(ctx, md) &&
             EVP_PKEY_decrypt(ctx, plaintext, &plaintext_length, ciphertext, length) == 1;
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

double osec_baseline_oaep_decrypt(const char *private_key_pem, const char *digest, double seconds) {
    double result = -1;
    EVP_PKEY *key = read_private_key(private_key_pem);
    EVP_MD *md = EVP_MD_fetch(NULL, digest, NULL);
    EVP_PKEY *public_key = key ? public_half(key) : NULL;
    EVP_PKEY_CTX *ctx = NULL;
    unsigned char secret[32], ciphertext[MAX_OUTPUT];
    size_t ciphertext_length = sizeof ciphertext;
    if (key == NULL || md == NULL || public_key == NULL) goto done;
    memset(secret, 0x5a, sizeof secret);
    ctx = EVP_PKEY_CTX_new_from_pkey(NULL, public_key, NULL);
    if (ctx == NULL || EVP_PKEY_encrypt_init(ctx) != 1 || !oaep_configure(ctx, md) ||
        EVP_PKEY_encrypt(ctx, ciphertext, &ciphertext_length, secret, sizeof secret) != 1)
        goto done;
    OSEC_BENCH_MEASURE(seconds, oaep_decrypt_once(key, md, ciphertext, ciphertext_length), result);
done:
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(public_key);
    EVP_MD_free(md);
    EVP_PKEY_free(key);
    return result;
}

static int decode_once(int what, const unsigned char *der, long length, const char *group) {
    const unsigned char *cursor = der;
    EVP_PKEY *key = NULL;
    switch (what) {
    case OSEC_BASELINE_DECODE_SPKI:
        key = d2i_PUBKEY(NULL, &cursor, length);
        break;
    case OSEC_BASELINE_DECODE_PKCS8:
    case OSEC_BASELINE_DECODE_RSA_PKCS1_GENERIC:
        key = d2i_AutoPrivateKey(NULL, &cursor, length);
        break;
    case OSEC_BASELINE_DECODE_RSA_PKCS1_TYPED: {
        RSA *rsa = d2i_RSAPrivateKey(NULL, &cursor, length);
        key = rsa ? EVP_PKEY_new() : NULL;
        if (key == NULL || EVP_PKEY_assign_RSA(key, rsa) != 1) {
            RSA_free(rsa);
            EVP_PKEY_free(key);
            key = NULL;
        }
        break;
    }
    case OSEC_BASELINE_DECODE_EC_POINT: {
        EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
        OSSL_PARAM params[3];
        params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)group, 0);
        params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)der, (size_t)length);
        params[2] = OSSL_PARAM_construct_end();
        if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) != 1 ||
            EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params) != 1)
            key = NULL;
        EVP_PKEY_CTX_free(ctx);
        break;
    }
    }
    EVP_PKEY_free(key);
    return key != NULL;
}

/// The encoding `what` of `key`, in a buffer the caller frees with OPENSSL_free.
static int encode(EVP_PKEY *key, int what, unsigned char **der) {
    switch (what) {
    case OSEC_BASELINE_DECODE_SPKI:
        return i2d_PUBKEY(key, der);
    case OSEC_BASELINE_DECODE_PKCS8: {
        PKCS8_PRIV_KEY_INFO *info = EVP_PKEY2PKCS8(key);
        int length = info ? i2d_PKCS8_PRIV_KEY_INFO(info, der) : -1;
        PKCS8_PRIV_KEY_INFO_free(info);
        return length;
    }
    case OSEC_BASELINE_DECODE_RSA_PKCS1_GENERIC:
    case OSEC_BASELINE_DECODE_RSA_PKCS1_TYPED:
        return EVP_PKEY_is_a(key, "RSA") ? i2d_PrivateKey(key, der) : -1;
    case OSEC_BASELINE_DECODE_EC_POINT: {
        size_t length = 0;
        if (EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, NULL, 0, &length) != 1) return -1;
        *der = OPENSSL_malloc(length);
        if (*der == NULL ||
            EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, *der, length, &length) != 1)
            return -1;
        return (int)length;
    }
    default:
        return -1;
    }
}

double osec_baseline_key_decode(const char *private_key_pem, int what, double seconds) {
    double result = -1;
    EVP_PKEY *key = read_private_key(private_key_pem);
    unsigned char *der = NULL;
    char group[64] = "";
    int length = key ? encode(key, what, &der) : -1;
    if (length <= 0) goto done;
    if (what == OSEC_BASELINE_DECODE_EC_POINT &&
        EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof group, NULL) != 1)
        goto done;
    OSEC_BENCH_MEASURE(seconds, decode_once(what, der, length, group), result);
done:
    OPENSSL_free(der);
    EVP_PKEY_free(key);
    return result;
}

const char *osec_baseline_openssl_version(void) { return OpenSSL_version(OPENSSL_VERSION); }
