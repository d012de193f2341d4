import Foundation
import OSecTestSupport
import Security
import Testing

/// Our Secure Transport server against `openssl s_client -cert … -key …` on loopback.
@Suite(.serialized) struct ServerInteropTests {
    let pki = TLSTestPKI.shared

    struct Run {
        var handshake: OSStatus = errSecSuccess
        var request = ""
        var readStatus: OSStatus = errSecSuccess
        var clientCertificateState = SSLClientCertificateState.certNone
        var version = SSLProtocol.sslProtocolUnknown
        var trust: SecTrust?
        var resumed = false
        var alpn: [String] = []
        var serverName: String?
        var clientOutput = ""
    }

    /// Accepts one s_client connection, handshakes, reads one line, answers "world\n" and closes.
    func runServer(
        identity: String = "server-ec", client arguments: [String], stdin: String = "hello\n", ignoreEOF: Bool = true,
        configure: (SSLContext) throws -> Void = { _ in }, afterHandshake: (SSLContext) throws -> Void = { _ in }
    ) throws -> Run {
        let (listener, port) = try TestSocket.listen()
        let client = try OpenSSLPeer.client(
            port: port,
            ["-servername", "localhost", "-CAfile", pki.path("ca.pem"), "-verify_return_error"] + arguments,
            stdin: Data(stdin.utf8), ignoreEOF: ignoreEOF)
        defer { client.terminate() }
        let socket = try listener.accept()
        let context = try makeContext(.serverSide, on: socket)
        #expect(SSLSetCertificate(context, [try pki.identity(identity)] as CFArray) == errSecSuccess)
        try configure(context)
        var run = Run()
        run.handshake = handshake(context)
        if run.handshake == errSecSuccess {
            try afterHandshake(context)
            let (request, status) = sslRead(context, count: stdin.utf8.count)
            run.request = String(decoding: request, as: UTF8.self)
            run.readStatus = status
            if status == errSecSuccess { _ = sslWriteAll(context, Data("world\n".utf8)) }
        }
        _ = SSLGetClientCertificateState(context, &run.clientCertificateState)
        _ = SSLGetNegotiatedProtocolVersion(context, &run.version)
        _ = SSLCopyPeerTrust(context, &run.trust)
        _ = SSLGetSessionWasResumed(context, &run.resumed)
        var alpn: Unmanaged<CFArray>?
        if SSLCopyALPNProtocols(context, &alpn) == errSecSuccess {
            run.alpn = (alpn?.takeRetainedValue() as? [String]) ?? []
        }
        var length = 256
        var name = [CChar](repeating: 0, count: length)
        if SSLCopyRequestedPeerName(context, &name, &length) == errSecSuccess {
            run.serverName = String(decoding: name[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        _ = SSLClose(context)
        socket.close()
        client.wait()
        run.clientOutput = client.output
        return run
    }

    func requireClientCertificates(_ mode: SSLAuthenticate = .alwaysAuthenticate) -> (SSLContext) throws -> Void {
        { context in
            #expect(SSLSetClientSideAuthenticate(context, mode) == errSecSuccess)
            #expect(SSLSetCertificateAuthorities(context, pki.root, true) == errSecSuccess)
        }
    }

    @Test(arguments: [
        ("server-ec", "client-ec", "-tls1_3"), ("server-rsa", "client-rsa", "-tls1_2"),
        ("server-rsa", "client-ec", "-tls1_3"),
        ("server-ec", "client-rsa", "-tls1_2"),
    ])
    func ourServerAuthenticatesSClientCertificates(server: String, client: String, version: String) throws {
        let run = try runServer(
            identity: server,
            client: [version, "-cert", pki.path("\(client).pem"), "-key", pki.path("\(client).key")],
            configure: requireClientCertificates())
        #expect(run.handshake == errSecSuccess, "\(run.clientOutput)")
        #expect(run.request == "hello\n")
        #expect(run.clientCertificateState == .certSent)
        #expect(run.version == (version == "-tls1_3" ? .tlsProtocol13 : .tlsProtocol12))
        #expect(run.trust.map { SecTrustEvaluateWithError($0, nil) } == true)
        #expect(run.serverName == "localhost")
        #expect(run.clientOutput.contains("world"))
        #expect(run.clientOutput.contains("Verify return code: 0 (ok)"))
    }

    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func requiredClientCertificateAbsentIsRefused(version: String) throws {
        let run = try runServer(client: [version], configure: requireClientCertificates())
        #expect(run.handshake == errSSLXCertChainInvalid)
        #expect(run.clientCertificateState == .certRequested)
        #expect(!run.clientOutput.contains("world"))
    }

    @Test func optionalClientCertificateMayBeAbsent() throws {
        let run = try runServer(client: [], configure: requireClientCertificates(.tryAuthenticate))
        #expect(run.handshake == errSecSuccess)
        #expect(run.request == "hello\n")
        #expect(run.clientCertificateState == .certRequested)
        #expect(run.trust == nil)
    }

    @Test func optionalClientCertificateThatIsSentMustPass() throws {
        let run = try runServer(
            client: ["-cert", pki.path("client-wrongca.pem"), "-key", pki.path("client-wrongca.key")],
            configure: requireClientCertificates(.tryAuthenticate))
        #expect(run.handshake == errSSLNoRootCert)
        #expect(run.clientCertificateState == .certRejected)
    }

    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func clientCertificateFromAnotherCAIsRejected(version: String) throws {
        let run = try runServer(
            client: [version, "-cert", pki.path("client-wrongca.pem"), "-key", pki.path("client-wrongca.key")],
            configure: requireClientCertificates())
        #expect(run.handshake == errSSLNoRootCert)
        #expect(run.clientCertificateState == .certRejected)
        #expect(run.clientOutput.contains("unknown ca"), "\(run.clientOutput)")
    }

    @Test func clientCertificateWithItsRootSentIsErrSSLUnknownRootCert() throws {
        let run = try runServer(
            client: [
                "-cert", pki.path("client-wrongca.pem"), "-key", pki.path("client-wrongca.key"), "-cert_chain",
                pki.path("wrongca.pem"),
            ], configure: requireClientCertificates())
        #expect(run.handshake == errSSLUnknownRootCert)
    }

    @Test func breakOnClientAuthLetsTheServerEvaluate() throws {
        let run = try runServer(
            client: ["-cert", pki.path("client-ec.pem"), "-key", pki.path("client-ec.key")],
            configure: { context in
                #expect(SSLSetClientSideAuthenticate(context, .alwaysAuthenticate) == errSecSuccess)
                #expect(SSLSetSessionOption(context, .breakOnClientAuth, true) == errSecSuccess)
                var status = handshake(context)
                #expect(status == errSSLClientAuthCompleted)
                var trust: SecTrust?
                #expect(SSLCopyPeerTrust(context, &trust) == errSecSuccess)
                let clientTrust = try #require(trust)
                #expect(SecTrustSetAnchorCertificates(clientTrust, [pki.root] as CFArray) == errSecSuccess)
                #expect(SecTrustEvaluateWithError(clientTrust, nil))
                status = handshake(context)
                #expect(status == errSecSuccess)
            })
        #expect(run.handshake == errSecSuccess)
        #expect(run.request == "hello\n")
        #expect(run.clientOutput.contains("world"))
    }

    @Test func alpnIsSelectedFromTheClientsOffer() throws {
        let run = try runServer(
            client: ["-alpn", "h2,http/1.1"],
            configure: { context in
                #expect(SSLSetALPNProtocols(context, ["http/1.1"] as CFArray) == errSecSuccess)
            })
        #expect(run.handshake == errSecSuccess)
        #expect(run.clientOutput.contains("ALPN protocol: http/1.1"), "\(run.clientOutput)")
        #expect(run.alpn == ["h2", "http/1.1"])  // the server sees the client's list (Apple's peer ALPN data)
    }

    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func sClientResumesOurSession(version: String) throws {
        let session = pki.directory.path("session-\(UUID().uuidString).pem")
        let first = try runServer(
            client: [
                version, "-cert", pki.path("client-ec.pem"), "-key", pki.path("client-ec.key"), "-sess_out", session,
            ],
            configure: requireClientCertificates())
        #expect(first.handshake == errSecSuccess)
        #expect(!first.resumed)
        #expect(first.clientOutput.contains("New,"))
        let second = try runServer(
            client: [
                version, "-cert", pki.path("client-ec.pem"), "-key", pki.path("client-ec.key"), "-sess_in", session,
            ],
            configure: requireClientCertificates())
        #expect(second.handshake == errSecSuccess)
        #expect(second.resumed)
        #expect(second.clientOutput.contains("Reused,"), "\(second.clientOutput)")
        #expect(second.clientCertificateState == .certSent)
        #expect(second.request == "hello\n")
    }

    @Test func renegotiationAttemptIsRefusedWithoutHarm() throws {
        let run = try runServer(client: ["-tls1_2"], stdin: "R\nhello\n", ignoreEOF: false)
        #expect(run.handshake == errSecSuccess)
        #expect(run.clientOutput.contains("RENEGOTIATING"))
        // Our server refuses with a no_renegotiation alert; openssl then gives up with handshake_failure.
        #expect(run.clientOutput.contains("no renegotiation"), "\(run.clientOutput)")
        #expect(run.readStatus == errSSLPeerHandshakeFail)
    }
    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func ocspResponseIsStapledWhenTheClientAsksForStatus(version: String) throws {
        // OCSPResponse { responseStatus tryLater } — a complete DER response openssl parses and prints.
        let response = Data([0x30, 0x03, 0x0A, 0x01, 0x03])
        let stapled = try runServer(
            client: [version, "-status"],
            configure: { context in
                #expect(SSLSetOCSPResponse(context, response as CFData) == errSecSuccess)
            })
        #expect(stapled.handshake == errSecSuccess)
        #expect(stapled.clientOutput.lowercased().contains("ocsp response status: trylater"), "\(stapled.clientOutput)")
        let unstapled = try runServer(client: [version, "-status"])
        #expect(unstapled.handshake == errSecSuccess)
        #expect(unstapled.clientOutput.contains("OCSP response: no response sent"), "\(unstapled.clientOutput)")
    }

    @Test func addedDistinguishedNamesReachTheClient() throws {
        let name = SecureTransportConfigurationTests.distinguishedName("Names Added By The Server")
        let run = try runServer(
            client: ["-tls1_2"],
            configure: { context in
                #expect(SSLSetClientSideAuthenticate(context, .tryAuthenticate) == errSecSuccess)
                #expect(SSLSetCertificateAuthorities(context, pki.root, true) == errSecSuccess)
                #expect(
                    name.withUnsafeBytes { SSLAddDistinguishedName(context, $0.baseAddress, $0.count) } == errSecSuccess
                )
            })
        #expect(run.handshake == errSecSuccess)
        #expect(run.clientOutput.contains("Names Added By The Server"), "\(run.clientOutput)")
    }
}
