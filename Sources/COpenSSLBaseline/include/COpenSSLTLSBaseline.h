// Baseline for the TLS benchmark (opensecurity-bench only): libssl doing what OpenSecurity's TLS does, in C,
// over memory BIOs in one thread.
#ifndef OPENSEC_COPENSSL_TLS_BASELINE_H
#define OPENSEC_COPENSSL_TLS_BASELINE_H

/// TLS 1.3 handshakes per second between a client and a server SSL in this process, for about `seconds`
/// seconds. The server presents `server_cert` (PEM chain) with `server_key`; the client verifies it against
/// `ca` (PEM) with the host name "localhost", as a careful C client does (SSL_VERIFY_PEER, SSL_set1_host).
/// With `client_cert`/`client_key` (non-NULL) the server requires and verifies a client certificate against
/// `ca`. `resume` non-zero resumes a session in every handshake: a TLS 1.3 ticket obtained up front, then
/// the fresh ticket each resumed handshake delivers (OpenSSL's client uses a ticket once). Each
/// handshake creates and frees both SSL objects and their memory BIOs; the SSL_CTXs are made once. Returns
/// handshakes per second, or < 0 on failure.
double osec_baseline_tls13_handshakes(const char *server_cert, const char *server_key, const char *ca,
                                      const char *client_cert, const char *client_key, int resume,
                                      double seconds);

/// Bytes per second of `transfer_bytes`-byte transfers (client SSL_write, server SSL_read until all arrived) over
/// one established TLS 1.3 connection between memory BIOs, for about `seconds` seconds. Returns < 0 on failure.
double osec_baseline_tls13_bulk(const char *server_cert, const char *server_key, const char *ca,
                                long transfer_bytes, double seconds);

#endif
