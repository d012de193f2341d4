// Baseline for the X.509 benchmark: OpenSSL's own certificate parser on the same DER.
#ifndef OPENSEC_COPENSSL_X509_BASELINE_H
#define OPENSEC_COPENSSL_X509_BASELINE_H

/// Reads one DER certificate from `path` and runs d2i_X509 + X509_free on it repeatedly for about `seconds`
/// seconds. Returns certificates parsed per second, or < 0 on failure (unreadable file, not a certificate).
/// d2i_X509 decodes the whole structure (including the extension list, but not the typed extension values,
/// which OpenSSL caches lazily), so it is the fair counterpart of `Certificate(derEncoded:)`.
double osec_baseline_d2i_x509_file(const char *path, double seconds);

/// As above but also calls X509_check_purpose(-1), which decodes and caches the common extensions
/// (basicConstraints, keyUsage, extKeyUsage, SKI/AKI, …) — what a verifier pays on first use ("cold" certificate).
double osec_baseline_d2i_x509_cached_extensions_file(const char *path, double seconds);

#endif
