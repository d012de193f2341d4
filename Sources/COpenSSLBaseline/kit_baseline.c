#include "COpenSSLKitBaseline.h"
#include "baseline_support.h"
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char aad[] = "merchant-42";
#define AAD_LENGTH (sizeof aad - 1)


// The message: 0x5A bytes, as the Swift side seals (not calloc's zero page, whose few cache lines would favour C).
static unsigned char *kit_message(int length) {
    unsigned char *bytes = malloc((size_t)length + 1);
    if (bytes) memset(bytes, 0x5a, (size_t)length + 1);
    return bytes;
}

static EVP_PKEY *read_key(const char *pem, int private_key) {
    BIO *bio = BIO_new_mem_buf(pem, -1);
    EVP_PKEY *key = NULL;
    if (bio) key = private_key ? PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL) : PEM_read_bio_PUBKEY(bio, NULL, NULL, NULL);
    BIO_free(bio);
    return key;
}

static int oaep(EVP_PKEY_CTX *ctx, const EVP_MD *md) {
    return EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) == 1 && EVP_PKEY_CTX_set_rsa_oaep_md(ctx, md) == 1 &&
           EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, md) == 1;
}

typedef struct {
    unsigned char wrapped[512];
    size_t wrapped_length;
    unsigned char nonce[12];
    unsigned char tag[16];
    unsigned char *ciphertext;
} sealed_t;

static int seal_once(EVP_PKEY *key, const EVP_MD *md, const EVP_CIPHER *cipher, const unsigned char *in, int length,
                     sealed_t *out) {
    unsigned char message_key[32];
    int written = 0, last = 0, ok;
    EVP_PKEY_CTX *pctx = NULL;
    EVP_CIPHER_CTX *cctx = NULL;
    out->wrapped_length = sizeof out->wrapped;
    out->ciphertext = malloc((size_t)length + 16);
    ok = out->ciphertext && RAND_bytes(message_key, sizeof message_key) == 1 && RAND_bytes(out->nonce, 12) == 1;
    ok = ok && (pctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL)) && EVP_PKEY_encrypt_init(pctx) == 1 && oaep(pctx, md) &&
         EVP_PKEY_encrypt(pctx, out->wrapped, &out->wrapped_length, message_key, sizeof message_key) == 1;
    ok = ok && (cctx = EVP_CIPHER_CTX_new()) && EVP_EncryptInit_ex2(cctx, cipher, message_key, out->nonce, NULL) == 1 &&
         EVP_EncryptUpdate(cctx, NULL, &written, aad, (int)AAD_LENGTH) == 1 &&
         EVP_EncryptUpdate(cctx, out->ciphertext, &written, in, length) == 1 &&
         EVP_EncryptFinal_ex(cctx, out->ciphertext + written, &last) == 1 &&
         EVP_CIPHER_CTX_ctrl(cctx, EVP_CTRL_GCM_GET_TAG, 16, out->tag) == 1;
    EVP_CIPHER_CTX_free(cctx);
    EVP_PKEY_CTX_free(pctx);
    OPENSSL_cleanse(message_key, sizeof message_key);
    return ok;
}

static int open_once(EVP_PKEY *key, const EVP_MD *md, const EVP_CIPHER *cipher, const sealed_t *in, int length) {
    unsigned char message_key[512]; // OpenSSL 3 wants room for a whole RSA block
    size_t key_length = sizeof message_key;
    int written = 0, last = 0, ok;
    EVP_PKEY_CTX *pctx = NULL;
    EVP_CIPHER_CTX *cctx = NULL;
    unsigned char *plaintext = malloc((size_t)length + 16);
    ok = plaintext && (pctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL)) && EVP_PKEY_decrypt_init(pctx) == 1 &&
         oaep(pctx, md) && EVP_PKEY_decrypt(pctx, message_key, &key_length, in->wrapped, in->wrapped_length) == 1 &&
         key_length == 32;
    ok = ok && (cctx = EVP_CIPHER_CTX_new()) && EVP_DecryptInit_ex2(cctx, cipher, message_key, in->nonce, NULL) == 1 &&
         EVP_DecryptUpdate(cctx, NULL, &written, aad, (int)AAD_LENGTH) == 1 &&
         EVP_DecryptUpdate(cctx, plaintext, &written, in->ciphertext, length) == 1 &&
         EVP_CIPHER_CTX_ctrl(cctx, EVP_CTRL_GCM_SET_TAG, 16, (void *)in->tag) == 1 &&
         EVP_DecryptFinal_ex(cctx, plaintext + written, &last) == 1;
    EVP_CIPHER_CTX_free(cctx);
    EVP_PKEY_CTX_free(pctx);
    OPENSSL_cleanse(message_key, sizeof message_key);
    free(plaintext);
    return ok;
}

/// What both envelope measurements hold: the RSA key, SHA-256 (OAEP's digest), AES-256-GCM and the message.
typedef struct {
    EVP_PKEY *key;
    EVP_MD *md;
    EVP_CIPHER *cipher;
    unsigned char *in;
} kit_fixture_t;

/// Loads the fixture from the key's PEM file; 1 when every part is there (close it either way).
static int kit_fixture_open(kit_fixture_t *f, const char *pem, int private_key, int length) {
    f->key = read_key(pem, private_key);
    f->md = EVP_MD_fetch(NULL, "SHA256", NULL);
    f->cipher = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL);
    f->in = kit_message(length);
    return f->key && f->md && f->cipher && f->in;
}

static void kit_fixture_close(kit_fixture_t *f) {
    free(f->in);
    EVP_CIPHER_free(f->cipher);
    EVP_MD_free(f->md);
    EVP_PKEY_free(f->key);
}

double osec_baseline_envelope_seal(const char *public_pem, int length, double seconds) {
    double result = -1;
    kit_fixture_t f;
    sealed_t sealed = {0};
    if (kit_fixture_open(&f, public_pem, 0, length)) {
        OSEC_BENCH_MEASURE(
            seconds, (seal_once(f.key, f.md, f.cipher, f.in, length, &sealed) && (free(sealed.ciphertext), 1)), result);
    }
    kit_fixture_close(&f);
    return result;
}

double osec_baseline_envelope_open(const char *private_pem, int length, double seconds) {
    double result = -1;
    kit_fixture_t f;
    sealed_t sealed = {0};
    if (kit_fixture_open(&f, private_pem, 1, length) && seal_once(f.key, f.md, f.cipher, f.in, length, &sealed)) {
        OSEC_BENCH_MEASURE(seconds, open_once(f.key, f.md, f.cipher, &sealed, length), result);
    }
    free(sealed.ciphertext);
    kit_fixture_close(&f);
    return result;
}
