import Foundation
import OSecTLSCore
import Security
import Testing

/// Our client against our server through Apple's API, in one process (an in-memory pipe carries the bytes).
@Suite struct SecureTransportLoopbackTests {
    let pki = TLSTestPKI.shared

    @Test func tls13HandshakeCarriesDataBothWays() throws {
        let pair = try LoopbackPair(server: try pki.identity("server-ec"))
        #expect(trustRoots(pair.client, [pki.root]) == errSecSuccess)
        #expect(setDomainName(pair.client, "localhost") == errSecSuccess)
        let result = pair.handshake()
        #expect(result.client == errSecSuccess)
        #expect(result.server == errSecSuccess)
        var version = SSLProtocol.sslProtocolUnknown
        #expect(SSLGetNegotiatedProtocolVersion(pair.client, &version) == errSecSuccess)
        #expect(version == .tlsProtocol13)
        var cipher: SSLCipherSuite = 0
        #expect(SSLGetNegotiatedCipher(pair.client, &cipher) == errSecSuccess)
        #expect(cipher == TLS_AES_128_GCM_SHA256)
        var state = SSLSessionState.idle
        #expect(SSLGetSessionState(pair.client, &state) == errSecSuccess)
        #expect(state == .connected)
        let request = Data("hello over TLS".utf8)
        let (received, status) = pair.transfer(request, from: pair.client, to: pair.server)
        #expect(status == errSecSuccess)
        #expect(received == request)
        let reply = Data(repeating: 0x5A, count: 100_000)
        let (back, backStatus) = pair.transfer(reply, from: pair.server, to: pair.client)
        #expect(backStatus == errSecSuccess)
        #expect(back == reply)
        var trust: SecTrust?
        #expect(SSLCopyPeerTrust(pair.client, &trust) == errSecSuccess)
        let peerTrust = try #require(trust)
        #expect(SecTrustEvaluateWithError(peerTrust, nil))
    }
}

/// Apple's API contract, exercised between our own client and server.
@Suite struct SecureTransportContractTests {
    let pki = TLSTestPKI.shared

    func connectedPair(server: String = "server-ec") throws -> LoopbackPair {
        let pair = try LoopbackPair(server: try pki.identity(server))
        _ = trustRoots(pair.client, [pki.root])
        _ = setDomainName(pair.client, "localhost")
        return pair
    }

    @Test func datagramContextsAreNotSupported() {
        #expect(SSLCreateContext(nil, .clientSide, .datagramType) == nil)
    }

    @Test func aServerWithoutACertificateIsABadConfiguration() throws {
        let pair = try LoopbackPair(server: try pki.identity("server-ec"))
        #expect(SSLSetCertificate(pair.server, nil) == errSecSuccess)
        #expect(SSLHandshake(pair.server) == errSSLBadConfiguration)
    }

    @Test func setCertificateWantsAnIdentityFirst() throws {
        let pair = try connectedPair()
        #expect(SSLSetCertificate(pair.server, [pki.root] as CFArray) == errSecParam)
        #expect(SSLSetCertificate(pair.server, [] as CFArray) == errSecParam)
        #expect(SSLSetCertificate(pair.server, [try pki.identity("server-ec"), "x"] as CFArray) == errSecParam)
    }

    @Test func configurationIsFrozenOnceTheSessionStarted() throws {
        let pair = try connectedPair()
        var processed = 0
        #expect(SSLWrite(pair.client, nil, 0, &processed) == errSecBadReq)  // before any handshake
        #expect(pair.handshake().client == errSecSuccess)
        #expect(SSLSetProtocolVersionMax(pair.client, .tlsProtocol12) == errSecBadReq)
        #expect(SSLSetSessionOption(pair.client, .breakOnServerAuth, true) == errSecBadReq)
        #expect(SSLSetIOFuncs(pair.client, socketRead, socketWrite) == errSecBadReq)
    }

