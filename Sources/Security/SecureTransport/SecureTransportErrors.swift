// Apple's Secure Transport result codes (Security/SecureTransport.h) with the texts of Apple's documentation
// ("Secure Transport Result Codes"), which SecCopyErrorMessageString returns. errSSLCrypto (-9809) is declared
// with the SecBase.h codes in Base/OSStatus.swift.

/// SSL protocol error.
public var errSSLProtocol: OSStatus { -9800 }
/// The cipher suite negotiation failed.
public var errSSLNegotiation: OSStatus { -9801 }
/// A fatal alert was encountered.
public var errSSLFatalAlert: OSStatus { -9802 }
/// Function is blocked; waiting for I/O. This is not fatal.
public var errSSLWouldBlock: OSStatus { -9803 }
/// An attempt to restore an unknown session failed.
public var errSSLSessionNotFound: OSStatus { -9804 }
/// The connection closed gracefully.
public var errSSLClosedGraceful: OSStatus { -9805 }
/// The connection closed due to an error.
public var errSSLClosedAbort: OSStatus { -9806 }
/// Invalid certificate chain.
public var errSSLXCertChainInvalid: OSStatus { -9807 }
/// Bad certificate format.
public var errSSLBadCert: OSStatus { -9808 }
/// Internal error.
public var errSSLInternal: OSStatus { -9810 }
/// Module attach failure.
public var errSSLModuleAttach: OSStatus { -9811 }
/// Certificate chain is valid, but root is not trusted.
public var errSSLUnknownRootCert: OSStatus { -9812 }
/// No root certificate for the certificate chain.
public var errSSLNoRootCert: OSStatus { -9813 }
/// The certificate chain had an expired certificate.
public var errSSLCertExpired: OSStatus { -9814 }
/// The certificate chain had a certificate that is not yet valid.
public var errSSLCertNotYetValid: OSStatus { -9815 }
/// The server closed the session with no notification.
public var errSSLClosedNoNotify: OSStatus { -9816 }
/// An insufficient buffer was provided.
public var errSSLBufferOverflow: OSStatus { -9817 }
/// A bad SSL cipher suite was encountered.
public var errSSLBadCipherSuite: OSStatus { -9818 }
/// An unexpected message was received (fatal alert from the peer).
public var errSSLPeerUnexpectedMsg: OSStatus { -9819 }
/// A record with a bad message authentication code (MAC) was encountered (fatal alert from the peer).
public var errSSLPeerBadRecordMac: OSStatus { -9820 }
/// Decryption failed (fatal alert from the peer).
public var errSSLPeerDecryptionFail: OSStatus { -9821 }
/// A record overflow occurred (fatal alert from the peer).
public var errSSLPeerRecordOverflow: OSStatus { -9822 }
/// Decompression failed (fatal alert from the peer).
public var errSSLPeerDecompressFail: OSStatus { -9823 }
/// The handshake failed (fatal alert from the peer).
public var errSSLPeerHandshakeFail: OSStatus { -9824 }
/// A bad certificate was encountered (fatal alert from the peer).
public var errSSLPeerBadCert: OSStatus { -9825 }
/// An unsupported certificate format was encountered (fatal alert from the peer).
public var errSSLPeerUnsupportedCert: OSStatus { -9826 }
/// The certificate was revoked (fatal alert from the peer).
public var errSSLPeerCertRevoked: OSStatus { -9827 }
/// The certificate expired (fatal alert from the peer).
public var errSSLPeerCertExpired: OSStatus { -9828 }
/// The certificate is unknown (fatal alert from the peer).
public var errSSLPeerCertUnknown: OSStatus { -9829 }
/// An illegal parameter was encountered.
public var errSSLIllegalParam: OSStatus { -9830 }
/// An unknown certificate authority was encountered (fatal alert from the peer).
public var errSSLPeerUnknownCA: OSStatus { -9831 }
/// Access was denied (fatal alert from the peer).
public var errSSLPeerAccessDenied: OSStatus { -9832 }
/// A decoding error occurred (fatal alert from the peer).
public var errSSLPeerDecodeError: OSStatus { -9833 }
/// A decryption error occurred (fatal alert from the peer).
public var errSSLPeerDecryptError: OSStatus { -9834 }
/// An export restriction occurred (fatal alert from the peer).
public var errSSLPeerExportRestriction: OSStatus { -9835 }
/// A bad protocol version was encountered (fatal alert from the peer).
public var errSSLPeerProtocolVersion: OSStatus { -9836 }
/// There is insufficient security for this operation (fatal alert from the peer).
public var errSSLPeerInsufficientSecurity: OSStatus { -9837 }
/// An internal error occurred (fatal alert from the peer).
public var errSSLPeerInternalError: OSStatus { -9838 }
/// The user canceled the operation (alert from the peer).
public var errSSLPeerUserCancelled: OSStatus { -9839 }
/// No renegotiation is allowed (alert from the peer).
public var errSSLPeerNoRenegotiation: OSStatus { -9840 }
/// A non-fatal result: the peer certificate is valid, or was ignored if verification is disabled.
public var errSSLPeerAuthCompleted: OSStatus { -9841 }
/// Deprecated alias of ``errSSLPeerAuthCompleted``.
public var errSSLServerAuthCompleted: OSStatus { -9841 }
/// Deprecated alias of ``errSSLPeerAuthCompleted``.
public var errSSLClientAuthCompleted: OSStatus { -9841 }
/// The server has requested a client certificate (non-fatal).
public var errSSLClientCertRequested: OSStatus { -9842 }
/// The host name you connected with does not match any of the host names allowed by the certificate.
public var errSSLHostNameMismatch: OSStatus { -9843 }
/// The peer dropped the connection before responding.
public var errSSLConnectionRefused: OSStatus { -9844 }
/// Decryption failed.
public var errSSLDecryptionFail: OSStatus { -9845 }
/// A record with a bad message authentication code (MAC) was encountered.
public var errSSLBadRecordMac: OSStatus { -9846 }
/// A record overflow occurred.
public var errSSLRecordOverflow: OSStatus { -9847 }
/// A configuration error occurred.
public var errSSLBadConfiguration: OSStatus { -9848 }
/// Unexpected (skipped) record in DTLS.
public var errSSLUnexpectedRecord: OSStatus { -9849 }
/// Deprecated alias for the end of the classic error range (``errSSLUnexpectedRecord``).
public var errSSLLast: OSStatus { -9849 }
/// Indicates a weak ephemeral Diffie-Hellman key.
public var errSSLWeakPeerEphemeralDHKey: OSStatus { -9850 }
/// A non-fatal result for providing a server name indication.
public var errSSLClientHelloReceived: OSStatus { -9851 }
/// Transport (socket) shutdown, for example, TCP RST or FIN.
public var errSSLTransportReset: OSStatus { -9852 }
/// Network timeout triggered.
public var errSSLNetworkTimeout: OSStatus { -9853 }
/// TLS configuration failed.
public var errSSLConfigurationFailed: OSStatus { -9854 }
/// Unsupported TLS extension.
public var errSSLUnsupportedExtension: OSStatus { -9855 }
/// Peer rejected unexpected message.
public var errSSLUnexpectedMessage: OSStatus { -9856 }
/// Decompression failed.
public var errSSLDecompressFail: OSStatus { -9857 }
/// Handshake failed.
public var errSSLHandshakeFail: OSStatus { -9858 }
/// Decode failed.
public var errSSLDecodeError: OSStatus { -9859 }
/// Inappropriate fallback.
public var errSSLInappropriateFallback: OSStatus { -9860 }
/// Missing extension.
public var errSSLMissingExtension: OSStatus { -9861 }
/// Bad OCSP response.
public var errSSLBadCertificateStatusResponse: OSStatus { -9862 }
/// Certificate required.
public var errSSLCertificateRequired: OSStatus { -9863 }
/// Unknown PSK identity.
public var errSSLUnknownPSKIdentity: OSStatus { -9864 }
/// Unknown or unrecognized name.
public var errSSLUnrecognizedName: OSStatus { -9865 }
/// An App Transport Security violation occurred.
public var errSSLATSViolation: OSStatus { -9880 }
/// The minimum protocol version isn't App Transport Security compliant.
public var errSSLATSMinimumVersionViolation: OSStatus { -9881 }
/// The selected ciphersuite isn't App Transport Security compliant.
public var errSSLATSCiphersuiteViolation: OSStatus { -9882 }
/// The peer key size isn't App Transport Security compliant.
public var errSSLATSMinimumKeySizeViolation: OSStatus { -9883 }
/// The peer leaf certificate hash algorithm isn't App Transport Security compliant.
public var errSSLATSLeafCertificateHashAlgorithmViolation: OSStatus { -9884 }
/// The peer certificate hash algorithm isn't App Transport Security compliant.
public var errSSLATSCertificateHashAlgorithmViolation: OSStatus { -9885 }
/// The peer certificate wasn't issued by a trusted peer.
public var errSSLATSCertificateTrustViolation: OSStatus { -9886 }
/// Early application data rejected by peer.
public var errSSLEarlyDataRejected: OSStatus { -9890 }

