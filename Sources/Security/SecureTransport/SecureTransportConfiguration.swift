import Foundation
import OSecASN1
import OSecTLSCore

// The rest of Apple's Secure Transport configuration (Security/SecureTransport.h): named session configurations,
// OCSP stapling, session tickets, the distinguished names of a certificate request, Diffie-Hellman parameters, the
// legacy encryption certificate, out-of-band errors, and the datagram (DTLS) calls.

// MARK: Session configurations

/// Apple's `kSSLSessionConfig_default`: TLS 1.0–1.2 with Apple's default suites.
nonisolated(unsafe) public let kSSLSessionConfig_default: CFString = "default"
/// Apple's `kSSLSessionConfig_ATSv1`: App Transport Security v1 — TLS 1.2, ECDHE (forward-secret) AES suites.
nonisolated(unsafe) public let kSSLSessionConfig_ATSv1: CFString = "ATSv1"
/// Apple's `kSSLSessionConfig_ATSv1_noPFS`: TLS 1.2, AES suites with ECDHE or RSA key exchange.
nonisolated(unsafe) public let kSSLSessionConfig_ATSv1_noPFS: CFString = "ATSv1_noPFS"
/// Apple's `kSSLSessionConfig_standard`: TLS 1.0–1.2, AES suites with ECDHE or RSA key exchange.
nonisolated(unsafe) public let kSSLSessionConfig_standard: CFString = "standard"
/// Apple's `kSSLSessionConfig_RC4_fallback`: TLS 1.0–1.2, standard suites plus RC4 (RC4 is not offered here).
nonisolated(unsafe) public let kSSLSessionConfig_RC4_fallback: CFString = "RC4_fallback"
/// Apple's `kSSLSessionConfig_TLSv1_fallback`: TLS 1.0 only, as a fallback retry (TLS_FALLBACK_SCSV).
nonisolated(unsafe) public let kSSLSessionConfig_TLSv1_fallback: CFString = "TLSv1_fallback"
/// Apple's `kSSLSessionConfig_TLSv1_RC4_fallback`: TLS 1.0 only, fallback, plus RC4 (not offered here).
nonisolated(unsafe) public let kSSLSessionConfig_TLSv1_RC4_fallback: CFString = "TLSv1_RC4_fallback"
/// Apple's `kSSLSessionConfig_legacy`: TLS 1.0–1.2, every non-anonymous suite of the default key exchanges.
nonisolated(unsafe) public let kSSLSessionConfig_legacy: CFString = "legacy"
/// Apple's `kSSLSessionConfig_legacy_DHE`: `legacy` plus DHE-RSA suites (DHE suites are not offered here).
nonisolated(unsafe) public let kSSLSessionConfig_legacy_DHE: CFString = "legacy_DHE"
/// Apple's `kSSLSessionConfig_anonymous`: TLS 1.2, anonymous (unauthenticated) suites only — none is offered here.
nonisolated(unsafe) public let kSSLSessionConfig_anonymous: CFString = "anonymous"
/// Apple's `kSSLSessionConfig_3DES_fallback`: TLS 1.0–1.2, default suites plus 3DES (3DES is not offered here).
nonisolated(unsafe) public let kSSLSessionConfig_3DES_fallback: CFString = "3DES_fallback"
/// Apple's `kSSLSessionConfig_TLSv1_3DES_fallback`: TLS 1.0 only, fallback, plus 3DES (not offered here).
nonisolated(unsafe) public let kSSLSessionConfig_TLSv1_3DES_fallback: CFString = "TLSv1_3DES_fallback"

/// A named configuration: Apple's version range, key exchanges and ciphers (Secure Transport's coreTLS rules),
/// applied to the suites OpenSecurity offers.
struct SecureTransportSessionConfig {
    enum Suites { case ephemeralOnly, all, none }

    let minimum: SSLProtocol
    let maximum: SSLProtocol
    let suites: Suites
    /// A client retrying with a lower version (sends TLS_FALLBACK_SCSV).
    let fallback: Bool

