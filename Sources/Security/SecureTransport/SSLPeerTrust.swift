import Foundation
import OSecSystem
import OSecTLSCore
import OSecTrust
import OSecX509

/// The peer's certificates as a `SecTrust`, and the Secure Transport verdict on it.
///
/// Shared by Apple's `SSLContext` and OpenSecurityTLS (`package`): both decide with the same policy and map
/// failures to the same `errSSL…` codes.
package enum SSLPeerTrust {
    /// A certificate from DER the peer sent (exactly one certificate), or nil when it does not parse.
    package static func certificate(_ der: Data) -> SecCertificate? {
        guard let parsed = try? Certificate(derEncoded: der) else { return nil }
        return SecCertificate(parsed)
    }

    /// A trust over `certificates` (leaf first) with `SecPolicyCreateSSL(peerIsServer, hostName)`: a client
    /// checks a server certificate (serverAuth, host name), a server a client certificate (clientAuth).
    /// `anchors` nil means the system store.
    package static func make(
        certificates: [SecCertificate], peerIsServer: Bool, hostName: String?, anchors: [SecCertificate]?,
        anchorsOnly: Bool
    ) -> SecTrust {
        let policy = SecPolicyCreateSSL(peerIsServer, hostName.map { NSString(string: $0) })
        let trust = SecTrust(certificates: certificates, policies: [policy])
        if let anchors {
            trust.mutate {
                $0.customAnchors = anchors
                $0.anchorsOnly = anchorsOnly
            }
        }
        return trust
    }

    /// Evaluates `trust` (`SecTrustEvaluateWithError`'s verdict): `errSecSuccess`, or the Secure Transport code of
    /// its most important failure and the alert that tells the peer.
    ///
    /// The codes follow Secure Transport's certificate mapping (macOS `sslVerifyCertChain`): a chain ending in a
    /// root that is not trusted → errSSLUnknownRootCert; no path to any root → errSSLNoRootCert; an expired or
    /// not-yet-valid certificate → errSSLCertExpired / errSSLCertNotYetValid; a host name mismatch →
    /// errSSLHostNameMismatch; anything else → errSSLXCertChainInvalid. The reason stays readable through the trust
    /// (`SecTrustEvaluateWithError`, `SecTrustCopyResult`).
    package static func verdict(_ trust: SecTrust) -> (status: OSStatus, alert: TLSEngine.RejectionAlert) {
        let outcome = trust.evaluateIfNeeded()
        if outcome.result == .unspecified || outcome.result == .proceed { return (errSecSuccess, .certificateUnknown) }
        guard let decisive = outcome.failures.mostImportant else {
            return (errSSLXCertChainInvalid, .certificateUnknown)
        }
        switch decisive.check {
        case .anchorTrusted: return (errSSLUnknownRootCert, .unknownCA)
        case .missingIntermediate: return (errSSLNoRootCert, .unknownCA)
        case .temporalValidity:
            let chain = outcome.evaluation.chain
            let index = min(max(decisive.index, 0), chain.count - 1)
            let notYetValid =
                index >= 0 && outcome.date.timeIntervalSince1970 < Double(chain[index].notBefore.secondsSinceEpoch)
            return (notYetValid ? errSSLCertNotYetValid : errSSLCertExpired, .certificateExpired)
        case .sslHostname: return (errSSLHostNameMismatch, .certificateUnknown)
        case .revocation: return (errSSLXCertChainInvalid, .certificateRevoked)
        default: return (errSSLXCertChainInvalid, .certificateUnknown)
        }
    }
}

/// Parsed credentials and CA lists by certificate DER, so a server that makes a context per connection does not
/// parse its certificates again each time (d2i_X509 costs ~150 µs). Bounded; entries are dropped in insertion order.
package enum TLSCredentialCache {
    /// Entries kept of each kind.
    static let capacity = 64

    private struct State {
        var credentials: [[Data]: TLSCredential] = [:]
        var credentialOrder: [[Data]] = []
        var authorities: [[Data]: TLSCertificateList] = [:]
        var authorityOrder: [[Data]] = []
    }

    private static let state = LockedValue(State())

    /// The identity's certificate, then `chain` (the certificates to send after it), with the identity's own key.
    package static func credential(for identity: SecIdentity, chain: [SecCertificate]) throws -> TLSCredential {
        let ders = ([identity.certificate] + chain).map { Data($0.certificate.derBytes) }
        if let hit = state.withLock({ $0.credentials[ders] }) { return hit }
        let credential = try identity.asymmetricKey.withOpenSSLKeyHandle { handle throws(TLSError) in
            try TLSCredential(certificateChain: ders, privateKeyHandle: handle)
        }
        state.withLock { state in
            if state.credentials[ders] == nil {
                state.credentialOrder.append(ders)
                if state.credentialOrder.count > capacity {
                    state.credentials[state.credentialOrder.removeFirst()] = nil
                }
            }
            state.credentials[ders] = credential
        }
        return credential
    }

    /// The parsed certificates whose names a server lists in its CertificateRequest.
    package static func authorities(_ certificates: [SecCertificate]) throws -> TLSCertificateList {
        let ders = certificates.map { Data($0.certificate.derBytes) }
        if let hit = state.withLock({ $0.authorities[ders] }) { return hit }
        let list = try TLSCertificateList(der: ders)
        state.withLock { state in
            if state.authorities[ders] == nil {
                state.authorityOrder.append(ders)
                if state.authorityOrder.count > capacity { state.authorities[state.authorityOrder.removeFirst()] = nil }
            }
            state.authorities[ders] = list
        }
        return list
    }
}

