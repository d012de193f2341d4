import Foundation
import OSecTestSupport
import Security
import Testing

/// Our Secure Transport client against `openssl s_server` on loopback: mutual TLS, versions, key types, the
/// certificate verdicts with Apple's codes, ALPN and session resumption.
@Suite(.serialized) struct ClientInteropTests {
    let pki = TLSTestPKI.shared

    struct Run {
        var handshake: OSStatus = errSecSuccess
        var response = ""
        var readStatus: OSStatus = errSecSuccess
        var version = SSLProtocol.sslProtocolUnknown
        var cipher: SSLCipherSuite = 0
        var clientCertificateState = SSLClientCertificateState.certNone
        var trust: SecTrust?
        var resumed = false
        var alpn: [String] = []
    }

    func serverArguments(_ leaf: String = "server-ec", _ extra: [String] = []) -> [String] {
        ["-cert", pki.path("\(leaf).pem"), "-key", pki.path("\(leaf).key"), "-www"] + extra
    }

    /// Connects to `port`, configures a client context, handshakes, sends an HTTP request and reads the answer.
    func runClient(port: UInt16, configure: (SSLContext) throws -> Void) throws -> Run {
        let socket = try TestSocket.connect(port: port)
        let context = try makeContext(.clientSide, on: socket)
        try configure(context)
        var run = Run()
        run.handshake = handshake(context)
        if run.handshake == errSecSuccess {
            _ = sslWriteAll(context, Data("GET / HTTP/1.0\r\n\r\n".utf8))
            let (body, status) = sslRead(context, count: 1 << 20)
            run.response = String(decoding: body, as: UTF8.self)
            run.readStatus = status
        }
        _ = SSLGetNegotiatedProtocolVersion(context, &run.version)
        _ = SSLGetNegotiatedCipher(context, &run.cipher)
        _ = SSLGetClientCertificateState(context, &run.clientCertificateState)
        _ = SSLCopyPeerTrust(context, &run.trust)
        _ = SSLGetSessionWasResumed(context, &run.resumed)
        var alpn: Unmanaged<CFArray>?
        if SSLCopyALPNProtocols(context, &alpn) == errSecSuccess {
            run.alpn = (alpn?.takeRetainedValue() as? [String]) ?? []
        }
        _ = SSLClose(context)
        return run
    }

    /// A client that trusts our root and checks "localhost", with an optional identity from a .p12.
    func standardClient(_ identity: String? = nil) -> (SSLContext) throws -> Void {
        { context in
            #expect(trustRoots(context, [pki.root]) == errSecSuccess)
            #expect(setDomainName(context, "localhost") == errSecSuccess)
            if let identity {
                let secIdentity = try pki.identity(identity)
                #expect(SSLSetCertificate(context, [secIdentity] as CFArray) == errSecSuccess)
            }
        }
    }

    static let keyTypes = ["server-ec", "server-p384", "server-rsa"]

    @Test(arguments: keyTypes, ["-tls1_2", "-tls1_3"])
    func serverKeyTypesAndVersionsNegotiate(leaf: String, version: String) throws {
        let (server, port) = try OpenSSLPeer.server(serverArguments(leaf, [version, "-naccept", "1"]))
        defer { server.terminate() }
        let run = try runClient(port: port, configure: standardClient())
        #expect(run.handshake == errSecSuccess, "\(server.output)")
        #expect(run.response.hasPrefix("HTTP/1.0 200 ok"))
        #expect(run.version == (version == "-tls1_3" ? .tlsProtocol13 : .tlsProtocol12))
        if version == "-tls1_2" {
            let expected: Set<SSLCipherSuite> =
                leaf == "server-rsa"
                ? [TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]
                : [TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256]
            #expect(expected.contains(run.cipher), "cipher \(String(run.cipher, radix: 16))")
        }
        #expect(run.trust.map { SecTrustEvaluateWithError($0, nil) } == true)
    }