/// The messages `SecCopyErrorMessageString` returns for the Secure Transport codes (Apple's documented texts).
enum SecureTransportErrorMessages {
    static func text(for status: OSStatus) -> String? { table[status] }

    private static let table: [OSStatus: String] = [
        -9800: "SSL protocol error.",
        -9801: "The cipher suite negotiation failed.",
        -9802: "A fatal alert was encountered.",
        -9803: "Function is blocked; waiting for I/O. This is not fatal.",
        -9804: "An attempt to restore an unknown session failed.",
        -9805: "The connection closed gracefully.",
        -9806: "The connection closed due to an error.",
        -9807: "Invalid certificate chain.",
        -9808: "Bad certificate format.",
        -9810: "Internal error.",
        -9811: "Module attach failure.",
        -9812: "Certificate chain is valid, but root is not trusted.",
        -9813: "No root certificate for the certificate chain.",
        -9814: "The certificate chain had an expired certificate.",
        -9815: "The certificate chain had a certificate that is not yet valid.",
        -9816: "The server closed the session with no notification.",
        -9817: "An insufficient buffer was provided.",
        -9818: "A bad SSL cipher suite was encountered.",
        -9819: "An unexpected message was received.",
        -9820: "A record with a bad message authentication code (MAC) was encountered.",
        -9821: "Decryption failed.",
        -9822: "A record overflow occurred.",
        -9823: "Decompression failed.",
        -9824: "The handshake failed.",
        -9825: "A bad certificate was encountered.",
        -9826: "An unsupported certificate format was encountered.",
        -9827: "The certificate was revoked.",
        -9828: "The certificate expired.",
        -9829: "The certificate is unknown.",
        -9830: "An illegal parameter was encountered.",
        -9831: "An unknown certificate authority was encountered.",
        -9832: "Access was denied.",
        -9833: "A decoding error occurred.",
        -9834: "A decryption error occurred.",
        -9835: "An export restriction occurred.",
        -9836: "A bad protocol version was encountered.",
        -9837: "There is insufficient security for this operation.",
        -9838: "An internal error occurred.",
        -9839: "The user canceled the operation.",
        -9840: "No renegotiation is allowed.",
        -9841: "The peer certificate is valid, or was ignored if verification is disabled.",
        -9842: "The server has requested a client certificate.",
        -9843: "The host name you connected with does not match any of the host names allowed by the certificate.",
        -9844: "The peer dropped the connection before responding.",
        -9845: "Decryption failed.",
        -9846: "A record with a bad message authentication code (MAC) was encountered.",
        -9847: "A record overflow occurred.",
        -9848: "A configuration error occurred.",
        -9849: "Unexpected (skipped) record in DTLS.",
        -9850: "Indicates a weak ephemeral dh key.",
        -9851: "A non-fatal result for providing a server name indication.",
        -9852: "Transport (socket) shutdown, for example, TCP RST or FIN.",
        -9853: "Network timeout triggered.",
        -9854: "TLS configuration failed.",
        -9855: "Unsupported TLS extension.",
        -9856: "Peer rejected unexpected message.",
        -9857: "Decompression failed.",
        -9858: "Handshake failed.",
        -9859: "Decode failed.",
        -9860: "Inappropriate fallback.",
        -9861: "Missing extension.",
        -9862: "Bad OCSP response.",
        -9863: "Certificate required.",
        -9864: "Unknown PSK identity.",
        -9865: "Unknown or unrecognized name.",
        -9880: "An App Transport Security violation occurred.",
        -9881: "The minimum protocol version isn’t App Transport Security compliant.",
        -9882: "The selected ciphersuite isn’t App Transport Security compliant.",
        -9883: "The peer key size isn’t App Transport Security compliant.",
        -9884: "The peer leaf certificate hash algorithm isn’t App Transport Security compliant.",
        -9885: "The peer certificate hash algorithm isn’t App Transport Security compliant.",
        -9886: "The peer certificate wasn’t issued by a trusted peer.",
        -9890: "Early application data rejected by peer.",
    ]
}
