import Foundation
import OSecTLSCore

// Apple's Secure Transport functions (Security/SecureTransport.h): creating and configuring an SSLContext.
// Configuration calls made while a session is active return errSecBadReq, as Apple's do.

/// Apple's `SSLContextGetTypeID`.
public func SSLContextGetTypeID() -> CFTypeID { 0x5EC0_0010 }

/// Apple's `SSLCreateContext`: a client or server context. Datagram (DTLS) contexts are not supported → nil.
public func SSLCreateContext(
    _ alloc: CFAllocator?, _ protocolSide: SSLProtocolSide, _ connectionType: SSLConnectionType
) -> SSLContext? {
    guard connectionType == .streamType else { return nil }
    return SSLContext(side: protocolSide)
}

/// Runs a configuration change unless a session is active (errSecBadReq).
func configure(_ context: SSLContext, _ body: () -> OSStatus) -> OSStatus {
    context.locked {
        guard !context.isSessionActive else { return errSecBadReq }
        return body()
    }
}

/// Apple's `SSLSetIOFuncs`: the callbacks that move the encrypted bytes.
public func SSLSetIOFuncs(_ context: SSLContext, _ readFunc: SSLReadFunc, _ writeFunc: SSLWriteFunc) -> OSStatus {
    configure(context) {
        context.readFunc = readFunc
        context.writeFunc = writeFunc
        return errSecSuccess
    }
}

/// Apple's `SSLSetConnection`: the reference passed to the I/O callbacks.
public func SSLSetConnection(_ context: SSLContext, _ connection: SSLConnectionRef?) -> OSStatus {
    configure(context) {
        context.connection = connection
        return errSecSuccess
    }
}

/// Apple's `SSLGetConnection`.
public func SSLGetConnection(_ context: SSLContext, _ connection: UnsafeMutablePointer<SSLConnectionRef?>) -> OSStatus {
    connection.pointee = context.locked { context.connection }
    return errSecSuccess
}

/// Apple's `SSLSetPeerDomainName`: the server's name, sent as SNI (not for IP literals) and checked against the
/// server certificate. `nil` clears it. A trailing NUL in `peerNameLen` is ignored.
public func SSLSetPeerDomainName(
    _ context: SSLContext, _ peerName: UnsafePointer<CChar>?, _ peerNameLen: Int
) -> OSStatus {
    configure(context) {
        guard let peerName, peerNameLen > 0 else {
            context.peerDomainName = nil
            return errSecSuccess
        }
        var bytes = Data(bytes: peerName, count: peerNameLen)
        while bytes.last == 0 { bytes.removeLast() }
        guard !bytes.contains(0), let name = String(data: bytes, encoding: .utf8) else { return errSecParam }
        context.peerDomainName = name
        return errSecSuccess
    }
}

/// Apple's `SSLGetPeerDomainNameLength`.
public func SSLGetPeerDomainNameLength(_ context: SSLContext, _ peerNameLen: UnsafeMutablePointer<Int>) -> OSStatus {
    peerNameLen.pointee = context.locked { context.peerDomainName?.utf8.count ?? 0 }
    return errSecSuccess
}

/// Apple's `SSLGetPeerDomainName`: copies the name (no terminating NUL); errSSLBufferOverflow if it does not fit.
public func SSLGetPeerDomainName(
    _ context: SSLContext, _ peerName: UnsafeMutablePointer<CChar>, _ peerNameLen: UnsafeMutablePointer<Int>
) -> OSStatus {
    let bytes = Array(context.locked { context.peerDomainName ?? "" }.utf8)
    guard bytes.count <= peerNameLen.pointee else { return errSSLBufferOverflow }
    for (index, byte) in bytes.enumerated() { peerName[index] = CChar(bitPattern: byte) }
    peerNameLen.pointee = bytes.count
    return errSecSuccess
}

/// Apple's `SSLCopyRequestedPeerNameLength` (server): the length of the name the client asked for (SNI).
public func SSLCopyRequestedPeerNameLength(_ ctx: SSLContext, _ peerNameLen: UnsafeMutablePointer<Int>) -> OSStatus {
    guard let name = ctx.locked({ ctx.engine?.requestedServerName }) else { return errSecParam }
    peerNameLen.pointee = name.utf8.count
    return errSecSuccess
}