    /// Ed25519 servers: libssl negotiates them and the verdict is SecTrust's. The SSL server policy refuses an
    /// Ed25519 leaf (CA/B Forum BR §7.1.3.1, docs/trust.md), so the handshake fails with errSSLXCertChainInvalid
    /// exactly as SecTrustEvaluateWithError fails; a caller judging the chain itself (BreakOnServerAuth, here with
    /// the basic X.509 policy) completes the handshake and talks to the server.
    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func ed25519ServerIsJudgedBySecTrust(version: String) throws {
        let (server, port) = try OpenSSLPeer.server(serverArguments("server-ed25519", [version, "-naccept", "2"]))
        defer { server.terminate() }
        let refused = try runClient(port: port, configure: standardClient())
        let refusedTrust = try #require(refused.trust)
        #expect(!SecTrustEvaluateWithError(refusedTrust, nil))
        #expect(refused.handshake == errSSLXCertChainInvalid)

        let socket = try TestSocket.connect(port: port)
        let context = try makeContext(.clientSide, on: socket)
        #expect(SSLSetSessionOption(context, .breakOnServerAuth, true) == errSecSuccess)
        #expect(setDomainName(context, "localhost") == errSecSuccess)
        #expect(handshake(context) == errSSLPeerAuthCompleted)
        var copied: SecTrust?
        #expect(SSLCopyPeerTrust(context, &copied) == errSecSuccess)
        let peerTrust = try #require(copied)
        #expect(SecTrustSetPolicies(peerTrust, SecPolicyCreateBasicX509()) == errSecSuccess)
        #expect(SecTrustSetAnchorCertificates(peerTrust, [pki.root] as CFArray) == errSecSuccess)
        #expect(SecTrustEvaluateWithError(peerTrust, nil))
        #expect(handshake(context) == errSecSuccess, "\(server.output)")
        var negotiated = SSLProtocol.sslProtocolUnknown
        #expect(SSLGetNegotiatedProtocolVersion(context, &negotiated) == errSecSuccess)
        #expect(negotiated == (version == "-tls1_3" ? .tlsProtocol13 : .tlsProtocol12))
        #expect(sslWriteAll(context, Data("GET / HTTP/1.0\r\n\r\n".utf8)) == errSecSuccess)
        let (body, _) = sslRead(context, count: 1 << 20)
        #expect(String(decoding: body, as: UTF8.self).hasPrefix("HTTP/1.0 200 ok"))
        _ = SSLClose(context)
    }

    @Test(arguments: ["RSA+SHA256", "rsa_pss_rsae_sha256"])
    func rsaPKCS1AndPSSHandshakeSignaturesAreAccepted(sigalgs: String) throws {
        let (server, port) = try OpenSSLPeer.server(
            serverArguments("server-rsa", ["-tls1_2", "-sigalgs", sigalgs, "-naccept", "1"]))
        defer { server.terminate() }
        let run = try runClient(port: port, configure: standardClient())
        #expect(run.handshake == errSecSuccess, "\(server.output)")
        #expect(run.response.hasPrefix("HTTP/1.0 200 ok"))
    }

    @Test(arguments: [("client-ec", "-tls1_3"), ("client-rsa", "-tls1_2"), ("client-ec", "-tls1_2")])
    func mutualTLSAgainstSServerVerify(identity: String, version: String) throws {
        let (server, port) = try OpenSSLPeer.server(
            serverArguments(
                "server-ec",
                [version, "-Verify", "1", "-verify_return_error", "-CAfile", pki.path("ca.pem"), "-naccept", "1"]))
        defer { server.terminate() }
        let run = try runClient(port: port, configure: standardClient(identity))
        #expect(run.handshake == errSecSuccess, "\(server.output)")
        #expect(run.response.hasPrefix("HTTP/1.0 200 ok"), "\(run.readStatus) \(server.output)")
        #expect(run.clientCertificateState == .certSent)
        server.wait()
        #expect(server.output.contains("verify return:1"))
    }