/// Secure Transport's result codes for what the TLS layer reports.
package enum SecureTransportStatus {
    /// What an application callback's status means to the engine.
    static func transport(_ status: OSStatus, reading: Bool) -> TLSEngine.TransportStatus {
        switch status {
        case errSecSuccess: return .ok
        case errSSLWouldBlock: return .wouldBlock
        case errSSLClosedGraceful, errSSLClosedNoNotify, errSSLClosedAbort, errSSLTransportReset:
            return reading ? .closed : .failed(status)
        default: return .failed(status)
        }
    }

    /// The code for a TLS failure. `rejection` is the code our certificate decision rejected the peer with.
    package static func status(for error: TLSError, duringHandshake: Bool, rejection: OSStatus? = nil) -> OSStatus {
        switch error.kind {
        case .protocolViolation: return errSSLProtocol
        case .negotiationFailed: return errSSLNegotiation
        case .peerAlert(let alert): return peerAlertStatus(alert)
        case .closedByPeer: return duringHandshake ? errSSLClosedAbort : errSSLClosedGraceful
        case .unexpectedEndOfStream: return duringHandshake ? errSSLClosedAbort : errSSLClosedNoNotify
        case .badRecordMAC: return errSSLBadRecordMac
        case .decryptionFailed: return errSSLDecryptionFail
        case .recordOverflow: return errSSLRecordOverflow
        case .peerCertificateRejected: return rejection ?? errSSLXCertChainInvalid
        case .peerCertificateChainTooLong, .peerCertificateMissing: return errSSLXCertChainInvalid
        case .renegotiationRefused: return errSSLPeerNoRenegotiation
        case .badConfiguration: return errSSLBadConfiguration
        case .cryptoFailure: return errSSLCrypto
        case .internalError: return errSSLInternal
        }
    }

    /// A fatal alert from the peer (RFC 8446 §6.2) → Apple's errSSLPeer… code (coreTLS's SSLProcessAlert).
    package static func peerAlertStatus(_ alert: UInt8) -> OSStatus {
        switch alert {
        case 0: return errSSLClosedGraceful
        case 10: return errSSLPeerUnexpectedMsg
        case 20: return errSSLPeerBadRecordMac
        case 21: return errSSLPeerDecryptionFail
        case 22: return errSSLPeerRecordOverflow
        case 30: return errSSLPeerDecompressFail
        case 40: return errSSLPeerHandshakeFail
        case 42: return errSSLPeerBadCert
        case 43: return errSSLPeerUnsupportedCert
        case 44: return errSSLPeerCertRevoked
        case 45: return errSSLPeerCertExpired
        case 46: return errSSLPeerCertUnknown
        case 47: return errSSLIllegalParam
        case 48: return errSSLPeerUnknownCA
        case 49: return errSSLPeerAccessDenied
        case 50: return errSSLPeerDecodeError
        case 51: return errSSLPeerDecryptError
        case 60: return errSSLPeerExportRestriction
        case 70: return errSSLPeerProtocolVersion
        case 71: return errSSLPeerInsufficientSecurity
        case 80: return errSSLPeerInternalError
        case 86: return errSSLInappropriateFallback
        case 90: return errSSLPeerUserCancelled
        case 100: return errSSLPeerNoRenegotiation
        case 109: return errSSLMissingExtension
        case 110: return errSSLUnsupportedExtension
        case 112: return errSSLUnrecognizedName
        case 113: return errSSLBadCertificateStatusResponse
        case 115: return errSSLUnknownPSKIdentity
        case 116: return errSSLCertificateRequired
        default: return errSSLFatalAlert
        }
    }

    /// A peer alert that rejects the certificate we sent (Apple's SSLDetectCertRejected).
    static func rejectsCertificate(_ status: OSStatus) -> Bool {
        [
            errSSLPeerBadCert, errSSLPeerUnsupportedCert, errSSLPeerCertRevoked, errSSLPeerCertExpired,
            errSSLPeerCertUnknown, errSSLPeerUnknownCA, errSSLCertificateRequired,
        ].contains(status)
    }
}

/// `SSLProtocol` ↔ wire versions.
package enum SecureTransportVersions {
    /// The wire version for a configured bound (SSL 3.0 and below clamp to TLS 1.0, which is the lowest libssl
    /// offers; `tlsProtocolMaxSupported` is TLS 1.3).
    package static func wire(_ version: SSLProtocol, minimum: Bool) -> Int32 {
        switch version {
        case .tlsProtocol1, .tlsProtocol1Only, .sslProtocol3, .sslProtocol3Only, .sslProtocol2: return TLSVersion.tls10
        case .tlsProtocol11: return TLSVersion.tls11
        case .tlsProtocol12: return TLSVersion.tls12
        case .tlsProtocol13, .tlsProtocolMaxSupported: return TLSVersion.tls13
        case .sslProtocolAll, .sslProtocolUnknown: return minimum ? TLSVersion.tls12 : TLSVersion.tls13
        case .dtlsProtocol1, .dtlsProtocol12: return minimum ? TLSVersion.tls12 : TLSVersion.tls13
        }
    }

    /// The `SSLProtocol` of a negotiated wire version.
    package static func protocolVersion(_ wire: Int32?) -> SSLProtocol {
        switch wire {
        case TLSVersion.tls13: return .tlsProtocol13
        case TLSVersion.tls12: return .tlsProtocol12
        case TLSVersion.tls11: return .tlsProtocol11
        case TLSVersion.tls10: return .tlsProtocol1
        default: return .sslProtocolUnknown
        }
    }

    /// Whether `version` may be configured on a stream (TLS) context.
    static func isConfigurable(_ version: SSLProtocol) -> Bool {
        switch version {
        case .tlsProtocol1, .tlsProtocol11, .tlsProtocol12, .tlsProtocol13, .tlsProtocolMaxSupported, .sslProtocol3:
            return true
        default: return false
        }
    }
}
