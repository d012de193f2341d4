import Foundation
import Security
import Testing

/// The Secure Transport calls beyond the handshake itself: ALPN results, named session configurations, session
/// tickets, certificate-request names, Diffie-Hellman parameters, out-of-band errors and the datagram calls.
@Suite struct SecureTransportConfigurationTests {
    let pki = TLSTestPKI.shared

    func connectedPair(server: String = "server-ec") throws -> LoopbackPair {
        let pair = try LoopbackPair(server: try pki.identity(server))
        _ = trustRoots(pair.client, [pki.root])
        _ = setDomainName(pair.client, "localhost")
        return pair
    }

    /// A DER X.501 Name: SEQUENCE { SET { SEQUENCE { OID commonName, UTF8String name } } }.
    static func distinguishedName(_ commonName: String) -> Data {
        let value = [UInt8](commonName.utf8)
        let attribute: [UInt8] = [0x06, 0x03, 0x55, 0x04, 0x03, 0x0C, UInt8(value.count)] + value
        let sequence: [UInt8] = [0x30, UInt8(attribute.count)] + attribute
        let set: [UInt8] = [0x31, UInt8(sequence.count)] + sequence
        return Data([0x30, UInt8(set.count)] + set)
    }

    @Test func alpnResultIsARetainedArray() throws {
        let pair = try connectedPair()
        #expect(SSLSetALPNProtocols(pair.client, ["h2", "http/1.1"] as CFArray) == errSecSuccess)
        #expect(SSLSetALPNProtocols(pair.server, ["http/1.1"] as CFArray) == errSecSuccess)
        #expect(pair.handshake().client == errSecSuccess)
        var selected: Unmanaged<CFArray>?
        #expect(SSLCopyALPNProtocols(pair.client, &selected) == errSecSuccess)
        #expect(selected?.takeRetainedValue() as? [String] == ["http/1.1"])
        var offered: Unmanaged<CFArray>?
        #expect(SSLCopyALPNProtocols(pair.server, &offered) == errSecSuccess)
        #expect(offered?.takeRetainedValue() as? [String] == ["h2", "http/1.1"])
    }

    @Test func sessionConfigurationsSetVersionsAndSuites() throws {
        let pair = try connectedPair()
        #expect(SSLSetSessionConfig(pair.client, "no such configuration" as CFString) == errSecParam)
        #expect(SSLSetSessionConfig(pair.client, kSSLSessionConfig_ATSv1) == errSecSuccess)
        var minimum = SSLProtocol.sslProtocolUnknown
        var maximum = SSLProtocol.sslProtocolUnknown
        #expect(SSLGetProtocolVersionMin(pair.client, &minimum) == errSecSuccess)
        #expect(SSLGetProtocolVersionMax(pair.client, &maximum) == errSecSuccess)
        #expect(minimum == .tlsProtocol12 && maximum == .tlsProtocol12)
        var count = 0
        #expect(SSLGetNumberEnabledCiphers(pair.client, &count) == errSecSuccess)
        var suites = [SSLCipherSuite](repeating: 0, count: count)
        #expect(SSLGetEnabledCiphers(pair.client, &suites, &count) == errSecSuccess)
        // ATS v1: forward-secret (ECDHE) AES suites only.
        #expect(!suites.isEmpty)
        #expect(suites.allSatisfy { $0 >> 8 == 0xC0 })
        #expect(!suites.contains(TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256))
        #expect(!suites.contains(TLS_RSA_WITH_AES_128_GCM_SHA256))
        #expect(pair.handshake().client == errSecSuccess)
        var version = SSLProtocol.sslProtocolUnknown
        #expect(SSLGetNegotiatedProtocolVersion(pair.client, &version) == errSecSuccess)
        #expect(version == .tlsProtocol12)
        var cipher: SSLCipherSuite = 0
        #expect(SSLGetNegotiatedCipher(pair.client, &cipher) == errSecSuccess)
        #expect(suites.contains(cipher))
    }