    @Test func protocolVersionBoundsAreHonoured() throws {
        let pair = try connectedPair()
        var version = SSLProtocol.sslProtocolUnknown
        #expect(SSLGetProtocolVersionMin(pair.client, &version) == errSecSuccess)
        #expect(version == .tlsProtocol12)  // TLS 1.0 / 1.1 refused by default
        #expect(SSLGetProtocolVersionMax(pair.client, &version) == errSecSuccess)
        #expect(version == .tlsProtocol13)
        #expect(SSLSetProtocolVersionMax(pair.client, .tlsProtocol12) == errSecSuccess)
        #expect(SSLSetProtocolVersionMin(pair.client, .dtlsProtocol1) == errSecParam)
        #expect(pair.handshake().client == errSecSuccess)
        #expect(SSLGetNegotiatedProtocolVersion(pair.server, &version) == errSecSuccess)
        #expect(version == .tlsProtocol12)
    }

    @Test func disjointVersionsFailOnBothSides() throws {
        let pair = try connectedPair()
        #expect(SSLSetProtocolVersionMax(pair.client, .tlsProtocol12) == errSecSuccess)
        #expect(SSLSetProtocolVersionMin(pair.server, .tlsProtocol13) == errSecSuccess)
        let result = pair.handshake()
        #expect(result.server == errSSLNegotiation)
        #expect(result.client == errSSLPeerProtocolVersion)
    }

    @Test func enabledCiphersRestrictTheNegotiation() throws {
        let pair = try connectedPair()
        var count = 0
        #expect(SSLGetNumberSupportedCiphers(pair.client, &count) == errSecSuccess)
        #expect(count == 23)
        var small = [SSLCipherSuite](repeating: 0, count: 2)
        var smallCount = small.count
        #expect(SSLGetSupportedCiphers(pair.client, &small, &smallCount) == errSSLBufferOverflow)
        var only = [TLS_AES_256_GCM_SHA384, 0x0005]  // 0x0005 (RC4) is not supported: ignored
        #expect(SSLSetEnabledCiphers(pair.client, &only, only.count) == errSecSuccess)
        #expect(SSLGetNumberEnabledCiphers(pair.client, &count) == errSecSuccess)
        #expect(count == 1)
        #expect(pair.handshake().client == errSecSuccess)
        var cipher: SSLCipherSuite = 0
        #expect(SSLGetNegotiatedCipher(pair.server, &cipher) == errSecSuccess)
        #expect(cipher == TLS_AES_256_GCM_SHA384)
    }

    @Test func negotiatedCipherNeedsASession() throws {
        let pair = try connectedPair()
        var cipher: SSLCipherSuite = 0
        #expect(SSLGetNegotiatedCipher(pair.client, &cipher) == errSecBadReq)
    }

    @Test func alpnNamesAreValidated() throws {
        let pair = try connectedPair()
        #expect(SSLSetALPNProtocols(pair.client, [] as CFArray) == errSecParam)
        #expect(SSLSetALPNProtocols(pair.client, [""] as CFArray) == errSecParam)
        #expect(SSLSetALPNProtocols(pair.client, [String(repeating: "a", count: 256)] as CFArray) == errSecParam)
        #expect(SSLSetALPNProtocols(pair.client, [42] as CFArray) == errSecParam)
        var protocols: Unmanaged<CFArray>?
        #expect(SSLCopyALPNProtocols(pair.client, &protocols) == errSecParam)
        #expect(protocols == nil)
    }

    @Test func alpnWithoutOverlapNegotiatesNothing() throws {
        let pair = try connectedPair()
        #expect(SSLSetALPNProtocols(pair.client, ["h2"] as CFArray) == errSecSuccess)
        #expect(SSLSetALPNProtocols(pair.server, ["http/1.1"] as CFArray) == errSecSuccess)
        #expect(pair.handshake().client == errSecSuccess)
        var protocols: Unmanaged<CFArray>?
        #expect(SSLCopyALPNProtocols(pair.client, &protocols) == errSecParam)
        #expect(protocols == nil)
    }

