import Foundation
import OSecTLSCore

/// Apple's `SSLContext`: one TLS session, configured with the `SSLSet…` functions and driven by `SSLHandshake`,
/// `SSLRead`, `SSLWrite` and `SSLClose` through the application's read and write callbacks.
///
/// The protocol runs in OpenSSL's libssl (through OSecTLSCore); every certificate decision is a `SecTrust`
/// evaluation (``SSLCopyPeerTrust(_:_:)`` returns it). A context is used by one thread at a time: concurrent
/// calls are serialised by a lock (held while the callbacks run).
public final class SSLContext: NSObject, @unchecked Sendable {
    // @unchecked: every mutable property is read and written with `lock` held.
    let lock = NSRecursiveLock()
    let side: SSLProtocolSide

    // Configuration.
    var readFunc: SSLReadFunc?
    var writeFunc: SSLWriteFunc?
    var connection: SSLConnectionRef?
    var peerDomainName: String?
    var identity: SecIdentity?
    var chainCertificates: [SecCertificate] = []
    /// The identity and chain, parsed for libssl (made by `SSLSetCertificate`).
    var credential: TLSCredential?
    var clientAuthentication = SSLAuthenticate.neverAuthenticate
    var certificateAuthorities: [SecCertificate]?
    var trustedRoots: [SecCertificate]?
    var trustedRootsOnly = false
    var sessionOptions: [SSLSessionOption: Bool] = [:]
    var minimumVersion = SSLProtocol.tlsProtocol12
    var maximumVersion = SSLProtocol.tlsProtocol13
    var applicationProtocols: [String]?
    var peerID: TLSStableBytes?
    var enabledCiphers: [SSLCipherSuite]?
    var certificateVerificationEnabled = true
    /// The distinguished names a certificate request lists (DER), the most recently added first (Apple's order).
    var acceptableNames: [Data] = []
    /// The OCSP response a server staples (`SSLSetOCSPResponse`).
    var ocspResponse: Data?
    /// `SSLSetEncryptionCertificate`'s array (kept, unused).
    var encryptionCertificates: CFArray?
    /// `SSLSetDiffieHellmanParams`'s DER parameters (kept, unused: no DHE suite is offered).
    var diffieHellmanParameters: TLSStableBytes?
    /// The status `SSLSetError` recorded: the session is aborted and the I/O calls return it.
    var outOfBandError: OSStatus?

    // Session state.
    var engine: TLSEngine?
    var state = SSLSessionState.idle
    var closedWithoutNotify = false
    /// Output produced after a break on peer authentication, held until the caller resumes the handshake.
    var holdingOutput = false
    var pendingPeerAuthBreak = false
    var peerAuthBreakDelivered = false
    var peerTrust: SecTrust?
    /// The status our certificate decision rejected the peer's chain with.
    var rejectionStatus: OSStatus?
    var clientCertificateState = SSLClientCertificateState.certNone
    var handshakeFinished = false

    init(side: SSLProtocolSide) {
        self.side = side
    }

    /// `<SSLContext client|server, state>`.
    public override var description: String {
        "<SSLContext \(side == .clientSide ? "client" : "server"), state \(state)>"
    }

    /// Runs `body` with the lock held.
    func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// A session is active once the first handshake call was made (configuration is then frozen).
    var isSessionActive: Bool { engine != nil && state != .closed && state != .aborted }

    func option(_ option: SSLSessionOption) -> Bool { sessionOptions[option] ?? (option == .enableSessionTickets) }

    // MARK: Engine