    @Test func noPFSConfigurationAddsRSAKeyExchangeAndFallbackMarksTheClient() throws {
        let pair = try connectedPair()
        #expect(SSLSetSessionConfig(pair.client, kSSLSessionConfig_ATSv1_noPFS) == errSecSuccess)
        var count = 0
        #expect(SSLGetNumberEnabledCiphers(pair.client, &count) == errSecSuccess)
        var suites = [SSLCipherSuite](repeating: 0, count: count)
        #expect(SSLGetEnabledCiphers(pair.client, &suites, &count) == errSecSuccess)
        #expect(suites.contains(TLS_RSA_WITH_AES_128_GCM_SHA256))
        var fallback: DarwinBoolean = true
        #expect(SSLGetSessionOption(pair.client, .fallback, &fallback) == errSecSuccess)
        #expect(fallback == false)
        #expect(SSLSetSessionConfig(pair.client, kSSLSessionConfig_TLSv1_fallback) == errSecSuccess)
        #expect(SSLGetSessionOption(pair.client, .fallback, &fallback) == errSecSuccess)
        #expect(fallback == true)
        var maximum = SSLProtocol.sslProtocolUnknown
        #expect(SSLGetProtocolVersionMax(pair.client, &maximum) == errSecSuccess)
        #expect(maximum == .tlsProtocol1)
    }

    @Test func anonymousConfigurationHasNoSuiteToOffer() throws {
        let pair = try connectedPair()
        #expect(SSLSetSessionConfig(pair.client, kSSLSessionConfig_anonymous) == errSecSuccess)
        var count = -1
        #expect(SSLGetNumberEnabledCiphers(pair.client, &count) == errSecSuccess)
        #expect(count == 0)
        #expect(SSLHandshake(pair.client) == errSSLNegotiation)
    }

    @Test func sessionTicketsSwitchIsTheSessionOption() throws {
        let pair = try connectedPair()
        var value: DarwinBoolean = false
        #expect(SSLSetSessionTicketsEnabled(pair.client, false) == errSecSuccess)
        #expect(SSLGetSessionOption(pair.client, .enableSessionTickets, &value) == errSecSuccess)
        #expect(value == false)
        #expect(SSLSetSessionTicketsEnabled(pair.client, true) == errSecSuccess)
        #expect(SSLGetSessionOption(pair.client, .enableSessionTickets, &value) == errSecSuccess)
        #expect(value == true)
        #expect(pair.handshake().client == errSecSuccess)
        #expect(SSLSetSessionTicketsEnabled(pair.client, false) == errSecBadReq)
    }

