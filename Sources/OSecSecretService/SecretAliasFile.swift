import Foundation
import OSecDBus
import OSecSystem

/// The file keeping the Secret Service's aliases across restarts: a property list `{"Aliases": {name: keychain
/// path}}`, written atomically with mode 0600 in a directory created with mode 0700 (next to the keychain
/// preferences: `$XDG_CONFIG_HOME/opensecurity/secret-service-aliases.plist`).
enum SecretAliasFile {
    /// The file's name in the settings directory.
    static let name = "secret-service-aliases.plist"

    /// The stored aliases (empty when the file is missing or not such a property list).
    static func read(_ path: String?) -> [String: String] {
        guard let path, let data = FileManager.default.contents(atPath: path),
            let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                as? [String: Any],
            let aliases = plist["Aliases"] as? [String: String]
        else { return [:] }
        return aliases.filter { DBusNames.isValidPathElement($0.key) && $0.value.hasPrefix("/") }
    }

    /// Replaces the file with `aliases`.
    static func write(_ aliases: [String: String], to path: String) throws {
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["Aliases": aliases], format: .xml, options: 0)
        try POSIXFiles.makeDirectories((path as NSString).deletingLastPathComponent, mode: 0o700)
        try POSIXFiles.writeDurably(data, to: path, mode: 0o600)
    }
}
