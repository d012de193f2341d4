#include "COpenSSLTLSBaseline.h"
#include "baseline_support.h"
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <stdlib.h>
#include <string.h>

// The suites, groups and options OpenSecurity's shared SSL_CTX uses, so both sides do the same work.
static const char *kGroups = "X25519:P-256:P-384:P-521";
// Apple's TLS 1.3 order, as OSecTLSCore offers it (TLSCipherSuites.all): both sides negotiate TLS_AES_128_GCM_SHA256.
// OpenSSL's default puts TLS_AES_256_GCM_SHA384 first, which made the floor do a SHA-384 key schedule and AES-256.
static const char *kSuites13 = "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256";

static SSL_CTX *make_server_ctx(const char *cert, const char *key, const char *client_ca) {
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (ctx == NULL) return NULL;
    if (!SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION) || !SSL_CTX_set_max_proto_version(ctx, TLS1_3_VERSION) ||
        !SSL_CTX_set1_groups_list(ctx, kGroups) || SSL_CTX_set_ciphersuites(ctx, kSuites13) != 1 ||
        SSL_CTX_use_certificate_chain_file(ctx, cert) != 1 ||
        SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1) {
        SSL_CTX_free(ctx);
        return NULL;
    }
    SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION);
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_SERVER);
    static const unsigned char sid[] = "osec-bench";
    SSL_CTX_set_session_id_context(ctx, sid, sizeof sid - 1);
    if (client_ca != NULL) {
        if (SSL_CTX_load_verify_locations(ctx, client_ca, NULL) != 1) {
            SSL_CTX_free(ctx);
            return NULL;
        }
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
    }
    return ctx;
}