    @Test func breakOnCertRequestedLetsTheClientChooseItsCertificate() throws {
        let pair = try connectedPair()
        #expect(SSLSetClientSideAuthenticate(pair.server, .alwaysAuthenticate) == errSecSuccess)
        #expect(SSLSetCertificateAuthorities(pair.server, [pki.root] as CFArray, true) == errSecSuccess)
        #expect(SSLSetSessionOption(pair.client, .breakOnCertRequested, true) == errSecSuccess)
        var result = pair.handshake()
        #expect(result.client == errSSLClientCertRequested)
        var names: CFArray?
        #expect(SSLCopyDistinguishedNames(pair.client, &names) == errSecSuccess)
        #expect((names as? [Data])?.count == 1)  // the server named our root
        var state = SSLClientCertificateState.certNone
        #expect(SSLGetClientCertificateState(pair.client, &state) == errSecSuccess)
        #expect(state == .certRequested)
        #expect(SSLSetCertificate(pair.client, [try pki.identity("client-ec")] as CFArray) == errSecSuccess)
        result = (SSLHandshake(pair.client), result.server)
        result = pair.handshake()
        #expect(result.client == errSecSuccess)
        #expect(result.server == errSecSuccess)
        #expect(SSLGetClientCertificateState(pair.server, &state) == errSecSuccess)
        #expect(state == .certSent)
        #expect(SSLGetClientCertificateState(pair.client, &state) == errSecSuccess)
        #expect(state == .certSent)
    }

