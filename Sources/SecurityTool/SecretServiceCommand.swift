import Foundation
import OSecSecretService
import Security

/// `security secret-service [-k keychain …] [--replace]`: serves the keychain as the freedesktop Secret Service
/// (`org.freedesktop.secrets`) on the session bus named by `DBUS_SESSION_BUS_ADDRESS` until the bus goes away,
/// another provider takes the name with `--replace`, or the process is stopped (SIGTERM, SIGINT).
///
/// The default keychain is the `default` alias; every keychain of the search list, or each `-k keychain` (the first
/// one then being the default), is a collection; `session` is an in-memory collection. See docs/secret-service.md.
enum SecretServiceCommand {
    static let command = ToolCommand(
        name: "secret-service", usage: "[-k keychain ...] [--replace]",
        help: "Serve the keychain as the freedesktop Secret Service (org.freedesktop.secrets) on the session bus.",
        run: run)

    static func run(_ arguments: [String]) -> Int32 {
        var keychains: [String] = []
        var replace = false
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--replace", "-r": replace = true
            case "-k":
                guard index + 1 < arguments.count else { return ToolOutput.usageStatus }
                keychains.append(KeychainOperand.path(for: arguments[index + 1]))
                index += 1
            default: return ToolOutput.usageStatus
            }
            index += 1
        }
        if keychains.isEmpty {
            keychains = [KeychainOperand.defaultKeychainPath()] + searchList()
        }
        guard let defaultKeychain = keychains.first else { return ToolOutput.usageStatus }
        let configuration = SecretServiceConfiguration(
            defaultKeychain: defaultKeychain, keychains: Array(keychains.dropFirst()), aliasFile: aliasFile())
        do {
            let outcome = try SecretServiceServer.run(configuration: configuration, replace: replace) { name in
                if SecurityCommand.verbose { ToolOutput.error("secret-service: serving on the session bus as \(name)") }
            }
            if outcome == .replaced && SecurityCommand.verbose {
                ToolOutput.error("secret-service: replaced by another provider")
            }
            return 0
        } catch {
            ToolOutput.error("secret-service: \(error)")
            return 1
        }
    }

    /// Where SetAlias's aliases are kept: next to the keychain preferences (`$OPENSECURITY_KEYCHAIN_PREFERENCES`'s
    /// directory, else `$XDG_CONFIG_HOME/opensecurity`, else `~/.config/opensecurity`).
    private static func aliasFile() -> String? {
        let environment = ProcessInfo.processInfo.environment
        let directory: String
        if let preferences = environment["OPENSECURITY_KEYCHAIN_PREFERENCES"], !preferences.isEmpty {
            directory = (preferences as NSString).deletingLastPathComponent
        } else if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            directory = xdg + "/opensecurity"
        } else if let home = environment["HOME"], !home.isEmpty {
            directory = home + "/.config/opensecurity"
        } else {
            return nil
        }
        return directory + "/" + SecretServiceConfiguration.aliasFileName
    }

    private static func searchList() -> [String] {
        var list: CFArray?
        guard SecKeychainCopySearchList(&list) == errSecSuccess else { return [] }
        return ((list as? [AnyObject]) ?? []).compactMap { $0 as? SecKeychain }.map(KeychainOperand.path(of:))
    }
}
