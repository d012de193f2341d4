import Foundation
import OSecTLSCore
import OpenSSLBaseline
import Security

/// TLS 1.3 through Apple's Secure Transport API against libssl used directly from C, both in one thread over
/// memory buffers (`TLSLoopbackPipe` carries our contexts' bytes through Secure Transport read/write callbacks;
/// the C baseline moves bytes between memory BIOs).
///
/// Full handshakes create a client and a server context each time, and the client verifies the server's chain
/// against the test root with the host name "localhost" (ours: SecTrust with the SSL policy; C: SSL_VERIFY_PEER
/// with SSL_set1_host); with a client certificate the server requires and verifies it too. Resumed handshakes
/// offer the latest TLS 1.3 ticket (ours: `SSLSetPeerID`) and read the fresh ticket each one delivers (libssl's
/// client uses a ticket once). Bulk moves 1 MiB client → server over one established connection.
enum TLSBenchmarks {
    static let password = "bench-password"
    static let transferBytes = 1 << 20

    struct Fixture {
        let directory: URL
        let root: SecCertificate
        let serverEC: SecIdentity
        let serverRSA: SecIdentity
        let client: SecIdentity
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    }

    static func rows() -> [BenchRow] {
        guard let fixture = try? makeFixture() else {
            print("TLS benchmark: cannot generate the PKI with the openssl CLI")
            return []
        }
        var rows: [BenchRow] = []
        for (label, identity, file) in [
            ("P-256", fixture.serverEC, "server-ec"), ("RSA-2048", fixture.serverRSA, "server-rsa"),
        ] {
            for mutual in [false, true] {
                rows.append(
                    BenchRow(
                        name: "TLS 1.3 full handshake, \(label) server\(mutual ? " + client cert" : "")",
                        unit: "op/s", opensslLabel: "SSL_do_handshake, memory BIOs",
                        ours: { seconds in
                            measure(seconds) {
                                try handshake(fixture, server: identity, clientIdentity: mutual ? fixture.client : nil)
                            }
                        },
                        openssl: { seconds in
                            osec_baseline_tls13_handshakes(
                                fixture.path("\(file).pem"), fixture.path("\(file).key"), fixture.path("ca.pem"),
                                mutual ? fixture.path("client-ec.pem") : nil,
                                mutual ? fixture.path("client-ec.key") : nil,
                                0, seconds)
                        }))
            }
        }
        let peerID = Data("bench-resume-\(UUID().uuidString)".utf8)
        rows.append(
            BenchRow(
                name: "TLS 1.3 resumed handshake, P-256 server", unit: "op/s",
                opensslLabel: "SSL_set_session + SSL_do_handshake",
                ours: { seconds in
                    guard (try? primeSession(fixture, peerID: peerID)) != nil else { return -1 }
                    return measure(seconds) {
                        try handshake(fixture, server: fixture.serverEC, clientIdentity: nil, peerID: peerID)
                    }
                },
                openssl: { seconds in
                    osec_baseline_tls13_handshakes(
                        fixture.path("server-ec.pem"), fixture.path("server-ec.key"), fixture.path("ca.pem"), nil, nil,
                        1, seconds)
                }))
        rows.append(
            BenchRow(
                name: "TLS 1.3 bulk transfer, 1 MiB, AES-128-GCM", unit: "B/s",
                opensslLabel: "SSL_write_ex + SSL_read_ex",
                ours: { seconds in bulk(fixture, seconds) },
                openssl: { seconds in
                    osec_baseline_tls13_bulk(
                        fixture.path("server-ec.pem"), fixture.path("server-ec.key"), fixture.path("ca.pem"),
                        transferBytes, seconds)
                }))
        return rows
    }

    /// A connected client/server pair over a fresh pipe.
    final class Pair {
        let pipe = TLSLoopbackPipe(wouldBlockStatus: errSSLWouldBlock, closedStatus: errSSLClosedGraceful)
        let client: SSLContext
        let server: SSLContext