    func makeEngine() throws -> TLSEngine {
        let engine: TLSEngine
        do {
            if side == .serverSide && credential == nil {
                throw SecError(errSSLBadConfiguration, "a server context needs SSLSetCertificate")
            }
            engine = try TLSEngine(side: side == .clientSide ? .client : .server, credential: credential)
            try engine.setVersionRange(
                minimum: SecureTransportVersions.wire(minimumVersion, minimum: true),
                maximum: SecureTransportVersions.wire(maximumVersion, minimum: false))
            if let enabledCiphers {
                guard !enabledCiphers.isEmpty else {
                    // kSSLSessionConfig_anonymous: none of its suites is offered.
                    throw SecError(errSSLNegotiation, "the session configuration enables no supported cipher suite")
                }
                try engine.setCipherSuites(TLSCipherSuites.suites(enabledCiphers))
            }
            if side == .clientSide, option(.fallback) { engine.setSendsFallbackSCSV() }
            if side == .clientSide, let peerDomainName { try engine.setServerName(peerDomainName) }
            if let applicationProtocols { try engine.setApplicationProtocols(applicationProtocols) }
            if side == .serverSide {
                let mode: TLSEngine.ClientAuthentication
                switch clientAuthentication {
                case .neverAuthenticate: mode = .never
                case .tryAuthenticate: mode = .optional
                case .alwaysAuthenticate: mode = .required
                }
                let authorities = try certificateAuthorities.map { try TLSCredentialCache.authorities($0) }
                try engine.setClientAuthentication(mode, authorities: authorities)
                if mode != .never, !acceptableNames.isEmpty { try engine.setCertificateAuthorityNames(acceptableNames) }
                if let ocspResponse { try engine.setOCSPResponse(ocspResponse) }
                // A client judged by other trust settings (or by the caller) must not resume into this context.
                let callerJudges = option(.breakOnClientAuth) || !certificateVerificationEnabled
                if mode != .never && (trustedRoots != nil || callerJudges) {
                    let flags = Data([
                        trustedRootsOnly ? 1 : 0, option(.breakOnClientAuth) ? 1 : 0,
                        certificateVerificationEnabled ? 1 : 0,
                    ])
                    let roots = try trustedRoots.map { Data(try TLSCredentialCache.authorities($0).digest) }
                    try engine.setSessionScope([flags, roots ?? Data()])
                }
            }
            if side == .clientSide, let peerID { engine.setPeerID(peerID.data) }
            engine.setRenegotiationAllowed(option(.allowRenegotiation))
            engine.setSessionTicketsEnabled(option(.enableSessionTickets))
            engine.breakOnCertificateRequest = option(.breakOnCertRequested)
            engine.breakOnClientHello = option(.breakOnClientHello)
        } catch let error as TLSError {
            throw SecError(SecureTransportStatus.status(for: error, duringHandshake: true), error.description)
        }
        engine.peerCertificateHandler = { [weak self] chain in
            self?.decidePeerChain(chain) ?? .reject(.certificateUnknown)
        }
        return engine
    }

    /// The certificate decision, made during the handshake (libssl's verifier never runs).
    func decidePeerChain(_ chainDER: [Data]) -> TLSEngine.PeerVerdict {
        var certificates: [SecCertificate] = []
        for der in chainDER {
            guard let certificate = SSLPeerTrust.certificate(der) else {
                rejectionStatus = errSSLBadCert
                if side == .serverSide { clientCertificateState = .certRejected }
                return .reject(.badCertificate)
            }
            certificates.append(certificate)
        }
        guard !certificates.isEmpty else {
            rejectionStatus = errSSLXCertChainInvalid
            return .reject(.certificateUnknown)
        }
        let trust = SSLPeerTrust.make(
            certificates: certificates, peerIsServer: side == .clientSide,
            hostName: side == .clientSide ? peerDomainName : nil, anchors: anchors, anchorsOnly: anchorsOnly)
        peerTrust = trust
        let breakOption = side == .clientSide ? option(.breakOnServerAuth) : option(.breakOnClientAuth)
        if breakOption || !certificateVerificationEnabled {
            // Verification is the caller's: SSLHandshake returns errSSLPeerAuthCompleted with the trust unevaluated.
            if breakOption {
                pendingPeerAuthBreak = true
                peerAuthBreakDelivered = true
            }
            if side == .serverSide { clientCertificateState = .certSent }
            return .accept
        }
        let verdict = SSLPeerTrust.verdict(trust)
        guard verdict.status != errSecSuccess else {
            if side == .serverSide { clientCertificateState = .certSent }
            return .accept
        }
        rejectionStatus = verdict.status
        if side == .serverSide { clientCertificateState = .certRejected }
        return .reject(verdict.alert)
    }

    /// Anchors for the peer's chain: `SSLSetTrustedRoots`, and on a server the `SSLSetCertificateAuthorities`.
    var anchors: [SecCertificate]? {
        var result = trustedRoots ?? []
        if side == .serverSide, let certificateAuthorities { result += certificateAuthorities }
        return trustedRoots == nil && (side == .clientSide || certificateAuthorities == nil) ? nil : result
    }

    /// Only the given anchors count (`SSLSetTrustedRoots(…, true)`, or a server's certificate authorities).
    var anchorsOnly: Bool { trustedRootsOnly || (side == .serverSide && certificateAuthorities != nil) }

    // MARK: Moving bytes

    var connectionReference: SSLConnectionRef { connection ?? TLSStableBytes.placeholderConnection.pointer }

    /// Sends pending output through the write callback.
    func flush(_ engine: TLSEngine) -> OSStatus {
        guard let writeFunc else { return errSecBadReq }
        let connection = connectionReference
        let result = engine.sendOutput { buffer, length in
            SecureTransportStatus.transport(writeFunc(connection, buffer, length), reading: false)
        }
        switch result {
        case .sent: return errSecSuccess
        case .wouldBlock: return errSSLWouldBlock
        case .transportFailed(let status): return abort(status)
        }
    }

