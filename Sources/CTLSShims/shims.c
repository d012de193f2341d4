#include "CTLSShims.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <string.h>

int osec_tls_set_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name) == 1 ? 1 : 0;
}

int osec_tls_set_version_range(SSL *ssl, int min_version, int max_version) {
    if (SSL_set_min_proto_version(ssl, min_version) != 1) return 0;
    return SSL_set_max_proto_version(ssl, max_version) == 1 ? 1 : 0;
}

int osec_tls_ctx_set_version_range(SSL_CTX *ctx, int min_version, int max_version) {
    if (SSL_CTX_set_min_proto_version(ctx, min_version) != 1) return 0;
    return SSL_CTX_set_max_proto_version(ctx, max_version) == 1 ? 1 : 0;
}

void osec_tls_ctx_set_max_cert_list(SSL_CTX *ctx, long bytes) {
    SSL_CTX_set_max_cert_list(ctx, bytes);
}

void osec_tls_ctx_set_defaults(SSL_CTX *ctx) {
    SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION);
    SSL_CTX_set_mode(ctx, SSL_MODE_NO_AUTO_CHAIN);
}

void osec_tls_set_renegotiation(SSL *ssl, int allow) {
    if (allow) {
        SSL_clear_options(ssl, SSL_OP_NO_RENEGOTIATION);
        SSL_set_options(ssl, SSL_OP_ALLOW_CLIENT_RENEGOTIATION);
    } else {
        SSL_clear_options(ssl, SSL_OP_ALLOW_CLIENT_RENEGOTIATION);
        SSL_set_options(ssl, SSL_OP_NO_RENEGOTIATION);
    }
}

void osec_tls_set_tickets(SSL *ssl, int enabled) {
    if (enabled) {
        SSL_clear_options(ssl, SSL_OP_NO_TICKET);
    } else {
        SSL_set_options(ssl, SSL_OP_NO_TICKET);
    }
}

static int osec_tls_ocsp_status_callback(SSL *ssl, void *arg) {
    (void)arg;
    if (!SSL_is_server(ssl)) return 1;
    unsigned char *response = NULL;
    long length = SSL_get_tlsext_status_ocsp_resp(ssl, &response);
    return (length > 0 && response != NULL) ? SSL_TLSEXT_ERR_OK : SSL_TLSEXT_ERR_NOACK;
}

void osec_tls_ctx_enable_ocsp_stapling(SSL_CTX *ctx) {
    SSL_CTX_set_tlsext_status_cb(ctx, osec_tls_ocsp_status_callback);
}

int osec_tls_set_ocsp_response(SSL *ssl, const unsigned char *der, long length) {
    if (der == NULL || length <= 0) return 0;
    unsigned char *copy = OPENSSL_malloc((size_t)length);
    if (copy == NULL) return 0;
    memcpy(copy, der, (size_t)length);
    if (SSL_set_tlsext_status_ocsp_resp(ssl, copy, length) != 1) {
        OPENSSL_free(copy);
        return 0;
    }
    return 1;  // the SSL owns the copy
}

int osec_tls_request_ocsp_status(SSL *ssl) {
    return SSL_set_tlsext_status_type(ssl, TLSEXT_STATUSTYPE_ocsp) == 1 ? 1 : 0;
}

long osec_tls_ocsp_response(SSL *ssl, const unsigned char **der) {
    unsigned char *response = NULL;
    long length = SSL_get_tlsext_status_ocsp_resp(ssl, &response);
    *der = response;
    return (length > 0 && response != NULL) ? length : 0;
}

void osec_tls_set_send_fallback_scsv(SSL *ssl) {
    SSL_set_mode(ssl, SSL_MODE_SEND_FALLBACK_SCSV);
}

void osec_tls_ctx_set_session_cache(SSL_CTX *ctx, int server) {
    if (server) {
        SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_SERVER);
    } else {
        SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
    }
}

int osec_tls_ctx_set_groups(SSL_CTX *ctx, const char *groups) {
    return SSL_CTX_set1_groups_list(ctx, groups) == 1 ? 1 : 0;
}

long osec_tls_bio_mem_data(BIO *bio, const unsigned char **data) {
    char *pointer = NULL;
    long length = BIO_get_mem_data(bio, &pointer);
    *data = (const unsigned char *)pointer;
    return length;
}

int osec_tls_bio_reset(BIO *bio) {
    return BIO_reset(bio) == 1 ? 1 : 0;
}

long osec_tls_bio_write_space(BIO *bio, unsigned char **data) {
    char *pointer = NULL;
    long space = (long)BIO_nwrite0(bio, &pointer);
    *data = (unsigned char *)pointer;
    return space < 0 ? 0 : space;
}

long osec_tls_bio_commit_write(BIO *bio, long count) {
    char *pointer = NULL;
    return (long)BIO_nwrite(bio, &pointer, (int)count);
}

void osec_tls_bio_shutdown_write(BIO *bio) {
    (void)BIO_shutdown_wr(bio);
}

int osec_tls_err_lib(unsigned long code) {
    return ERR_GET_LIB(code);
}

int osec_tls_err_reason(unsigned long code) {
    return ERR_GET_REASON(code);
}

int osec_tls_err_is_system(unsigned long code) {
    return ERR_SYSTEM_ERROR(code) ? 1 : 0;
}
