import Foundation
import OpenSecurityTLS
import Security
import Synchronization
import Testing

/// OpenSecurityTLS: TLSListener and TLSConnection against each other and against the openssl CLI.
@Suite struct ModernAPITests {
    let pki = TLSTestPKI.shared

    /// A hang guard, not a time limit: in the whole suite, CPU-heavy synchronous tests can hold both threads of
    /// a 2-core machine's cooperative pool for minutes, so a listener's task may wait that long to be scheduled.
    let hangGuard = Duration.seconds(900)

    func serverConfiguration(
        _ name: String = "server-ec", clientAuthentication: TLSConfiguration.ClientAuthentication = .none
    ) throws -> TLSConfiguration {
        var configuration = TLSConfiguration()
        configuration.identity = try pki.identity(name)
        configuration.clientAuthentication = clientAuthentication
        configuration.trustAnchors = [pki.root]
        configuration.handshakeTimeout = hangGuard
        return configuration
    }

    func clientConfiguration(identity: String? = nil) throws -> TLSConfiguration {
        var configuration = TLSConfiguration()
        configuration.identity = try identity.map { try pki.identity($0) }
        configuration.trustAnchors = [pki.root]
        configuration.serverName = "localhost"
        configuration.handshakeTimeout = hangGuard
        return configuration
    }

    /// Serves one connection: reads a line, answers it reversed, closes.
    func serveOnce(_ listener: TLSListener) -> Task<Result<String, TLSError>, Never> {
        Task {
            do {
                let connection = try await listener.accept()
                let request = try await connection.read()
                try await connection.write(Data(request.reversed()))
                await connection.close()
                return .success(String(decoding: request, as: UTF8.self))
            } catch let error as TLSError {
                return .failure(error)
            } catch {
                return .failure(TLSError(errSecInternal, "\(error)"))
            }
        }
    }

    @Test func listenerAndConnectionExchangeDataWithMutualAuthentication() async throws {
        let listener = try TLSListener(configuration: try serverConfiguration(clientAuthentication: .required))
        defer { listener.close() }
        let server = serveOnce(listener)
        var configuration = try clientConfiguration(identity: "client-ec")
        configuration.applicationProtocols = ["h2"]
        let connection = try await TLSConnection.connect(
            host: "127.0.0.1", port: listener.port, configuration: configuration)
        #expect(await connection.protocolVersion == .tlsProtocol13)
        try await connection.write(Data("ping".utf8))
        let reply = try await connection.read()
        #expect(String(decoding: reply, as: UTF8.self) == "gnip")
        #expect(try await connection.read().isEmpty)  // close_notify
        await connection.close()
        let served = await server.value
        #expect(try served.get() == "ping")
    }

    @Test func connectionAgainstSServerWithALPNAndMutualTLS() async throws {
        let (server, port) = try OpenSSLPeer.server([
            "-cert", pki.path("server-rsa.pem"), "-key", pki.path("server-rsa.key"), "-Verify", "1",
            "-verify_return_error", "-CAfile", pki.path("ca.pem"), "-alpn", "h2,http/1.1", "-www", "-naccept", "1",
        ])
        defer { server.terminate() }
        var configuration = try clientConfiguration(identity: "client-rsa")
        configuration.applicationProtocols = ["http/1.1"]
        let connection = try await TLSConnection.connect(host: "127.0.0.1", port: port, configuration: configuration)
        #expect(await connection.negotiatedApplicationProtocol == "http/1.1")
        try await connection.write(Data("GET / HTTP/1.0\r\n\r\n".utf8))
        var response = Data()
        while true {
            let chunk = try await connection.read()
            if chunk.isEmpty { break }
            response.append(chunk)
        }
        #expect(String(decoding: response, as: UTF8.self).hasPrefix("HTTP/1.0 200 ok"))
        await connection.close()
    }

    @Test func listenerServesSClientWithRequiredCertificates() async throws {
        let listener = try TLSListener(configuration: try serverConfiguration(clientAuthentication: .required))
        defer { listener.close() }
        let server = serveOnce(listener)
        let client = try OpenSSLPeer.client(
            port: listener.port,
            [
                "-cert", pki.path("client-ec.pem"), "-key", pki.path("client-ec.key"), "-CAfile", pki.path("ca.pem"),
                "-verify_return_error", "-servername", "localhost",
            ], stdin: Data("abc\n".utf8))
        defer { client.terminate() }
        #expect(try await server.value.get() == "abc\n")
        client.wait()
        #expect(client.output.contains("\ncba"))
    }

