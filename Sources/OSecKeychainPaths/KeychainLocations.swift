import OSecASN1
import OSecSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the user's keychains are, and which ones a search reads: the one implementation of these rules for the
/// `Security` facade, the `security` tool and its front end (docs/security-tool.md, "Keychains, the search list
/// and the keychain agent").
///
/// - The default keychain is `$OPENSECURITY_KEYCHAIN`, else the preferences' `DefaultKeychain`, else
///   `$XDG_DATA_HOME/opensecurity/keychains/login.keychain-db`, else `~/.local/share/opensecurity/keychains/…`
///   (``defaultPath(environment:)``).
/// - The user's preferences (search list, default and login keychain) are the property list
///   `$OPENSECURITY_KEYCHAIN_PREFERENCES`, else `$XDG_CONFIG_HOME/opensecurity/keychain-preferences.plist`, else
///   `~/.config/opensecurity/keychain-preferences.plist`.
/// - A keychain operand is a path when it contains a `/`, else a name in the default keychain's directory
///   (`build` → `build.keychain-db`, `build.keychain` → `build.keychain-db`).
/// - The process's access groups are `$OPENSECURITY_ACCESS_GROUPS` (comma-separated; unset or empty: any group).
///
/// This module holds the rules alone, without the keychain store: the `security` front end, which opens no keychain
/// itself, resolves with them the paths it sends the keychain agent.
package enum KeychainLocations {
    /// Environment variable that overrides the default keychain path.
    package static let keychainVariable = "OPENSECURITY_KEYCHAIN"
    /// Environment variable overriding the user's preferences file (for tests and sandboxes).
    package static let preferencesVariable = "OPENSECURITY_KEYCHAIN_PREFERENCES"
    /// Environment variable listing the process's access groups (comma-separated, first = default for adds).
    package static let accessGroupsVariable = "OPENSECURITY_ACCESS_GROUPS"

    /// The user's settings file `name` (a path below `opensecurity/`): `$variable` when set and not empty, else
    /// below `$XDG_CONFIG_HOME` when that is absolute, else below `~/.config`; nil when there is no home.
    package static func userSettingsPath(overriddenBy variable: String, _ name: String) -> String? {
        if let explicit = SystemProcess.environment(variable), !explicit.isEmpty { return explicit }
        if let xdg = SystemProcess.environment("XDG_CONFIG_HOME"), xdg.hasPrefix("/") {
            return xdg + "/opensecurity/" + name
        }
        guard let home = SystemProcess.environment("HOME"), !home.isEmpty else { return nil }
        return home + "/.config/opensecurity/" + name
    }

    /// The user's keychain preferences file.
    package static var userPreferencesPath: String? {
        userSettingsPath(overriddenBy: preferencesVariable, "keychain-preferences.plist")
    }

    /// The keychain settings a preferences file holds. A missing or unreadable file, or a key whose value has
    /// another type, counts as not set.
    package struct Preferences: Decodable, Sendable {
        /// `SearchList`: the keychains searched when a call names none.
        package var searchList: [String]?
        /// `DefaultKeychain`: the default keychain's path.
        package var defaultKeychain: String?
        /// `LoginKeychain`: the login keychain's path.
        package var loginKeychain: String?

        private enum CodingKeys: String, CodingKey {
            case searchList = "SearchList"
            case defaultKeychain = "DefaultKeychain"
            case loginKeychain = "LoginKeychain"
        }

        package init() {}

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            searchList = try? container.decodeIfPresent([String].self, forKey: .searchList)
            defaultKeychain = try? container.decodeIfPresent(String.self, forKey: .defaultKeychain)
            loginKeychain = try? container.decodeIfPresent(String.self, forKey: .loginKeychain)
        }

        /// The preferences stored in the property list at `path` (XML or binary); none when it cannot be read.
        package static func read(at path: String?) -> Preferences {
            guard let path, let data = FileManager.default.contents(atPath: path) else { return Preferences() }
            return (try? PropertyListDecoder().decode(Preferences.self, from: data)) ?? Preferences()
        }
    }

    /// What is said when the XDG default path cannot be made.
    package static let noHomeMessage = "neither XDG_DATA_HOME nor HOME is set"

    /// `$OPENSECURITY_KEYCHAIN` in `environment`, else `$XDG_DATA_HOME/opensecurity/keychains/login.keychain-db`
    /// (an absolute `XDG_DATA_HOME` only), else `$HOME/.local/share/opensecurity/keychains/login.keychain-db`; nil
    /// when neither is set (``noHomeMessage``).
    package static func defaultPath(environment: [String: String]) -> String? {
        if let override = environment[keychainVariable], !override.isEmpty { return override }
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {  // XDG: relative values are ignored
            dataHome = xdg
        } else if let home = environment["HOME"], !home.isEmpty {
            dataHome = home + "/.local/share"
        } else {
            return nil
        }
        return dataHome + "/opensecurity/keychains/login.keychain-db"
    }

    /// The default keychain's path: `$OPENSECURITY_KEYCHAIN`, else `preferences.defaultKeychain`, else the XDG
    /// default (``defaultPath(environment:)``); nil when there is no home to put it in.
    package static func defaultKeychainPath(preferences: Preferences) -> String? {
        if let override = SystemProcess.environment(keychainVariable), !override.isEmpty { return override }
        if let chosen = preferences.defaultKeychain, !chosen.isEmpty { return chosen }
        return defaultPath(environment: xdgEnvironment())
    }

    /// The login keychain's path: `preferences.loginKeychain`, else the XDG default (`$OPENSECURITY_KEYCHAIN`
    /// does not move the login keychain); nil when there is no home to put it in.
    package static func loginKeychainPath(preferences: Preferences) -> String? {
        if let chosen = preferences.loginKeychain, !chosen.isEmpty { return chosen }
        return defaultPath(environment: xdgEnvironment())
    }

    /// The variables the XDG default path depends on, read with `getenv`.
    private static func xdgEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in ["XDG_DATA_HOME", "HOME"] { environment[name] = SystemProcess.environment(name) }
        return environment
    }

    /// The path a keychain operand names: itself when it contains a `/`, else `name.keychain-db` in the default
    /// keychain's directory (`build` and `build.keychain` → `build.keychain-db`). `~` is the caller's to expand.
    package static func operandPath(_ operand: String, defaultKeychainPath: String) -> String {
        if operand.contains("/") { return operand }
        let name: String
        if operand.hasSuffix(".keychain-db") {
            name = operand
        } else if operand.hasSuffix(".keychain") {
            name = operand + "-db"
        } else {
            name = operand + ".keychain-db"
        }
        let directory = POSIXFiles.parentDirectory(of: defaultKeychainPath)
        if directory.isEmpty { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The access groups `$OPENSECURITY_ACCESS_GROUPS` lists (spaces around names ignored), or nil when it is
    /// unset or lists none: the process may then use any group.
    package static func environmentAccessGroups() -> [String]? {
        let value = SystemProcess.environment(accessGroupsVariable) ?? ""
        let groups = value.split(separator: ",").map { String($0.trimmingSpaces()) }.filter { !$0.isEmpty }
        return groups.isEmpty ? nil : groups
    }
}