    static func named(_ name: String) -> SecureTransportSessionConfig? {
        switch name {
        case "ATSv1":
            return .init(minimum: .tlsProtocol12, maximum: .tlsProtocol12, suites: .ephemeralOnly, fallback: false)
        case "ATSv1_noPFS":
            return .init(minimum: .tlsProtocol12, maximum: .tlsProtocol12, suites: .all, fallback: false)
        case "anonymous": return .init(minimum: .tlsProtocol12, maximum: .tlsProtocol12, suites: .none, fallback: false)
        case "default", "standard", "RC4_fallback", "legacy", "legacy_DHE", "3DES_fallback":
            return .init(minimum: .tlsProtocol1, maximum: .tlsProtocol12, suites: .all, fallback: false)
        case "TLSv1_fallback", "TLSv1_RC4_fallback", "TLSv1_3DES_fallback":
            return .init(minimum: .tlsProtocol1, maximum: .tlsProtocol1, suites: .all, fallback: true)
        default: return nil
        }
    }

    /// The suites enabled: Secure Transport's configurations predate TLS 1.3 and leave ChaCha20 out.
    var cipherSuites: [SSLCipherSuite] {
        TLSCipherSuites.all.filter { suite in
            guard !suite.isTLS13, !suite.isChaCha20 else { return false }
            switch suites {
            case .ephemeralOnly: return suite.isEphemeralKeyExchange
            case .all: return true
            case .none: return false
            }
        }.map(\.number)
    }
}

/// Apple's `SSLSetSessionConfig`: applies a predefined configuration (one of the `kSSLSessionConfig_…` names) —
/// protocol versions, enabled cipher suites and, on a client, the fallback option. An unknown name → errSecParam.
/// `kSSLSessionConfig_anonymous` enables no suite OpenSecurity offers: the handshake then fails with
/// errSSLNegotiation.
public func SSLSetSessionConfig(_ context: SSLContext, _ config: CFString) -> OSStatus {
    guard let named = SecureTransportSessionConfig.named(config as String) else { return errSecParam }
    return configure(context) {
        context.minimumVersion = named.minimum
        context.maximumVersion = named.maximum
        context.enabledCiphers = named.cipherSuites
        if context.side == .clientSide { context.sessionOptions[.fallback] = named.fallback }
        return errSecSuccess
    }
}

// MARK: Server extras

/// Apple's `SSLSetOCSPResponse` (server): the DER OCSP response stapled to the certificate when a client asks for
/// certificate status (RFC 6066 `status_request`; TLS 1.2 CertificateStatus, TLS 1.3 certificate extension).
/// Replaces an earlier response. An empty response → errSecParam.
public func SSLSetOCSPResponse(_ context: SSLContext, _ response: CFData) -> OSStatus {
    let bytes = Data(referencing: response)
    guard !bytes.isEmpty else { return errSecParam }
    return context.locked {
        context.ocspResponse = bytes
        if let engine = context.engine, context.side == .serverSide, !context.handshakeFinished {
            do {
                try engine.setOCSPResponse(bytes)
            } catch {
                return errSSLInternal
            }
        }
        return errSecSuccess
    }
}

/// Apple's `SSLSetSessionTicketsEnabled`: whether session tickets (RFC 5077 / TLS 1.3 tickets) are used — a
/// client accepts and offers them, a server issues and accepts them. The same switch as
/// `SSLSessionOption.enableSessionTickets`.
public func SSLSetSessionTicketsEnabled(_ context: SSLContext, _ enabled: Bool) -> OSStatus {
    configure(context) {
        context.sessionOptions[.enableSessionTickets] = enabled
        return errSecSuccess
    }
}

/// Apple's `SSLAddDistinguishedName` (server): adds a DER-encoded X.501 Name to the certificate authorities listed
/// in the certificate request (before the names added earlier, as Apple's list is kept). Bytes that are not
/// exactly one DER Name → errSecParam (libssl sends only well-formed names).
public func SSLAddDistinguishedName(_ context: SSLContext, _ derDN: UnsafeRawPointer?, _ derDNLen: Int) -> OSStatus {
    guard let derDN, derDNLen > 0 else { return errSecParam }
    let name = Data(bytes: derDN, count: derDNLen)
    guard TLSEngine.isDistinguishedName(name) else { return errSecParam }
    return configure(context) {
        context.acceptableNames.insert(name, at: 0)
        return errSecSuccess
    }
}

/// Apple's `SSLSetEncryptionCertificate`: the separate RSA key-encipherment identity of export-era TLS. Kept and
/// otherwise unused, as by Apple's Secure Transport since TLS 1.0 suites with ephemeral RSA keys were removed.
public func SSLSetEncryptionCertificate(_ context: SSLContext, _ certRefs: CFArray) -> OSStatus {
    configure(context) {
        context.encryptionCertificates = certRefs
        return errSecSuccess
    }
}

