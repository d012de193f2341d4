// Baseline of OpenSSL 3's own certificate verification, for `opensecurity-bench` only.
//
// Inputs are file paths (PEM); no pointers to Swift buffers cross into C.
#ifndef OPENSEC_COPENSSL_TRUST_BASELINE_H
#define OPENSEC_COPENSSL_TRUST_BASELINE_H

/// Verifications per second of leaf ← intermediate ← root with X509_verify_cert (root in an X509_STORE, purpose
/// sslserver, host name `host` when non-NULL, verify time `at_time` in seconds since the epoch).
/// `parse_each_time` != 0: leaf and intermediate are decoded from DER (d2i_X509) on every verification, as a client
/// receiving a chain does; 0: decoded once. Returns < 0 on failure (including a chain OpenSSL does not accept).
double osec_baseline_x509_verify_files(const char *leaf, const char *intermediate, const char *root, const char *host,
                                       long long at_time, int parse_each_time, double seconds);

#endif
