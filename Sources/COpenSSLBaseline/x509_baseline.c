// OpenSSL 3 baseline for certificate parsing (see COpenSSLX509Baseline.h).
#include "COpenSSLX509Baseline.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/// Reads a whole file; returns NULL on failure. The caller frees.
static unsigned char *read_file(const char *path, long *length) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) return NULL;
    unsigned char *buffer = NULL;
    if (fseek(file, 0, SEEK_END) == 0) {
        long size = ftell(file);
        if (size > 0 && fseek(file, 0, SEEK_SET) == 0) {
            buffer = malloc((size_t)size);
            if (buffer != NULL && fread(buffer, 1, (size_t)size, file) != (size_t)size) {
                free(buffer);
                buffer = NULL;
            } else {
                *length = size;
            }
        }
    }
    fclose(file);
    return buffer;
}

static double run(const char *path, double seconds, int cache_extensions) {
    long length = 0;
    unsigned char *der = read_file(path, &length);
    if (der == NULL) return -1;
    double start = now_seconds();
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
        elapsed = now_seconds() - start;
    }
    free(der);
    return (double)count / elapsed;
}

double osec_baseline_d2i_x509_file(const char *path, double seconds) { return run(path, seconds, 0); }

double osec_baseline_d2i_x509_cached_extensions_file(const char *path, double seconds) { return run(path, seconds, 1); }
