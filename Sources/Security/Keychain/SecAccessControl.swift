import Foundation

/// Apple's `SecAccessControlCreateFlags` with Apple's raw values (Security/SecAccessControl.h).
public struct SecAccessControlCreateFlags: OptionSet, Sendable, Hashable {
    public let rawValue: CFOptionFlags
    public init(rawValue: CFOptionFlags) { self.rawValue = rawValue }

    /// User presence: biometry or the device passcode.
    public static let userPresence = SecAccessControlCreateFlags(rawValue: 1 << 0)
    /// Any enrolled biometry.
    public static let biometryAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    /// Apple's older name of ``biometryAny``.
    @available(*, deprecated, renamed: "biometryAny")
    public static let touchIDAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    /// The biometry enrolled now.
    public static let biometryCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    /// Apple's older name of ``biometryCurrentSet``.
    @available(*, deprecated, renamed: "biometryCurrentSet")
    public static let touchIDCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    /// The device passcode.
    public static let devicePasscode = SecAccessControlCreateFlags(rawValue: 1 << 4)
    /// A paired watch (macOS).
    public static let watch = SecAccessControlCreateFlags(rawValue: 1 << 5)
    /// A paired companion device (Apple's newer name of ``watch``).
    public static let companion = SecAccessControlCreateFlags(rawValue: 1 << 5)
    /// Any one of the constraints.
    public static let or = SecAccessControlCreateFlags(rawValue: 1 << 14)
    /// All of the constraints.
    public static let and = SecAccessControlCreateFlags(rawValue: 1 << 15)
    /// The constraints apply to private-key operations (signing, key exchange) instead of reading the item.
    public static let privateKeyUsage = SecAccessControlCreateFlags(rawValue: 1 << 30)
    /// An application-provided password is also required.
    public static let applicationPassword = SecAccessControlCreateFlags(rawValue: 1 << 31)
}

/// Apple's `SecAccessControl`: an item's protection class (one of the `kSecAttrAccessible…` values) and the
/// authentication constraints Apple's keychain enforces on it.
///
/// On Linux there is no biometry, passcode or companion device: the constraints are kept with the item and
/// returned as given, but not enforced (the OS user is the keychain's security boundary). The protection class
/// works as `kSecAttrAccessible` does. Two access controls are equal when protection and flags are (Apple
/// compares their contents too).
public final class SecAccessControl: NSObject, @unchecked Sendable {  // immutable
    /// The protection class, a `kSecAttrAccessible…` value such as `"ak"`.
    package let protection: String
    /// The flags it was created with.
    package let flags: SecAccessControlCreateFlags

    init(protection: String, flags: SecAccessControlCreateFlags) {
        self.protection = protection
        self.flags = flags
    }

    /// The protection classes Apple accepts (kSecAttrAccessible… values; `dk`/`dku` are the deprecated Always).
    static let protections: Set<String> = ["ak", "ck", "dk", "aku", "cku", "dku", "akpu"]

    /// Validates like Apple's `SecAccessControlCreateWithFlags`: a known protection class, at most one logical
    /// operation, one biometry constraint, and user presence combined only with application password and
    /// private-key usage.
    static func validated(protection raw: Any?, flags: SecAccessControlCreateFlags) throws -> SecAccessControl {
        guard let raw, let protection = AttributeDictionary.stringValue(raw), protections.contains(protection) else {
            throw SecError.param("SecAccessControl: invalid protection: \(raw.map { "\($0)" } ?? "nil")")
        }
        if flags.contains(.or) && flags.contains(.and) {
            throw SecError.param("SecAccessControl: only one logical operation can be set")
        }
        if flags.contains(.biometryAny) && flags.contains(.biometryCurrentSet) {
            throw SecError.param("SecAccessControl: only one bio constraint can be set")
        }
        let presenceCompanions: SecAccessControlCreateFlags = [.userPresence, .applicationPassword, .privateKeyUsage]
        if flags.contains(.userPresence) && !flags.subtracting(presenceCompanions).isEmpty {
            throw SecError.param(
                "SecAccessControl: kSecAccessControlUserPresence can be combined only with "
                    + "kSecAccessControlApplicationPassword and kSecAccessControlPrivateKeyUsage")
        }
        return SecAccessControl(protection: protection, flags: flags)
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SecAccessControl else { return false }
        return other === self || (other.protection == protection && other.flags == flags)
    }

    public override var hash: Int { protection.hashValue ^ Int(truncatingIfNeeded: flags.rawValue) }

    /// Apple's format: `<SecAccessControlRef: ak>`, plus the constraints when there are any.
    public override var description: String {
        flags.isEmpty
            ? "<SecAccessControlRef: \(protection)>" : "<SecAccessControlRef: \(protection);flags=\(flags.rawValue)>"
    }

    // MARK: Storage (the item's `accc` attribute)

    /// The stored form: `<protection>;<flags>` in UTF-8.
    var storedForm: Data { Data("\(protection);\(flags.rawValue)".utf8) }

    /// The access control of a stored `accc` value; nil when it is not one.
    static func fromStored(_ data: Data) -> SecAccessControl? {
        guard let text = String(data: data, encoding: .utf8) else { return nil }
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
        guard parts.count == 2, let raw = CFOptionFlags(parts[1]), protections.contains(String(parts[0])) else {
            return nil
        }
        return SecAccessControl(protection: String(parts[0]), flags: SecAccessControlCreateFlags(rawValue: raw))
    }
}

/// Apple's `SecAccessControlCreateWithFlags`: nil and errSecParam (through `error`) for an unknown protection
/// class or a combination of flags Apple refuses.
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? {
    withCFError(error) { try SecAccessControl.validated(protection: protection, flags: flags) }
}

/// Apple's `SecAccessControlGetTypeID`.
public func SecAccessControlGetTypeID() -> CFTypeID { CFTypeIdentifier.accessControl }
