import Foundation
import OSecKeychainPaths
import OSecSystem

/// The facade's own settings files (keychain preferences, trust settings): where a user's file lives and how a
/// file is replaced, so that every store finds and writes its property list the same way.
enum SettingsFile {
    /// The user's settings file `name` (a path below `opensecurity/`): `$variable` when set and not empty, else
    /// below `$XDG_CONFIG_HOME` when that is absolute, else below `~/.config`; nil when there is no home.
    static func userPath(overriddenBy variable: String, _ name: String) -> String? {
        KeychainLocations.userSettingsPath(overriddenBy: variable, name)
    }

    /// Replaces the file at `path` with `data` durably (its directory is created with mode 0700).
    ///
    /// - Throws: errSecWrPerm when permission is denied, errSecIO for any other failure; the file is then unchanged.
    static func write(_ data: Data, to path: String, mode: UInt16) throws {
        do {
            try POSIXFiles.makeDirectories((path as NSString).deletingLastPathComponent, mode: 0o700)
            try POSIXFiles.writeDurably(data, to: path, mode: mode)
        } catch {
            throw SecError(error.isPermissionDenied ? errSecWrPerm : errSecIO, "cannot write \(path): \(error)")
        }
    }
}
