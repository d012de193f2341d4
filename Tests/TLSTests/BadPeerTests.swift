import Foundation
import OSecTestSupport
import OpenSecurityTLS
import Security
import Testing

/// Peers that do not play by the rules get clear errors: never a crash or a hang.
@Suite struct BadPeerTests {
    let pki = TLSTestPKI.shared

    /// A server context on an accepted raw connection.
    func serverOnRawClient(_ send: (TestSocket) -> Void) throws -> OSStatus {
        let (listener, port) = try TestSocket.listen()
        let raw = try TestSocket.connect(port: port)
        let accepted = try listener.accept()
        let context = try makeContext(.serverSide, on: accepted)
        #expect(SSLSetCertificate(context, [try pki.identity("server-ec")] as CFArray) == errSecSuccess)
        send(raw)
        let status = handshake(context)
        var state = SSLSessionState.idle
        _ = SSLGetSessionState(context, &state)
        #expect(state == .aborted)
        #expect(handshake(context) == errSSLClosedAbort)  // a failed session stays failed
        return status
    }

    @Test func plaintextInsteadOfAHandshakeIsErrSSLProtocol() throws {
        let status = try serverOnRawClient { raw in raw.sendRaw(Data("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)) }
        #expect(status == errSSLProtocol)
    }

    @Test func randomBytesInsteadOfAHandshakeFailCleanly() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<8 {
            let garbage = Data((0..<600).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let status = try serverOnRawClient { raw in
                raw.sendRaw(garbage)
                raw.close()
            }
            #expect(status != errSecSuccess)
        }
    }

    @Test func aRecordHeaderThatClaimsTooMuchIsRefused() throws {
        // A handshake record announcing 65 535 bytes: refused from the header, without waiting for the bytes.
        let status = try serverOnRawClient { raw in raw.sendRaw(Data([0x16, 0x03, 0x01, 0xFF, 0xFF])) }
        #expect(status == errSSLRecordOverflow || status == errSSLProtocol)
    }

    @Test func peerClosingMidHandshakeIsErrSSLClosedAbort() throws {
        let status = try serverOnRawClient { raw in
            raw.sendRaw(Data([0x16, 0x03, 0x01, 0x01, 0x00]) + Data(repeating: 0x01, count: 40))
            raw.close()
        }
        #expect(status == errSSLClosedAbort)
    }

    @Test func serverClosingAfterTheClientHelloIsErrSSLClosedAbort() throws {
        let (listener, port) = try TestSocket.listen()
        let socket = try TestSocket.connect(port: port)
        let context = try makeContext(.clientSide, on: socket)
        let server = Thread {
            if let accepted = try? listener.accept() {
                var buffer = [UInt8](repeating: 0, count: 512)
                _ = read(accepted.fd, &buffer, buffer.count)
                accepted.close()
            }
        }
        server.start()
        #expect(handshake(context) == errSSLClosedAbort)
    }

    @Test func garbageFromTheServerIsErrSSLProtocol() throws {
        let (listener, port) = try TestSocket.listen()
        let socket = try TestSocket.connect(port: port)
        let context = try makeContext(.clientSide, on: socket)
        let accepted = try listener.accept()
        accepted.sendRaw(Data("HTTP/1.1 400 Bad Request\r\n\r\n".utf8))
        #expect(handshake(context) == errSSLProtocol)
    }

    @Test func truncatedRecordAfterTheHandshakeIsErrSSLClosedNoNotify() throws {
        let pair = try LoopbackPair(server: try pki.identity("server-ec"))
        _ = trustRoots(pair.client, [pki.root])
        let result = pair.handshake()
        #expect(result.client == errSecSuccess && result.server == errSecSuccess)
        pair.pipe.client.inject(Data([0x17, 0x03, 0x03, 0x00, 0x40]) + Data(repeating: 0xAB, count: 10))
        pair.pipe.client.closeWrite()
        var buffer = [UInt8](repeating: 0, count: 100)
        var processed = 0
        var status = errSSLWouldBlock
        for _ in 0..<5 where status == errSSLWouldBlock {
            status = SSLRead(pair.server, &buffer, buffer.count, &processed)
        }
        #expect(status == errSSLClosedNoNotify)
        #expect(SSLRead(pair.server, &buffer, buffer.count, &processed) == errSSLClosedNoNotify)
    }

    @Test func tamperedRecordIsErrSSLBadRecordMac() throws {
        let pair = try LoopbackPair(server: try pki.identity("server-ec"))
        _ = trustRoots(pair.client, [pki.root])
        _ = pair.handshake()
        // Let the server's tickets reach the client, then send one record and flip a bit of its ciphertext.
        var scratch = [UInt8](repeating: 0, count: 64)
        var processed = 0
        _ = SSLRead(pair.client, &scratch, scratch.count, &processed)
        #expect(sslWriteAll(pair.client, Data("secret".utf8)) == errSecSuccess)
        var record = pair.pipe.server.takeAvailable()
        #expect(record.count > 10)
        record[record.count - 3] ^= 0x01
        pair.pipe.client.inject(record)
        var buffer = [UInt8](repeating: 0, count: 100)
        #expect(SSLRead(pair.server, &buffer, buffer.count, &processed) == errSSLBadRecordMac)
    }

    @Test func aChainLongerThanTheCapIsRefused() throws {
        let pair = try LoopbackPair(server: try pki.identity("server-ec"))
        #expect(SSLSetClientSideAuthenticate(pair.server, .alwaysAuthenticate) == errSecSuccess)
        #expect(SSLSetCertificateAuthorities(pair.server, pki.root, true) == errSecSuccess)
        _ = trustRoots(pair.client, [pki.root])
        let padding = Array(repeating: pki.root, count: 11)  // leaf + 11 > TLSLimits.maximumPeerCertificates (10)
        #expect(SSLSetCertificate(pair.client, ([try pki.identity("client-ec")] + padding) as CFArray) == errSecSuccess)
        let result = pair.handshake()
        #expect(result.server == errSSLXCertChainInvalid)
        var buffer = [UInt8](repeating: 0, count: 10)
        var processed = 0
        let clientStatus =
            result.client == errSecSuccess ? SSLRead(pair.client, &buffer, buffer.count, &processed) : result.client
        #expect(clientStatus == errSSLPeerUnknownCA)
    }

    @Test func aCertificateMessageOverTheByteCapIsRefused() throws {
        let big = try BigCertificate.shared()
        let pair = try LoopbackPair(server: try pki.identity("server-ec"))
        #expect(SSLSetClientSideAuthenticate(pair.server, .alwaysAuthenticate) == errSecSuccess)
        _ = trustRoots(pair.client, [pki.root])
        // Five ~30 KiB certificates: under the count cap, over the 100 KiB certificate-message cap.
        let chain = [try pki.identity("client-ec")] + Array(repeating: big, count: 4) as [AnyObject]
        #expect(SSLSetCertificate(pair.client, chain as CFArray) == errSecSuccess)
        let result = pair.handshake()
        #expect(result.server == errSSLRecordOverflow)
    }

    @Test func aHandshakeThatNeverCompletesTimesOutOnTheServer() async throws {
        var configuration = TLSConfiguration()
        configuration.identity = try pki.identity("server-ec")
        configuration.handshakeTimeout = .milliseconds(500)
        let listener = try TLSListener(configuration: configuration)
        defer { listener.close() }
        let silent = try TestSocket.connect(port: listener.port)  // connects and says nothing
        let connection = try await listener.accept()
        await #expect(throws: TLSError(errSSLNetworkTimeout)) { try await connection.handshake() }
        silent.close()
    }

    @Test func aServerThatNeverAnswersTimesOutTheClient() async throws {
        let (listener, port) = try TestSocket.listen()  // accepts (backlog) but never speaks TLS
        var configuration = TLSConfiguration()
        configuration.handshakeTimeout = .milliseconds(500)
        await #expect(throws: TLSError(errSSLNetworkTimeout)) {
            _ = try await TLSConnection.connect(host: "127.0.0.1", port: port, configuration: configuration)
        }
        listener.close()
    }
}

/// A ~30 KiB self-signed certificate (a long nsComment), for the certificate-size cap.
enum BigCertificate {
    static func shared() throws -> SecCertificate {
        let pki = TLSTestPKI.shared
        let path = pki.path("big.pem")
        if !FileManager.default.fileExists(atPath: path) {
            try OpenSSLCLI.check([
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                pki.path("big.key"), "-out", path, "-subj", "/CN=Big", "-days", "3", "-addext",
                "nsComment=" + String(repeating: "x", count: 30_000),
            ])
        }
        return try TLSTestPKI.certificate(path)
    }
}
