#include "COpenSSLTrustBaseline.h"
#include "baseline_support.h"
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static X509 *read_pem(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    X509 *x = PEM_read_X509(f, NULL, NULL, NULL);
    fclose(f);
    return x;
}

static int to_der(X509 *x, unsigned char **der) {
    *der = NULL;
    return i2d_X509(x, der);
}

static int verify_once(X509_STORE *store, X509 *leaf, X509 *intermediate, const char *host, long long at_time) {
    STACK_OF(X509) *untrusted = sk_X509_new_null();
    X509_STORE_CTX *ctx = X509_STORE_CTX_new();
    int ok = 0;
    if (untrusted && ctx && sk_X509_push(untrusted, intermediate) > 0 && X509_STORE_CTX_init(ctx, store, leaf, untrusted) == 1) {
        X509_VERIFY_PARAM *param = X509_STORE_CTX_get0_param(ctx);
        X509_VERIFY_PARAM_set_time(param, (time_t)at_time);
        X509_VERIFY_PARAM_set_purpose(param, X509_PURPOSE_SSL_SERVER);
        if (host) X509_VERIFY_PARAM_set1_host(param, host, 0);
        ok = X509_verify_cert(ctx) == 1;
    }
    X509_STORE_CTX_free(ctx);
    sk_X509_free(untrusted);
    return ok;
}

/// One verification of the parsed chain, or of the chain parsed again from its DER first.
static int parse_and_verify_once(X509_STORE *store, const unsigned char *leaf_der, int leaf_len,
                                 const unsigned char *int_der, int int_len, const char *host, long long at_time) {
    const unsigned char *p = leaf_der, *q = int_der;
    X509 *l = d2i_X509(NULL, &p, leaf_len);
    X509 *m = d2i_X509(NULL, &q, int_len);
    int ok = l && m && verify_once(store, l, m, host, at_time);
    X509_free(l);
    X509_free(m);
    return ok;
}

double osec_baseline_x509_verify_files(const char *leaf_path, const char *intermediate_path, const char *root_path,
                                       const char *host, long long at_time, int parse_each_time, double seconds) {
    double result = -1;
    X509 *leaf = read_pem(leaf_path), *intermediate = read_pem(intermediate_path), *root = read_pem(root_path);
    X509_STORE *store = X509_STORE_new();
    unsigned char *leaf_der = NULL, *int_der = NULL;
    int leaf_len = 0, int_len = 0;
    if (!leaf || !intermediate || !root || !store || X509_STORE_add_cert(store, root) != 1) goto done;
    leaf_len = to_der(leaf, &leaf_der);
    int_len = to_der(intermediate, &int_der);
    if (leaf_len <= 0 || int_len <= 0) goto done;
    OSEC_BENCH_MEASURE(seconds,
                       parse_each_time
                           ? parse_and_verify_once(store, leaf_der, leaf_len, int_der, int_len, host, at_time)
                           : verify_once(store, leaf, intermediate, host, at_time),
                       result);
done:
    OPENSSL_free(leaf_der);
    OPENSSL_free(int_der);
    X509_free(leaf);
    X509_free(intermediate);
    X509_free(root);
    X509_STORE_free(store);
    return result;
}
