import Foundation
import Security

/// getopt-style parsing of one command's arguments: `-x value` options, `-x` flags and trailing operands.
struct CommandOptions {
    var values: [Character: String] = [:]
    var flags: Set<Character> = []
    var operands: [String] = []
    /// Options given last without their value (`-w` at the end means "prompt for it").
    var valueMissing: Set<Character> = []

    struct UsageError: Error { let message: String }

    /// - Parameters:
    ///   - valued: option letters that take a value; `flags`: letters that do not.
    ///   - promptable: valued options that may end the command line without a value.
    init(_ arguments: [String], valued: String, flags allowedFlags: String, promptable: String = "") throws {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                operands += arguments[(index + 1)...]
                break
            }
            // options may follow operands (`import file -k kc`)
            guard argument.hasPrefix("-"), argument.count >= 2 else {
                operands.append(argument)
                index += 1
                continue
            }
            var letters = Array(argument.dropFirst())
            while !letters.isEmpty {
                let letter = letters.removeFirst()
                if valued.contains(letter) {
                    if !letters.isEmpty {
                        values[letter] = String(letters)
                        letters = []
                    } else if index + 1 < arguments.count {
                        index += 1
                        values[letter] = arguments[index]
                    } else if promptable.contains(letter) {
                        valueMissing.insert(letter)
                    } else {
                        throw UsageError(message: "option -\(letter) requires an argument")
                    }
                } else if allowedFlags.contains(letter) {
                    flags.insert(letter)
                } else {
                    throw UsageError(message: "illegal option -- \(letter)")
                }
            }
            index += 1
        }
    }
}

extension CommandOptions {
    /// The command's options, or nil after printing the usage error (the caller exits with 2).
    static func parse(
        _ command: String, _ arguments: [String], valued: String, flags: String,
        promptable: String = ""
    ) -> CommandOptions? {
        do {
            return try CommandOptions(arguments, valued: valued, flags: flags, promptable: promptable)
        } catch {
            _ = ToolOutput.usage(command, (error as? UsageError)?.message ?? "\(error)")
            return nil
        }
    }
}

/// Output and error conventions shared by the commands (modelled on macOS security(1)).
enum ToolOutput {
    /// A usage error: `security: <command>: <message>`, exit code 2.
    static func usage(_ command: String, _ message: String) -> Int32 {
        error("\(command): \(message)")
        return 2
    }

    static func error(_ message: String) {
        FileHandle.standardError.write(Data("security: \(message)\n".utf8))
    }

    /// macOS exits with the OSStatus's low byte (errSecItemNotFound → 44, errSecDuplicateItem → 45).
    static func exitCode(_ status: OSStatus) -> Int32 {
        Int32(UInt32(bitPattern: status) & 0xFF)
    }

    /// Reports a failed call as macOS does: `security: <call>: <message>` and the status's exit code.
    static func fail(_ call: String, _ status: OSStatus) -> Int32 {
        let message = (SecCopyErrorMessageString(status, nil) as String?) ?? "error \(status)"
        error("\(call): \(message)")
        return exitCode(status)
    }

    /// A line read from standard input (for options given last without a value, where macOS would prompt).
    static func readSecretLine(prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        return readLine(strippingNewline: true)
    }
}

/// Keychain operands: a path (with a `/`) or a name in the default keychain's directory, as `name.keychain-db`.
enum KeychainOperand {
    static func path(for operand: String) -> String {
        let expanded = (operand as NSString).expandingTildeInPath
        if expanded.contains("/") { return expanded }
        let directory = (defaultKeychainPath() as NSString).deletingLastPathComponent
        let name: String
        if expanded.hasSuffix(".keychain-db") {
            name = expanded
        } else if expanded.hasSuffix(".keychain") {
            name = expanded + "-db"
        } else {
            name = expanded + ".keychain-db"
        }
        return (directory as NSString).appendingPathComponent(name)
    }

    /// The default keychain's path.
    static func defaultKeychainPath() -> String {
        var keychain: SecKeychain?
        guard SecKeychainCopyDefault(&keychain) == errSecSuccess, let keychain else { return "" }
        return path(of: keychain)
    }

    static func path(of keychain: SecKeychain) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        var length = UInt32(buffer.count)
        guard SecKeychainGetPath(keychain, &length, &buffer) == errSecSuccess else { return "" }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The keychain an operand names (opened, not created).
    static func open(_ operand: String) -> SecKeychain? {
        var keychain: SecKeychain?
        guard SecKeychainOpen(path(for: operand), &keychain) == errSecSuccess else { return nil }
        return keychain
    }
}
