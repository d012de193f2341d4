import Foundation
import OSecTLSCore
import Security

/// A client and a server SSLContext joined by an in-memory pipe, driven alternately on one thread.
final class LoopbackPair {
    let pipe = TLSLoopbackPipe(wouldBlockStatus: errSSLWouldBlock, closedStatus: errSSLClosedGraceful)
    let client: SSLContext
    let server: SSLContext

    init(server identity: SecIdentity, chain: [SecCertificate] = []) throws {
        guard let client = SSLCreateContext(nil, .clientSide, .streamType),
            let server = SSLCreateContext(nil, .serverSide, .streamType)
        else { throw TestFailure("SSLCreateContext") }
        self.client = client
        self.server = server
        guard SSLSetIOFuncs(client, TLSLoopbackPipe.read, TLSLoopbackPipe.write) == errSecSuccess,
            SSLSetConnection(client, pipe.client.connection) == errSecSuccess,
            SSLSetIOFuncs(server, TLSLoopbackPipe.read, TLSLoopbackPipe.write) == errSecSuccess,
            SSLSetConnection(server, pipe.server.connection) == errSecSuccess,
            SSLSetCertificate(server, ([identity] + chain) as CFArray) == errSecSuccess
        else { throw TestFailure("configuration") }
    }

    /// Steps both handshakes until neither would block (or `rounds` passed); the last status of each.
    func handshake(rounds: Int = 50) -> (client: OSStatus, server: OSStatus) {
        var clientStatus = errSSLWouldBlock
        var serverStatus = errSSLWouldBlock
        for _ in 0..<rounds {
            if clientStatus == errSSLWouldBlock { clientStatus = SSLHandshake(client) }
            if serverStatus == errSSLWouldBlock { serverStatus = SSLHandshake(server) }
            if clientStatus != errSSLWouldBlock && serverStatus != errSSLWouldBlock { break }
        }
        return (clientStatus, serverStatus)
    }

    /// Sends `data` from `from` and reads it at `to`.
    func transfer(_ data: Data, from: SSLContext, to: SSLContext) -> (Data, OSStatus) {
        let written = sslWriteAll(from, data)
        guard written == errSecSuccess else { return (Data(), written) }
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 32768)
        var idle = 0
        while result.count < data.count && idle < 3 {
            var processed = 0
            let status = SSLRead(to, &buffer, buffer.count, &processed)
            result.append(contentsOf: buffer[0..<processed])
            if status == errSSLWouldBlock {
                idle += 1
                continue
            }
            idle = 0
            if status != errSecSuccess { return (result, status) }
        }
        return (result, errSecSuccess)
    }
}
