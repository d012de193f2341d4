internal import CLibSSL
internal import CTLSShims

/// The one error type of OSecTLSCore: what failed in a TLS session, as a kind callers switch on.
///
/// The facade maps a kind to Apple's `errSSL…` codes. ``reason`` and ``openSSLErrors`` are diagnostics only;
/// equality compares the kind.
package struct TLSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    package enum Kind: Sendable, Equatable {
        /// The peer's bytes are not TLS, or break the protocol's rules (errSSLProtocol).
        case protocolViolation
        /// No protocol version, cipher suite, signature algorithm or group in common (errSSLNegotiation).
        case negotiationFailed
        /// The peer sent a fatal alert with this description (RFC 8446 §6).
        case peerAlert(UInt8)
        /// The peer sent close_notify.
        case closedByPeer
        /// The transport ended without close_notify (a truncated connection).
        case unexpectedEndOfStream
        /// A record failed authentication (errSSLBadRecordMac).
        case badRecordMAC
        /// A record could not be decrypted (errSSLDecryptionFail).
        case decryptionFailed
        /// A record or handshake message exceeds the protocol's or our size limits (errSSLRecordOverflow).
        case recordOverflow
        /// Our peer-certificate decision rejected the chain the peer sent.
        case peerCertificateRejected
        /// The peer sent more certificates than ``TLSLimits/maximumPeerCertificates``.
        case peerCertificateChainTooLong
        /// A client certificate was required and the client sent none.
        case peerCertificateMissing
        /// The peer tried to renegotiate and renegotiation is not allowed.
        case renegotiationRefused
        /// The configuration cannot work (no certificate on a server, a key that does not match, ...).
        case badConfiguration
        /// A cryptographic operation failed (errSSLCrypto).
        case cryptoFailure
        /// OpenSSL failed unexpectedly (errSSLInternal).
        case internalError
    }

    /// What went wrong.
    package let kind: Kind
    /// Human-readable explanation (never contains secret bytes).
    package let reason: String
    /// The OpenSSL error queue at the time of failure, oldest first.
    package let openSSLErrors: [String]

    /// Creates an error of `kind`.
    package init(_ kind: Kind, _ reason: String, openSSLErrors: [String] = []) {
        self.kind = kind
        self.reason = reason
        self.openSSLErrors = openSSLErrors
    }

    /// `reason [openssl errors]`.
    package var description: String {
        openSSLErrors.isEmpty ? reason : "\(reason) [\(openSSLErrors.joined(separator: "; "))]"
    }

    /// Errors are equal when their kinds are equal.
    package static func == (lhs: TLSError, rhs: TLSError) -> Bool { lhs.kind == rhs.kind }
}

/// The named limits of the TLS layer.
package enum TLSLimits {
    /// The largest certificate message accepted from a peer (OpenSSL's own default, 100 KiB): a longer chain fails
    /// with ``TLSError/Kind/recordOverflow`` before any of it is parsed.
    package static let maximumCertificateListBytes = 100 * 1024
    /// The most certificates a peer may send (leaf plus intermediates); more fail with
    /// ``TLSError/Kind/peerCertificateChainTooLong``. Real chains have 2–4; path building needs no more than this.
    package static let maximumPeerCertificates = 10
    /// The largest TLS record body (RFC 5246 §6.2.3: 2^14 + 2048 for TLS 1.2 ciphertext; TLS 1.3 allows less).
    package static let maximumRecordBody = 16384 + 2048
    /// A TLS record header: content type, legacy version, length.
    package static let recordHeaderLength = 5
    /// The most ALPN protocol names, and the longest name in bytes (RFC 7301 §3.1: 1–255 bytes each, the whole
    /// list at most 2^16 - 1 bytes).
    package static let maximumALPNProtocols = 32
    /// See ``maximumALPNProtocols``.
    package static let maximumALPNNameBytes = 255
    /// The most peer IDs remembered for session resumption (oldest dropped first).
    package static let sessionCacheCapacity = 1024
}

enum TLSErrorQueue {
    /// Upper bound on entries kept.
    private static let maxEntries = 16

    /// Removes every entry from the thread's OpenSSL error queue and returns the packed codes and texts.
    static func drain() -> (codes: [UInt], texts: [String]) {
        var codes: [UInt] = []
        var texts: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            guard codes.count < maxEntries else { continue }
            codes.append(code)
            var buffer = [CChar](repeating: 0, count: 256)
            let text = buffer.withUnsafeMutableBufferPointer { buf -> String in
                guard let base = buf.baseAddress else { return "error \(code)" }
                ERR_error_string_n(code, base, buf.count)
                return String(cString: base)
            }
            texts.append(text)
        }
        return (codes, texts)
    }

    static func clear() { ERR_clear_error() }
}

extension TLSError {
    /// Classifies a failed libssl call (SSL_ERROR_SSL) from the drained error queue.
    static func fromQueue(_ context: String) -> TLSError {
        let (codes, texts) = TLSErrorQueue.drain()
        for code in codes where osec_tls_err_is_system(code) == 0 && osec_tls_err_lib(code) == ERR_LIB_SSL {
            let reason = osec_tls_err_reason(code)
            return TLSError(
                kind(forReason: reason), "\(context): \(texts.first ?? "libssl error")", openSSLErrors: texts)
        }
        return TLSError(.internalError, "\(context) failed", openSSLErrors: texts)
    }

    /// An error for a failed setup call.
    static func failed(_ operation: String, _ kind: Kind = .internalError) -> TLSError {
        TLSError(kind, "\(operation) failed", openSSLErrors: TLSErrorQueue.drain().texts)
    }

    /// libssl's reason codes (sslerr.h) grouped into our kinds.
    static func kind(forReason reason: Int32) -> Kind {
        let alertRange = SSL_AD_REASON_OFFSET...(SSL_AD_REASON_OFFSET + 255)
        if alertRange.contains(reason) { return .peerAlert(UInt8(reason - SSL_AD_REASON_OFFSET)) }
        switch reason {
        case SSL_R_CERTIFICATE_VERIFY_FAILED: return .peerCertificateRejected
        case SSL_R_PEER_DID_NOT_RETURN_A_CERTIFICATE: return .peerCertificateMissing
        case SSL_R_NO_RENEGOTIATION: return .renegotiationRefused
        case SSL_R_UNEXPECTED_EOF_WHILE_READING: return .unexpectedEndOfStream
        case SSL_R_DECRYPTION_FAILED_OR_BAD_RECORD_MAC: return .badRecordMAC
        case SSL_R_DECRYPTION_FAILED: return .decryptionFailed
        case SSL_R_EXCESSIVE_MESSAGE_SIZE, SSL_R_DATA_LENGTH_TOO_LONG, SSL_R_ENCRYPTED_LENGTH_TOO_LONG,
            SSL_R_PACKET_LENGTH_TOO_LONG:
            return .recordOverflow
        case SSL_R_UNSUPPORTED_PROTOCOL, SSL_R_NO_PROTOCOLS_AVAILABLE, SSL_R_VERSION_TOO_LOW, SSL_R_NO_SHARED_CIPHER,
            SSL_R_NO_SHARED_SIGNATURE_ALGORITHMS, SSL_R_NO_SUITABLE_KEY_SHARE, SSL_R_WRONG_SSL_VERSION,
            SSL_R_NO_APPLICATION_PROTOCOL:
            return .negotiationFailed
        default: return .protocolViolation
        }
    }
}
