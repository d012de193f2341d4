import Foundation
import OSecKeychain
import OSecKeychainPaths
import OSecSystem

/// Apple's `SecPreferencesDomain`: whose keychain preferences (search list, default and login keychain) a call
/// reads or changes.
public enum SecPreferencesDomain: Int32, Sendable {
    /// The user's: `$XDG_CONFIG_HOME/opensecurity/keychain-preferences.plist` (`~/.config/…`).
    case user = 0
    /// The machine's: `/etc/opensecurity/keychain-preferences.plist` (writable by root only).
    case system = 1
    /// Shared by all users (always empty here).
    case common = 2
    /// Keychains that come and go, such as smart cards (always empty here).
    case dynamic = 3
}

/// The persistent keychain preferences of a domain, stored as a property list.
///
/// Keys: `SearchList` (array of keychain paths), `DefaultKeychain` and `LoginKeychain` (paths). A missing file
/// means no preferences: the search list is then the default keychain alone, and the default and login keychains
/// are `$OPENSECURITY_KEYCHAIN` or `$XDG_DATA_HOME/opensecurity/keychains/login.keychain-db`.
enum SecKeychainPreferences {
    /// Environment variable overriding the user domain's file (for tests and sandboxes).
    static let fileVariable = KeychainLocations.preferencesVariable
    static let systemPath = "/etc/opensecurity/keychain-preferences.plist"

    /// The preferences file of `domain`, or `nil` for the domains that have none.
    static func path(_ domain: SecPreferencesDomain) -> String? {
        switch domain {
        case .user: return KeychainLocations.userPreferencesPath
        case .system: return systemPath
        case .common, .dynamic: return nil
        }
    }

    static func read(_ domain: SecPreferencesDomain) -> [String: Any] {
        guard let path = path(domain), let data = FileManager.default.contents(atPath: path),
            let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                as? [String: Any]
        else { return [:] }
        return plist
    }

    static func write(_ domain: SecPreferencesDomain, _ change: (inout [String: Any]) -> Void) throws {
        guard let path = path(domain) else {
            throw SecError(errSecParam, "the \(domain) preference domain cannot be changed")
        }
        var plist = read(domain)
        change(&plist)
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        try SettingsFile.write(data, to: path, mode: domain == .system ? 0o644 : 0o600)
        KeychainRegistry.setDefault(nil)  // a new default or search list takes effect at once
    }

    /// The keychain settings stored for `domain` (none for the domains without a file).
    static func stored(_ domain: SecPreferencesDomain) -> KeychainLocations.Preferences {
        KeychainLocations.Preferences.read(at: path(domain))
    }

    /// The default keychain's path: `$OPENSECURITY_KEYCHAIN`, else the user's `DefaultKeychain`, else the login
    /// keychain path (``KeychainLocations``, the rules the `security` front end reads too).
    static func defaultKeychainPath() throws -> String {
        try located(KeychainLocations.defaultKeychainPath(preferences: stored(.user)))
    }

    /// The login keychain's path: the user's `LoginKeychain`, else `$XDG_DATA_HOME/…/login.keychain-db`.
    static func loginKeychainPath() throws -> String {
        try located(KeychainLocations.loginKeychainPath(preferences: stored(.user)))
    }

    /// A path the rules gave, or errSecNoSuchKeychain when there is no home directory to put it in.
    private static func located(_ path: String?) throws -> String {
        guard let path else {
            throw SecError(KeychainStoreError(.noSuchKeychain, KeychainLocations.noHomeMessage))
        }
        return path
    }

    /// The search list of `domain` (paths); for the user domain without a stored list: the default keychain.
    static func searchList(_ domain: SecPreferencesDomain) throws -> [String] {
        if let list = stored(domain).searchList { return list }
        return domain == .user ? [try KeychainRegistry.defaultKeychain().path] : []
    }
}

nonisolated(unsafe) private var preferenceDomain: SecPreferencesDomain = .user
private let preferenceDomainLock = NSLock()