        init(_ fixture: Fixture, server identity: SecIdentity, clientIdentity: SecIdentity?, peerID: Data?) throws {
            guard let client = SSLCreateContext(nil, .clientSide, .streamType),
                let server = SSLCreateContext(nil, .serverSide, .streamType)
            else { throw BenchFailure() }
            self.client = client
            self.server = server
            let name = "localhost"
            let calls: any DeprecatedSecureTransport = DeprecatedSecureTransportCalls()
            guard SSLSetIOFuncs(client, TLSLoopbackPipe.read, TLSLoopbackPipe.write) == errSecSuccess,
                SSLSetConnection(client, pipe.client.connection) == errSecSuccess,
                SSLSetPeerDomainName(client, name, name.utf8.count) == errSecSuccess,
                calls.setTrustedRoots(client, [fixture.root] as CFArray, true) == errSecSuccess,
                SSLSetIOFuncs(server, TLSLoopbackPipe.read, TLSLoopbackPipe.write) == errSecSuccess,
                SSLSetConnection(server, pipe.server.connection) == errSecSuccess,
                SSLSetCertificate(server, [identity] as CFArray) == errSecSuccess
            else { throw BenchFailure() }
            if let clientIdentity {
                guard SSLSetCertificate(client, [clientIdentity] as CFArray) == errSecSuccess,
                    SSLSetClientSideAuthenticate(server, .alwaysAuthenticate) == errSecSuccess,
                    SSLSetCertificateAuthorities(server, fixture.root, true) == errSecSuccess
                else { throw BenchFailure() }
            }
            if let peerID {
                let bytes = [UInt8](peerID)
                guard SSLSetPeerID(client, bytes, bytes.count) == errSecSuccess else { throw BenchFailure() }
            }
        }

        func handshake() throws {
            var clientStatus = errSSLWouldBlock
            var serverStatus = errSSLWouldBlock
            for _ in 0..<16 where clientStatus == errSSLWouldBlock || serverStatus == errSSLWouldBlock {
                if clientStatus == errSSLWouldBlock { clientStatus = SSLHandshake(client) }
                if serverStatus == errSSLWouldBlock { serverStatus = SSLHandshake(server) }
            }
            guard clientStatus == errSecSuccess, serverStatus == errSecSuccess else { throw BenchFailure() }
        }
    }

    static func handshake(
        _ fixture: Fixture, server: SecIdentity, clientIdentity: SecIdentity?, peerID: Data? = nil
    ) throws {
        let pair = try Pair(fixture, server: server, clientIdentity: clientIdentity, peerID: peerID)
        try pair.handshake()
        if peerID != nil {
            var resumed = false
            guard SSLGetSessionWasResumed(pair.client, &resumed) == errSecSuccess, resumed else { throw BenchFailure() }
            // Tickets are single-use for libssl's client: read the fresh one, as the C baseline does.
            var byte: UInt8 = 0
            var processed = 0
            _ = SSLRead(pair.client, &byte, 1, &processed)
            _ = SSLClose(pair.client)
        }
    }

    /// One full handshake under `peerID` whose ticket the client reads, so later handshakes resume.
    static func primeSession(_ fixture: Fixture, peerID: Data) throws {
        let pair = try Pair(fixture, server: fixture.serverEC, clientIdentity: nil, peerID: peerID)
        try pair.handshake()
        // The suite the C baseline negotiates too (tls_baseline.c, kSuites13): TLS_AES_128_GCM_SHA256.
        var suite: SSLCipherSuite = 0
        guard SSLGetNegotiatedCipher(pair.client, &suite) == errSecSuccess, suite == TLS_AES_128_GCM_SHA256 else {
            throw BenchFailure()
        }
        var byte: UInt8 = 0
        var processed = 0
        _ = SSLRead(pair.client, &byte, 1, &processed)  // processes the tickets, then would block
        _ = SSLClose(pair.client)
    }

    static func bulk(_ fixture: Fixture, _ seconds: Double) -> Double {
        guard let pair = try? Pair(fixture, server: fixture.serverEC, clientIdentity: nil, peerID: nil),
            (try? pair.handshake()) != nil
        else { return -1 }
        let payload = [UInt8](repeating: 0x5A, count: transferBytes)
        var sink = [UInt8](repeating: 0, count: 16 * 1024)
        let rate = measure(seconds) {
            var processed = 0
            guard SSLWrite(pair.client, payload, payload.count, &processed) == errSecSuccess,
                processed == payload.count
            else { throw BenchFailure() }
            var received = 0
            while received < payload.count {
                var count = 0
                let status = SSLRead(pair.server, &sink, sink.count, &count)
                guard status == errSecSuccess else { throw BenchFailure() }
                received += count
            }
        }
        return rate < 0 ? rate : rate * Double(transferBytes)
    }