    @Test func addedDistinguishedNamesGoIntoTheCertificateRequest() throws {
        let pair = try connectedPair()
        let first = Self.distinguishedName("First Acceptable CA")
        let second = Self.distinguishedName("Second Acceptable CA")
        #expect(SSLSetClientSideAuthenticate(pair.server, .tryAuthenticate) == errSecSuccess)
        #expect(SSLSetCertificateAuthorities(pair.server, pki.root, true) == errSecSuccess)
        let added = first.withUnsafeBytes { SSLAddDistinguishedName(pair.server, $0.baseAddress, $0.count) }
        #expect(added == errSecSuccess)
        let again = second.withUnsafeBytes { SSLAddDistinguishedName(pair.server, $0.baseAddress, $0.count) }
        #expect(again == errSecSuccess)
        let garbage = Data([0x30, 0x03, 0x01])
        #expect(
            garbage.withUnsafeBytes { SSLAddDistinguishedName(pair.server, $0.baseAddress, $0.count) } == errSecParam)
        #expect(SSLAddDistinguishedName(pair.server, nil, 0) == errSecParam)
        var serverNames: CFArray?
        #expect(SSLCopyDistinguishedNames(pair.server, &serverNames) == errSecSuccess)
        let listed = try #require(serverNames as? [Data])
        #expect(listed.count == 3)
        #expect(Array(listed.prefix(2)) == [second, first])  // the most recently added first, as Apple keeps them
        #expect(SSLSetSessionOption(pair.client, .breakOnCertRequested, true) == errSecSuccess)
        #expect(pair.handshake().client == errSSLClientCertRequested)
        var clientNames: CFArray?
        #expect(SSLCopyDistinguishedNames(pair.client, &clientNames) == errSecSuccess)
        #expect((clientNames as? [Data]).map(Set.init) == Set(listed))
        // Replacing the authorities drops the added names too.
        let fresh = try connectedPair()
        _ = first.withUnsafeBytes { SSLAddDistinguishedName(fresh.server, $0.baseAddress, $0.count) }
        #expect(SSLSetCertificateAuthorities(fresh.server, pki.root, true) == errSecSuccess)
        var replaced: CFArray?
        #expect(SSLCopyDistinguishedNames(fresh.server, &replaced) == errSecSuccess)
        #expect((replaced as? [Data])?.count == 1)
    }

    @Test func diffieHellmanParametersAreKeptAndReturned() throws {
        let pair = try connectedPair()
        // DHParameter { prime 23, base 5 } (PKCS #3).
        let parameters = Data([0x30, 0x06, 0x02, 0x01, 0x17, 0x02, 0x01, 0x05])
        var pointer: UnsafeRawPointer?
        var length = -1
        #expect(SSLGetDiffieHellmanParams(pair.server, &pointer, &length) == errSecSuccess)
        #expect(pointer == nil && length == 0)
        let set = parameters.withUnsafeBytes { SSLSetDiffieHellmanParams(pair.server, $0.baseAddress, $0.count) }
        #expect(set == errSecSuccess)
        #expect(SSLGetDiffieHellmanParams(pair.server, &pointer, &length) == errSecSuccess)
        #expect(pointer.map { Data(bytes: $0, count: length) } == parameters)
        let notDER = Data([0x02, 0x01])
        #expect(
            notDER.withUnsafeBytes { SSLSetDiffieHellmanParams(pair.server, $0.baseAddress, $0.count) } == errSecParam)
        #expect(pair.handshake().client == errSecSuccess)  // unused: no DHE suite is offered
    }

    @Test func setErrorAbortsTheSessionWithTheApplicationsStatus() throws {
        let pair = try connectedPair()
        #expect(pair.handshake().client == errSecSuccess)
        let applicationStatus: OSStatus = -12_345
        #expect(SSLSetError(pair.client, applicationStatus) == errSecSuccess)
        var state = SSLSessionState.idle
        #expect(SSLGetSessionState(pair.client, &state) == errSecSuccess)
        #expect(state == .aborted)
        var buffer = [UInt8](repeating: 0, count: 16)
        var processed = 0
        #expect(SSLRead(pair.client, &buffer, buffer.count, &processed) == applicationStatus)
        #expect(SSLWrite(pair.client, buffer, buffer.count, &processed) == applicationStatus)
        #expect(SSLHandshake(pair.client) == applicationStatus)
    }

    @Test func datagramCallsAnswerAsOnAStreamContext() throws {
        let pair = try connectedPair()
        var size = 7
        #expect(SSLSetMaxDatagramRecordSize(pair.client, 1400) == errSecParam)
        #expect(SSLGetMaxDatagramRecordSize(pair.client, &size) == errSecParam)
        #expect(SSLGetDatagramWriteSize(pair.client, &size) == errSecParam)
        #expect(size == 7)
        let cookie = [UInt8](repeating: 1, count: 16)
        #expect(SSLSetDatagramHelloCookie(pair.server, cookie, cookie.count) == errSecParam)
    }

    @Test func encryptionCertificateIsAcceptedBeforeTheSession() throws {
        let pair = try connectedPair()
        #expect(SSLSetEncryptionCertificate(pair.server, [try pki.identity("server-rsa")] as CFArray) == errSecSuccess)
        #expect(pair.handshake().server == errSecSuccess)
        #expect(SSLSetEncryptionCertificate(pair.server, [] as CFArray) == errSecBadReq)
    }

    @Test func cipherSuiteNumbersAndGroupsAreApples() {
        #expect(SSL_NULL_WITH_NULL_NULL == 0 && TLS_NULL_WITH_NULL_NULL == 0)
        #expect(SSL_RSA_WITH_3DES_EDE_CBC_SHA == 0x000A && TLS_RSA_WITH_3DES_EDE_CBC_SHA == 0x000A)
        #expect(TLS_AES_128_CCM_8_SHA256 == 0x1305)
        #expect(TLS_ECDHE_PSK_WITH_AES_256_CBC_SHA == 0xC036)
        #expect(TLS_PSK_WITH_CHACHA20_POLY1305_SHA256 == 0xCCAB)
        #expect(TLS_EMPTY_RENEGOTIATION_INFO_SCSV == 0x00FF)
        #expect(SSL_NO_SUCH_CIPHERSUITE == 0xFFFF)
        #expect(SSLCiphersuiteGroup.ATS.rawValue == 3)
        #expect(SSLCiphersuiteGroup.ATSCompatibility == .atsCompatibility)
        #expect(SSLCiphersuiteGroup(rawValue: 0) == .default)
    }
}
