import Foundation
import Security

/// How a ``TLSConnection`` or a ``TLSListener`` authenticates itself and judges its peer.
///
/// The defaults are Secure Transport's: TLS 1.2 and 1.3, Apple's cipher suites, the peer's chain evaluated by
/// `SecTrustEvaluateWithError` with the SSL policy (server certificates: serverAuth and the host name; client
/// certificates: clientAuth) against the system store.
public struct TLSConfiguration: Sendable {
    /// Whether a server asks for client certificates.
    public enum ClientAuthentication: Sendable {
        /// Never asks.
        case none
        /// Asks; a client without a certificate is accepted (one that sends a certificate must pass).
        case optional
        /// Asks and refuses clients without a certificate.
        case required
    }

    /// The identity this side presents: required for a listener; a client sends it when the server asks.
    /// From `SecPKCS12Import`, the keychain (`kSecClassIdentity`) or `OpenSecurityCertificates.createIdentity`.
    public var identity: SecIdentity?
    /// Certificates to send after the identity's own (intermediates).
    public var certificateChain: [SecCertificate] = []
    /// The anchors the peer's chain must reach (only these count); nil means the system store. A listener also
    /// names these CAs in its certificate request.
    public var trustAnchors: [SecCertificate]?
    /// Your own decision on the peer (called with the `SecTrust` instead of `SecTrustEvaluateWithError`); return
    /// true to accept. A rejected peer fails with errSSLXCertChainInvalid. With a closure, a client does not
    /// resume sessions, and a listener resumes only the sessions it issued itself.
    public var verifyPeer: (@Sendable (SecTrust) -> Bool)?
    /// ALPN protocols (RFC 7301): a client offers them; a listener selects the first of its list the client
    /// offered.
    public var applicationProtocols: [String] = []
    /// The lowest protocol version allowed.
    public var minimumVersion = SSLProtocol.tlsProtocol12
    /// The highest protocol version allowed.
    public var maximumVersion = SSLProtocol.tlsProtocol13
    /// The longest a handshake (and a client's TCP connect) may take; then errSSLNetworkTimeout.
    public var handshakeTimeout = Duration.seconds(30)
    /// Listener: whether to ask for client certificates.
    public var clientAuthentication = ClientAuthentication.none
    /// Client: the server's name for SNI and the certificate's host name check (default: the host connected to).
    public var serverName: String?
    /// Client: resume earlier sessions with the same server name and port (TLS 1.3 tickets) made with the same
    /// client identity and ``trustAnchors`` (a resumed session is not verified again). Connections with a
    /// ``verifyPeer`` closure never resume.
    public var resumesSessions = true

    /// The defaults.
    public init() {}
}