/// Apple's `SSLCopyRequestedPeerName` (server): the name the client asked for (SNI).
public func SSLCopyRequestedPeerName(
    _ context: SSLContext, _ peerName: UnsafeMutablePointer<CChar>, _ peerNameLen: UnsafeMutablePointer<Int>
) -> OSStatus {
    guard let name = context.locked({ context.engine?.requestedServerName }) else { return errSecParam }
    let bytes = Array(name.utf8)
    guard bytes.count <= peerNameLen.pointee else { return errSSLBufferOverflow }
    for (index, byte) in bytes.enumerated() { peerName[index] = CChar(bitPattern: byte) }
    peerNameLen.pointee = bytes.count
    return errSecSuccess
}

/// Apple's `SSLSetCertificate`: a `SecIdentity` followed by the certificates to send after its own (the
/// intermediates, optionally the root); nil clears. Allowed while a client is paused at errSSLClientCertRequested
/// (and a server at errSSLClientHelloReceived).
public func SSLSetCertificate(_ context: SSLContext, _ certRefs: CFArray?) -> OSStatus {
    context.locked {
        var identity: SecIdentity?
        var chain: [SecCertificate] = []
        if let certRefs {
            guard certRefs.count > 0, let first = certRefs.firstObject as? SecIdentity else { return errSecParam }
            for element in certRefs.dropFirst() {
                guard let certificate = element as? SecCertificate else { return errSecParam }
                chain.append(certificate)
            }
            identity = first
        }
        if context.isSessionActive {
            // Only a paused handshake accepts a new certificate.
            guard context.state == .handshake, context.engine != nil else { return errSecBadReq }
        }
        let credential: TLSCredential?
        do {
            credential = try identity.map { try TLSCredentialCache.credential(for: $0, chain: chain) }
            if context.isSessionActive { try context.engine?.setCredential(credential) }
        } catch {
            return errSSLBadConfiguration  // e.g. a key type libssl cannot sign with
        }
        context.identity = identity
        context.chainCertificates = chain
        context.credential = credential
        return errSecSuccess
    }
}

/// Apple's `SSLSetClientSideAuthenticate` (server): whether to ask for a client certificate.
public func SSLSetClientSideAuthenticate(_ context: SSLContext, _ auth: SSLAuthenticate) -> OSStatus {
    configure(context) {
        guard context.side == .serverSide else { return errSecParam }
        context.clientAuthentication = auth
        return errSecSuccess
    }
}

/// Apple's `SSLSetCertificateAuthorities` (server): CA certificates whose names go into the certificate request;
/// they are also the anchors client certificates are evaluated against (replacing the system store). A
/// certificate or an array; `replaceExisting` false appends, true also drops the names `SSLAddDistinguishedName`
/// added (as Apple's does).
public func SSLSetCertificateAuthorities(
    _ context: SSLContext, _ certificateOrArray: CFTypeRef, _ replaceExisting: Bool
) -> OSStatus {
    configure(context) {
        guard context.side == .serverSide, let certificates = trustCertificates(certificateOrArray) else {
            return errSecParam
        }
        context.certificateAuthorities = (replaceExisting ? [] : context.certificateAuthorities ?? []) + certificates
        if replaceExisting { context.acceptableNames = [] }
        for certificate in certificates {
            context.acceptableNames.insert(Data(certificate.certificate.subject.derBytes), at: 0)
        }
        return errSecSuccess
    }
}

/// Apple's `SSLCopyCertificateAuthorities`: nil when none were set.
public func SSLCopyCertificateAuthorities(
    _ context: SSLContext, _ certificates: UnsafeMutablePointer<CFArray?>
) -> OSStatus {
    certificates.pointee = context.locked { context.certificateAuthorities.map { $0 as NSArray } }
    return errSecSuccess
}

/// Apple's `SSLCopyDistinguishedNames`: on a server the names its certificate request lists (DER, the most
/// recently added first, as Apple's list is kept: `SSLSetCertificateAuthorities` subjects and
/// `SSLAddDistinguishedName` names); on a client the names the server listed. nil when there are none.
public func SSLCopyDistinguishedNames(_ context: SSLContext, _ names: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    names.pointee = context.locked { () -> NSArray? in
        if context.side == .serverSide {
            guard !context.acceptableNames.isEmpty else { return nil }
            return context.acceptableNames.map { $0 as NSData } as NSArray
        }
        guard let received = context.engine?.receivedCertificateAuthorityNames, !received.isEmpty else { return nil }
        return received.map { $0 as NSData } as NSArray
    }
    return errSecSuccess
}