    /// Reads the next record through the read callback.
    func receive(_ engine: TLSEngine) -> TLSEngine.ReceiveResult {
        guard let readFunc else { return .transportFailed(errSecBadReq) }
        let connection = connectionReference
        return engine.receiveRecord { buffer, length in
            SecureTransportStatus.transport(readFunc(connection, buffer, length), reading: true)
        }
    }

    /// Moves to the aborted state; returns `status`.
    func abort(_ status: OSStatus) -> OSStatus {
        state = .aborted
        if side == .clientSide, clientCertificateState == .certNone, engine?.certificateRequested == true {
            clientCertificateState = identity == nil ? .certRequested : .certSent
        }
        if side == .clientSide, clientCertificateState == .certSent, SecureTransportStatus.rejectsCertificate(status) {
            clientCertificateState = .certRejected
        }
        return status
    }

    /// Runs the handshake until it completes, needs I/O the callbacks cannot provide now, pauses, or fails.
    func driveHandshake() -> OSStatus {
        switch state {
        case .closed: return closedWithoutNotify ? errSSLClosedNoNotify : errSSLClosedGraceful
        case .aborted: return outOfBandError ?? errSSLClosedAbort
        default: break
        }
        guard readFunc != nil, writeFunc != nil else { return errSecBadReq }
        let engine: TLSEngine
        if let existing = self.engine {
            engine = existing
        } else {
            do {
                engine = try makeEngine()
            } catch let error as SecError {
                return error.status
            } catch {
                return errSSLInternal
            }
            self.engine = engine
            state = .handshake
        }
        holdingOutput = false
        while true {
            if !holdingOutput {
                let status = flush(engine)
                if status != errSecSuccess { return status }
            }
            if handshakeFinished {
                state = .connected
                return errSecSuccess
            }
            let step = engine.handshakeStep()
            if case .failed(let error) = step {
                _ = flush(engine)  // the alert, best effort
                noteFailure(error)
                return abort(
                    SecureTransportStatus.status(for: error, duringHandshake: true, rejection: rejectionStatus))
            }
            if pendingPeerAuthBreak {
                pendingPeerAuthBreak = false
                holdingOutput = true
                return errSSLPeerAuthCompleted
            }
            switch step {
            case .complete:
                finishHandshake(engine)
                if side == .serverSide, option(.breakOnClientAuth), !peerAuthBreakDelivered,
                    clientAuthentication != .neverAuthenticate
                {
                    // Apple returns from the break even when the client sent no certificate.
                    peerAuthBreakDelivered = true
                    holdingOutput = true
                    return errSSLPeerAuthCompleted
                }
            case .wantInput:
                let status = flush(engine)
                if status != errSecSuccess { return status }
                switch receive(engine) {
                case .delivered: continue
                case .wouldBlock: return errSSLWouldBlock
                case .endOfStream: return abort(errSSLClosedAbort)
                case .transportFailed(let status): return abort(status)
                }
            case .certificateRequested:
                clientCertificateState = .certRequested
                return errSSLClientCertRequested
            case .clientHelloReceived:
                return errSSLClientHelloReceived
            case .failed:
                return errSSLInternal  // handled above
            }
        }
    }

    private func noteFailure(_ error: TLSError) {
        if side == .serverSide, error.kind == .peerCertificateMissing { clientCertificateState = .certRequested }
    }

    private func finishHandshake(_ engine: TLSEngine) {
        handshakeFinished = true
        if side == .clientSide {
            if engine.certificateRequested { clientCertificateState = identity == nil ? .certRequested : .certSent }
        } else if clientAuthentication != .neverAuthenticate, clientCertificateState == .certNone {
            clientCertificateState =
                engine.sessionWasResumed && !engine.peerCertificateChain.isEmpty
                ? .certSent : .certRequested
        }
    }

    /// The peer's trust: the one made during the handshake, or for a resumed session one over the chain of the
    /// original handshake, unevaluated (as Apple's), made when first asked for.
    func currentPeerTrust() -> SecTrust? {
        if let peerTrust { return peerTrust }
        guard handshakeFinished, let engine else { return nil }
        let certificates = engine.peerCertificateChain.compactMap(SSLPeerTrust.certificate)
        guard !certificates.isEmpty else { return nil }
        peerTrust = SSLPeerTrust.make(
            certificates: certificates, peerIsServer: side == .clientSide,
            hostName: side == .clientSide ? peerDomainName : nil, anchors: anchors, anchorsOnly: anchorsOnly)
        return peerTrust
    }
}
