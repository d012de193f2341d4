// Baseline for the PKCS#12 import benchmark (opensecurity-bench only).
#ifndef OPENSEC_COPENSSL_PKCS12_BASELINE_H
#define OPENSEC_COPENSSL_PKCS12_BASELINE_H

/// Reads the PKCS#12 file at `path` once, then repeatedly decodes it (d2i_PKCS12) and runs
/// PKCS12_parse(password) — MAC check, decryption, key and certificate decoding — freeing everything each
/// time, for about `seconds` seconds. Returns parses per second, or < 0 on failure. Only strings cross in
/// from Swift. Loads OpenSSL's legacy provider (next to the default one) so RC2 files can be parsed.
double osec_baseline_pkcs12_parse_file(const char *path, const char *password, double seconds);

#endif