/// Apple's (macOS) `SSLSetTrustedRoots`: anchors for the peer's chain; `replaceExisting` true makes them the only
/// ones, false adds them to the system store. Deprecated by Apple in favour of `kSSLSessionOptionBreakOnServerAuth`
/// and evaluating `SSLCopyPeerTrust` yourself.
@available(*, deprecated, message: "use kSSLSessionOptionBreakOnServerAuth and evaluate SSLCopyPeerTrust")
public func SSLSetTrustedRoots(_ context: SSLContext, _ trustedRoots: CFArray, _ replaceExisting: Bool) -> OSStatus {
    configure(context) {
        guard let roots = certificateArray(trustedRoots) else { return errSecParam }
        context.trustedRoots = (replaceExisting ? [] : context.trustedRoots ?? []) + roots
        context.trustedRootsOnly = replaceExisting
        return errSecSuccess
    }
}

/// Apple's (macOS) `SSLCopyTrustedRoots`: the roots set with `SSLSetTrustedRoots` (empty when none).
@available(*, deprecated, message: "use SSLCopyPeerTrust and SecTrustCopyCustomAnchorCertificates")
public func SSLCopyTrustedRoots(_ context: SSLContext, _ trustedRoots: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    trustedRoots.pointee = context.locked { (context.trustedRoots ?? []) as NSArray }
    return errSecSuccess
}

/// Apple's (macOS) `SSLSetEnableCertVerify`: false skips the certificate decision (the caller's responsibility).
@available(*, deprecated, message: "use kSSLSessionOptionBreakOnServerAuth")
public func SSLSetEnableCertVerify(_ context: SSLContext, _ enableVerify: Bool) -> OSStatus {
    configure(context) {
        context.certificateVerificationEnabled = enableVerify
        return errSecSuccess
    }
}

/// Apple's `SSLSetSessionOption`.
public func SSLSetSessionOption(_ context: SSLContext, _ option: SSLSessionOption, _ value: Bool) -> OSStatus {
    configure(context) {
        context.sessionOptions[option] = value
        return errSecSuccess
    }
}

/// Apple's `SSLGetSessionOption`.
public func SSLGetSessionOption(
    _ context: SSLContext, _ option: SSLSessionOption, _ value: UnsafeMutablePointer<DarwinBoolean>
) -> OSStatus {
    value.pointee = DarwinBoolean(context.locked { context.option(option) })
    return errSecSuccess
}

/// Apple's `SSLSetProtocolVersionMin`. TLS 1.0 and 1.1 are refused unless asked for here (Apple's current
/// default is TLS 1.2); SSL 3.0 is not supported and clamps to TLS 1.0; DTLS versions → errSecParam.
public func SSLSetProtocolVersionMin(_ context: SSLContext, _ minVersion: SSLProtocol) -> OSStatus {
    configure(context) {
        guard SecureTransportVersions.isConfigurable(minVersion) else { return errSecParam }
        context.minimumVersion = minVersion == .tlsProtocolMaxSupported ? .tlsProtocol13 : minVersion
        return errSecSuccess
    }
}

/// Apple's `SSLGetProtocolVersionMin`.
public func SSLGetProtocolVersionMin(_ context: SSLContext, _ minVersion: UnsafeMutablePointer<SSLProtocol>) -> OSStatus
{
    minVersion.pointee = context.locked { context.minimumVersion }
    return errSecSuccess
}

/// Apple's `SSLSetProtocolVersionMax`.
public func SSLSetProtocolVersionMax(_ context: SSLContext, _ maxVersion: SSLProtocol) -> OSStatus {
    configure(context) {
        guard SecureTransportVersions.isConfigurable(maxVersion), maxVersion != .sslProtocol3 else {
            return errSecParam
        }
        context.maximumVersion = maxVersion == .tlsProtocolMaxSupported ? .tlsProtocol13 : maxVersion
        return errSecSuccess
    }
}

/// Apple's `SSLGetProtocolVersionMax`.
public func SSLGetProtocolVersionMax(_ context: SSLContext, _ maxVersion: UnsafeMutablePointer<SSLProtocol>) -> OSStatus
{
    maxVersion.pointee = context.locked { context.maximumVersion }
    return errSecSuccess
}

