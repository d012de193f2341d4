import Foundation

// Apple's Secure Transport types (Security/SecureTransport.h, CipherSuite.h) as Swift imports them on Apple
// platforms: CF_ENUMs become Swift enums with Apple's raw values and case names.

/// Apple's `SSLConnectionRef`: an opaque reference the application passes to its own I/O callbacks.
public typealias SSLConnectionRef = UnsafeRawPointer

/// Apple's `SSLReadFunc`: read up to `*dataLength` bytes into `data`; store the count transferred in
/// `*dataLength`. Return `errSecSuccess` when all were transferred, `errSSLWouldBlock` for fewer (non-blocking
/// I/O), `errSSLClosedGraceful` when the connection ended, another code on error.
public typealias SSLReadFunc =
    @convention(c) (SSLConnectionRef, UnsafeMutableRawPointer, UnsafeMutablePointer<Int>) -> OSStatus

/// Apple's `SSLWriteFunc`: write `*dataLength` bytes from `data`; store the count transferred in `*dataLength`.
public typealias SSLWriteFunc =
    @convention(c) (SSLConnectionRef, UnsafeRawPointer, UnsafeMutablePointer<Int>) -> OSStatus

/// Apple's `SSLCipherSuite`: the IANA number of a cipher suite.
public typealias SSLCipherSuite = UInt16

/// Apple's `SSLProtocol`: protocol versions.
public enum SSLProtocol: Int32, Sendable {
    /// No protocol negotiated or specified.
    case sslProtocolUnknown = 0
    /// SSL 3.0 (not supported).
    case sslProtocol3 = 2
    /// TLS 1.0.
    case tlsProtocol1 = 4
    /// TLS 1.1.
    case tlsProtocol11 = 7
    /// TLS 1.2.
    case tlsProtocol12 = 8
    /// DTLS 1.0 (not supported).
    case dtlsProtocol1 = 9
    /// TLS 1.3.
    case tlsProtocol13 = 10
    /// DTLS 1.2 (not supported).
    case dtlsProtocol12 = 11
    /// The highest version supported (TLS 1.3).
    case tlsProtocolMaxSupported = 999
    /// SSL 2.0 (deprecated, not supported).
    case sslProtocol2 = 1
    /// SSL 3.0 only (deprecated, not supported).
    case sslProtocol3Only = 3
    /// TLS 1.0 only (deprecated).
    case tlsProtocol1Only = 5
    /// All supported versions (deprecated).
    case sslProtocolAll = 6
}

/// Apple's `SSLSessionOption`.
public enum SSLSessionOption: Int32, Sendable {
    /// `SSLHandshake` returns `errSSLPeerAuthCompleted` once the server's certificates arrived; automatic
    /// verification is off and the caller evaluates `SSLCopyPeerTrust` itself.
    case breakOnServerAuth = 0
    /// `SSLHandshake` returns `errSSLClientCertRequested` when the server asks for a client certificate.
    case breakOnCertRequested = 1
    /// Server: like ``breakOnServerAuth`` for the client's certificates.
    case breakOnClientAuth = 2
    /// TLS False Start (accepted, no effect).
    case falseStart = 3
    /// 1/n-1 record splitting for TLS 1.0 (accepted, no effect).
    case sendOneByteRecord = 4
    /// Allow the server identity to change on renegotiation (accepted, no effect).
    case allowServerIdentityChange = 5
    /// Fallback countermeasures (accepted, no effect).
    case fallback = 6
    /// Server: `SSLHandshake` returns `errSSLClientHelloReceived` when the ClientHello arrived (SNI).
    case breakOnClientHello = 7
    /// Allow renegotiation (TLS 1.2); refused by default.
    case allowRenegotiation = 8
    /// Session tickets (enabled by default here).
    case enableSessionTickets = 9
}

/// Apple's `SSLSessionState`.
public enum SSLSessionState: Int32, Sendable {
    case idle = 0
    case handshake = 1
    case connected = 2
    case closed = 3
    case aborted = 4
}

/// Apple's `SSLClientCertificateState`.
public enum SSLClientCertificateState: Int32, Sendable {
    /// The server has not asked for a certificate; the client has not sent one.
    case certNone = 0
    /// The server asked for a certificate; the client did not send one.
    case certRequested = 1
    /// Server: the client sent a certificate that was accepted. Client: the server asked and we sent one.
    case certSent = 2
    /// The client's certificate was rejected.
    case certRejected = 3
}