/// Apple's `SSLSetDiffieHellmanParams` (server): PKCS #3 DHParameter (DER SEQUENCE of prime, generator and an
/// optional private-value length) for DHE suites. Kept and returned by `SSLGetDiffieHellmanParams`; OpenSecurity
/// offers no DHE suite (neither does Apple's default configuration), so they are not used. Not DER → errSecParam.
public func SSLSetDiffieHellmanParams(
    _ context: SSLContext, _ dhParams: UnsafeRawPointer?, _ dhParamsLen: Int
) -> OSStatus {
    guard let dhParams, dhParamsLen > 0 else {
        return configure(context) {
            context.diffieHellmanParameters = nil
            return errSecSuccess
        }
    }
    let bytes = Data(bytes: dhParams, count: dhParamsLen)
    guard SecureTransportDiffieHellman.isParameters(bytes) else { return errSecParam }
    return configure(context) {
        context.diffieHellmanParameters = TLSStableBytes(bytes)
        return errSecSuccess
    }
}

/// Apple's `SSLGetDiffieHellmanParams`: the parameters set (the context's own copy, valid while it lives), or
/// NULL and 0.
public func SSLGetDiffieHellmanParams(
    _ context: SSLContext, _ dhParams: UnsafeMutablePointer<UnsafeRawPointer?>, _ dhParamsLen: UnsafeMutablePointer<Int>
) -> OSStatus {
    let stored = context.locked { context.diffieHellmanParameters }
    dhParams.pointee = stored?.pointer
    dhParamsLen.pointee = stored?.count ?? 0
    return errSecSuccess
}

enum SecureTransportDiffieHellman {
    /// DHParameter ::= SEQUENCE { prime INTEGER, base INTEGER, privateValueLength INTEGER OPTIONAL } (PKCS #3).
    static func isParameters(_ der: Data) -> Bool {
        do {
            let node = try DER.parse([UInt8](der))
            return try DER.sequence(node) { nodes -> Bool in
                guard let prime = nodes.next(), let base = nodes.next() else { return false }
                _ = try ASN1Integer(derEncoded: prime)
                _ = try ASN1Integer(derEncoded: base)
                if let length = nodes.next() { _ = try ASN1Integer(derEncoded: length) }
                return true
            }
        } catch {
            return false
        }
    }
}

// MARK: Errors from the application

/// Apple's `SSLSetError`: the application reports an error found outside Secure Transport (for example while
/// handling out-of-band data). The session is aborted (`SSLGetSessionState` → `.aborted`) and `SSLHandshake`,
/// `SSLRead` and `SSLWrite` return `status` from then on. Always errSecSuccess.
public func SSLSetError(_ context: SSLContext, _ status: OSStatus) -> OSStatus {
    context.locked {
        context.outOfBandError = status
        context.state = .aborted
    }
    return errSecSuccess
}

// MARK: Datagram (DTLS)

// Secure Transport answers errSecParam to every datagram call on a stream context. OpenSecurity creates no
// datagram context (`SSLCreateContext(…, .datagramType)` → nil), so every context is a stream context.

/// Apple's `SSLSetDatagramHelloCookie` (DTLS server): errSecParam on a stream (TLS) context.
public func SSLSetDatagramHelloCookie(
    _ dtlsContext: SSLContext, _ cookie: UnsafeRawPointer?, _ cookieLen: Int
) -> OSStatus { errSecParam }

/// Apple's `SSLSetMaxDatagramRecordSize` (DTLS): errSecParam on a stream (TLS) context.
public func SSLSetMaxDatagramRecordSize(_ dtlsContext: SSLContext, _ maxSize: Int) -> OSStatus { errSecParam }

/// Apple's `SSLGetMaxDatagramRecordSize` (DTLS): errSecParam on a stream (TLS) context; `maxSize` is untouched.
public func SSLGetMaxDatagramRecordSize(
    _ dtlsContext: SSLContext, _ maxSize: UnsafeMutablePointer<Int>
) -> OSStatus { errSecParam }

/// Apple's `SSLGetDatagramWriteSize` (DTLS): errSecParam on a stream (TLS) context; `bufSize` is untouched.
public func SSLGetDatagramWriteSize(_ dtlsContext: SSLContext, _ bufSize: UnsafeMutablePointer<Int>) -> OSStatus {
    errSecParam
}