/// Apple's `SSLGetNegotiatedProtocolVersion`: `sslProtocolUnknown` until a handshake completed.
public func SSLGetNegotiatedProtocolVersion(
    _ context: SSLContext, _ protocol: UnsafeMutablePointer<SSLProtocol>
) -> OSStatus {
    `protocol`.pointee = SecureTransportVersions.protocolVersion(context.locked { context.engine?.negotiatedVersion })
    return errSecSuccess
}

/// Apple's `SSLGetNegotiatedCipher`: errSecBadReq when no session is established.
public func SSLGetNegotiatedCipher(
    _ context: SSLContext, _ cipherSuite: UnsafeMutablePointer<SSLCipherSuite>
) -> OSStatus {
    guard let suite = context.locked({ context.engine?.negotiatedCipherSuite }) else { return errSecBadReq }
    cipherSuite.pointee = suite
    return errSecSuccess
}

/// Apple's `SSLGetNumberSupportedCiphers`.
public func SSLGetNumberSupportedCiphers(_ context: SSLContext, _ numCiphers: UnsafeMutablePointer<Int>) -> OSStatus {
    numCiphers.pointee = TLSCipherSuites.all.count
    return errSecSuccess
}

/// Apple's `SSLGetSupportedCiphers`: errSSLBufferOverflow when `*numCiphers` is too small.
public func SSLGetSupportedCiphers(
    _ context: SSLContext, _ ciphers: UnsafeMutablePointer<SSLCipherSuite>, _ numCiphers: UnsafeMutablePointer<Int>
) -> OSStatus {
    copyCiphers(TLSCipherSuites.all.map(\.number), ciphers, numCiphers)
}

/// Apple's `SSLSetEnabledCiphers`: unsupported numbers are ignored; none supported → errSecParam.
public func SSLSetEnabledCiphers(
    _ context: SSLContext, _ ciphers: UnsafePointer<SSLCipherSuite>, _ numCiphers: Int
) -> OSStatus {
    configure(context) {
        guard numCiphers > 0 else { return errSecParam }
        let requested = (0..<numCiphers).map { ciphers[$0] }
        let supported = TLSCipherSuites.suites(requested).map(\.number)
        guard !supported.isEmpty else { return errSecParam }
        context.enabledCiphers = supported
        return errSecSuccess
    }
}

/// Apple's `SSLGetNumberEnabledCiphers`.
public func SSLGetNumberEnabledCiphers(_ context: SSLContext, _ numCiphers: UnsafeMutablePointer<Int>) -> OSStatus {
    numCiphers.pointee = context.locked { context.enabledCiphers?.count ?? TLSCipherSuites.all.count }
    return errSecSuccess
}

/// Apple's `SSLGetEnabledCiphers`.
public func SSLGetEnabledCiphers(
    _ context: SSLContext, _ ciphers: UnsafeMutablePointer<SSLCipherSuite>, _ numCiphers: UnsafeMutablePointer<Int>
) -> OSStatus {
    copyCiphers(context.locked { context.enabledCiphers ?? TLSCipherSuites.all.map(\.number) }, ciphers, numCiphers)
}

private func copyCiphers(
    _ list: [SSLCipherSuite], _ ciphers: UnsafeMutablePointer<SSLCipherSuite>, _ numCiphers: UnsafeMutablePointer<Int>
) -> OSStatus {
    guard list.count <= numCiphers.pointee else { return errSSLBufferOverflow }
    for (index, suite) in list.enumerated() { ciphers[index] = suite }
    numCiphers.pointee = list.count
    return errSecSuccess
}

/// Apple's `SSLSetALPNProtocols`: a client offers these (RFC 7301); a server selects the first of its list the
/// client offered. Empty, non-string elements, or names outside 1–255 bytes → errSecParam.
public func SSLSetALPNProtocols(_ context: SSLContext, _ protocols: CFArray) -> OSStatus {
    configure(context) {
        var names: [String] = []
        for element in protocols {
            guard let name = (element as? NSString).map({ String($0) }) ?? (element as? String),
                (1...TLSLimits.maximumALPNNameBytes).contains(name.utf8.count)
            else { return errSecParam }
            names.append(name)
        }
        guard !names.isEmpty, names.count <= TLSLimits.maximumALPNProtocols else { return errSecParam }
        context.applicationProtocols = names
        return errSecSuccess
    }
}

