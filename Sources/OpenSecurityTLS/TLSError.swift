import Foundation
import OSecSystem
import OSecTLSCore
import Security

/// A failed TLS operation of OpenSecurityTLS.
///
/// ``status`` is the code Apple's Secure Transport uses for the same failure (`errSSLCertExpired`,
/// `errSSLPeerHandshakeFail`, …; `errSSLNetworkTimeout` when a deadline passed, `errSSLClosedAbort` /
/// `errSSLTransportReset` when the connection ended), so `SecCopyErrorMessageString(status, nil)` describes it.
/// Two errors are equal when their statuses are.
public struct TLSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Apple's result code for the failure.
    public let status: OSStatus
    /// What went wrong, in words.
    public let message: String

    /// Creates an error.
    public init(_ status: OSStatus, _ message: String? = nil) {
        self.status = status
        self.message =
            message ?? (SecCopyErrorMessageString(status, nil).map { String($0) } ?? "OSStatus \(status)")
    }

    /// `message (OSStatus n)`.
    public var description: String { "\(message) (OSStatus \(status))" }

    /// Errors are equal when their statuses are.
    public static func == (lhs: TLSError, rhs: TLSError) -> Bool { lhs.status == rhs.status }

    /// The error for a failed socket operation.
    static func transport(_ error: SystemError, _ context: String) -> TLSError {
        switch error.code {
        case ETIMEDOUT: return TLSError(errSSLNetworkTimeout, "\(context): timed out")
        case ECANCELED: return TLSError(errSecUserCanceled, "\(context): cancelled")
        default: return TLSError(errSSLTransportReset, "\(context): \(error)")
        }
    }
}