    @Test func listenerRefusesAClientWithoutTheRequiredCertificate() async throws {
        let listener = try TLSListener(configuration: try serverConfiguration(clientAuthentication: .required))
        defer { listener.close() }
        let server = serveOnce(listener)
        let client = try OpenSSLPeer.client(
            port: listener.port, ["-CAfile", pki.path("ca.pem"), "-servername", "localhost"], stdin: Data("abc\n".utf8))
        defer { client.terminate() }
        let served = await server.value
        #expect(throws: TLSError(errSSLXCertChainInvalid)) { try served.get() }
    }

    @Test func optionalClientCertificateMayBeAbsent() async throws {
        let listener = try TLSListener(configuration: try serverConfiguration(clientAuthentication: .optional))
        defer { listener.close() }
        let server = serveOnce(listener)
        let connection = try await TLSConnection.connect(
            host: "127.0.0.1", port: listener.port, configuration: try clientConfiguration())
        try await connection.write(Data("hi".utf8))
        #expect(try await connection.read() == Data("ih".utf8))
        await connection.close()
        #expect(try await server.value.get() == "hi")
    }

    @Test func clientCertificateFromAnotherCAIsRejected() async throws {
        let listener = try TLSListener(configuration: try serverConfiguration(clientAuthentication: .required))
        defer { listener.close() }
        let server = serveOnce(listener)
        let connection = try? await TLSConnection.connect(
            host: "127.0.0.1", port: listener.port, configuration: try clientConfiguration(identity: "client-wrongca"))
        if let connection {  // TLS 1.3: the client finishes first; the alert arrives on the first read
            try? await connection.write(Data("hi".utf8))
            await #expect(throws: TLSError(errSSLPeerUnknownCA)) { _ = try await connection.read() }
        }
        let served = await server.value
        #expect(throws: TLSError(errSSLNoRootCert)) { try served.get() }
    }

