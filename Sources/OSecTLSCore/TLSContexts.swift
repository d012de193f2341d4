internal import CLibSSL
internal import CTLSShims
import Foundation

/// An SSL_CTX: the shared one of each side, or one per credential.
///
/// Everything that can differ between connections (versions, ALPN, verification mode, server name, sessions) is
/// set on each SSL; a context only holds what its connections share: the default suites and groups, the
/// callbacks that route into ``TLSEngine``, the session-ticket keys (so servers resume each other's sessions) and
/// the certificate-size cap — and, for a credential's context, its certificate chain and key (installing them on
/// every SSL instead costs ~15 µs per connection in key comparisons). Creating an SSL_CTX costs about a
/// millisecond in OpenSSL 3 (algorithm fetches), so it happens once per side and per credential.
///
/// `@unchecked Sendable`: configured once in `init`, then only used to create SSL objects, which SSL_CTX allows
/// from several threads.
final class TLSContext: @unchecked Sendable {
    let raw: OpaquePointer?
    let failure: TLSError?

    static let client = TLSContext(server: false, credential: nil)
    static let server = TLSContext(server: true, credential: nil)

    /// The key-exchange groups offered, most preferred first.
    static let groups = "X25519:P-256:P-384:P-521"

    init(server: Bool, credential: TLSCredential?) {
        guard let method = server ? TLS_server_method() : TLS_client_method(), let ctx = SSL_CTX_new(method) else {
            raw = nil
            failure = TLSError.failed("SSL_CTX_new")
            return
        }
        let lists = TLSCipherSuites.openSSLLists(TLSCipherSuites.all)
        guard osec_tls_ctx_set_version_range(ctx, TLSVersion.tls12, TLSVersion.tls13) == 1,
            SSL_CTX_set_cipher_list(ctx, lists.tls12) == 1, SSL_CTX_set_ciphersuites(ctx, lists.tls13) == 1,
            osec_tls_ctx_set_groups(ctx, TLSContext.groups) == 1
        else {
            SSL_CTX_free(ctx)
            raw = nil
            failure = TLSError.failed("SSL_CTX configuration")
            return
        }
        // No renegotiation, no compression; the chain we send is exactly the configured one.
        osec_tls_ctx_set_defaults(ctx)
        osec_tls_ctx_set_max_cert_list(ctx, TLSLimits.maximumCertificateListBytes)
        // Every certificate decision is ours: the callback replaces X509_verify_cert entirely.
        SSL_CTX_set_cert_verify_callback(ctx, TLSCallbacks.verify, nil)
        if server {
            osec_tls_ctx_set_session_cache(ctx, 1)
            SSL_CTX_set_alpn_select_cb(ctx, TLSCallbacks.selectALPN, nil)
            SSL_CTX_set_client_hello_cb(ctx, TLSCallbacks.clientHello, nil)
            // A response set on a connection (TLSEngine.setOCSPResponse) is stapled when the client asks for it.
            osec_tls_ctx_enable_ocsp_stapling(ctx)
        } else {
            // Sessions are kept by peer ID in TLSSessionCache, not in OpenSSL's internal cache.
            osec_tls_ctx_set_session_cache(ctx, 0)
            SSL_CTX_sess_set_new_cb(ctx, TLSCallbacks.newSession)
        }
        if let credential,
            SSL_CTX_use_cert_and_key(ctx, credential.leaf.raw, credential.privateKey, credential.chainStack, 1) != 1
        {
            SSL_CTX_free(ctx)
            raw = nil
            failure = TLSError.failed("SSL_CTX_use_cert_and_key", .badConfiguration)
            return
        }
        raw = ctx
        failure = nil
    }

    deinit { if let raw { SSL_CTX_free(raw) } }

    /// Sessions in libssl's internal cache of this context (SSL_CTX_sess_number).
    var sessionCount: Int {
        guard let raw else { return 0 }
        return SSL_CTX_ctrl(raw, SSL_CTRL_SESS_NUMBER, 0, nil)
    }

    func get() throws(TLSError) -> OpaquePointer {
        if let raw { return raw }
        throw failure ?? TLSError(.internalError, "no SSL_CTX")
    }
}
