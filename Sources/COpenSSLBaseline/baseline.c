#define OPENSSL_SUPPRESS_DEPRECATED 1
#include "COpenSSLBaseline.h"
#include "baseline_support.h"
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static EVP_PKEY *gen_rsa2048(void) { return EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048); }
static EVP_PKEY *gen_p256(void) { return EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256"); }

static unsigned char digest32[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                     17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};

static int sign_once(EVP_PKEY *key, const EVP_MD *md, int rsa, unsigned char *sig, size_t *siglen) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    int ok = ctx && EVP_PKEY_sign_init(ctx) == 1 && (!rsa || EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) == 1) &&
             EVP_PKEY_CTX_set_signature_md(ctx, md) == 1 && EVP_PKEY_sign(ctx, sig, siglen, digest32, 32) == 1;
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

static int verify_once(EVP_PKEY *key, const EVP_MD *md, int rsa, const unsigned char *sig, size_t siglen) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    int ok = ctx && EVP_PKEY_verify_init(ctx) == 1 && (!rsa || EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) == 1) &&
             EVP_PKEY_CTX_set_signature_md(ctx, md) == 1 && EVP_PKEY_verify(ctx, sig, siglen, digest32, 32) == 1;
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

static double sign_bench(EVP_PKEY *key, int rsa, double seconds) {
    double result = -1;
    EVP_MD *md = EVP_MD_fetch(NULL, "SHA256", NULL);
    unsigned char sig[512];
    size_t siglen;
    if (!key || !md) goto done;
    OSEC_BENCH_MEASURE(seconds, (siglen = sizeof sig, sign_once(key, md, rsa, sig, &siglen)), result);
done:
    EVP_MD_free(md);
    EVP_PKEY_free(key);
    return result;
}

static double verify_bench(EVP_PKEY *key, int rsa, double seconds) {
    double result = -1;
    EVP_MD *md = EVP_MD_fetch(NULL, "SHA256", NULL);
    unsigned char sig[512];
    size_t siglen = sizeof sig;
    if (!key || !md || !sign_once(key, md, rsa, sig, &siglen)) goto done;
    OSEC_BENCH_MEASURE(seconds, verify_once(key, md, rsa, sig, siglen), result);
done:
    EVP_MD_free(md);
    EVP_PKEY_free(key);
    return result;
}

double osec_baseline_rsa2048_sign_sha256(double seconds) { return sign_bench(gen_rsa2048(), 1, seconds); }
double osec_baseline_rsa2048_verify_sha256(double seconds) { return verify_bench(gen_rsa2048(), 1, seconds); }
double osec_baseline_p256_sign_sha256(double seconds) { return sign_bench(gen_p256(), 0, seconds); }
double osec_baseline_p256_verify_sha256(double seconds) { return verify_bench(gen_p256(), 0, seconds); }

static int oaep_ctx_setup(EVP_PKEY_CTX *ctx, const EVP_MD *md) {
    return EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) == 1 && EVP_PKEY_CTX_set_rsa_oaep_md(ctx, md) == 1 &&
           EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, md) == 1;
}

