// LAPublicDefines.h: the policies, biometry types, credential types and access-control operations, with Apple's
// raw values.
import Foundation

/// What an evaluation asks of the user.
public enum LAPolicy: Int, Sendable, Hashable {
    /// Biometry (Touch ID, Face ID, Optic ID) only.
    case deviceOwnerAuthenticationWithBiometrics = 1
    /// Biometry, a companion device or the device passcode (password).
    case deviceOwnerAuthentication = 2
    /// A paired companion device (Apple Watch) only.
    case deviceOwnerAuthenticationWithCompanion = 3
    /// Biometry or a paired companion device.
    case deviceOwnerAuthenticationWithBiometricsOrCompanion = 4

    /// Apple's former name for ``deviceOwnerAuthenticationWithCompanion``.
    @available(*, deprecated, renamed: "deviceOwnerAuthenticationWithCompanion")
    public static var deviceOwnerAuthenticationWithWatch: LAPolicy { .deviceOwnerAuthenticationWithCompanion }
    /// Apple's former name for ``deviceOwnerAuthenticationWithBiometricsOrCompanion``.
    @available(*, deprecated, renamed: "deviceOwnerAuthenticationWithBiometricsOrCompanion")
    public static var deviceOwnerAuthenticationWithBiometricsOrWatch: LAPolicy {
        .deviceOwnerAuthenticationWithBiometricsOrCompanion
    }
}

/// The kind of biometry a device has.
public enum LABiometryType: Int, Sendable, Hashable {
    /// No biometry (always the answer here).
    case none = 0
    /// Touch ID.
    case touchID = 1
    /// Face ID.
    case faceID = 2
    /// Optic ID.
    case opticID = 4

    /// Apple's former name for ``none``.
    @available(*, deprecated, renamed: "none")
    public static var LABiometryNone: LABiometryType { .none }
}

/// The kind of credential `LAContext.setCredential(_:type:)` sets.
public enum LACredentialType: Int, Sendable, Hashable {
    /// The application-supplied password of items protected with `.applicationPassword`.
    case applicationPassword = 0
    /// A smart card PIN.
    case smartCardPIN = -3
}

/// What an access-control evaluation is for.
public enum LAAccessControlOperation: Int, Sendable, Hashable {
    /// Creating a keychain item.
    case createItem = 0
    /// Using (reading) a keychain item.
    case useItem = 1
    /// Creating a key.
    case createKey = 2
    /// Signing with a key.
    case useKeySign = 3
    /// Decrypting with a key.
    case useKeyDecrypt = 4
    /// Key exchange with a key.
    case useKeyKeyExchange = 5
}

/// The longest `touchIDAuthenticationAllowableReuseDuration` (5 minutes).
public let LATouchIDAuthenticationMaximumAllowableReuseDuration: TimeInterval = 300

/// Apple's `NSErrorPointer` (`canEvaluatePolicy(_:error:)`'s out-parameter): pass `&error` with
/// `var error: NSError?`. Linux's Foundation has no `NSErrorPointer`; this is the same shape.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?
