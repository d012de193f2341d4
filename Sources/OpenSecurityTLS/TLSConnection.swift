import Foundation
import OSecSystem
import OSecTLSCore
import Security

/// A TLS connection over TCP with an async API: ``connect(host:port:configuration:)`` as a client, or
/// ``TLSListener/accept()`` as a server; then ``read(upTo:)``, ``write(_:)`` and ``close()``.
///
/// The protocol is OpenSSL's libssl; the certificate decision is OpenSecurity's `SecTrust` (or your
/// ``TLSConfiguration/verifyPeer`` closure). Suitable for one reader and one writer at a time; reads and
/// writes may run concurrently. Errors are ``TLSError`` with Apple's Secure Transport codes.
public actor TLSConnection {
    /// Which end of the connection this is.
    public enum Side: Sendable { case client, server }

    /// Client or server.
    public nonisolated let side: Side
    let socket: TCPSocket
    let configuration: TLSConfiguration
    private let engine: TLSEngine
    private let decision: PeerDecision
    private var handshakeDone = false
    private var failure: TLSError?
    private var readClosed = false
    private var writing = false
    private var writeWaiters: [CheckedContinuation<Void, Never>] = []

    /// The chain decision made during the handshake (runs synchronously inside the engine's step).
    private final class PeerDecision {
        var trust: SecTrust?
        var rejection: OSStatus?
    }

    /// - Parameter listenerScope: a server's listener identifier, binding its sessions to that listener when its
    ///   configuration has a ``TLSConfiguration/verifyPeer`` closure (closures cannot be compared).
    init(
        socket: TCPSocket, side: Side, configuration: TLSConfiguration, serverName: String?, port: UInt16,
        listenerScope: Data? = nil
    ) throws {
        self.socket = socket
        self.side = side
        self.configuration = configuration
        let decision = PeerDecision()
        self.decision = decision
        do {
            let credential = try configuration.identity.map {
                try TLSCredentialCache.credential(for: $0, chain: configuration.certificateChain)
            }
            let engine = try TLSEngine(side: side == .client ? .client : .server, credential: credential)
            try engine.setVersionRange(
                minimum: SecureTransportVersions.wire(configuration.minimumVersion, minimum: true),
                maximum: SecureTransportVersions.wire(configuration.maximumVersion, minimum: false))
            if !configuration.applicationProtocols.isEmpty {
                try engine.setApplicationProtocols(configuration.applicationProtocols)
            }
            if side == .client {
                if let serverName { try engine.setServerName(serverName) }
                // Sessions are kept per server, client identity and trust settings: a session made with one
                // identity, or verified against other anchors, is never offered by this connection. A
                // verifyPeer closure cannot be compared with another, so its connections do not resume.
                if configuration.resumesSessions, configuration.verifyPeer == nil, let serverName {
                    let anchors = try configuration.trustAnchors.map {
                        Data(try TLSCredentialCache.authorities($0).digest)
                    }
                    let scope = try TLSDigest.sha256([
                        Data(credential?.sessionContextSeed ?? []), anchors ?? Data("system anchors".utf8),
                    ])
                    engine.setPeerID(Data("opensecurity-tls:\(serverName):\(port):".utf8) + Data(scope))
                }
            } else {
                let mode: TLSEngine.ClientAuthentication
                switch configuration.clientAuthentication {
                case .none: mode = .never
                case .optional: mode = .optional
                case .required: mode = .required
                }
                let authorities = try configuration.trustAnchors.map { try TLSCredentialCache.authorities($0) }
                try engine.setClientAuthentication(mode, authorities: authorities)
                if configuration.verifyPeer != nil, let listenerScope { try engine.setSessionScope([listenerScope]) }
            }
            let checkHost = side == .client ? serverName : nil
            engine.peerCertificateHandler = { chain in
                TLSConnection.decide(chain, configuration, peerIsServer: side == .client, host: checkHost, decision)
            }
            self.engine = engine
        } catch let error as OSecTLSCore.TLSError {
            throw TLSError(SecureTransportStatus.status(for: error, duringHandshake: true), "\(error)")
        }
    }

    private static func decide(
        _ chain: [Data], _ configuration: TLSConfiguration, peerIsServer: Bool, host: String?, _ decision: PeerDecision
    ) -> TLSEngine.PeerVerdict {
        let certificates = chain.compactMap(SSLPeerTrust.certificate)
        guard certificates.count == chain.count, !certificates.isEmpty else {
            decision.rejection = errSSLBadCert
            return .reject(.badCertificate)
        }
        let trust = SSLPeerTrust.make(
            certificates: certificates, peerIsServer: peerIsServer, hostName: host,
            anchors: configuration.trustAnchors, anchorsOnly: true)
        decision.trust = trust
        if let verifyPeer = configuration.verifyPeer {
            if verifyPeer(trust) { return .accept }
            decision.rejection = errSSLXCertChainInvalid
            return .reject(.certificateUnknown)
        }
        let verdict = SSLPeerTrust.verdict(trust)
        if verdict.status == errSecSuccess { return .accept }
        decision.rejection = verdict.status
        return .reject(verdict.alert)
    }

    /// Connects to `host`:`port` and completes the handshake (both within ``TLSConfiguration/handshakeTimeout``).
    /// The server's certificate must be valid for ``TLSConfiguration/serverName`` (default: `host`).
    public static func connect(
        host: String, port: UInt16, configuration: TLSConfiguration = TLSConfiguration()
    ) async throws -> TLSConnection {
        let deadline = ContinuousClock.now + configuration.handshakeTimeout
        let socket: TCPSocket
        do {
            socket = try await TCPSocket.connect(host: host, port: port, deadline: deadline)
        } catch {
            if error.code == ETIMEDOUT { throw TLSError(errSSLNetworkTimeout, "connect to \(host):\(port) timed out") }
            throw TLSError(errSSLConnectionRefused, "cannot connect to \(host):\(port): \(error)")
        }
        let connection = try TLSConnection(
            socket: socket, side: .client, configuration: configuration, serverName: configuration.serverName ?? host,
            port: port)
        try await connection.handshake(deadline: deadline)
        return connection
    }

    // MARK: Handshake

    /// Completes the handshake (a no-op once done); bounded by ``TLSConfiguration/handshakeTimeout``. Reads and
    /// writes call it implicitly, so a server usually does not need to.
    public func handshake() async throws {
        try await handshake(deadline: ContinuousClock.now + configuration.handshakeTimeout)
    }

    private func handshake(deadline: ContinuousClock.Instant) async throws {
        if handshakeDone { return }
        if let failure { throw failure }
        do {
            while true {
                switch engine.handshakeStep() {
                case .complete:
                    try await flush(deadline: deadline)
                    handshakeDone = true
                    return
                case .wantInput:
                    try await flush(deadline: deadline)
                    try await receive(deadline: deadline, duringHandshake: true)
                case .certificateRequested, .clientHelloReceived:
                    throw TLSError(errSSLInternal, "unexpected handshake pause")
                case .failed(let error):
                    try? await flush(deadline: ContinuousClock.now + .seconds(1))  // the alert, best effort
                    throw TLSError(
                        SecureTransportStatus.status(for: error, duringHandshake: true, rejection: decision.rejection),
                        error.description)
                }
            }
        } catch let error as TLSError {
            failure = error
            socket.close()
            throw error
        }
    }

    // MARK: Data

    /// Reads up to `maximumCount` decrypted bytes (at least one), waiting as long as it takes; empty `Data` once
    /// the peer closed the connection with close_notify. A connection cut without close_notify throws
    /// errSSLClosedNoNotify.
    public func read(upTo maximumCount: Int = 16384) async throws -> Data {
        try await handshake()
        if readClosed { return Data() }
        if let failure { throw failure }
        while true {
            let (result, data) = engine.read(maximumCount: max(1, maximumCount))
            switch result {
            case .bytes:
                if engine.pendingOutputCount > 0 { try await flush(deadline: nil) }
                return data
            case .wantInput:
                if engine.pendingOutputCount > 0 { try await flush(deadline: nil) }
                try await receive(deadline: nil, duringHandshake: false)
            case .closed:
                readClosed = true
                return Data()
            case .failed(let error):
                throw fail(SecureTransportStatus.status(for: error, duringHandshake: false), error.description)
            }
        }
    }

    /// Encrypts and sends `data`.
    public func write(_ data: Data) async throws {
        try await handshake()
        if let failure { throw failure }
        guard !data.isEmpty else { return }
        if let error = engine.write(data) {
            throw fail(SecureTransportStatus.status(for: error, duringHandshake: false), error.description)
        }
        try await flush(deadline: nil)
    }

    /// Sends close_notify (after a completed handshake) and closes the socket.
    public func close() async {
        if handshakeDone && failure == nil {
            engine.shutdown()
            try? await flush(deadline: ContinuousClock.now + .seconds(2))
        }
        failure = failure ?? TLSError(errSSLClosedGraceful, "the connection was closed")
        socket.close()
    }

    // MARK: Session

    /// The protocol ALPN selected, if any.
    public var negotiatedApplicationProtocol: String? { engine.negotiatedApplicationProtocol }
    /// The negotiated protocol version (`sslProtocolUnknown` before the handshake).
    public var protocolVersion: SSLProtocol { SecureTransportVersions.protocolVersion(engine.negotiatedVersion) }
    /// The negotiated cipher suite.
    public var cipherSuite: SSLCipherSuite? { engine.negotiatedCipherSuite }
    /// The session was resumed (no certificates exchanged).
    public var isSessionResumed: Bool { engine.isHandshakeComplete && engine.sessionWasResumed }
    /// The peer's certificates in a trust with the SSL policy (evaluated during the handshake, except for a
    /// resumed session); nil when the peer sent none.
    public var peerTrust: SecTrust? {
        if let trust = decision.trust { return trust }
        let certificates = engine.peerCertificateChain.compactMap(SSLPeerTrust.certificate)
        guard !certificates.isEmpty else { return nil }
        return SSLPeerTrust.make(
            certificates: certificates, peerIsServer: side == .client,
            hostName: side == .client ? configuration.serverName : nil, anchors: configuration.trustAnchors,
            anchorsOnly: true)
    }
    /// Server: the name the client asked for (SNI).
    public var requestedServerName: String? { engine.requestedServerName }

    // MARK: Bytes

    private func fail(_ status: OSStatus, _ message: String) -> TLSError {
        let error = TLSError(status, message)
        failure = error
        socket.close()
        return error
    }

    private func receive(deadline: ContinuousClock.Instant?, duringHandshake: Bool) async throws {
        let capacity = engine.inputCapacity
        guard capacity > 0 else { return }  // libssl has a full buffer to work on first
        let data: Data
        do {
            data = try await socket.read(maximumCount: capacity, deadline: deadline)
        } catch {
            throw fail(TLSError.transport(error, duringHandshake ? "handshake" : "read").status, "\(error)")
        }
        if data.isEmpty {
            throw fail(
                duringHandshake ? errSSLClosedAbort : errSSLClosedNoNotify,
                duringHandshake ? "the peer closed the connection during the handshake" : "the connection ended")
        }
        _ = engine.receive(data)
    }

    private func flush(deadline: ContinuousClock.Instant?) async throws {
        await lockWrites()
        defer { unlockWrites() }
        while engine.pendingOutputCount > 0 {
            let output = engine.takeOutput()
            do {
                try await socket.write(output, deadline: deadline)
            } catch {
                throw fail(TLSError.transport(error, "write").status, "\(error)")
            }
        }
    }

    private func lockWrites() async {
        guard writing else {
            writing = true
            return
        }
        await withCheckedContinuation { writeWaiters.append($0) }
    }

    private func unlockWrites() {
        if writeWaiters.isEmpty {
            writing = false
        } else {
            writeWaiters.removeFirst().resume()
        }
    }
}
