import Foundation
import OSecTLSCore

// Apple's Secure Transport I/O: SSLHandshake, SSLRead, SSLWrite, SSLClose. Bytes move only through the
// application's SSLReadFunc / SSLWriteFunc; a callback that returns errSSLWouldBlock makes the call return
// errSSLWouldBlock, and the next call continues where this one stopped.

/// Apple's `SSLHandshake`: runs the handshake. Returns `errSecSuccess` when it completed, `errSSLWouldBlock`
/// when the callbacks would block, `errSSLPeerAuthCompleted` (with `kSSLSessionOptionBreakOnServerAuth` /
/// `BreakOnClientAuth`) when the peer's certificates arrived — evaluate `SSLCopyPeerTrust`, then call again to
/// continue — `errSSLClientCertRequested` (with `kSSLSessionOptionBreakOnCertRequested`), or the failure:
/// errSSLUnknownRootCert, errSSLNoRootCert, errSSLCertExpired, errSSLHostNameMismatch, errSSLXCertChainInvalid
/// for our verdict on the peer's chain; errSSLPeer… for an alert from the peer; errSSLClosedAbort when the
/// connection ended; errSSLProtocol for bytes that are not TLS.
public func SSLHandshake(_ context: SSLContext) -> OSStatus {
    context.locked { context.driveHandshake() }
}

/// Apple's `SSLRead`: up to `dataLength` decrypted bytes (from at most one record); `*processed` is how many.
/// Runs the handshake first if needed. Returns `errSSLClosedGraceful` after the peer's close_notify,
/// `errSSLClosedNoNotify` when the connection ended without one (a truncated stream).
public func SSLRead(
    _ context: SSLContext, _ data: UnsafeMutableRawPointer, _ dataLength: Int, _ processed: UnsafeMutablePointer<Int>
) -> OSStatus {
    processed.pointee = 0
    return context.locked { () -> OSStatus in
        switch context.state {
        case .closed: return context.closedWithoutNotify ? errSSLClosedNoNotify : errSSLClosedGraceful
        case .aborted: return context.outOfBandError ?? errSSLClosedAbort
        case .idle, .handshake:
            let status = context.driveHandshake()
            if status != errSecSuccess { return status }
        case .connected: break
        }
        guard let engine = context.engine else { return errSecBadReq }
        let flushed = context.flush(engine)
        if flushed != errSecSuccess && flushed != errSSLWouldBlock { return flushed }
        guard dataLength > 0 else { return errSecSuccess }
        // With nothing buffered a read can only ask for input: fetch the next record first (one libssl call less
        // per record).
        var result: TLSEngine.ReadResult = engine.needsInput ? .wantInput : engine.read(into: data, count: dataLength)
        while true {
            switch result {
            case .bytes(let count):
                processed.pointee = count
                _ = context.flush(engine)  // e.g. a KeyUpdate answer; would-block is fine here
                return errSecSuccess
            case .wantInput:
                let status = context.flush(engine)
                if status != errSecSuccess && status != errSSLWouldBlock { return status }
                switch context.receive(engine) {
                case .delivered:
                    result = engine.read(into: data, count: dataLength)
                    continue
                case .wouldBlock: return errSSLWouldBlock
                case .endOfStream:
                    context.state = .closed
                    context.closedWithoutNotify = true
                    return errSSLClosedNoNotify
                case .transportFailed(let status): return context.abort(status)
                }
            case .closed:
                // The peer's close_notify: answer it, as Secure Transport does.
                engine.shutdown()
                _ = context.flush(engine)
                context.state = .closed
                return errSSLClosedGraceful
            case .failed(let error):
                _ = context.flush(engine)
                return context.abort(
                    SecureTransportStatus.status(for: error, duringHandshake: false, rejection: context.rejectionStatus)
                )
            }
        }
    }
}

/// Apple's `SSLWrite`: encrypts all `dataLength` bytes (`*processed` = `dataLength`) and sends them; when the
/// write callback would block, returns `errSSLWouldBlock` with the bytes queued — call again (with no new data)
/// to send the rest. Before a handshake was started → errSecBadReq.
public func SSLWrite(
    _ context: SSLContext, _ data: UnsafeRawPointer?, _ dataLength: Int, _ processed: UnsafeMutablePointer<Int>
) -> OSStatus {
    processed.pointee = 0
    return context.locked { () -> OSStatus in
        switch context.state {
        case .closed: return errSSLClosedGraceful
        case .aborted: return context.outOfBandError ?? errSSLClosedAbort
        case .idle: return errSecBadReq
        case .handshake:
            let status = context.driveHandshake()
            if status != errSecSuccess { return status }
        case .connected: break
        }
        guard let engine = context.engine else { return errSecBadReq }
        let flushed = context.flush(engine)
        if flushed != errSecSuccess { return flushed }
        if dataLength > 0, let data {
            if let error = engine.write(data, count: dataLength) {
                return context.abort(SecureTransportStatus.status(for: error, duringHandshake: false))
            }
            processed.pointee = dataLength
        }
        return context.flush(engine)
    }
}

/// Apple's `SSLClose`: sends close_notify (after a completed handshake) and closes the session.
public func SSLClose(_ context: SSLContext) -> OSStatus {
    context.locked { () -> OSStatus in
        defer { context.state = .closed }
        guard let engine = context.engine, context.state == .connected || context.state == .handshake else {
            return errSecSuccess
        }
        if context.holdingOutput {
            engine.discardOutput()  // never send a flight the caller did not approve
            return errSecSuccess
        }
        engine.shutdown()
        let status = context.flush(engine)
        return status == errSecIO ? errSecSuccess : status
    }
}
