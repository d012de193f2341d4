internal import CLibSSL
internal import CTLSShims
import Foundation

/// The two shared SSL_CTX objects (one per side).
///
/// Everything that can differ between connections (certificates, versions, ALPN, verification mode, server
/// name, sessions) is set on each SSL; the contexts only hold what every connection of a side shares: the
/// default suites and groups, the callbacks that route into ``TLSEngine``, the session-ticket keys (so servers
/// resume each other's sessions) and the certificate-size cap. Creating an SSL_CTX costs about a millisecond in
/// OpenSSL 3 (algorithm fetches), so it happens once per process.
///
/// `@unchecked Sendable`: configured once in `init`, then only used to create SSL objects, which SSL_CTX allows
/// from several threads.
final class TLSContext: @unchecked Sendable {
    let raw: OpaquePointer?
    let failure: TLSError?

    static let client = TLSContext(server: false)
    static let server = TLSContext(server: true)

    /// The key-exchange groups offered, most preferred first.
    static let groups = "X25519:P-256:P-384:P-521"

    private init(server: Bool) {
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
        } else {
            // Sessions are kept by peer ID in TLSSessionCache, not in OpenSSL's internal cache.
            osec_tls_ctx_set_session_cache(ctx, 0)
            SSL_CTX_sess_set_new_cb(ctx, TLSCallbacks.newSession)
        }
        raw = ctx
        failure = nil
    }

    func get() throws(TLSError) -> OpaquePointer {
        if let raw { return raw }
        throw failure ?? TLSError(.internalError, "no SSL_CTX")
    }
}