    @Test func breakOnClientHelloExposesTheRequestedName() throws {
        let pair = try connectedPair()
        #expect(SSLSetSessionOption(pair.server, .breakOnClientHello, true) == errSecSuccess)
        var result = pair.handshake()
        #expect(result.server == errSSLClientHelloReceived)
        var length = 0
        #expect(SSLCopyRequestedPeerNameLength(pair.server, &length) == errSecSuccess)
        var name = [CChar](repeating: 0, count: length)
        #expect(SSLCopyRequestedPeerName(pair.server, &name, &length) == errSecSuccess)
        #expect(String(decoding: name.map { UInt8(bitPattern: $0) }, as: UTF8.self) == "localhost")
        // The server may pick its certificate now.
        #expect(SSLSetCertificate(pair.server, [try pki.identity("server-rsa")] as CFArray) == errSecSuccess)
        result = pair.handshake()
        #expect(result.client == errSecSuccess)
        #expect(result.server == errSecSuccess)
        var trust: SecTrust?
        #expect(SSLCopyPeerTrust(pair.client, &trust) == errSecSuccess)
        let leaf = trust.flatMap { SecTrustGetCertificateAtIndex($0, 0) }
        #expect(
            leaf.map { SecCertificateCopyData($0) as Data }
                == (SecCertificateCopyData(try pki.identity("server-rsa").certificateForTest) as Data))
    }

    @Test func closeNotifyIsErrSSLClosedGraceful() throws {
        let pair = try connectedPair()
        #expect(pair.handshake().client == errSecSuccess)
        #expect(SSLClose(pair.client) == errSecSuccess)
        var buffer = [UInt8](repeating: 0, count: 64)
        var processed = 0
        var status = errSSLWouldBlock
        for _ in 0..<4 where status == errSSLWouldBlock || status == errSecSuccess {
            status = SSLRead(pair.server, &buffer, buffer.count, &processed)
        }
        #expect(status == errSSLClosedGraceful)
        var state = SSLSessionState.idle
        #expect(SSLGetSessionState(pair.server, &state) == errSecSuccess)
        #expect(state == .closed)
        #expect(SSLWrite(pair.server, buffer, 1, &processed) == errSSLClosedGraceful)
    }

    @Test func bufferedReadSizeReportsTheRestOfARecord() throws {
        let pair = try connectedPair()
        #expect(pair.handshake().client == errSecSuccess)
        #expect(sslWriteAll(pair.server, Data(repeating: 7, count: 1000)) == errSecSuccess)
        var buffer = [UInt8](repeating: 0, count: 100)
        var processed = 0
        var status = errSSLWouldBlock
        while processed == 0 && (status == errSSLWouldBlock || status == errSecSuccess) {
            status = SSLRead(pair.client, &buffer, buffer.count, &processed)
        }
        #expect(processed == 100)
        var buffered = 0
        #expect(SSLGetBufferedReadSize(pair.client, &buffered) == errSecSuccess)
        #expect(buffered == 900)
    }

    @Test func sessionsResumeUnderTheSamePeerID() throws {
        let peerID = Data("loopback-\(UUID().uuidString)".utf8)
        var resumed: [Bool] = []
        for _ in 0..<2 {
            let pair = try connectedPair()
            _ = peerID.withUnsafeBytes { SSLSetPeerID(pair.client, $0.baseAddress, $0.count) }
            #expect(pair.handshake().client == errSecSuccess)
            let (_, status) = pair.transfer(Data("x".utf8), from: pair.server, to: pair.client)  // receives the ticket
            #expect(status == errSecSuccess)
            var flag = false
            #expect(SSLGetSessionWasResumed(pair.client, &flag) == errSecSuccess)
            resumed.append(flag)
            var serverFlag = false
            #expect(SSLGetSessionWasResumed(pair.server, &serverFlag) == errSecSuccess)
            #expect(serverFlag == flag)
            var trust: SecTrust?
            #expect(SSLCopyPeerTrust(pair.client, &trust) == errSecSuccess)
            #expect(trust != nil)  // a resumed session still shows the server's certificates
        }
        #expect(resumed == [false, true])
    }

    /// A client authenticated by a server under one CA list must not resume into a server that judges client
    /// certificates by other CAs: a resumed session skips the certificate check. Sessions stay resumable under
    /// the same configuration.
    @Test func serverSessionsAreBoundToTheirCertificateAuthorities() throws {
        let peerID = [UInt8]("ca-scope-\(UUID().uuidString)".utf8)
        func attempt(authorities: SecCertificate) throws -> (status: OSStatus, resumed: Bool) {
            let pair = try connectedPair()
            #expect(SSLSetPeerID(pair.client, peerID, peerID.count) == errSecSuccess)
            #expect(SSLSetCertificate(pair.client, [try pki.identity("client-ec")] as CFArray) == errSecSuccess)
            #expect(SSLSetClientSideAuthenticate(pair.server, .alwaysAuthenticate) == errSecSuccess)
            #expect(SSLSetCertificateAuthorities(pair.server, [authorities] as CFArray, true) == errSecSuccess)
            let result = pair.handshake()
            guard result.server == errSecSuccess else { return (result.server, false) }
            let (_, status) = pair.transfer(Data("x".utf8), from: pair.server, to: pair.client)  // the ticket
            #expect(status == errSecSuccess)
            var resumed = false
            #expect(SSLGetSessionWasResumed(pair.server, &resumed) == errSecSuccess)
            return (result.server, resumed)
        }
        let first = try attempt(authorities: pki.root)
        #expect(first.status == errSecSuccess && !first.resumed)
        let again = try attempt(authorities: pki.root)
        #expect(again.status == errSecSuccess && again.resumed)
        // The same server certificate, but client certificates are judged against another root: full handshake.
        #expect(try attempt(authorities: pki.wrongRoot).status == errSSLNoRootCert)
    }

    @Test func peerIDIsCopiedAndReturned() throws {
        let pair = try connectedPair()
        var pointer: UnsafeRawPointer?
        var length = 99
        #expect(SSLGetPeerID(pair.client, &pointer, &length) == errSecSuccess)
        #expect(pointer == nil && length == 0)
        let id: [UInt8] = [1, 2, 3]
        #expect(SSLSetPeerID(pair.client, id, id.count) == errSecSuccess)
        #expect(SSLGetPeerID(pair.client, &pointer, &length) == errSecSuccess)
        #expect(length == 3)
        #expect(pointer.map { Data(bytes: $0, count: 3) } == Data(id))
    }

    @Test func peerDomainNameRoundTrips() throws {
        let pair = try connectedPair()
        var length = 0
        #expect(SSLGetPeerDomainNameLength(pair.client, &length) == errSecSuccess)
        #expect(length == 9)
        var name = [CChar](repeating: 0, count: 4)
        var capacity = name.count
        #expect(SSLGetPeerDomainName(pair.client, &name, &capacity) == errSSLBufferOverflow)
        name = [CChar](repeating: 0, count: 16)
        capacity = name.count
        #expect(SSLGetPeerDomainName(pair.client, &name, &capacity) == errSecSuccess)
        #expect(String(decoding: name[0..<capacity].map { UInt8(bitPattern: $0) }, as: UTF8.self) == "localhost")
    }

    @Test func sessionOptionsReadBack() throws {
        let pair = try connectedPair()
        var value: DarwinBoolean = true
        #expect(SSLGetSessionOption(pair.client, .breakOnServerAuth, &value) == errSecSuccess)
        #expect(!value.boolValue)
        #expect(SSLSetSessionOption(pair.client, .breakOnServerAuth, true) == errSecSuccess)
        #expect(SSLGetSessionOption(pair.client, .breakOnServerAuth, &value) == errSecSuccess)
        #expect(value.boolValue)
    }

    @Test func secureTransportCodesHaveApplesNumbersAndMessages() {
        #expect(errSSLProtocol == -9800)
        #expect(errSSLWouldBlock == -9803)
        #expect(errSSLClosedAbort == -9806)
        #expect(errSSLXCertChainInvalid == -9807)
        #expect(errSSLUnknownRootCert == -9812)
        #expect(errSSLNoRootCert == -9813)
        #expect(errSSLCertExpired == -9814)
        #expect(errSSLPeerAuthCompleted == -9841)
        #expect(errSSLServerAuthCompleted == errSSLPeerAuthCompleted)
        #expect(errSSLClientCertRequested == -9842)
        #expect(errSSLHostNameMismatch == -9843)
        #expect(errSSLCertificateRequired == -9863)
        #expect(SecCopyErrorMessageString(errSSLXCertChainInvalid, nil) == "Invalid certificate chain.")
        #expect(
            SecCopyErrorMessageString(errSSLUnknownRootCert, nil)
                == "Certificate chain is valid, but root is not trusted.")
        #expect(
            SecCopyErrorMessageString(errSSLCertExpired, nil) == "The certificate chain had an expired certificate.")
        #expect(SecCopyErrorMessageString(errSSLCrypto, nil) != nil)
        #expect(SSLProtocol.tlsProtocol13.rawValue == 10 && SSLProtocol.tlsProtocol12.rawValue == 8)
        #expect(SSLAuthenticate.tryAuthenticate.rawValue == 2 && kAlwaysAuthenticate.rawValue == 1)
        #expect(SSLSessionOption.breakOnClientAuth.rawValue == 2 && kSSLSessionOptionBreakOnServerAuth.rawValue == 0)
        #expect(SSLClientCertificateState.certRejected.rawValue == 3)
        #expect(SSLSessionState.aborted.rawValue == 4)
        #expect(SSLProtocolSide.clientSide.rawValue == 1)
    }
}

extension SecIdentity {
    /// The identity's certificate (SecIdentityCopyCertificate).
    var certificateForTest: SecCertificate {
        var certificate: SecCertificate?
        _ = SecIdentityCopyCertificate(self, &certificate)
        return certificate!
    }
}
