import Foundation

/// OpenSecurity's process-wide keychain settings (our API beyond Apple's).
///
/// **Access groups** (`kSecAttrAccessGroup`) namespace items, as entitlements do on Apple platforms. A process's
/// groups come from `SecKeychainConfiguration.accessGroups`, else from the `OPENSECURITY_ACCESS_GROUPS`
/// environment variable (comma-separated), else the single shared group ``defaultAccessGroup``, so the
/// `security` tool and every app of the same OS user see the same items. The first group is where new items
/// go when `kSecAttrAccessGroup` is not given. On Linux this *separates*; it does not *enforce*: any process
/// running as the same OS user can open the keychain file and name any group. The OS user is the boundary.
///
/// **Default keychain**: `$OPENSECURITY_KEYCHAIN`, else `$XDG_DATA_HOME/opensecurity/keychains/login.keychain-db`
/// (`~/.local/share/…` when XDG_DATA_HOME is unset), created on first use; `SecKeychainSetDefault` changes it
/// for the process.
public enum SecKeychainConfiguration {
    /// The group everybody shares when nothing else is configured.
    public static let defaultAccessGroup = "opensecurity.shared"
    /// Environment variable listing the process's access groups (comma-separated, first = default for adds).
    public static let accessGroupsEnvironmentVariable = "OPENSECURITY_ACCESS_GROUPS"
    /// Environment variable naming the default keychain file.
    public static let keychainEnvironmentVariable = "OPENSECURITY_KEYCHAIN"

    private static let lock = NSLock()
    nonisolated(unsafe) private static var configuredGroups: [String]?
    /// The environment's groups, read once (reading the environment costs more than a keychain lookup).
    private static let environmentGroups: [String] = {
        let env = ProcessInfo.processInfo.environment[accessGroupsEnvironmentVariable] ?? ""
        let groups = env.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return groups.isEmpty ? [defaultAccessGroup] : groups
    }()

    /// The process's access groups; set to override the environment. Empty or nil restores the default.
    public static var accessGroups: [String] {
        get {
            lock.lock()
            defer { lock.unlock() }
            if let configuredGroups, !configuredGroups.isEmpty { return configuredGroups }
            return environmentGroups
        }
        set {
            lock.lock()
            configuredGroups = newValue
            lock.unlock()
        }
    }
}
