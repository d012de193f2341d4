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