static int oaep_decrypt_once(EVP_PKEY *key, const EVP_MD *md, const unsigned char *ct, size_t ctlen) {
    unsigned char out[256];
    size_t outlen = sizeof out;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    int ok = ctx && EVP_PKEY_decrypt_init(ctx) == 1 && oaep_ctx_setup(ctx, md) && EVP_PKEY_decrypt(ctx, out, &outlen, ct, ctlen) == 1;
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

double osec_baseline_rsa2048_oaep_decrypt_sha256(double seconds) {
    double result = -1;
    EVP_PKEY *key = gen_rsa2048();
    EVP_MD *md = EVP_MD_fetch(NULL, "SHA256", NULL);
    unsigned char ct[256];
    size_t ctlen = sizeof ct;
    EVP_PKEY_CTX *ctx = NULL;
    if (!key || !md) goto done;
    ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    if (!ctx || EVP_PKEY_encrypt_init(ctx) != 1 || !oaep_ctx_setup(ctx, md) || EVP_PKEY_encrypt(ctx, ct, &ctlen, digest32, 32) != 1) goto done;
    OSEC_BENCH_MEASURE(seconds, oaep_decrypt_once(key, md, ct, ctlen), result);
done:
    EVP_PKEY_CTX_free(ctx);
    EVP_MD_free(md);
    EVP_PKEY_free(key);
    return result;
}

#define MIB (1024 * 1024)

static int gcm_once(const EVP_CIPHER *cipher, const unsigned char *key, const unsigned char *in, unsigned char *out) {
    unsigned char iv[12] = {0}, tag[16];
    int len = 0, ok;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    ok = ctx && EVP_EncryptInit_ex2(ctx, cipher, key, iv, NULL) == 1 && EVP_EncryptUpdate(ctx, out, &len, in, MIB) == 1 &&
         EVP_EncryptFinal_ex(ctx, out + len, &len) == 1 && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

double osec_baseline_aes256gcm_1mib(double seconds) {
    double result = -1;
    EVP_CIPHER *cipher = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL);
    unsigned char key[32] = {7};
    unsigned char *in = calloc(1, MIB), *out = malloc(MIB + 32);
    if (!cipher || !in || !out) goto done;
    OSEC_BENCH_MEASURE(seconds, gcm_once(cipher, key, in, out), result);
    if (result > 0) result *= MIB;
done:
    free(in);
    free(out);
    EVP_CIPHER_free(cipher);
    return result;
}

double osec_baseline_sha256_1mib(double seconds) {
    double result = -1;
    EVP_MD *md = EVP_MD_fetch(NULL, "SHA256", NULL);
    unsigned char *in = calloc(1, MIB), out[32];
    unsigned int outlen;
    if (!md || !in) goto done;
    OSEC_BENCH_MEASURE(seconds, EVP_Digest(in, MIB, out, &outlen, md, NULL) == 1, result);
    if (result > 0) result *= MIB;
done:
    free(in);
    EVP_MD_free(md);
    return result;
}

static int rsa_der(unsigned char **der, int *len) {
    EVP_PKEY *key = gen_rsa2048();
    const RSA *rsa = key ? EVP_PKEY_get0_RSA(key) : NULL;
    *der = NULL;
    *len = rsa ? i2d_RSAPrivateKey(rsa, der) : -1;
    EVP_PKEY_free(key);
    return *len > 0;
}

static int decode_generic_once(const unsigned char *der, int len) {
    const unsigned char *p = der;
    EVP_PKEY *key = d2i_AutoPrivateKey(NULL, &p, len);
    EVP_PKEY_free(key);
    return key != NULL;
}

static int decode_typed_once(const unsigned char *der, int len) {
    const unsigned char *p = der;
    RSA *rsa = d2i_RSAPrivateKey(NULL, &p, len);
    EVP_PKEY *key = EVP_PKEY_new();
    int ok = rsa && key && EVP_PKEY_assign_RSA(key, rsa) == 1;
    if (!ok) RSA_free(rsa);
    EVP_PKEY_free(key);
    return ok;
}

double osec_baseline_rsa2048_private_decode_generic(double seconds) {
    double result = -1;
    unsigned char *der = NULL;
    int len;
    if (!rsa_der(&der, &len)) goto done;
    OSEC_BENCH_MEASURE(seconds, decode_generic_once(der, len), result);
done:
    OPENSSL_free(der);
    return result;
}

double osec_baseline_rsa2048_private_decode_typed(double seconds) {
    double result = -1;
    unsigned char *der = NULL;
    int len;
    if (!rsa_der(&der, &len)) goto done;
    OSEC_BENCH_MEASURE(seconds, decode_typed_once(der, len), result);
done:
    OPENSSL_free(der);
    return result;
}

double osec_baseline_p256_public_decode_generic(double seconds) {
    double result = -1;
    EVP_PKEY *key = gen_p256();
    unsigned char *der = NULL;
    int len = key ? i2d_PUBKEY(key, &der) : -1;
    const unsigned char *p;
    EVP_PKEY *decoded;
    if (len <= 0) goto done;
    OSEC_BENCH_MEASURE(seconds, (p = der, decoded = d2i_PUBKEY(NULL, &p, len), EVP_PKEY_free(decoded), decoded != NULL),
                       result);
done:
    OPENSSL_free(der);
    EVP_PKEY_free(key);
    return result;
}

static int fromdata_once(EVP_PKEY_CTX *ctx, const unsigned char *point, size_t pointlen) {
    OSSL_PARAM params[3];
    EVP_PKEY *key = NULL;
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0);
    params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)point, pointlen);
    params[2] = OSSL_PARAM_construct_end();
    int ok = EVP_PKEY_fromdata_init(ctx) == 1 && EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params) == 1;
    EVP_PKEY_free(key);
    return ok;
}

double osec_baseline_p256_public_decode_fromdata(double seconds) {
    double result = -1;
    EVP_PKEY *key = gen_p256();
    unsigned char point[65];
    size_t pointlen = 0;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (!key || !ctx || EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point, &pointlen) != 1) goto done;
    OSEC_BENCH_MEASURE(seconds, fromdata_once(ctx, point, pointlen), result);
done:
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(key);
    return result;
}