    /// The PKI is made with the openssl CLI in a scratch directory, or in `OSEC_BENCH_TLS_FIXTURE` (kept, and reused
    /// when it already holds one): valgrind cannot spawn the CLI, so a callgrind run reuses a PKI made before.
    static func makeFixture() throws -> Fixture {
        let kept = ProcessInfo.processInfo.environment["OSEC_BENCH_TLS_FIXTURE"].map {
            URL(fileURLWithPath: $0, isDirectory: true)
        }
        let directory = kept ?? URL(fileURLWithPath: BenchScratch.directory("tls"), isDirectory: true)
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        if kept == nil || !FileManager.default.fileExists(atPath: path("client-ec.p12")) {
            try makePKI(in: directory)
        }
        func identity(_ name: String) throws -> SecIdentity {
            guard let data = FileManager.default.contents(atPath: path("\(name).p12")) else { throw BenchFailure() }
            var items: CFArray?
            let options = [kSecImportExportPassphrase as String: password] as CFDictionary
            guard SecPKCS12Import(data as CFData, options, &items) == errSecSuccess,
                let identity = (items as? [[String: Any]])?.first?[kSecImportItemIdentity as String] as? SecIdentity
            else { throw BenchFailure() }
            return identity
        }
        let pem = try String(contentsOfFile: path("ca.pem"), encoding: .utf8)
        guard let root = try OpenSecurityCertificates.certificates(fromPEM: pem).first else { throw BenchFailure() }
        return Fixture(
            directory: directory, root: root, serverEC: try identity("server-ec"),
            serverRSA: try identity("server-rsa"),
            client: try identity("client-ec"))
    }

    /// A P-256 root, P-256 and RSA-2048 servers ("localhost") and a P-256 client, as PEM files and .p12 archives.
    static func makePKI(in directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        try Data("basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost\n".utf8)
            .write(to: URL(fileURLWithPath: path("server.ext")))
        try Data("basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n".utf8)
            .write(to: URL(fileURLWithPath: path("client.ext")))
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
        try runOpenSSLCommand(
            ["req", "-x509"] + ec + [
                "-nodes", "-keyout", path("ca.key"), "-out", path("ca.pem"), "-subj", "/CN=Bench TLS Root", "-days",
                "2",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])
        for (name, keyArgs, ext) in [
            ("server-ec", ec, "server.ext"), ("server-rsa", ["-newkey", "rsa:2048"], "server.ext"),
            ("client-ec", ec, "client.ext"),
        ] {
            try runOpenSSLCommand(
                ["req"] + keyArgs + [
                    "-nodes", "-keyout", path("\(name).key"), "-out", path("\(name).csr"), "-subj", "/CN=localhost",
                ])
            try runOpenSSLCommand([
                "x509", "-req", "-in", path("\(name).csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                "-set_serial", "\(Int.random(in: 1000...999_999))", "-days", "2", "-extfile", path(ext), "-out",
                path("\(name).pem"),
            ])
            try runOpenSSLCommand([
                "pkcs12", "-export", "-in", path("\(name).pem"), "-inkey", path("\(name).key"), "-passout",
                "pass:\(password)", "-out", path("\(name).p12"),
            ])
        }
    }
}

/// `SSLSetTrustedRoots` is deprecated (macOS only); the benchmark uses it as a C client uses its CA file.
protocol DeprecatedSecureTransport {
    func setTrustedRoots(_ context: SSLContext, _ roots: CFArray, _ replace: Bool) -> OSStatus
}

struct DeprecatedSecureTransportCalls: DeprecatedSecureTransport {
    @available(*, deprecated)
    func setTrustedRoots(_ context: SSLContext, _ roots: CFArray, _ replace: Bool) -> OSStatus {
        SSLSetTrustedRoots(context, roots, replace)
    }
}
