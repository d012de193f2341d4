import Foundation
import Security
import Testing

// A TLS client and server written the way older Apple code uses Secure Transport: C-convention read and write
// callbacks, a connection reference made from an object with Unmanaged, a handshake loop on errSSLWouldBlock that
// also stops at errSSLPeerAuthCompleted to evaluate the peer's trust itself, ALPN read back as an Unmanaged array,
// and a predefined session configuration.

/// One end of an in-memory connection (what a socket would be): bytes written here arrive at `peer`.
private final class MemoryEndpoint {
    var inbox: [UInt8] = []
    weak var peer: MemoryEndpoint?

    var connection: SSLConnectionRef { UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }

    static func pair() -> (MemoryEndpoint, MemoryEndpoint) {
        let a = MemoryEndpoint()
        let b = MemoryEndpoint()
        a.peer = b
        b.peer = a
        return (a, b)
    }
}

private let memoryRead: SSLReadFunc = { connection, data, dataLength in
    let endpoint = Unmanaged<MemoryEndpoint>.fromOpaque(connection).takeUnretainedValue()
    let wanted = dataLength.pointee
    let count = min(wanted, endpoint.inbox.count)
    endpoint.inbox.withUnsafeBytes { bytes in
        if let base = bytes.baseAddress, count > 0 { data.copyMemory(from: base, byteCount: count) }
    }
    endpoint.inbox.removeFirst(count)
    dataLength.pointee = count
    return count < wanted ? errSSLWouldBlock : noErr
}

private let memoryWrite: SSLWriteFunc = { connection, data, dataLength in
    let endpoint = Unmanaged<MemoryEndpoint>.fromOpaque(connection).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: data, count: dataLength.pointee)
    endpoint.peer?.inbox.append(contentsOf: bytes)
    return noErr
}

/// A self-signed server identity for "localhost", made with the openssl command as a test fixture would be.
private func makeServerIdentity() throws -> (SecIdentity, SecCertificate) {
    let directory = NSTemporaryDirectory() + "osec-st-program-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
    try openssl([
        "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
        directory + "/key.pem", "-out", directory + "/cert.pem", "-subj", "/CN=localhost", "-days", "2",
        "-addext", "subjectAltName=DNS:localhost",
    ])
    try openssl([
        "pkcs12", "-export", "-inkey", directory + "/key.pem", "-in", directory + "/cert.pem", "-out",
        directory + "/id.p12", "-passout", "pass:program",
    ])
    let p12 = try Data(contentsOf: URL(fileURLWithPath: directory + "/id.p12"))
    var items: CFArray?
    let options = [kSecImportExportPassphrase as String: "program"] as CFDictionary
    guard SecPKCS12Import(p12 as CFData, options, &items) == errSecSuccess,
        let first = (items as? [[String: Any]])?.first,
        let identity = first[kSecImportItemIdentity as String] as? SecIdentity
    else { throw CocoaError(.fileReadCorruptFile) }
    var certificate: SecCertificate?
    guard SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess, let certificate else {
        throw CocoaError(.fileReadCorruptFile)
    }
    return (identity, certificate)
}

@Suite struct SecureTransportProgramTests {
    @Test func appleStyleClientAndServerNegotiateOverCallbacks() throws {
        let (identity, anchor) = try makeServerIdentity()
        let (clientEnd, serverEnd) = MemoryEndpoint.pair()
        let client = try #require(SSLCreateContext(kCFAllocatorDefault, .clientSide, .streamType))
        let server = try #require(SSLCreateContext(kCFAllocatorDefault, .serverSide, .streamType))
        #expect(SSLSetIOFuncs(client, memoryRead, memoryWrite) == noErr)
        #expect(SSLSetIOFuncs(server, memoryRead, memoryWrite) == noErr)
        #expect(SSLSetConnection(client, clientEnd.connection) == noErr)
        #expect(SSLSetConnection(server, serverEnd.connection) == noErr)
        let host = "localhost"
        #expect(SSLSetPeerDomainName(client, host, host.utf8.count) == noErr)
        #expect(SSLSetCertificate(server, [identity] as CFArray) == noErr)
        #expect(SSLSetSessionConfig(client, kSSLSessionConfig_standard) == noErr)
        #expect(SSLSetALPNProtocols(client, ["h2", "http/1.1"] as CFArray) == noErr)
        #expect(SSLSetALPNProtocols(server, ["h2"] as CFArray) == noErr)
        #expect(SSLSetSessionOption(client, .breakOnServerAuth, true) == noErr)

        var clientStatus = errSSLWouldBlock
        var serverStatus = errSSLWouldBlock
        var trustEvaluated = false
        for _ in 0..<100 where clientStatus != noErr || serverStatus != noErr {
            if clientStatus != noErr {
                clientStatus = SSLHandshake(client)
                if clientStatus == errSSLPeerAuthCompleted {
                    var trust: SecTrust?
                    #expect(SSLCopyPeerTrust(client, &trust) == noErr)
                    let peerTrust = try #require(trust)
                    #expect(SecTrustSetAnchorCertificates(peerTrust, [anchor] as CFArray) == noErr)
                    var error: CFError?
                    trustEvaluated = SecTrustEvaluateWithError(peerTrust, &error)
                    #expect(error == nil)
                    clientStatus = errSSLWouldBlock  // continue the handshake
                }
            }
            if serverStatus != noErr { serverStatus = SSLHandshake(server) }
            guard clientStatus == noErr || clientStatus == errSSLWouldBlock,
                serverStatus == noErr || serverStatus == errSSLWouldBlock
            else { break }
        }
        #expect(clientStatus == noErr)
        #expect(serverStatus == noErr)
        #expect(trustEvaluated)

        var version = SSLProtocol.sslProtocolUnknown
        #expect(SSLGetNegotiatedProtocolVersion(client, &version) == noErr)
        #expect(version == .tlsProtocol12)  // kSSLSessionConfig_standard tops out at TLS 1.2
        var protocols: Unmanaged<CFArray>?
        #expect(SSLCopyALPNProtocols(client, &protocols) == noErr)
        let negotiated = protocols?.takeRetainedValue() as? [String]
        #expect(negotiated == ["h2"])

        let request = Array("GET / HTTP/1.1\r\n\r\n".utf8)
        var processed = 0
        #expect(SSLWrite(client, request, request.count, &processed) == noErr)
        #expect(processed == request.count)
        var buffer = [UInt8](repeating: 0, count: 256)
        #expect(SSLRead(server, &buffer, buffer.count, &processed) == noErr)
        #expect(Array(buffer[0..<processed]) == request)
        #expect(SSLClose(client) == noErr)
        #expect(SSLRead(server, &buffer, buffer.count, &processed) == errSSLClosedGraceful)
    }
}

@Suite struct SecRandomHandleTests {
    @Test func defaultGeneratorIsAnOpaquePointerAndNilWorksToo() {
        let generator: SecRandomRef = kSecRandomDefault
        let optional: SecRandomRef? = generator
        var first = [UInt8](repeating: 0, count: 32)
        var second = [UInt8](repeating: 0, count: 32)
        #expect(SecRandomCopyBytes(optional, first.count, &first) == errSecSuccess)
        #expect(SecRandomCopyBytes(nil, second.count, &second) == errSecSuccess)
        #expect(first != second)
        #expect(first != [UInt8](repeating: 0, count: 32))
    }
}
