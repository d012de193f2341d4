import Foundation
import Security

/// The one error every call of OpenSecurityKit throws: Apple's result code, its name and Apple's message, and
/// what went wrong in this call.
///
/// ```swift
/// do {
///     try keychain.set("s3cret", forAccount: "alice")
/// } catch let error as SecurityKitError {
///     print(error.status, error.name, error.message)   // -25308 errSecInteractionNotAllowed User interaction …
///     print(error.reason)                              // what this call was doing
/// }
/// ```
///
/// Errors compare equal when their codes are equal (``reason`` is a diagnostic), and a code constant matches in
/// a `catch` clause: `catch SecurityKitError.itemNotFound { … }`. Bridged to `NSError` the error is in
/// `NSOSStatusErrorDomain` with the OSStatus as its code, like the `CFError`s of Apple's Security functions.
public struct SecurityKitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Apple's result code (`errSecItemNotFound` = -25300, …).
    public let status: OSStatus
    /// What went wrong in this call, in words (never secret bytes). Not part of equality.
    public let reason: String

    /// An error for `status`, with `reason` telling what the call was doing (Apple's message when nil).
    public init(_ status: OSStatus, reason: String? = nil) {
        self.status = status
        self.reason = reason ?? (SecCopyErrorMessageString(status, nil) as String? ?? "OSStatus \(status)")
    }

    /// The constant's name in Apple's SecBase.h (`errSecItemNotFound`), or `OSStatus <n>` for a number Apple
    /// does not name.
    public var name: String { OSStatusNames.name(status) ?? "OSStatus \(status)" }

    /// Apple's message for the code (`SecCopyErrorMessageString`), e.g. "The specified item could not be found in
    /// the keychain."
    public var message: String { SecCopyErrorMessageString(status, nil) as String? ?? "unknown error" }

    /// `errSecItemNotFound (-25300): The specified item could not be found in the keychain. [reason]`.
    public var description: String {
        let text = "\(name) (\(status)): \(message)"
        return reason == message ? text : "\(text) [\(reason)]"
    }

    /// Codes compare; the reason does not.
    public static func == (lhs: SecurityKitError, rhs: SecurityKitError) -> Bool { lhs.status == rhs.status }

    /// Hashes the code only, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(status) }

    /// Lets a code constant be a `catch` pattern: `catch SecurityKitError.itemNotFound`.
    public static func ~= (pattern: SecurityKitError, value: any Error) -> Bool {
        (value as? SecurityKitError)?.status == pattern.status
    }
}

extension SecurityKitError {
    /// errSecItemNotFound (-25300).
    public static let itemNotFound = SecurityKitError(errSecItemNotFound)
    /// errSecDuplicateItem (-25299).
    public static let duplicateItem = SecurityKitError(errSecDuplicateItem)
    /// errSecParam (-50): a parameter the caller passed is not valid.
    public static let param = SecurityKitError(errSecParam)
    /// errSecAuthFailed (-25293): wrong password (a .p12, an encrypted key).
    public static let authFailed = SecurityKitError(errSecAuthFailed)
    /// errSecDecode (-26275): data that does not decode — and every failure to open an envelope.
    public static let decode = SecurityKitError(errSecDecode)
    /// errSecConversionError (-67594): stored bytes are not UTF-8 where a `String` was asked for.
    public static let conversionError = SecurityKitError(errSecConversionError)
    /// errSecInteractionNotAllowed (-25308): the keychain is locked for this item's accessibility.
    public static let interactionNotAllowed = SecurityKitError(errSecInteractionNotAllowed)
    /// errSecDataTooLarge (-25302): input beyond the documented limits.
    public static let dataTooLarge = SecurityKitError(errSecDataTooLarge)
    /// errSecVerifyFailed (-67808): a signature that does not verify.
    public static let verifyFailed = SecurityKitError(errSecVerifyFailed)
}

extension SecurityKitError: LocalizedError {
    /// ``description``.
    public var errorDescription: String? { description }
}

extension SecurityKitError: CustomNSError {
    /// `NSOSStatusErrorDomain`, as Apple's Security errors.
    public static var errorDomain: String { NSOSStatusErrorDomain }
    /// The OSStatus.
    public var errorCode: Int { Int(status) }
    /// The description as `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}

extension SecurityKitError {
    /// The error a Security function reported through its `CFError` out-parameter (code = OSStatus), with
    /// `reason` naming the call; errSecInternal when the function gave none.
    static func from(_ error: Unmanaged<CFError>?, _ reason: String) -> SecurityKitError {
        guard let error = error?.takeRetainedValue() else { return SecurityKitError(errSecInternal, reason: reason) }
        return from(error as Error, reason)
    }

    /// An `NSError` of `NSOSStatusErrorDomain` (what the Security module throws) as a SecurityKitError.
    static func from(_ error: any Error, _ reason: String) -> SecurityKitError {
        if let error = error as? SecurityKitError { return error }
        let nsError = error as NSError
        guard nsError.domain == NSOSStatusErrorDomain, let status = OSStatus(exactly: nsError.code) else {
            return SecurityKitError(errSecInternal, reason: "\(reason): \(nsError.localizedDescription)")
        }
        return SecurityKitError(status, reason: "\(reason): \(nsError.localizedDescription)")
    }

    /// Throws unless `status` is errSecSuccess.
    static func check(_ status: OSStatus, _ reason: @autoclosure () -> String) throws(SecurityKitError) {
        guard status == errSecSuccess else { throw SecurityKitError(status, reason: reason()) }
    }
}
