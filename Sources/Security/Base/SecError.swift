import Foundation

/// The one error type inside the facade: an Apple result code plus a message naming what went wrong.
///
/// Lower layers' errors (crypto, DER, X.509, PKCS#12, keychain, trust) are translated into this at the facade
/// boundary by the one mapping in `ErrorMapping.swift`; it leaves the facade only as an `OSStatus` or as an `NSError`
/// in `NSOSStatusErrorDomain` (Apple's `CFError` shape).
package struct SecError: Error, Sendable, CustomStringConvertible {
    /// Apple's result code.
    package let status: OSStatus
    /// What went wrong, for `CFErrorCopyDescription` and `SecCopyErrorMessageString` of the last failure.
    package let message: String
    /// The lower layer's error this one was translated from, if any (kept for diagnostics, never shown to Apple API).
    package let underlying: (any Error & Sendable)?

    /// An error with Apple's code `status`; without a message, Apple's message for the code.
    package init(_ status: OSStatus, _ message: String? = nil, underlying: (any Error & Sendable)? = nil) {
        self.status = status
        self.message = message ?? SecErrorMessages.describe(status)
        self.underlying = underlying
    }

    package var description: String { "\(message) (OSStatus \(status))" }

    /// Apple's `CFError` for this failure: domain `NSOSStatusErrorDomain`, code = the OSStatus.
    package var nsError: NSError {
        NSError(domain: NSOSStatusErrorDomain, code: Int(status), userInfo: [NSLocalizedDescriptionKey: message])
    }

    static func param(_ message: String) -> SecError { SecError(errSecParam, message) }
    static func decode(_ message: String) -> SecError { SecError(errSecDecode, message) }
    static func unimplemented(_ message: String) -> SecError { SecError(errSecUnimplemented, message) }
}

/// Stores `error` in an Apple-style `CFErrorRef *` out-parameter (when the caller passed one).
func storeError(_ error: SecError, in out: UnsafeMutablePointer<Unmanaged<CFError>?>?) {
    out?.pointee = Unmanaged.passRetained(error.nsError)
}

/// Runs `body`, translating a thrown error into Apple's nil-plus-CFError convention.
func withCFError<T>(_ out: UnsafeMutablePointer<Unmanaged<CFError>?>?, _ body: () throws -> T) -> T? {
    do {
        return try body()
    } catch {
        storeError(SecError(translating: error), in: out)
    }
    return nil
}

/// Runs `body`, translating a thrown error into an `OSStatus`.
func withOSStatus(_ body: () throws -> Void) -> OSStatus {
    do {
        try body()
        return errSecSuccess
    } catch {
        return SecError(translating: error).status
    }
}