/// Apple's `SecKeychainSetPreferenceDomain`: the domain `SecKeychainCopySearchList` and friends use.
public func SecKeychainSetPreferenceDomain(_ domain: SecPreferencesDomain) -> OSStatus {
    preferenceDomainLock.withLock { preferenceDomain = domain }
    return errSecSuccess
}

/// Apple's `SecKeychainGetPreferenceDomain`.
public func SecKeychainGetPreferenceDomain(_ domain: UnsafeMutablePointer<SecPreferencesDomain>) -> OSStatus {
    domain.pointee = preferenceDomainLock.withLock { preferenceDomain }
    return errSecSuccess
}

private func keychains(_ paths: [String]) -> NSArray {
    paths.map { SecKeychain(path: $0) } as NSArray
}

private func paths(_ list: CFArray) throws -> [String] {
    var result: [String] = []
    for element in list {
        guard let keychain = element as? SecKeychain else {
            throw SecError.param("the search list must hold SecKeychain objects")
        }
        result.append(keychain.path)
    }
    return result
}

/// Apple's `SecKeychainCopyDomainSearchList`.
public func SecKeychainCopyDomainSearchList(
    _ domain: SecPreferencesDomain, _ searchList: UnsafeMutablePointer<CFArray?>
) -> OSStatus {
    withOSStatus { searchList.pointee = keychains(try SecKeychainPreferences.searchList(domain)) }
}

/// Apple's `SecKeychainSetDomainSearchList` (persistent).
public func SecKeychainSetDomainSearchList(_ domain: SecPreferencesDomain, _ searchList: CFArray) -> OSStatus {
    withOSStatus {
        let list = try paths(searchList)
        try SecKeychainPreferences.write(domain) { $0["SearchList"] = list }
    }
}

/// Apple's `SecKeychainCopySearchList`: the keychains searched when a call names none (the preference domain's
/// list; the user's default is the default keychain alone).
public func SecKeychainCopySearchList(_ searchList: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    SecKeychainCopyDomainSearchList(preferenceDomainLock.withLock { preferenceDomain }, searchList)
}

/// Apple's `SecKeychainSetSearchList` (persistent, in the current preference domain).
public func SecKeychainSetSearchList(_ searchList: CFArray) -> OSStatus {
    SecKeychainSetDomainSearchList(preferenceDomainLock.withLock { preferenceDomain }, searchList)
}

/// Apple's `SecKeychainCopyDomainDefault`: the domain's default keychain.
public func SecKeychainCopyDomainDefault(
    _ domain: SecPreferencesDomain, _ keychain: UnsafeMutablePointer<SecKeychain?>
) -> OSStatus {
    withOSStatus {
        if domain == .user {
            keychain.pointee = SecKeychain(path: try SecKeychainPreferences.defaultKeychainPath())
            return
        }
        guard let path = SecKeychainPreferences.read(domain)["DefaultKeychain"] as? String else {
            throw SecError(errSecNoDefaultKeychain, "the \(domain) domain has no default keychain")
        }
        keychain.pointee = SecKeychain(path: path)
    }
}

/// Apple's `SecKeychainSetDomainDefault` (persistent; nil removes the setting).
public func SecKeychainSetDomainDefault(_ domain: SecPreferencesDomain, _ keychain: SecKeychain?) -> OSStatus {
    withOSStatus {
        let path = keychain?.path
        try SecKeychainPreferences.write(domain) { $0["DefaultKeychain"] = path }
    }
}

/// The login keychain (Apple's `SecKeychainCopyLogin`, private on macOS).
public func SecKeychainCopyLogin(_ keychain: UnsafeMutablePointer<SecKeychain?>) -> OSStatus {
    withOSStatus { keychain.pointee = SecKeychain(path: try SecKeychainPreferences.loginKeychainPath()) }
}

/// Sets the login keychain (persistent, user domain; nil removes the setting). OpenSecurity's addition: macOS's
/// `SecKeychainSetLogin` is private.
public func SecKeychainSetLogin(_ keychain: SecKeychain?) -> OSStatus {
    withOSStatus {
        let path = keychain?.path
        try SecKeychainPreferences.write(.user) { $0["LoginKeychain"] = path }
    }
}
