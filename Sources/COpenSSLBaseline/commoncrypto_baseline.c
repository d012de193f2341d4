#include "COpenSSLCommonCryptoBaseline.h"
#include "baseline_support.h"
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdlib.h>
#include <string.h>

/// A `length`-byte message of real memory: every page written, as a caller's data is. (Untouched calloc memory maps
/// the shared zero page, whose few cache lines would favour the C side.)
static unsigned char *cc_message(int length) {
    unsigned char *bytes = malloc((size_t)length + 1);
    if (bytes) memset(bytes, 0x5a, (size_t)length + 1);
    return bytes;
}

double osec_baseline_cc_sha256(int length, double seconds) {
    double result = -1;
    EVP_MD *md = EVP_MD_fetch(NULL, "SHA256", NULL);
    unsigned char *in = cc_message(length), out[32];
    unsigned int outlen;
    if (!md || !in) goto done;
    OSEC_BENCH_MEASURE(seconds, EVP_Digest(in, (size_t)length, out, &outlen, md, NULL) == 1, result);
done:
    free(in);
    EVP_MD_free(md);
    return result;
}

static int hmac_once(const EVP_MAC_CTX *template, const unsigned char *key, const unsigned char *in, size_t length,
                     unsigned char *out) {
    size_t outlen = 0;
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_dup(template);
    int ok = ctx && EVP_MAC_init(ctx, key, 32, NULL) == 1 && EVP_MAC_update(ctx, in, length) == 1
          && EVP_MAC_final(ctx, out, &outlen, 32) == 1;
    EVP_MAC_CTX_free(ctx);
    return ok;
}

double osec_baseline_cc_hmac_sha256(int length, double seconds) {
    double result = -1;
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    EVP_MAC_CTX *template = mac ? EVP_MAC_CTX_new(mac) : NULL;
    unsigned char key[32] = {5}, out[32];
    unsigned char *in = cc_message(length);
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "SHA256", 0);
    params[1] = OSSL_PARAM_construct_end();
    if (!template || !in || EVP_MAC_CTX_set_params(template, params) != 1) goto done;
    OSEC_BENCH_MEASURE(seconds, hmac_once(template, key, in, (size_t)length, out), result);
done:
    free(in);
    EVP_MAC_CTX_free(template);
    EVP_MAC_free(mac);
    return result;
}

static int cbc_once(const EVP_CIPHER *cipher, const unsigned char *key, const unsigned char *iv,
                    const unsigned char *in, int length, unsigned char *out) {
    int written = 0, last = 0;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int ok = ctx && EVP_EncryptInit_ex2(ctx, cipher, key, iv, NULL) == 1
          && EVP_EncryptUpdate(ctx, out, &written, in, length) == 1 && EVP_EncryptFinal_ex(ctx, out + written, &last) == 1;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

double osec_baseline_cc_aes_cbc(int key_length, int length, double seconds) {
    double result = -1;
    EVP_CIPHER *cipher = EVP_CIPHER_fetch(NULL, key_length == 32 ? "AES-256-CBC" : "AES-128-CBC", NULL);
    unsigned char key[32] = {9}, iv[16] = {3};
    unsigned char *in = cc_message(length), *out = malloc((size_t)length + 32);
    if (!cipher || !in || !out) goto done;
    OSEC_BENCH_MEASURE(seconds, cbc_once(cipher, key, iv, in, length, out), result);
done:
    free(in);
    free(out);
    EVP_CIPHER_free(cipher);
    return result;
}