/// Apple's `SSLProtocolSide`.
public enum SSLProtocolSide: Int32, Sendable {
    case serverSide = 0
    case clientSide = 1
}

/// Apple's `SSLConnectionType`.
public enum SSLConnectionType: Int32, Sendable {
    case streamType = 0
    /// DTLS (not supported: `SSLCreateContext` returns nil).
    case datagramType = 1
}

/// Apple's `SSLAuthenticate`: whether a server asks for client certificates.
public enum SSLAuthenticate: Int32, Sendable {
    /// Never asks (the default).
    case neverAuthenticate = 0
    /// Requires a certificate.
    case alwaysAuthenticate = 1
    /// Asks; a client without a certificate is accepted.
    case tryAuthenticate = 2
}

/// Apple's `SSLCiphersuiteGroup` (CipherSuite.h): named groups of cipher suites, with Apple's Swift case names.
public enum SSLCiphersuiteGroup: Int32, Sendable {
    case `default` = 0
    case compatibility = 1
    case legacy = 2
    case ATS = 3
    case atsCompatibility = 4
    case atsfcp_v2_1 = 5

    /// The spelling of ``atsCompatibility`` some code uses (`kSSLCiphersuiteGroupATSCompatibility` imported
    /// without lower-casing).
    public static var ATSCompatibility: SSLCiphersuiteGroup { .atsCompatibility }
}

// C-style spellings of the enum cases (`kTLSProtocol12`, `kAlwaysAuthenticate`, ...), which Apple's C code uses;
// Swift code on Apple platforms uses the enum cases.

public var kSSLProtocolUnknown: SSLProtocol { .sslProtocolUnknown }
public var kSSLProtocol3: SSLProtocol { .sslProtocol3 }
public var kTLSProtocol1: SSLProtocol { .tlsProtocol1 }
public var kTLSProtocol11: SSLProtocol { .tlsProtocol11 }
public var kTLSProtocol12: SSLProtocol { .tlsProtocol12 }
public var kTLSProtocol13: SSLProtocol { .tlsProtocol13 }
public var kDTLSProtocol1: SSLProtocol { .dtlsProtocol1 }
public var kDTLSProtocol12: SSLProtocol { .dtlsProtocol12 }
public var kTLSProtocolMaxSupported: SSLProtocol { .tlsProtocolMaxSupported }
public var kSSLSessionOptionBreakOnServerAuth: SSLSessionOption { .breakOnServerAuth }
public var kSSLSessionOptionBreakOnCertRequested: SSLSessionOption { .breakOnCertRequested }
public var kSSLSessionOptionBreakOnClientAuth: SSLSessionOption { .breakOnClientAuth }
public var kSSLSessionOptionBreakOnClientHello: SSLSessionOption { .breakOnClientHello }
public var kSSLSessionOptionAllowRenegotiation: SSLSessionOption { .allowRenegotiation }
public var kSSLSessionOptionEnableSessionTickets: SSLSessionOption { .enableSessionTickets }
public var kSSLIdle: SSLSessionState { .idle }
public var kSSLHandshake: SSLSessionState { .handshake }
public var kSSLConnected: SSLSessionState { .connected }
public var kSSLClosed: SSLSessionState { .closed }
public var kSSLAborted: SSLSessionState { .aborted }
public var kSSLClientCertNone: SSLClientCertificateState { .certNone }
public var kSSLClientCertRequested: SSLClientCertificateState { .certRequested }
public var kSSLClientCertSent: SSLClientCertificateState { .certSent }
public var kSSLClientCertRejected: SSLClientCertificateState { .certRejected }
public var kSSLServerSide: SSLProtocolSide { .serverSide }
public var kSSLClientSide: SSLProtocolSide { .clientSide }
public var kSSLStreamType: SSLConnectionType { .streamType }
public var kSSLDatagramType: SSLConnectionType { .datagramType }
public var kNeverAuthenticate: SSLAuthenticate { .neverAuthenticate }
public var kAlwaysAuthenticate: SSLAuthenticate { .alwaysAuthenticate }
public var kTryAuthenticate: SSLAuthenticate { .tryAuthenticate }