    @Test(arguments: [
        ("server-expired", "localhost", errSSLCertExpired), ("server-ec", "www.example.com", errSSLHostNameMismatch),
    ])
    func serverCertificateVerdictsCarryApplesCodes(leaf: String, name: String, expected: OSStatus) async throws {
        let listener = try TLSListener(configuration: try serverConfiguration(leaf))
        defer { listener.close() }
        let server = serveOnce(listener)
        var configuration = try clientConfiguration()
        configuration.serverName = name
        await #expect(throws: TLSError(expected)) {
            _ = try await TLSConnection.connect(host: "127.0.0.1", port: listener.port, configuration: configuration)
        }
        _ = await server.value
    }

    @Test func untrustedRootWithTheSystemStoreIsErrSSLNoRootCert() async throws {
        let listener = try TLSListener(configuration: try serverConfiguration())
        defer { listener.close() }
        let server = serveOnce(listener)
        var configuration = TLSConfiguration()
        configuration.handshakeTimeout = hangGuard
        configuration.serverName = "localhost"
        await #expect(throws: TLSError(errSSLNoRootCert)) {
            _ = try await TLSConnection.connect(host: "127.0.0.1", port: listener.port, configuration: configuration)
        }
        _ = await server.value
    }

    @Test func aTrustClosureDecides() async throws {
        for accept in [true, false] {
            let listener = try TLSListener(configuration: try serverConfiguration())
            defer { listener.close() }
            let server = serveOnce(listener)
            var configuration = TLSConfiguration()
            configuration.handshakeTimeout = hangGuard
            configuration.serverName = "localhost"
            let root = pki.root
            configuration.verifyPeer = { trust in
                // Pin our own root for this connection, whatever the system store says.
                _ = SecTrustSetAnchorCertificates(trust, [root] as CFArray)
                return accept && SecTrustEvaluateWithError(trust, nil)
            }
            if accept {
                let connection = try await TLSConnection.connect(
                    host: "127.0.0.1", port: listener.port, configuration: configuration)
                try await connection.write(Data("ok".utf8))
                #expect(try await connection.read() == Data("ko".utf8))
                #expect(await connection.peerTrust != nil)
                await connection.close()
            } else {
                await #expect(throws: TLSError(errSSLXCertChainInvalid)) {
                    _ = try await TLSConnection.connect(
                        host: "127.0.0.1", port: listener.port, configuration: configuration)
                }
            }
            _ = await server.value
        }
    }

    @Test func clientsResumeSessionsWithTheSameServer() async throws {
        let listener = try TLSListener(configuration: try serverConfiguration())
        defer { listener.close() }
        var resumed: [Bool] = []
        for _ in 0..<2 {
            let server = serveOnce(listener)
            let connection = try await TLSConnection.connect(
                host: "127.0.0.1", port: listener.port, configuration: try clientConfiguration())
            try await connection.write(Data("r".utf8))
            _ = try await connection.read()  // the ticket arrives with the answer
            resumed.append(await connection.isSessionResumed)
            await connection.close()
            _ = await server.value
        }
        #expect(resumed == [false, true])
    }

    /// A resumed session skips the certificate exchange, so a client must never resume a session made with
    /// another client identity (the server would see the other identity) or none.
    @Test func sessionsResumeOnlyUnderTheClientIdentityTheyWereMadeWith() async throws {
        let listener = try TLSListener(configuration: try serverConfiguration(clientAuthentication: .optional))
        defer { listener.close() }
        var seen: [(resumed: Bool, client: String?)] = []
        for identity in ["client-ec", nil, "client-ec", nil, "client-rsa"] {
            let server = Task { () -> String? in
                guard let connection = try? await listener.accept() else { return "accept failed" }
                guard let request = try? await connection.read() else { return "read failed" }
                try? await connection.write(request)
                let leaf = await connection.peerTrust.flatMap { SecTrustGetCertificateAtIndex($0, 0) }
                await connection.close()
                return leaf.flatMap { SecCertificateCopySubjectSummary($0) as String? }
            }
            let connection = try await TLSConnection.connect(
                host: "127.0.0.1", port: listener.port, configuration: try clientConfiguration(identity: identity))
            try await connection.write(Data("r".utf8))
            _ = try await connection.read()  // the ticket arrives with the answer
            let resumed = await connection.isSessionResumed
            await connection.close()
            seen.append((resumed, await server.value))
        }
        #expect(seen.map(\.resumed) == [false, false, true, true, false])
        #expect(seen.map(\.client) == ["TLS Test Client", nil, "TLS Test Client", nil, "TLS Test RSA Client"])
    }

    /// A session verified against one set of anchors is not offered by a connection with other anchors: the
    /// server's chain is judged again (and here refused).
    @Test func sessionsResumeOnlyUnderTheTrustAnchorsTheyWereVerifiedWith() async throws {
        let listener = try TLSListener(configuration: try serverConfiguration())
        defer { listener.close() }
        for (anchors, expected) in [([pki.root], false), ([pki.root], true)] {
            let server = serveOnce(listener)
            var configuration = try clientConfiguration()
            configuration.trustAnchors = anchors
            let connection = try await TLSConnection.connect(
                host: "127.0.0.1", port: listener.port, configuration: configuration)
            try await connection.write(Data("r".utf8))
            _ = try await connection.read()
            #expect(await connection.isSessionResumed == expected)
            await connection.close()
            _ = await server.value
        }
        let server = serveOnce(listener)
        var configuration = try clientConfiguration()
        configuration.trustAnchors = [pki.wrongRoot]
        await #expect(throws: TLSError(errSSLNoRootCert)) {
            _ = try await TLSConnection.connect(host: "127.0.0.1", port: listener.port, configuration: configuration)
        }
        _ = await server.value
    }

    /// A trust closure cannot be compared with another, so its connections never resume: it judges every one.
    @Test func aTrustClosureJudgesEveryConnection() async throws {
        let listener = try TLSListener(configuration: try serverConfiguration())
        defer { listener.close() }
        let calls = Counter()
        var configuration = try clientConfiguration()
        configuration.verifyPeer = { trust in
            calls.increment()
            return SecTrustEvaluateWithError(trust, nil)
        }
        for _ in 0..<2 {
            let server = serveOnce(listener)
            let connection = try await TLSConnection.connect(
                host: "127.0.0.1", port: listener.port, configuration: configuration)
            try await connection.write(Data("r".utf8))
            _ = try await connection.read()
            #expect(await connection.isSessionResumed == false)
            await connection.close()
            _ = await server.value
        }
        #expect(calls.value == 2)
    }

    @Test func aListenerNeedsAnIdentity() {
        #expect(throws: TLSError(errSSLBadConfiguration)) { _ = try TLSListener(configuration: TLSConfiguration()) }
    }
}

/// Counts calls from any thread.
final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
