import Foundation
import OSecKeychain
import OSecKeychainPaths
import OSecSystem

/// OpenSecurity's process-wide keychain settings (our API beyond Apple's).
///
/// **Access groups** (`kSecAttrAccessGroup`) namespace items, as entitlements do on Apple platforms. Linux has
/// no entitlements, so by default a process may use **any** access group: items it adds without
/// `kSecAttrAccessGroup` go to the shared group ``defaultAccessGroup`` (so the `security` tool and every app of
/// the same OS user see them), items it adds with a group go to that group, and queries without a group search
/// every group. A process can restrict itself to a list of groups, like an entitlement: set
/// `SecKeychainConfiguration.accessGroups`, or the `OPENSECURITY_ACCESS_GROUPS` environment variable
/// (comma-separated). Then the first group is where new items go, queries search only the listed groups, and
/// naming any other group gives `errSecMissingEntitlement`. On Linux this *separates*; it does not *enforce*:
/// any process running as the same OS user can open the keychain file and name any group. The OS user is the
/// boundary.
///
/// **Default keychain**: `$OPENSECURITY_KEYCHAIN`, else `$XDG_DATA_HOME/opensecurity/keychains/login.keychain-db`
/// (`~/.local/share/…` when XDG_DATA_HOME is unset), created on first use; `SecKeychainSetDefault` changes it
/// for the process.
public enum SecKeychainConfiguration {
    /// The group everybody shares when nothing else is configured.
    public static let defaultAccessGroup = "opensecurity.shared"
    /// Environment variable listing the process's access groups (comma-separated, first = default for adds).
    public static let accessGroupsEnvironmentVariable = KeychainLocations.accessGroupsVariable
    /// Environment variable naming the default keychain file.
    public static let keychainEnvironmentVariable = "OPENSECURITY_KEYCHAIN"

    private static let lock = NSLock()
    nonisolated(unsafe) private static var configuredGroups: [String]?
    /// The environment's groups, read once (reading the environment costs more than a keychain lookup); nil
    /// when the variable is unset or empty.
    private static let environmentGroups: [String]? = KeychainLocations.environmentAccessGroups()
    /// A per-task override of the configured groups, for tests (``withAccessGroups(_:_:)``).
    @TaskLocal private static var taskGroups: [String]?? = .none

    /// The process's access groups: the configured list (the API's, else the environment's), or
    /// `[defaultAccessGroup]` when none is configured. Set it to restrict the process to a list; an empty list
    /// (or nil) removes the API's restriction.
    public static var accessGroups: [String] {
        get { restrictedGroups ?? [defaultAccessGroup] }
        set {
            lock.lock()
            configuredGroups = newValue
            lock.unlock()
        }
    }

    /// The groups the process is restricted to, or nil when it may use any group (nothing configured).
    static var restrictedGroups: [String]? {
        if case .some(let override) = taskGroups { return override }
        lock.lock()
        defer { lock.unlock() }
        if let configuredGroups, !configuredGroups.isEmpty { return configuredGroups }
        return environmentGroups
    }

    /// Runs `body` as if the process were restricted to `groups` (nil: unrestricted), for this task only.
    package static func withAccessGroups<T>(_ groups: [String]?, _ body: () throws -> T) rethrows -> T {
        try $taskGroups.withValue(.some(groups.flatMap { $0.isEmpty ? nil : $0 }), operation: body)
    }
}
