// OpenSSL 3 baseline for certificate parsing (see COpenSSLX509Baseline.h).
#include "COpenSSLX509Baseline.h"
#include "baseline_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
static double run(const char *path, double seconds, int cache_extensions) {
    long length = 0;
    unsigned char *der = osec_bench_read_file(path, &length);
    if (der == NULL) return -1;
    double start = osec_bench_now();
    double elapsed = 0;
    long count = 0;
    while (elapsed < seconds) {
        for (int i = 0; i < 8; i++) {
            const unsigned char *cursor = der;
            X509 *cert = d2i_X509(NULL, &cursor, length);
            if (cert == NULL) {
                free(der);
                return -1;
            }
            if (cache_extensions) X509_check_purpose(cert, -1, 0);
            X509_free(cert);
        }
        count += 8;
        elapsed = osec_bench_now() - start;
    }
    free(der);
    return (double)count / elapsed;
}

double osec_baseline_d2i_x509_file(const char *path, double seconds) { return run(path, seconds, 0); }

double osec_baseline_d2i_x509_cached_extensions_file(const char *path, double seconds) { return run(path, seconds, 1); }
