// LAError.h: the errors of policy evaluation, as Swift imports Apple's NS_ERROR_ENUM (a struct `LAError` with a
// nested `Code` enum, static shortcuts for every code, and the domain `com.apple.LocalAuthentication`).
import Foundation

/// The error domain of LocalAuthentication (`"com.apple.LocalAuthentication"`).
public let LAErrorDomain: String = "com.apple.LocalAuthentication"

/// An error of LocalAuthentication: `error as? LAError` and `laError.code` (or `(error as NSError).code`, in
/// `LAErrorDomain`) tell why an evaluation failed.
public struct LAError: CustomNSError, Hashable, @unchecked Sendable {  // sendable: immutable
    /// Why an evaluation failed (Apple's `LAError` codes and values).
    public enum Code: Int, Sendable, Hashable {
        /// The user failed to provide valid credentials.
        case authenticationFailed = -1
        /// The user tapped the cancel button.
        case userCancel = -2
        /// The user tapped the fallback button (“Enter Password”).
        case userFallback = -3
        /// The system cancelled authentication (another application came to the foreground).
        case systemCancel = -4
        /// No passcode (password) is set on the device.
        case passcodeNotSet = -5
        /// Biometry is not available on the device.
        case biometryNotAvailable = -6
        /// The user has no enrolled biometric identities.
        case biometryNotEnrolled = -7
        /// Biometry is locked after too many failed attempts.
        case biometryLockout = -8
        /// The application cancelled authentication (`invalidate()`).
        case appCancel = -9
        /// The context was invalidated before the call.
        case invalidContext = -10
        /// No paired companion device (Apple Watch) is nearby.
        case companionNotAvailable = -11
        /// The device has removable biometry that is not paired.
        case biometryNotPaired = -12
        /// The device has removable biometry that is disconnected.
        case biometryDisconnected = -13
        /// The dimensions of an embedded UI are invalid.
        case invalidDimensions = -14
        /// Authentication needs interaction, and `interactionNotAllowed` forbids it.
        case notInteractive = -1004

        /// Apple's former name for ``biometryNotAvailable``.
        @available(*, deprecated, renamed: "biometryNotAvailable")
        public static var touchIDNotAvailable: Code { .biometryNotAvailable }
        /// Apple's former name for ``biometryNotEnrolled``.
        @available(*, deprecated, renamed: "biometryNotEnrolled")
        public static var touchIDNotEnrolled: Code { .biometryNotEnrolled }
        /// Apple's former name for ``biometryLockout``.
        @available(*, deprecated, renamed: "biometryLockout")
        public static var touchIDLockout: Code { .biometryLockout }
        /// Apple's former name for ``companionNotAvailable``.
        @available(*, deprecated, renamed: "companionNotAvailable")
        public static var watchNotAvailable: Code { .companionNotAvailable }
    }

    /// The code.
    public let code: Code
    private let userInfo: NSDictionary

    /// An error with `code` and, optionally, more information.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        var info = userInfo
        if info[NSLocalizedDescriptionKey] == nil { info[NSLocalizedDescriptionKey] = code.message }
        self.userInfo = NSDictionary(dictionary: info)
    }

    /// `"com.apple.LocalAuthentication"`.
    public static var errorDomain: String { LAErrorDomain }
    /// The code's raw value.
    public var errorCode: Int { code.rawValue }
    /// The user info (with a localized description).
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [:]
        for (key, value) in userInfo {
            if let key = key as? String { info[key] = value }
        }
        return info
    }
    /// The localized description.
    public var localizedDescription: String { code.message }

    public static func == (lhs: LAError, rhs: LAError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public static var authenticationFailed: Code { .authenticationFailed }
    public static var userCancel: Code { .userCancel }
    public static var userFallback: Code { .userFallback }
    public static var systemCancel: Code { .systemCancel }
    public static var passcodeNotSet: Code { .passcodeNotSet }
    public static var biometryNotAvailable: Code { .biometryNotAvailable }
    public static var biometryNotEnrolled: Code { .biometryNotEnrolled }
    public static var biometryLockout: Code { .biometryLockout }
    public static var appCancel: Code { .appCancel }
    public static var invalidContext: Code { .invalidContext }
    public static var companionNotAvailable: Code { .companionNotAvailable }
    public static var biometryNotPaired: Code { .biometryNotPaired }
    public static var biometryDisconnected: Code { .biometryDisconnected }
    public static var invalidDimensions: Code { .invalidDimensions }
    public static var notInteractive: Code { .notInteractive }
    @available(*, deprecated, renamed: "biometryNotAvailable")
    public static var touchIDNotAvailable: Code { .biometryNotAvailable }
    @available(*, deprecated, renamed: "biometryNotEnrolled")
    public static var touchIDNotEnrolled: Code { .biometryNotEnrolled }
    @available(*, deprecated, renamed: "biometryLockout")
    public static var touchIDLockout: Code { .biometryLockout }
    @available(*, deprecated, renamed: "companionNotAvailable")
    public static var watchNotAvailable: Code { .companionNotAvailable }

    /// The error as an `NSError` in `LAErrorDomain`.
    var nsError: NSError { NSError(domain: LAErrorDomain, code: code.rawValue, userInfo: errorUserInfo) }
}

extension LAError.Code {
    /// The description Apple's framework gives (in English).
    var message: String {
        switch self {
        case .authenticationFailed: "Application retry limit exceeded."
        case .userCancel: "Canceled by user."
        case .userFallback: "Fallback authentication mechanism selected."
        case .systemCancel: "Canceled by another authentication."
        case .passcodeNotSet: "Passcode not set."
        case .biometryNotAvailable: "Biometry is not available on this device."
        case .biometryNotEnrolled: "No identities are enrolled."
        case .biometryLockout: "Biometry is locked out."
        case .appCancel: "Canceled by application."
        case .invalidContext: "Invalidated context."
        case .companionNotAvailable: "No companion device is available."
        case .biometryNotPaired: "Biometric accessory is not paired."
        case .biometryDisconnected: "Biometric accessory is disconnected."
        case .invalidDimensions: "Invalid dimensions."
        case .notInteractive: "User interaction is required."
        }
    }
}

/// Matches an error against an `LAError` code, as Apple's error codes do in `switch` and `catch` patterns
/// (`case LAError.userCancel?:`, `catch LAError.biometryLockout`): an `LAError`, or an `NSError` in
/// `LAErrorDomain`, with that code.
public func ~= (match: LAError.Code, error: any Error) -> Bool {
    if let error = error as? LAError { return error.code == match }
    let nsError = error as NSError
    return nsError.domain == LAErrorDomain && nsError.code == match.rawValue
}