    @Test func clientIdentityFromTheKeychainAuthenticates() throws {
        let keychain = try TLSTestKeychain()
        let imported = try pki.identity("client-ec")
        #expect(
            SecItemAdd(keychain.query([kSecClass as String: kSecClassIdentity, kSecValueRef as String: imported]), nil)
                == errSecSuccess)
        var found: CFTypeRef?
        let status = SecItemCopyMatching(
            keychain.query([
                kSecClass as String: kSecClassIdentity, kSecReturnRef as String: true,
                kSecAttrLabel as String: "TLS Test Client",
            ]), &found)
        #expect(status == errSecSuccess)
        let identity = try #require(found as? SecIdentity)
        let (server, port) = try OpenSSLPeer.server(
            serverArguments(
                "server-ec", ["-Verify", "1", "-verify_return_error", "-CAfile", pki.path("ca.pem"), "-naccept", "1"]))
        defer { server.terminate() }
        let run = try runClient(port: port) { context in
            #expect(trustRoots(context, [pki.root]) == errSecSuccess)
            #expect(setDomainName(context, "localhost") == errSecSuccess)
            #expect(SSLSetCertificate(context, [identity] as CFArray) == errSecSuccess)
        }
        #expect(run.handshake == errSecSuccess)
        #expect(run.response.hasPrefix("HTTP/1.0 200 ok"), "\(server.output)")
        #expect(run.clientCertificateState == .certSent)
    }

    @Test func requiredClientCertificateAbsentFailsWithThePeersAlert() throws {
        // TLS 1.2: the server's handshake_failure alert arrives during the handshake.
        let (server12, port12) = try OpenSSLPeer.server(
            serverArguments("server-ec", ["-tls1_2", "-Verify", "1", "-verify_return_error", "-naccept", "1"]))
        defer { server12.terminate() }
        let run12 = try runClient(port: port12, configure: standardClient())
        #expect(run12.handshake == errSSLPeerHandshakeFail)
        #expect(run12.clientCertificateState == .certRequested)
        // TLS 1.3: the client finishes first; the certificate_required alert arrives on the first read.
        let (server13, port13) = try OpenSSLPeer.server(
            serverArguments("server-ec", ["-tls1_3", "-Verify", "1", "-verify_return_error", "-naccept", "1"]))
        defer { server13.terminate() }
        let run13 = try runClient(port: port13, configure: standardClient())
        #expect(run13.handshake == errSecSuccess)
        #expect(run13.readStatus == errSSLCertificateRequired)
        #expect(run13.clientCertificateState == .certRequested)
    }

    @Test func optionalClientCertificateMayBeAbsent() throws {
        let (server, port) = try OpenSSLPeer.server(
            serverArguments("server-ec", ["-verify", "1", "-CAfile", pki.path("ca.pem"), "-naccept", "1"]))
        defer { server.terminate() }
        let run = try runClient(port: port, configure: standardClient())
        #expect(run.handshake == errSecSuccess)
        #expect(run.response.hasPrefix("HTTP/1.0 200 ok"))
        #expect(run.clientCertificateState == .certRequested)
    }

    @Test func clientCertificateFromAnotherCAIsRejectedByTheServer() throws {
        let (server, port) = try OpenSSLPeer.server(
            serverArguments(
                "server-ec",
                ["-tls1_2", "-Verify", "1", "-verify_return_error", "-CAfile", pki.path("ca.pem"), "-naccept", "1"]))
        defer { server.terminate() }
        let run = try runClient(port: port, configure: standardClient("client-wrongca"))
        #expect(run.handshake == errSSLPeerUnknownCA)
        #expect(run.clientCertificateState == .certRejected)
    }

    @Test func expiredServerCertificateIsErrSSLCertExpired() throws {
        let (server, port) = try OpenSSLPeer.server(serverArguments("server-expired", ["-naccept", "1"]))
        defer { server.terminate() }
        let run = try runClient(port: port, configure: standardClient())
        #expect(run.handshake == errSSLCertExpired)
        let trust = try #require(run.trust)
        var error: CFError?
        #expect(!SecTrustEvaluateWithError(trust, &error))
        #expect(error?.code == Int(errSecCertificateExpired))
        server.wait()
        #expect(server.output.contains("certificate expired"), "\(server.output)")
    }

    @Test func wrongHostNameIsErrSSLHostNameMismatch() throws {
        let (server, port) = try OpenSSLPeer.server(serverArguments("server-ec", ["-naccept", "1"]))
        defer { server.terminate() }
        let run = try runClient(port: port) { context in
            #expect(trustRoots(context, [pki.root]) == errSecSuccess)
            #expect(setDomainName(context, "www.example.com") == errSecSuccess)
        }
        #expect(run.handshake == errSSLHostNameMismatch)
        var error: CFError?
        #expect(run.trust.map { SecTrustEvaluateWithError($0, &error) } == false)
        #expect(error?.code == Int(errSecHostNameMismatch))
    }

    @Test func untrustedRootIsErrSSLUnknownRootCertOrNoRootCert() throws {
        // The server sends its root too: the chain is complete but the root is not trusted.
        let (withRoot, port1) = try OpenSSLPeer.server(
            serverArguments("server-ec", ["-cert_chain", pki.path("ca.pem"), "-naccept", "1"]))
        defer { withRoot.terminate() }
        let complete = try runClient(port: port1) { context in
            #expect(setDomainName(context, "localhost") == errSecSuccess)
        }
        #expect(complete.handshake == errSSLUnknownRootCert)
        // The server sends only its leaf: no path to any root.
        let (leafOnly, port2) = try OpenSSLPeer.server(serverArguments("server-ec", ["-naccept", "1"]))
        defer { leafOnly.terminate() }
        let partial = try runClient(port: port2) { context in
            #expect(setDomainName(context, "localhost") == errSecSuccess)
        }
        #expect(partial.handshake == errSSLNoRootCert)
        leafOnly.wait()
        #expect(leafOnly.output.contains("unknown ca"), "\(leafOnly.output)")
    }

    @Test func breakOnServerAuthLetsTheCallerEvaluateTheTrust() throws {
        let (server, port) = try OpenSSLPeer.server(serverArguments("server-ec", ["-naccept", "1"]))
        defer { server.terminate() }
        let socket = try TestSocket.connect(port: port)
        let context = try makeContext(.clientSide, on: socket)
        #expect(SSLSetSessionOption(context, .breakOnServerAuth, true) == errSecSuccess)
        #expect(setDomainName(context, "localhost") == errSecSuccess)
        var status = handshake(context)
        #expect(status == errSSLPeerAuthCompleted)
        var trust: SecTrust?
        #expect(SSLCopyPeerTrust(context, &trust) == errSecSuccess)
        let peerTrust = try #require(trust)
        #expect(!SecTrustEvaluateWithError(peerTrust, nil))  // not anchored yet
        #expect(SecTrustSetAnchorCertificates(peerTrust, [pki.root] as CFArray) == errSecSuccess)
        #expect(SecTrustEvaluateWithError(peerTrust, nil))
        status = handshake(context)
        #expect(status == errSecSuccess)
        #expect(sslWriteAll(context, Data("GET / HTTP/1.0\r\n\r\n".utf8)) == errSecSuccess)
        let (body, _) = sslRead(context, count: 1 << 20)
        #expect(String(decoding: body, as: UTF8.self).hasPrefix("HTTP/1.0 200 ok"))
        _ = SSLClose(context)
    }

    @Test func alpnIsNegotiated() throws {
        let (server, port) = try OpenSSLPeer.server(
            serverArguments("server-ec", ["-alpn", "h2,http/1.1", "-naccept", "1"]))
        defer { server.terminate() }
        let run = try runClient(port: port) { context in
            try standardClient()(context)
            #expect(SSLSetALPNProtocols(context, ["http/1.1", "spdy/3"] as CFArray) == errSecSuccess)
        }
        #expect(run.handshake == errSecSuccess)
        #expect(run.alpn == ["http/1.1"])
    }

    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func sessionResumptionWithSSLSetPeerID(version: String) throws {
        let (server, port) = try OpenSSLPeer.server(serverArguments("server-ec", [version, "-naccept", "2"]))
        defer { server.terminate() }
        let peerID = Data("localhost:\(port):\(version)".utf8)
        func resumingClient(_ context: SSLContext) throws {
            try standardClient()(context)
            let status = peerID.withUnsafeBytes { SSLSetPeerID(context, $0.baseAddress, $0.count) }
            #expect(status == errSecSuccess)
            var stored: UnsafeRawPointer?
            var length = 0
            #expect(SSLGetPeerID(context, &stored, &length) == errSecSuccess)
            #expect(length == peerID.count)
        }
        let first = try runClient(port: port, configure: resumingClient)
        #expect(first.handshake == errSecSuccess)
        #expect(!first.resumed)
        let second = try runClient(port: port, configure: resumingClient)
        #expect(second.handshake == errSecSuccess)
        #expect(second.resumed)
        #expect(second.cipher == first.cipher)
        #expect(second.response.contains("Reused"), "\(second.response)")
    }

    @Test func tls10And11AreRefusedByDefault() throws {
        let (server, port) = try OpenSSLPeer.server(
            serverArguments("server-ec", ["-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0", "-naccept", "1"]))
        defer { server.terminate() }
        let run = try runClient(port: port, configure: standardClient())
        #expect(run.handshake == errSSLPeerProtocolVersion)
    }

    @Test func fallbackSessionConfigurationSignalsTheRetry() throws {
        // A server that still accepts TLS 1.0 but supports more must refuse a TLS 1.0 fallback (RFC 7507).
        let legacy = ["-min_protocol", "TLSv1", "-cipher", "DEFAULT@SECLEVEL=0", "-naccept", "2"]
        let (server, port) = try OpenSSLPeer.server(serverArguments("server-ec", legacy))
        defer { server.terminate() }
        let fallback = try runClient(port: port) { context in
            try standardClient()(context)
            #expect(SSLSetSessionConfig(context, kSSLSessionConfig_TLSv1_fallback) == errSecSuccess)
        }
        #expect(fallback.handshake == errSSLInappropriateFallback, "\(server.output)")
        let standard = try runClient(port: port) { context in
            try standardClient()(context)
            #expect(SSLSetSessionConfig(context, kSSLSessionConfig_standard) == errSecSuccess)
        }
        #expect(standard.handshake == errSecSuccess, "\(server.output)")
        #expect(standard.version == .tlsProtocol12)
    }
}

/// A fresh keychain file for one test.
final class TLSTestKeychain {
    let directory: TemporaryDirectory
    let keychain: SecKeychain

    init() throws {
        directory = try TemporaryDirectory(prefix: "osec-tls-keychain")
        var created: SecKeychain?
        let status = SecKeychainCreate(directory.path("tls.keychain-db"), 0, nil, false, nil, &created)
        guard status == errSecSuccess, let created else { throw TestFailure("SecKeychainCreate = \(status)") }
        keychain = created
    }

    func query(_ query: [String: Any]) -> CFDictionary {
        var result = query
        result[kSecUseKeychain as String] = keychain
        return result as CFDictionary
    }
}
