internal import CLibSSL
internal import CTLSShims
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One TLS connection's protocol state: an SSL object whose bytes flow through buffers we own.
///
/// Incoming bytes go into the write half of a BIO pair (SSL reads the other half); outgoing bytes collect in a
/// memory BIO. Neither side touches a socket: the caller moves bytes, either through Apple-style read and write
/// callbacks (``receiveRecord(_:)`` asks for exactly one TLS record at a time, as Secure Transport does, so a
/// blocking callback never waits for bytes the peer has not sent) or as `Data` (``receive(_:)``,
/// ``takeOutput()``) for the async API.
///
/// Every certificate decision is made by ``peerCertificateHandler``: libssl's own verifier is replaced
/// (SSL_CTX_set_cert_verify_callback), so OpenSSL never judges a chain.
///
/// Not thread-safe: one owner drives it (the facade's context holds a lock; the async API is an actor).
package final class TLSEngine {
    /// Which end of the connection this is.
    package enum Side: Sendable { case client, server }

    /// Whether a server asks for a client certificate.
    package enum ClientAuthentication: Sendable {
        /// Never asks.
        case never
        /// Asks; a client without a certificate is accepted (a certificate that is sent must pass).
        case optional
        /// Asks and fails the handshake when the client sends none.
        case required
    }

    /// The alert sent when ``peerCertificateHandler`` rejects a chain.
    package enum RejectionAlert: Sendable {
        case badCertificate, unsupportedCertificate, certificateRevoked, certificateExpired, certificateUnknown
        case unknownCA
    }

    /// The decision on the peer's certificate chain.
    package enum PeerVerdict: Sendable {
        case accept
        case reject(RejectionAlert)
    }

    /// The result of one handshake step.
    package enum HandshakeStep {
        /// The handshake is complete.
        case complete
        /// More bytes from the peer are needed (send ``pendingOutputCount`` bytes first).
        case wantInput
        /// Client: the server asked for a certificate and ``breakOnCertificateRequest`` is set.
        case certificateRequested
        /// Server: a ClientHello arrived and ``breakOnClientHello`` is set.
        case clientHelloReceived
        /// The handshake failed (an alert may be pending in the output).
        case failed(TLSError)
    }

    /// The result of a read.
    package enum ReadResult {
        case bytes(Int)
        case wantInput
        /// The peer sent close_notify.
        case closed
        case failed(TLSError)
    }

    /// What a transport callback reported.
    package enum TransportStatus {
        case ok, wouldBlock, closed
        case failed(Int32)
    }

    /// The result of ``receiveRecord(_:)``.
    package enum ReceiveResult {
        /// Bytes were handed to libssl; step the handshake or read again.
        case delivered
        case wouldBlock
        /// The transport ended (its callback reported a closed connection).
        case endOfStream
        case transportFailed(Int32)
    }

    /// The result of ``sendOutput(_:)``.
    package enum SendResult {
        case sent, wouldBlock
        case transportFailed(Int32)
    }

    /// Capacity of the incoming BIO pair buffer: more than one maximal record.
    static let inputBufferSize = 32 * 1024

    package let side: Side
    let ssl: OpaquePointer
    private let networkBIO: OpaquePointer
    private let outputBIO: OpaquePointer
    private var outputConsumed = 0
    private let header: UnsafeMutablePointer<UInt8>
    private let lengthBox: UnsafeMutablePointer<Int>
    private var headerFilled = 0
    private var bodyRemaining = 0
    /// A header that does not look like TLS was handed to libssl unchecked; if libssl still asks for more, the
    /// stream is not TLS (we cannot know how many bytes to ask for without framing).
    private var uncheckedHeaderFed = false
    private var hadFatalError = false
    private var hasStarted = false

    /// Decides on the chain the peer sent (DER, leaf first), called during the handshake.
    package var peerCertificateHandler: (([Data]) -> PeerVerdict)?
    /// Client: pause with ``HandshakeStep/certificateRequested`` when the server asks for a certificate.
    package var breakOnCertificateRequest = false
    /// Server: pause with ``HandshakeStep/clientHelloReceived`` when the ClientHello arrives.
    package var breakOnClientHello = false

    private var credential: TLSCredential?
    private var credentialInstalled = false
    private var clientAuthentication = ClientAuthentication.never
    /// Server: what, beyond the certificate and the client-authentication mode, a session is bound to (the
    /// digest of the CA list and of ``setSessionScope(_:)``'s parts); nil: nothing more.
    private var authoritiesDigest: [UInt8]?
    private var extraScope: [Data] = []
    private var sessionScope: [UInt8]?
    private var minimumVersion = TLSVersion.tls12
    private var maximumVersion = TLSVersion.tls13
    private var serverProtocols: [String] = []
    private var peerID: Data?
    private var certificateRequestDelivered = false
    private var clientHelloDelivered = false

    /// Server: the protocols the client offered (ALPN), in its order.
    package private(set) var offeredProtocols: [String] = []
    /// Client: the server sent a CertificateRequest.
    package private(set) var certificateRequested = false
    /// Server: the name the client asked for in its ClientHello (SNI).
    package private(set) var clientHelloServerName: String?
    /// The chain the peer sent, as handed to ``peerCertificateHandler`` (nil until then).
    package private(set) var receivedPeerChain: [Data]?
    /// The peer sent more than ``TLSLimits/maximumPeerCertificates`` certificates.
    package private(set) var peerChainTooLong = false

    /// A connection of `side` with the shared defaults: TLS 1.2–1.3, Apple's suites, no renegotiation; with
    /// `credential` presenting that certificate chain and key.
    package init(side: Side, credential: TLSCredential? = nil) throws(TLSError) {
        let context: OpaquePointer
        if let credential {
            context = try credential.context(server: side == .server)
        } else {
            context = try (side == .client ? TLSContext.client : TLSContext.server).get()
        }
        guard let ssl = SSL_new(context) else { throw TLSError.failed("SSL_new") }
        var internalHalf: OpaquePointer?
        var networkHalf: OpaquePointer?
        guard BIO_new_bio_pair(&internalHalf, 0, &networkHalf, TLSEngine.inputBufferSize) == 1,
            let internalHalf, let networkHalf
        else {
            SSL_free(ssl)
            throw TLSError.failed("BIO_new_bio_pair")
        }
        guard let output = BIO_new(BIO_s_mem()) else {
            BIO_free(internalHalf)
            BIO_free(networkHalf)
            SSL_free(ssl)
            throw TLSError.failed("BIO_new")
        }
        SSL_set_bio(ssl, internalHalf, output)  // the SSL owns both from here on
        self.side = side
        self.ssl = ssl
        self.networkBIO = networkHalf
        self.outputBIO = output
        self.header = .allocate(capacity: TLSLimits.recordHeaderLength)
        self.lengthBox = .allocate(capacity: 1)
        if side == .client {
            SSL_set_connect_state(ssl)
            // Verification always runs (through our callback); the callback's verdict decides.
            SSL_set_verify(ssl, SSL_VERIFY_PEER, nil)
            SSL_set_cert_cb(ssl, TLSCallbacks.certificateRequest, nil)
        } else {
            SSL_set_accept_state(ssl)
        }
        _ = SSL_set_ex_data(ssl, 0, Unmanaged.passUnretained(self).toOpaque())
        if let credential {
            self.credential = credential
            credentialInstalled = true
        }
        TLSEngine.live.add(1, ordering: .relaxed)
    }

    deinit {
        TLSEngine.live.subtract(1, ordering: .relaxed)
        SSL_free(ssl)
        BIO_free(networkBIO)
        header.deallocate()
        lengthBox.deallocate()
    }

    /// The engine attached to `ssl` (set in init, valid for the SSL's lifetime).
    static func engine(of ssl: OpaquePointer) -> TLSEngine? {
        guard let pointer = SSL_get_ex_data(ssl, 0) else { return nil }
        return Unmanaged<TLSEngine>.fromOpaque(pointer).takeUnretainedValue()
    }

    // MARK: Configuration

    /// The certificate chain and key this side presents (a server must have one; a client sends it when asked).
    /// During a ``HandshakeStep/certificateRequested`` or ``HandshakeStep/clientHelloReceived`` pause the new
    /// credential is installed when the handshake resumes.
    package func setCredential(_ credential: TLSCredential?) throws(TLSError) {
        self.credential = credential
        credentialInstalled = false
        // Before the handshake: replace now what the SSL holds (its context's credential, if any).
        if !hasStarted && !installPendingCredential() {
            throw TLSError(.badConfiguration, "cannot install the certificate and key")
        }
    }

    /// Client: the name sent as SNI (omitted for IP address literals, RFC 6066 §3).
    package func setServerName(_ name: String) throws(TLSError) {
        guard side == .client, !name.isEmpty, !TLSEngine.isIPAddressLiteral(name) else { return }
        guard osec_tls_set_host_name(ssl, name) == 1 else {
            throw TLSError.failed("SSL_set_tlsext_host_name", .badConfiguration)
        }
    }

    /// The protocol versions allowed (wire values, ``TLSVersion``). Versions below TLS 1.2 need OpenSSL's
    /// security level 0 (SHA-1 handshake signatures), which is set only when they are asked for.
    package func setVersionRange(minimum: Int32, maximum: Int32) throws(TLSError) {
        guard minimum <= maximum else { throw TLSError(.badConfiguration, "minimum version above maximum") }
        if minimum < TLSVersion.tls12 { SSL_set_security_level(ssl, 0) }
        guard osec_tls_set_version_range(ssl, minimum, maximum) == 1 else {
            throw TLSError.failed("SSL_set_min/max_proto_version", .badConfiguration)
        }
        minimumVersion = minimum
        maximumVersion = maximum
    }

    /// Restricts the cipher suites to `suites` (each list is set only when it differs from the default).
    package func setCipherSuites(_ suites: [TLSCipherSuites.Suite]) throws(TLSError) {
        guard !suites.isEmpty else { throw TLSError(.badConfiguration, "no cipher suite enabled") }
        let lists = TLSCipherSuites.openSSLLists(suites)
        guard SSL_set_ciphersuites(ssl, lists.tls13) == 1 else {
            throw TLSError.failed("SSL_set_ciphersuites", .badConfiguration)
        }
        if lists.tls12.isEmpty {
            // libssl refuses an empty TLS 1.2 list; with only TLS 1.3 suites, only TLS 1.3 can be negotiated.
            guard maximumVersion >= TLSVersion.tls13 else {
                throw TLSError(.badConfiguration, "only TLS 1.3 suites are enabled but TLS 1.3 is not allowed")
            }
            try setVersionRange(minimum: max(minimumVersion, TLSVersion.tls13), maximum: maximumVersion)
        } else {
            guard SSL_set_cipher_list(ssl, lists.tls12) == 1 else {
                throw TLSError.failed("SSL_set_cipher_list", .badConfiguration)
            }
            if lists.tls13.isEmpty, maximumVersion >= TLSVersion.tls13 {
                try setVersionRange(minimum: minimumVersion, maximum: max(minimumVersion, TLSVersion.tls12))
            }
        }
    }

    /// ALPN (RFC 7301): a client offers `protocols`; a server selects the first of `protocols` the client
    /// offered (server preference), and sends no ALPN when there is none in common.
    package func setApplicationProtocols(_ protocols: [String]) throws(TLSError) {
        guard protocols.count <= TLSLimits.maximumALPNProtocols,
            protocols.allSatisfy({ (1...TLSLimits.maximumALPNNameBytes).contains($0.utf8.count) })
        else { throw TLSError(.badConfiguration, "ALPN names must be 1–255 bytes, at most 32 of them") }
        if side == .server {
            serverProtocols = protocols
            return
        }
        var wire: [UInt8] = []
        for name in protocols {
            wire.append(UInt8(name.utf8.count))
            wire.append(contentsOf: name.utf8)
        }
        guard !wire.isEmpty else { return }
        // SSL_set_alpn_protos returns 0 on success.
        guard SSL_set_alpn_protos(ssl, wire, UInt32(wire.count)) == 0 else {
            throw TLSError.failed("SSL_set_alpn_protos", .badConfiguration)
        }
    }

    /// Server: whether to ask for a client certificate, and the CA names to list in the request.
    package func setClientAuthentication(
        _ mode: ClientAuthentication, authorities: TLSCertificateList? = nil
    ) throws(TLSError) {
        guard side == .server else { return }
        clientAuthentication = mode
        switch mode {
        case .never: SSL_set_verify(ssl, SSL_VERIFY_NONE, nil)
        case .optional: SSL_set_verify(ssl, SSL_VERIFY_PEER | SSL_VERIFY_CLIENT_ONCE, nil)
        case .required:
            SSL_set_verify(ssl, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT | SSL_VERIFY_CLIENT_ONCE, nil)
        }
        for certificate in authorities?.certificates ?? [] where mode != .never {
            guard SSL_add_client_CA(ssl, certificate.raw) == 1 else { throw TLSError.failed("SSL_add_client_CA") }
        }
        authoritiesDigest = authorities?.digest
        try updateSessionScope()
    }

    /// Server: the CA names (DER X.501 Names, in this order) a CertificateRequest lists, replacing the names of the
    /// `authorities` given to ``setClientAuthentication(_:authorities:)``. A name that is not DER → badConfiguration.
    package func setCertificateAuthorityNames(_ names: [Data]) throws(TLSError) {
        guard side == .server else { return }
        guard let stack = OPENSSL_sk_new_null() else { throw TLSError.failed("OPENSSL_sk_new_null") }
        for der in names {
            guard let name = TLSEngine.parseName(der) else {
                TLSEngine.freeNames(stack)
                throw TLSError(.badConfiguration, "a certificate authority name is not a DER Name")
            }
            guard OPENSSL_sk_push(stack, UnsafeRawPointer(name)) > 0 else {
                X509_NAME_free(name)
                TLSEngine.freeNames(stack)
                throw TLSError.failed("OPENSSL_sk_push")
            }
        }
        SSL_set_client_CA_list(ssl, stack)  // the SSL owns the stack and its names
    }

    /// Whether `der` is exactly one DER-encoded X.501 Name (what a CertificateRequest can carry).
    package static func isDistinguishedName(_ der: Data) -> Bool {
        guard let name = parseName(der) else { return false }
        X509_NAME_free(name)
        return true
    }

    private static func parseName(_ der: Data) -> OpaquePointer? {
        guard !der.isEmpty else { return nil }
        let parsed = der.withUnsafeBytes { buffer -> OpaquePointer? in
            guard let base = buffer.bindMemory(to: UInt8.self).baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            guard let name = d2i_X509_NAME(nil, &cursor, buffer.count) else { return nil }
            // Trailing bytes are not part of the name: refuse them rather than send a shorter name.
            guard let end = cursor, end == base + buffer.count else {
                X509_NAME_free(name)
                return nil
            }
            return name
        }
        TLSErrorQueue.clear()
        return parsed
    }

    private static func freeNames(_ stack: OpaquePointer) {
        while OPENSSL_sk_num(stack) > 0 {
            if let element = OPENSSL_sk_pop(stack) { X509_NAME_free(OpaquePointer(element)) }
        }
        OPENSSL_sk_free(stack)
    }

    /// Server: the DER OCSP response stapled to the certificate when the client asks for its status (RFC 6066
    /// status_request; in TLS 1.3 the status extension of the leaf certificate).
    package func setOCSPResponse(_ der: Data) throws(TLSError) {
        guard side == .server, !der.isEmpty else { return }
        let stored = der.withUnsafeBytes { buffer -> Int32 in
            guard let base = buffer.bindMemory(to: UInt8.self).baseAddress else { return 0 }
            return osec_tls_set_ocsp_response(ssl, base, buffer.count)
        }
        guard stored == 1 else { throw TLSError.failed("SSL_set_tlsext_status_ocsp_resp") }
    }

    /// Client: marks the ClientHello as a fallback retry with TLS_FALLBACK_SCSV (RFC 7507), so a server that
    /// supports a higher version than offered refuses it (inappropriate_fallback).
    package func setSendsFallbackSCSV() {
        guard side == .client else { return }
        osec_tls_set_send_fallback_scsv(ssl)
    }

    /// Client: asks the server for its certificate status (the response is ``stapledOCSPResponse``).
    package func requestCertificateStatus() throws(TLSError) {
        guard side == .client else { return }
        guard osec_tls_request_ocsp_status(ssl) == 1 else { throw TLSError.failed("SSL_set_tlsext_status_type") }
    }

    /// Client: the OCSP response the server stapled (DER), nil when none was sent.
    package var stapledOCSPResponse: Data? {
        guard side == .client else { return nil }
        var der: UnsafePointer<UInt8>?
        let length = osec_tls_ocsp_response(ssl, &der)
        guard length > 0, let der else { return nil }
        return Data(bytes: der, count: length)
    }

    /// Server: binds the sessions this connection issues or resumes to `parts` too (e.g. the trust settings its
    /// client certificates are judged by), on top of the server certificate, the client-authentication mode and
    /// the CA list: a client authenticated under one configuration never resumes into another.
    package func setSessionScope(_ parts: [Data]) throws(TLSError) {
        guard side == .server else { return }
        extraScope = parts
        try updateSessionScope()
    }

    private func updateSessionScope() throws(TLSError) {
        if authoritiesDigest == nil && extraScope.isEmpty {
            sessionScope = nil
        } else {
            sessionScope = try TLSDigest.sha256([Data(authoritiesDigest ?? [])] + extraScope)
        }
    }

    /// Client: resume the session last received under `peerID`, and store new sessions under it.
    package func setPeerID(_ peerID: Data) {
        guard side == .client, !peerID.isEmpty else { return }
        self.peerID = peerID
        if let session = TLSSessionCache.shared.session(for: peerID) {
            _ = SSL_set_session(ssl, session.raw)
        }
    }

    /// Allows the peer to renegotiate (TLS 1.2 only; refused by default, as Apple's default is).
    package func setRenegotiationAllowed(_ allowed: Bool) {
        osec_tls_set_renegotiation(ssl, allowed ? 1 : 0)
    }

    /// Enables or disables session tickets on this connection (enabled by default).
    package func setSessionTicketsEnabled(_ enabled: Bool) {
        osec_tls_set_tickets(ssl, enabled ? 1 : 0)
    }

    /// Forgets every session of the client cache (tests use it to force full handshakes).
    package static func removeAllSessions() { TLSSessionCache.shared.removeAll() }

    /// Engines (SSL objects) alive in the process.
    private static let live = Atomic<Int>(0)

    /// What the process holds for TLS (the load test and the soak check that none of it grows).
    package struct LiveCounts: Sendable {
        /// Engines (SSL objects) alive.
        package let engines: Int
        /// Sessions in the client cache (one per peer ID).
        package let clientSessions: Int
        /// Sessions in libssl's server cache of the shared context and of the credential's context.
        package let serverSessions: Int
    }

    /// The counts now; `credential`: a server credential whose context's session cache is counted too.
    package static func liveCounts(credential: TLSCredential? = nil) -> LiveCounts {
        var server = TLSContext.server.sessionCount
        if let credential { server += credential.serverSessionCount }
        return LiveCounts(
            engines: live.load(ordering: .relaxed), clientSessions: TLSSessionCache.shared.count,
            serverSessions: server)
    }

    private func prepareIfNeeded() {
        guard !hasStarted else { return }
        hasStarted = true
        if side == .server {
            // Sessions resume only under the same server configuration (certificate, client-auth mode and, when
            // clients are authenticated, the CAs and trust they are judged by); libssl also refuses resumption
            // with client verification when no context is set. At most 32 bytes (SSL_MAX_SID_CTX_LENGTH).
            let seed = credential?.sessionContextSeed ?? []
            var context: [UInt8]
            if let sessionScope, clientAuthentication != .never {
                context = Array(seed.prefix(15)) + Array(sessionScope.prefix(16))
            } else {
                context = Array(seed.prefix(31))
            }
            switch clientAuthentication {
            case .never: context.append(0)
            case .optional: context.append(1)
            case .required: context.append(2)
            }
            _ = SSL_set_session_id_context(ssl, context, UInt32(context.count))
        }
    }

    static func isIPAddressLiteral(_ name: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        let bare = name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
        return inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1
    }

    // MARK: Protocol steps

    /// Advances the handshake as far as the buffered input allows.
    package func handshakeStep() -> HandshakeStep {
        prepareIfNeeded()
        if hadFatalError { return .failed(TLSError(.internalError, "the connection already failed")) }
        TLSErrorQueue.clear()
        let rc = SSL_do_handshake(ssl)
        if rc == 1 { return .complete }
        switch SSL_get_error(ssl, rc) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            if uncheckedHeaderFed { return .failed(fatal(TLSError(.protocolViolation, "the peer did not send TLS"))) }
            return .wantInput
        case SSL_ERROR_WANT_X509_LOOKUP: return .certificateRequested
        case SSL_ERROR_WANT_CLIENT_HELLO_CB: return .clientHelloReceived
        case SSL_ERROR_ZERO_RETURN:
            return .failed(fatal(TLSError(.closedByPeer, "the peer closed the connection during the handshake")))
        case SSL_ERROR_SYSCALL:
            TLSErrorQueue.clear()
            return .failed(fatal(TLSError(.unexpectedEndOfStream, "the connection ended during the handshake")))
        default:
            return .failed(fatal(failure("handshake")))
        }
    }

    /// Decrypts up to `count` bytes of application data into `buffer`.
    package func read(into buffer: UnsafeMutableRawPointer, count: Int) -> ReadResult {
        if hadFatalError { return .failed(TLSError(.internalError, "the connection already failed")) }
        TLSErrorQueue.clear()
        var read = 0
        if SSL_read_ex(ssl, buffer, count, &read) == 1 { return .bytes(read) }
        switch SSL_get_error(ssl, 0) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            if uncheckedHeaderFed { return .failed(fatal(TLSError(.protocolViolation, "the peer did not send TLS"))) }
            return .wantInput
        case SSL_ERROR_ZERO_RETURN: return .closed
        case SSL_ERROR_SYSCALL:
            TLSErrorQueue.clear()
            return .failed(fatal(TLSError(.unexpectedEndOfStream, "the connection ended without close_notify")))
        default:
            return .failed(fatal(failure("read")))
        }
    }

    /// Decrypts up to `maximumCount` bytes of application data.
    package func read(maximumCount: Int) -> (ReadResult, Data) {
        let capacity = max(1, maximumCount)
        var data = Data(count: capacity)
        let result = data.withUnsafeMutableBytes { buffer -> ReadResult in
            guard let base = buffer.baseAddress else { return .failed(TLSError(.internalError, "no buffer")) }
            return read(into: base, count: capacity)
        }
        if case .bytes(let count) = result { data.removeSubrange(count...) } else { data.removeAll() }
        return (result, data)
    }

    /// Encrypts `count` bytes (all of them: the output buffer grows as needed).
    package func write(_ bytes: UnsafeRawPointer, count: Int) -> TLSError? {
        guard count > 0 else { return nil }
        if hadFatalError { return TLSError(.internalError, "the connection already failed") }
        TLSErrorQueue.clear()
        var written = 0
        if SSL_write_ex(ssl, bytes, count, &written) == 1, written == count { return nil }
        switch SSL_get_error(ssl, 0) {
        case SSL_ERROR_ZERO_RETURN: return TLSError(.closedByPeer, "the peer closed the connection")
        default: return fatal(failure("write"))
        }
    }

    /// Encrypts `data`.
    package func write(_ data: Data) -> TLSError? {
        data.withUnsafeBytes { buffer -> TLSError? in
            guard let base = buffer.baseAddress else { return nil }
            return write(base, count: buffer.count)
        }
    }

    /// Queues close_notify (only after a completed handshake and when no fatal error happened).
    package func shutdown() {
        guard !hadFatalError, SSL_is_init_finished(ssl) == 1 else { return }
        TLSErrorQueue.clear()
        _ = SSL_shutdown(ssl)
        TLSErrorQueue.clear()
    }

    private func fatal(_ error: TLSError) -> TLSError {
        hadFatalError = true
        // As libssl drops the sessions of failed connections (a cut connection is no reason to).
        if let peerID, error.kind != .unexpectedEndOfStream { TLSSessionCache.shared.remove(peerID) }
        return error
    }

    private func failure(_ context: String) -> TLSError {
        if peerChainTooLong {
            TLSErrorQueue.clear()
            return TLSError(
                .peerCertificateChainTooLong,
                "the peer sent more than \(TLSLimits.maximumPeerCertificates) certificates")
        }
        return TLSError.fromQueue(context)
    }

    // MARK: Moving bytes

    /// Reads the next TLS record through `read` and hands it to libssl: first the 5-byte header, then exactly the
    /// body length it announces (Secure Transport's framing: a blocking callback is never asked for more bytes
    /// than the peer has committed to send). A header that does not look like TLS is handed over alone so
    /// libssl reports what is wrong with it. Partial transfers (would-block) resume where they stopped.
    package func receiveRecord(
        _ read: (UnsafeMutableRawPointer, UnsafeMutablePointer<Int>) -> TransportStatus
    )
        -> ReceiveResult
    {
        while true {
            if headerFilled < TLSLimits.recordHeaderLength {
                let need = TLSLimits.recordHeaderLength - headerFilled
                lengthBox.pointee = need
                let status = read(UnsafeMutableRawPointer(header + headerFilled), lengthBox)
                let got = min(max(lengthBox.pointee, 0), need)
                headerFilled += got
                if headerFilled < TLSLimits.recordHeaderLength {
                    if let stop = stopReason(status, transferred: got) { return stop }
                    continue
                }
                guard BIO_write(networkBIO, header, Int32(TLSLimits.recordHeaderLength)) == 5 else {
                    return .transportFailed(0)
                }
                let length = Int(header[3]) << 8 | Int(header[4])
                let looksLikeTLS =
                    (20...24).contains(header[0]) && header[1] == 3 && length <= TLSLimits.maximumRecordBody
                if !looksLikeTLS {
                    headerFilled = 0
                    uncheckedHeaderFed = true
                    return .delivered
                }
                bodyRemaining = length
                if length == 0 {
                    headerFilled = 0
                    return .delivered
                }
            }
            var space: UnsafeMutablePointer<UInt8>?
            let available = osec_tls_bio_write_space(networkBIO, &space)
            guard available > 0, let space else { return .delivered }  // libssl must consume first
            let want = min(bodyRemaining, available)
            lengthBox.pointee = want
            let status = read(UnsafeMutableRawPointer(space), lengthBox)
            let got = min(max(lengthBox.pointee, 0), want)
            if got > 0 {
                _ = osec_tls_bio_commit_write(networkBIO, got)
                bodyRemaining -= got
            }
            if bodyRemaining == 0 {
                headerFilled = 0
                return .delivered
            }
            if let stop = stopReason(status, transferred: got) { return stop }
        }
    }

    private func stopReason(_ status: TransportStatus, transferred: Int) -> ReceiveResult? {
        switch status {
        case .ok: return transferred == 0 ? .wouldBlock : nil  // a callback that moves nothing must not spin us
        case .wouldBlock: return .wouldBlock
        case .closed: return .endOfStream
        case .failed(let code): return .transportFailed(code)
        }
    }

    /// True when libssl holds no unprocessed input (no decrypted bytes, no buffered record): a read would only
    /// ask for more, so the caller can receive the next record first.
    package var needsInput: Bool { SSL_pending(ssl) <= 0 && BIO_ctrl_pending(SSL_get_rbio(ssl)) == 0 }

    /// How many bytes ``receive(_:)`` accepts now.
    package var inputCapacity: Int { Int(BIO_ctrl_get_write_guarantee(networkBIO)) }

    /// Hands bytes from the peer to libssl; returns how many were taken (at most ``inputCapacity``).
    package func receive(_ data: Data) -> Int {
        guard !data.isEmpty else { return 0 }
        let count = min(data.count, inputCapacity)
        guard count > 0 else { return 0 }
        let written = data.withUnsafeBytes { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return 0 }
            return BIO_write(networkBIO, base, Int32(count))
        }
        return max(0, Int(written))
    }

    /// Tells libssl that the peer's stream ended (after the bytes already received).
    package func receiveEndOfStream() { osec_tls_bio_shutdown_write(networkBIO) }

    /// Bytes waiting to be sent to the peer.
    package var pendingOutputCount: Int {
        var data: UnsafePointer<UInt8>?
        return max(0, osec_tls_bio_mem_data(outputBIO, &data) - outputConsumed)
    }

    /// Sends pending output through `write` until it is all sent or the callback stops.
    package func sendOutput(_ write: (UnsafeRawPointer, UnsafeMutablePointer<Int>) -> TransportStatus) -> SendResult {
        while true {
            var data: UnsafePointer<UInt8>?
            let total = osec_tls_bio_mem_data(outputBIO, &data)
            let remaining = total - outputConsumed
            guard remaining > 0, let data else {
                resetOutput()
                return .sent
            }
            lengthBox.pointee = remaining
            let status = write(UnsafeRawPointer(data + outputConsumed), lengthBox)
            let sent = min(max(lengthBox.pointee, 0), remaining)
            outputConsumed += sent
            switch status {
            case .ok: if sent == 0 { return .wouldBlock }
            case .wouldBlock: return .wouldBlock
            case .closed: return .transportFailed(0)
            case .failed(let code): return .transportFailed(code)
            }
        }
    }

    /// Removes and returns all pending output.
    package func takeOutput() -> Data {
        var data: UnsafePointer<UInt8>?
        let total = osec_tls_bio_mem_data(outputBIO, &data)
        guard total > outputConsumed, let data else {
            resetOutput()
            return Data()
        }
        let result = Data(bytes: data + outputConsumed, count: total - outputConsumed)
        resetOutput()
        return result
    }

    /// Drops pending output (a held flight the application decided not to send).
    package func discardOutput() { resetOutput() }

    private func resetOutput() {
        if outputConsumed > 0 || BIO_ctrl_pending(outputBIO) > 0 { _ = osec_tls_bio_reset(outputBIO) }
        outputConsumed = 0
    }

    // MARK: State

    /// The handshake has completed.
    package var isHandshakeComplete: Bool { SSL_is_init_finished(ssl) == 1 }
    /// The negotiated protocol version (wire value), once the handshake completed.
    package var negotiatedVersion: Int32? { isHandshakeComplete ? SSL_version(ssl) : nil }
    /// The negotiated cipher suite's IANA number, once the handshake completed.
    package var negotiatedCipherSuite: UInt16? {
        guard isHandshakeComplete, let cipher = SSL_get_current_cipher(ssl) else { return nil }
        return UInt16(truncatingIfNeeded: SSL_CIPHER_get_protocol_id(cipher))
    }
    /// The protocol ALPN selected, if any.
    package var negotiatedApplicationProtocol: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }
    /// The session was resumed (no certificates were exchanged).
    package var sessionWasResumed: Bool { SSL_session_reused(ssl) == 1 }
    /// Decrypted bytes buffered and readable without more input.
    package var bufferedReadCount: Int { Int(max(0, SSL_pending(ssl))) }
    /// Server: the name the client asked for (SNI).
    package var requestedServerName: String? {
        if let name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name) { return String(cString: name) }
        return clientHelloServerName
    }

    /// The peer's certificates (DER, leaf first), also for a resumed session.
    package var peerCertificateChain: [Data] {
        if let receivedPeerChain { return receivedPeerChain }
        var result: [Data] = []
        let leaf = SSL_get0_peer_certificate(ssl)
        if let leaf, let der = TLSCertificate.derBytes(of: leaf) { result.append(der) }
        if let chain = SSL_get_peer_cert_chain(ssl) {
            for index in 0..<OPENSSL_sk_num(chain) {
                guard let element = OPENSSL_sk_value(chain, index) else { continue }
                let certificate = OpaquePointer(element)
                if let leaf, X509_cmp(leaf, certificate) == 0 { continue }
                if let der = TLSCertificate.derBytes(of: certificate) { result.append(der) }
            }
        }
        return result
    }

    /// Client: the CA names the server listed in its CertificateRequest (DER Names).
    package var receivedCertificateAuthorityNames: [Data] {
        guard let names = SSL_get0_peer_CA_list(ssl) else { return [] }
        var result: [Data] = []
        for index in 0..<OPENSSL_sk_num(names) {
            guard let element = OPENSSL_sk_value(names, index) else { continue }
            let name = OpaquePointer(element)
            let length = i2d_X509_NAME(name, nil)
            guard length > 0 else { continue }
            var der = Data(count: Int(length))
            let written = der.withUnsafeMutableBytes { buffer -> Int32 in
                guard let base = buffer.bindMemory(to: UInt8.self).baseAddress else { return -1 }
                var cursor: UnsafeMutablePointer<UInt8>? = base
                return i2d_X509_NAME(name, &cursor)
            }
            if written == length { result.append(der) }
        }
        TLSErrorQueue.clear()
        return result
    }

    // MARK: Callbacks (called by TLSCallbacks during a step)

    func verifyPeer(_ store: OpaquePointer) -> Int32 {
        let chain = X509_STORE_CTX_get0_untrusted(store)
        let count = chain.map { Int(OPENSSL_sk_num($0)) } ?? 0
        guard count <= TLSLimits.maximumPeerCertificates else {
            peerChainTooLong = true
            X509_STORE_CTX_set_error(store, X509_V_ERR_CERT_CHAIN_TOO_LONG)
            return 0
        }
        var ders: [Data] = []
        if let chain {
            for index in 0..<Int32(count) {
                guard let element = OPENSSL_sk_value(chain, index),
                    let der = TLSCertificate.derBytes(of: OpaquePointer(element))
                else {
                    X509_STORE_CTX_set_error(store, X509_V_ERR_CERT_REJECTED)
                    return 0
                }
                ders.append(der)
            }
        }
        if ders.isEmpty, let leaf = X509_STORE_CTX_get0_cert(store), let der = TLSCertificate.derBytes(of: leaf) {
            ders.append(der)
        }
        receivedPeerChain = ders
        switch peerCertificateHandler?(ders) ?? .reject(.certificateUnknown) {
        case .accept:
            X509_STORE_CTX_set_error(store, X509_V_OK)
            return 1
        case .reject(let alert):
            X509_STORE_CTX_set_error(store, TLSEngine.verifyError(for: alert))
            return 0
        }
    }

    /// The X509_V_ERR code whose alert (ssl_x509err2alert) is the one we want sent.
    static func verifyError(for alert: RejectionAlert) -> Int32 {
        switch alert {
        case .badCertificate: X509_V_ERR_CERT_REJECTED  // bad_certificate (42)
        case .unsupportedCertificate: X509_V_ERR_INVALID_PURPOSE  // unsupported_certificate (43)
        case .certificateRevoked: X509_V_ERR_CERT_REVOKED  // certificate_revoked (44)
        case .certificateExpired: X509_V_ERR_CERT_HAS_EXPIRED  // certificate_expired (45)
        case .certificateUnknown: X509_V_ERR_SUBJECT_ISSUER_MISMATCH  // not in the table: certificate_unknown (46)
        case .unknownCA: X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY  // unknown_ca (48)
        }
    }

    func onCertificateRequest() -> Int32 {
        certificateRequested = true
        if breakOnCertificateRequest && !certificateRequestDelivered {
            certificateRequestDelivered = true
            return -1  // suspends the handshake: SSL_ERROR_WANT_X509_LOOKUP
        }
        return installPendingCredential() ? 1 : 0
    }

    func onClientHello() -> Int32 {
        if breakOnClientHello && !clientHelloDelivered {
            clientHelloServerName = parseServerNameExtension()  // SSL_get_servername is not set yet
            clientHelloDelivered = true
            return SSL_CLIENT_HELLO_RETRY
        }
        return installPendingCredential() ? SSL_CLIENT_HELLO_SUCCESS : SSL_CLIENT_HELLO_ERROR
    }

    private func installPendingCredential() -> Bool {
        guard !credentialInstalled else { return true }
        // Replaces whatever was installed before the pause (SSL_use_cert_and_key only replaces the slot of the
        // same key type).
        SSL_certs_clear(ssl)
        guard let credential else {
            credentialInstalled = true
            return true
        }
        do {
            try credential.install(on: ssl)
            credentialInstalled = true
            return true
        } catch {
            return false
        }
    }

    func selectApplicationProtocol(
        _ out: UnsafeMutablePointer<UnsafePointer<UInt8>?>, _ outLength: UnsafeMutablePointer<UInt8>,
        _ input: UnsafePointer<UInt8>, _ inputLength: Int
    ) -> Int32 {
        var offered: [(offset: Int, length: Int, name: String)] = []
        var index = 0
        while index < inputLength {
            let length = Int(input[index])
            guard length > 0, index + 1 + length <= inputLength else { break }
            let name = String(decoding: UnsafeBufferPointer(start: input + index + 1, count: length), as: UTF8.self)
            offered.append((index + 1, length, name))
            index += 1 + length
        }
        offeredProtocols = offered.map(\.name)
        for candidate in serverProtocols {
            if let match = offered.first(where: { $0.name == candidate }) {
                out.pointee = input + match.offset
                outLength.pointee = UInt8(match.length)
                return SSL_TLSEXT_ERR_OK
            }
        }
        return SSL_TLSEXT_ERR_NOACK
    }

    func storeNewSession(_ session: OpaquePointer) -> Int32 {
        // A copy: libssl marks its own session object not resumable when the connection is freed without
        // close_notify (ssl_clear_bad_session), and clients often just drop the connection. A connection that
        // fails instead forgets its peer ID's session (see `fatal`).
        guard let peerID, let copy = SSL_SESSION_dup(session) else { return 0 }
        TLSSessionCache.shared.store(TLSSession(takingOwnershipOf: copy), for: peerID)
        return 0  // 0: libssl keeps ownership of `session` and frees it
    }

    /// The host_name of the ClientHello's server_name extension (RFC 6066 §3), if well formed.
    private func parseServerNameExtension() -> String? {
        var data: UnsafePointer<UInt8>?
        var length = 0
        guard SSL_client_hello_get0_ext(ssl, UInt32(TLSEXT_TYPE_server_name), &data, &length) == 1, let data,
            length >= 2
        else { return nil }
        let bytes = Array(UnsafeBufferPointer(start: data, count: length))
        let listLength = Int(bytes[0]) << 8 | Int(bytes[1])
        guard listLength + 2 <= bytes.count else { return nil }
        var index = 2
        while index + 3 <= 2 + listLength {
            let type = bytes[index]
            let nameLength = Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
            let start = index + 3
            guard start + nameLength <= bytes.count else { return nil }
            if type == 0 { return String(decoding: bytes[start..<(start + nameLength)], as: UTF8.self) }
            index = start + nameLength
        }
        return nil
    }
}

/// A list of parsed certificates (CA names for a CertificateRequest).
///
/// `@unchecked Sendable`: immutable after init.
package final class TLSCertificateList: @unchecked Sendable {
    let certificates: [TLSCertificate]
    /// SHA-256 over the certificates (``TLSDigest/sha256(_:)-([Data])``): identifies the list in session scopes.
    package let digest: [UInt8]

    /// Parses each DER certificate.
    package init(der: [Data]) throws(TLSError) {
        var parsed: [TLSCertificate] = []
        for item in der { parsed.append(try TLSCertificate(der: item)) }
        certificates = parsed
        digest = try TLSDigest.sha256(der)
    }
}