static SSL_CTX *make_client_ctx(const char *ca, const char *cert, const char *key) {
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    if (ctx == NULL) return NULL;
    if (!SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION) || !SSL_CTX_set1_groups_list(ctx, kGroups) ||
        SSL_CTX_set_ciphersuites(ctx, kSuites13) != 1 || SSL_CTX_load_verify_locations(ctx, ca, NULL) != 1) {
        SSL_CTX_free(ctx);
        return NULL;
    }
    SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION);
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
    if (cert != NULL && (SSL_CTX_use_certificate_chain_file(ctx, cert) != 1 ||
                         SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1)) {
        SSL_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

typedef struct {
    SSL *client, *server;
    BIO *client_in, *client_out, *server_in, *server_out;
} pair_t;

static int pair_open(pair_t *p, SSL_CTX *cctx, SSL_CTX *sctx, SSL_SESSION *session) {
    memset(p, 0, sizeof *p);
    p->client = SSL_new(cctx);
    p->server = SSL_new(sctx);
    p->client_in = BIO_new(BIO_s_mem());
    p->client_out = BIO_new(BIO_s_mem());
    p->server_in = BIO_new(BIO_s_mem());
    p->server_out = BIO_new(BIO_s_mem());
    if (!p->client || !p->server || !p->client_in || !p->client_out || !p->server_in || !p->server_out) return 0;
    SSL_set_bio(p->client, p->client_in, p->client_out);
    SSL_set_bio(p->server, p->server_in, p->server_out);
    SSL_set_connect_state(p->client);
    SSL_set_accept_state(p->server);
    if (!SSL_set_tlsext_host_name(p->client, "localhost") || !SSL_set1_host(p->client, "localhost")) return 0;
    if (session != NULL && !SSL_set_session(p->client, session)) return 0;
    return 1;
}

static void pair_close(pair_t *p) {
    SSL_free(p->client);  // frees its BIOs
    SSL_free(p->server);
}

/// Moves everything `from` wrote into `to`'s input.
static int move_bytes(BIO *from, BIO *to) {
    static unsigned char buffer[32 * 1024];
    int moved = 0;
    for (;;) {
        int n = BIO_read(from, buffer, sizeof buffer);
        if (n <= 0) break;
        if (BIO_write(to, buffer, n) != n) return -1;
        moved += n;
    }
    return moved;
}

static int pair_handshake(pair_t *p) {
    int client_done = 0, server_done = 0;
    for (int round = 0; round < 64 && !(client_done && server_done); round++) {
        if (!client_done) {
            int rc = SSL_do_handshake(p->client);
            if (rc == 1) client_done = 1;
            else if (SSL_get_error(p->client, rc) != SSL_ERROR_WANT_READ) return 0;
        }
        if (move_bytes(p->client_out, p->server_in) < 0) return 0;
        if (!server_done) {
            int rc = SSL_do_handshake(p->server);
            if (rc == 1) server_done = 1;
            else if (SSL_get_error(p->server, rc) != SSL_ERROR_WANT_READ) return 0;
        }
        if (move_bytes(p->server_out, p->client_in) < 0) return 0;
    }
    return client_done && server_done;
}

/// One established session's ticket: handshake, then let the client read the NewSessionTicket messages.
static SSL_SESSION *obtain_session(SSL_CTX *cctx, SSL_CTX *sctx) {
    pair_t p;
    SSL_SESSION *session = NULL;
    // The suite both sides negotiate (kSuites13; TLSBenchmarks.primeSession checks ours the same way).
    if (pair_open(&p, cctx, sctx, NULL) && pair_handshake(&p) &&
        SSL_CIPHER_get_protocol_id(SSL_get_current_cipher(p.client)) == 0x1301) {
        unsigned char byte;
        (void)SSL_read(p.client, &byte, 1);  // processes the tickets, then wants more input
        ERR_clear_error();
        session = SSL_get1_session(p.client);
        SSL_shutdown(p.client);
    }
    pair_close(&p);
    return session;
}

/// One full handshake over a fresh memory pair, or with `resume` one resumption of `*session`, which it replaces
/// with the ticket the server sends. 1 on success.
static int handshake_once(SSL_CTX *cctx, SSL_CTX *sctx, SSL_SESSION **session, int resume) {
    pair_t p;
    int ok = pair_open(&p, cctx, sctx, *session) && pair_handshake(&p) && (!resume || SSL_session_reused(p.client));
    if (ok && resume) {
        // TLS 1.3 tickets are single-use for OpenSSL's client: take the fresh one the server just sent.
        unsigned char byte;
        (void)SSL_read(p.client, &byte, 1);
        ERR_clear_error();
        SSL_SESSION *fresh = SSL_get1_session(p.client);
        if (fresh != NULL) {
            SSL_SESSION_free(*session);
            *session = fresh;
        }
        SSL_shutdown(p.client);
    }
    pair_close(&p);
    return ok;
}

double osec_baseline_tls13_handshakes(const char *server_cert, const char *server_key, const char *ca,
                                      const char *client_cert, const char *client_key, int resume,
                                      double seconds) {
    SSL_CTX *sctx = make_server_ctx(server_cert, server_key, client_cert != NULL ? ca : NULL);
    SSL_CTX *cctx = make_client_ctx(ca, client_cert, client_key);
    double result = -1;
    SSL_SESSION *session = NULL;
    if (sctx == NULL || cctx == NULL) goto done;
    if (resume && (session = obtain_session(cctx, sctx)) == NULL) goto done;
    OSEC_BENCH_MEASURE(seconds, handshake_once(cctx, sctx, &session, resume), result);
    ERR_clear_error();  // after a failed handshake
done:
    SSL_SESSION_free(session);
    SSL_CTX_free(sctx);
    SSL_CTX_free(cctx);
    return result;
}

double osec_baseline_tls13_bulk(const char *server_cert, const char *server_key, const char *ca,
                                long transfer_bytes, double seconds) {
    SSL_CTX *sctx = make_server_ctx(server_cert, server_key, NULL);
    SSL_CTX *cctx = make_client_ctx(ca, NULL, NULL);
    unsigned char *payload = malloc((size_t)transfer_bytes);
    unsigned char *sink = malloc(16 * 1024);
    double result = -1;
    pair_t p;
    int opened = 0;
    if (sctx == NULL || cctx == NULL || payload == NULL || sink == NULL) goto done;
    memset(payload, 0x5A, (size_t)transfer_bytes);
    if (!(opened = pair_open(&p, cctx, sctx, NULL)) || !pair_handshake(&p)) goto done;
    long bytes = 0;
    double start = osec_bench_now(), elapsed = 0;
    while (elapsed < seconds) {
        size_t written = 0;
        if (SSL_write_ex(p.client, payload, (size_t)transfer_bytes, &written) != 1) goto done;
        if (move_bytes(p.client_out, p.server_in) < 0) goto done;
        long received = 0;
        while (received < transfer_bytes) {
            size_t n = 0;
            if (SSL_read_ex(p.server, sink, 16 * 1024, &n) != 1) goto done;
            received += (long)n;
        }
        bytes += received;
        move_bytes(p.server_out, p.client_in);  // tickets, if any
        elapsed = osec_bench_now() - start;
    }
    result = (double)bytes / elapsed;
done:
    ERR_clear_error();
    if (opened) pair_close(&p);
    free(payload);
    free(sink);
    SSL_CTX_free(sctx);
    SSL_CTX_free(cctx);
    return result;
}
