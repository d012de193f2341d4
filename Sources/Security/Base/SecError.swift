import Foundation

/// The one error type inside the facade: an Apple result code plus a message naming what went wrong.
///
/// Lower layers' errors (crypto, DER, SQLite) are translated into this at the facade boundary; it leaves the
/// facade only as an `OSStatus` or as an `NSError` in `NSOSStatusErrorDomain` (Apple's `CFError` shape).
struct SecError: Error, Sendable, CustomStringConvertible {
    let status: OSStatus
    let message: String

    init(_ status: OSStatus, _ message: String? = nil) {
        self.status = status
        self.message = message ?? SecErrorMessages.describe(status)
    }

    var description: String { "\(message) (OSStatus \(status))" }

    /// Apple's `CFError` for this failure: domain `NSOSStatusErrorDomain`, code = the OSStatus.
    var nsError: NSError {
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
    } catch let error as SecError {
        storeError(error, in: out)
    } catch {
        storeError(SecError(errSecInternal, "\(error)"), in: out)
    }
    return nil
}

/// Runs `body`, translating a thrown error into an `OSStatus`.
func withOSStatus(_ body: () throws -> Void) -> OSStatus {
    do {
        try body()
        return errSecSuccess
    } catch let error as SecError {
        return error.status
    } catch {
        return errSecInternal
    }
}
