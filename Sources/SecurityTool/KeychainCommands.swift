import Foundation
import Security

/// `create-keychain`, `delete-keychain`, `default-keychain`, `list-keychains` and `show-keychain-info`.
///
/// Keychain operands are paths, or names in the default keychain's directory (`name` → `name.keychain-db`).
/// Lock state lives in each process here (there is no keychain daemon), so `lock-keychain` and `unlock-keychain`
/// are not offered: a keychain created without a password is protected by its device key and needs no unlock.
enum KeychainCommands {
    static func create(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse("create-keychain", arguments, valued: "p", flags: "P") else {
            return 2
        }
        guard !options.operands.isEmpty else {
            return ToolOutput.usage("create-keychain", "a keychain name is required")
        }
        var password = options.values["p"]
        if options.flags.contains("P") {
            guard let line = ToolOutput.readSecretLine(prompt: "password for new keychain: ") else { return 1 }
            password = line
        }
        for operand in options.operands {
            let path = KeychainOperand.path(for: operand)
            var keychain: SecKeychain?
            let status: OSStatus
            if let password {
                status = SecKeychainCreate(path, UInt32(password.utf8.count), password, false, nil, &keychain)
            } else {
                status = SecKeychainCreate(path, 0, nil, false, nil, &keychain)
            }
            guard status == errSecSuccess else { return ToolOutput.fail("SecKeychainCreate \(path)", status) }
        }
        return 0
    }

    static func delete(_ arguments: [String]) -> Int32 {
        guard !arguments.isEmpty else { return ToolOutput.usage("delete-keychain", "a keychain name is required") }
        for operand in arguments {
            let path = KeychainOperand.path(for: operand)
            guard FileManager.default.fileExists(atPath: path), let keychain = KeychainOperand.open(operand) else {
                return ToolOutput.fail("SecKeychainDelete \(path)", errSecNoSuchKeychain)
            }
            let status = SecKeychainDelete(keychain)
            guard status == errSecSuccess else { return ToolOutput.fail("SecKeychainDelete \(path)", status) }
        }
        return 0
    }

    /// Prints the default keychain. Changing it is done with `OPENSECURITY_KEYCHAIN` (there is no per-user
    /// preference store), so `-s` explains that instead.
    static func defaultKeychain(_ arguments: [String]) -> Int32 {
        if arguments.first == "-s" {
            ToolOutput.error(
                "default-keychain -s: set \(SecKeychainConfiguration.keychainEnvironmentVariable)=<path> to choose "
                    + "the default keychain"
            )
            return 2
        }
        print("    \"\(KeychainOperand.defaultKeychainPath())\"")
        return 0
    }

    /// The default keychain first, then the other keychains in its directory.
    static func list(_ arguments: [String]) -> Int32 {
        guard arguments.isEmpty else {
            ToolOutput.error(
                "list-keychains: the search list is the default keychain's directory; options are not supported")
            return 2
        }
        let defaultPath = KeychainOperand.defaultKeychainPath()
        var paths = [defaultPath]
        let directory = (defaultPath as NSString).deletingLastPathComponent
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names.sorted() where name.hasSuffix(".keychain-db") {
            let path = (directory as NSString).appendingPathComponent(name)
            if path != defaultPath { paths.append(path) }
        }
        for path in paths { print("    \"\(path)\"") }
        return 0
    }

    static func showInfo(_ arguments: [String]) -> Int32 {
        let path = arguments.first.map(KeychainOperand.path(for:)) ?? KeychainOperand.defaultKeychainPath()
        guard FileManager.default.fileExists(atPath: path) else {
            return ToolOutput.fail("SecKeychainCopySettings \(path)", errSecNoSuchKeychain)
        }
        print("Keychain \"\(path)\" no-timeout")
        return 0
    }
}
