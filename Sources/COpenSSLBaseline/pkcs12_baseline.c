#include "COpenSSLPKCS12Baseline.h"
#include "baseline_support.h"
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pkcs12.h>
#include <openssl/provider.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>

static int load_providers(void) {
    static int loaded = 0;
    if (!loaded) {
        // Loading "legacy" explicitly disables the implicit default provider, so load both.
        if (OSSL_PROVIDER_load(NULL, "legacy") == NULL || OSSL_PROVIDER_load(NULL, "default") == NULL) return 0;
        loaded = 1;
    }
    return 1;
}
static int parse_once(const unsigned char *der, long length, const char *password) {
    const unsigned char *cursor = der;
    PKCS12 *p12 = d2i_PKCS12(NULL, &cursor, length);
    if (p12 == NULL) return 0;
    EVP_PKEY *key = NULL;
    X509 *cert = NULL;
    STACK_OF(X509) *ca = NULL;
    int ok = PKCS12_parse(p12, password, &key, &cert, &ca) == 1 && key != NULL && cert != NULL;
    EVP_PKEY_free(key);
    X509_free(cert);
    sk_X509_pop_free(ca, X509_free);
    PKCS12_free(p12);
    return ok;
}

double osec_baseline_pkcs12_parse_file(const char *path, const char *password, double seconds) {
    if (!load_providers()) return -1;
    long length = 0;
    unsigned char *der = osec_bench_read_file(path, &length);
    if (der == NULL) return -1;
    double result = -1;
    OSEC_BENCH_MEASURE(seconds, parse_once(der, length, password), result);
    ERR_clear_error();  // after a failed parse
    free(der);
    return result;
}