/// Apple's `SSLCopyALPNProtocols`: the peer's ALPN data — on a client the protocol the server selected, on a
/// server the list the client offered — as a +1 (retained) array: take it with `takeRetainedValue()`.
/// errSecParam, with `protocols` set to nil, when there is none.
public func SSLCopyALPNProtocols(
    _ context: SSLContext, _ protocols: UnsafeMutablePointer<Unmanaged<CFArray>?>
) -> OSStatus {
    let list = context.locked { () -> [String] in
        guard let engine = context.engine else { return [] }
        if context.side == .serverSide { return engine.offeredProtocols }
        return engine.negotiatedApplicationProtocol.map { [$0] } ?? []
    }
    guard !list.isEmpty else {
        protocols.pointee = nil
        return errSecParam
    }
    protocols.pointee = Unmanaged.passRetained(list.map { NSString(string: $0) } as NSArray)
    return errSecSuccess
}

/// Apple's `SSLSetPeerID`: a client with a peer ID resumes the session it last established under the same ID
/// (the bytes are compared exactly; the cache is process-wide). Servers resume any valid session a client offers.
public func SSLSetPeerID(_ context: SSLContext, _ peerID: UnsafeRawPointer?, _ peerIDLen: Int) -> OSStatus {
    configure(context) {
        guard let peerID, peerIDLen > 0 else {
            context.peerID = nil
            return errSecSuccess
        }
        context.peerID = TLSStableBytes(Data(bytes: peerID, count: peerIDLen))
        return errSecSuccess
    }
}

/// Apple's `SSLGetPeerID`: a pointer to the context's copy (valid while the context lives), or NULL and 0.
public func SSLGetPeerID(
    _ context: SSLContext, _ peerID: UnsafeMutablePointer<UnsafeRawPointer?>, _ peerIDLen: UnsafeMutablePointer<Int>
) -> OSStatus {
    let stored = context.locked { context.peerID }
    peerID.pointee = stored?.pointer
    peerIDLen.pointee = stored?.count ?? 0
    return errSecSuccess
}

/// OpenSecurity extra (Apple's is the private `SSLGetResumableSessionInfo`): whether the established session was
/// resumed from an earlier one (no certificates were exchanged).
public func SSLGetSessionWasResumed(_ context: SSLContext, _ resumed: UnsafeMutablePointer<Bool>) -> OSStatus {
    guard let engine = context.locked({ context.engine }), context.locked({ context.handshakeFinished }) else {
        resumed.pointee = false
        return errSecBadReq
    }
    resumed.pointee = context.locked { engine.sessionWasResumed }
    return errSecSuccess
}

/// Apple's `SSLGetSessionState`.
public func SSLGetSessionState(_ context: SSLContext, _ state: UnsafeMutablePointer<SSLSessionState>) -> OSStatus {
    state.pointee = context.locked { context.state }
    return errSecSuccess
}

/// Apple's `SSLGetClientCertificateState`.
public func SSLGetClientCertificateState(
    _ context: SSLContext, _ clientState: UnsafeMutablePointer<SSLClientCertificateState>
) -> OSStatus {
    clientState.pointee = context.locked { context.clientCertificateState }
    return errSecSuccess
}

/// Apple's `SSLCopyPeerTrust`: the peer's certificates in a `SecTrust` with the SSL policy; nil before the
/// peer's certificates arrived. Evaluated already, unless verification was left to the caller
/// (`kSSLSessionOptionBreakOnServerAuth` / `BreakOnClientAuth`) or the session was resumed.
public func SSLCopyPeerTrust(_ context: SSLContext, _ trust: UnsafeMutablePointer<SecTrust?>) -> OSStatus {
    trust.pointee = context.locked { context.currentPeerTrust() }
    return errSecSuccess
}

/// Apple's `SSLGetBufferedReadSize`: decrypted bytes `SSLRead` returns without reading more input.
public func SSLGetBufferedReadSize(_ context: SSLContext, _ bufferSize: UnsafeMutablePointer<Int>) -> OSStatus {
    bufferSize.pointee = context.locked { context.engine?.bufferedReadCount ?? 0 }
    return errSecSuccess
}

/// Apple's `SSLReHandshake`: renegotiation is not offered (TLS 1.3 has none) → errSecUnimplemented.
public func SSLReHandshake(_ context: SSLContext) -> OSStatus { errSecUnimplemented }
