// OpenSSL 3 baseline for certificate parsing (see COpenSSLX509Baseline.h).
#include "COpenSSLX509Baseline.h"
#include "baseline_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
/// One parse of the certificate, with its extensions cached (as a first use of them would) when asked.
static int parse_once(const unsigned char *der, long length, int cache_extensions) {
    const unsigned char *cursor = der;
    X509 *cert = d2i_X509(NULL, &cursor, length);
    if (cert == NULL) return 0;
    if (cache_extensions) X509_check_purpose(cert, -1, 0);
    X509_free(cert);
    return 1;
}

static double run(const char *path, double seconds, int cache_extensions) {
    long length = 0;
    unsigned char *der = osec_bench_read_file(path, &length);
    if (der == NULL) return -1;
    double result = -1;
    OSEC_BENCH_MEASURE(seconds, parse_once(der, length, cache_extensions), result);
    free(der);
    return result;
}

double osec_baseline_d2i_x509_file(const char *path, double seconds) { return run(path, seconds, 0); }

double osec_baseline_d2i_x509_cached_extensions_file(const char *path, double seconds) { return run(path, seconds, 1); }
