// C shims for OSecTLSCore.
//
// Why this target exists: many libssl and BIO entry points are function-like macros over SSL_ctrl / BIO_ctrl
// (SSL_set_tlsext_host_name, SSL_set_min_proto_version, BIO_get_mem_data, ...), which Swift cannot import, and
// ERR_GET_LIB / ERR_GET_REASON are inline functions whose bit layout we do not want to copy into Swift.
//
// The handles are declared as incomplete structs (exactly as OpenSSL's own headers declare them), so this header
// does not include OpenSSL: the CLibSSL module stays the only module with OpenSSL's declarations, and Swift sees
// every handle as an OpaquePointer either way.
#ifndef OPENSEC_CTLS_SHIMS_H
#define OPENSEC_CTLS_SHIMS_H

#include <stddef.h>

struct ssl_st;
struct ssl_ctx_st;
struct bio_st;

/// SSL_set_tlsext_host_name: the server name (SNI) a client sends. Returns 1 on success.
int osec_tls_set_host_name(struct ssl_st *ssl, const char *name);
/// SSL_set_min_proto_version + SSL_set_max_proto_version (wire versions, e.g. 0x0303). Returns 1 on success.
int osec_tls_set_version_range(struct ssl_st *ssl, int min_version, int max_version);
/// SSL_CTX_set_min_proto_version + SSL_CTX_set_max_proto_version. Returns 1 on success.
int osec_tls_ctx_set_version_range(struct ssl_ctx_st *ctx, int min_version, int max_version);
/// SSL_CTX_set_max_cert_list: the largest certificate message accepted from a peer, in bytes.
void osec_tls_ctx_set_max_cert_list(struct ssl_ctx_st *ctx, long bytes);
/// The options and modes every connection shares: no renegotiation, no compression, and the chain sent is
/// exactly the configured one (SSL_MODE_NO_AUTO_CHAIN).
void osec_tls_ctx_set_defaults(struct ssl_ctx_st *ctx);
/// Allows (1) or refuses (0) renegotiation on one connection (SSL_OP_NO_RENEGOTIATION and
/// SSL_OP_ALLOW_CLIENT_RENEGOTIATION).
void osec_tls_set_renegotiation(struct ssl_st *ssl, int allow);
/// Enables (1) or disables (0) session tickets on one connection (SSL_OP_NO_TICKET).
void osec_tls_set_tickets(struct ssl_st *ssl, int enabled);
/// SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE) (client) or
/// SSL_SESS_CACHE_SERVER (server).
void osec_tls_ctx_set_session_cache(struct ssl_ctx_st *ctx, int server);
/// Server: staples the OCSP response set with osec_tls_set_ocsp_response when a client asks for certificate
/// status (SSL_CTX_set_tlsext_status_cb with a callback that acknowledges only when a response was set).
void osec_tls_ctx_enable_ocsp_stapling(struct ssl_ctx_st *ctx);
/// Server: the DER OCSP response to staple on this connection (copied). Returns 1 on success.
int osec_tls_set_ocsp_response(struct ssl_st *ssl, const unsigned char *der, long length);
/// Client: asks the server for its certificate status (SSL_set_tlsext_status_type, OCSP). Returns 1 on success.
int osec_tls_request_ocsp_status(struct ssl_st *ssl);
/// Client: the OCSP response the server stapled (not copied; valid while the SSL lives); its length, 0 if none.
long osec_tls_ocsp_response(struct ssl_st *ssl, const unsigned char **der);
/// Client: sends TLS_FALLBACK_SCSV (RFC 7507) in its ClientHello (SSL_MODE_SEND_FALLBACK_SCSV).
void osec_tls_set_send_fallback_scsv(struct ssl_st *ssl);
/// SSL_CTX_set1_groups_list. Returns 1 on success.
int osec_tls_ctx_set_groups(struct ssl_ctx_st *ctx, const char *groups);

/// BIO_get_mem_data: the readable bytes of a memory BIO (not consumed); returns their count.
long osec_tls_bio_mem_data(struct bio_st *bio, const unsigned char **data);
/// BIO_reset: empties a memory BIO. Returns 1 on success.
int osec_tls_bio_reset(struct bio_st *bio);
/// BIO_nwrite0: contiguous free space in the write half of a BIO pair (0 when full). `*data` points at it.
long osec_tls_bio_write_space(struct bio_st *bio, unsigned char **data);
/// BIO_nwrite: commits `count` bytes written into the space returned by osec_tls_bio_write_space.
long osec_tls_bio_commit_write(struct bio_st *bio, long count);
/// BIO_shutdown_wr on a BIO pair half: the other half then reports end of stream once its data is consumed.
void osec_tls_bio_shutdown_write(struct bio_st *bio);

/// ERR_GET_LIB of a packed error code.
int osec_tls_err_lib(unsigned long code);
/// ERR_GET_REASON of a packed error code.
int osec_tls_err_reason(unsigned long code);
/// ERR_SYSTEM_ERROR of a packed error code (1 for errno-derived entries).
int osec_tls_err_is_system(unsigned long code);

#endif
