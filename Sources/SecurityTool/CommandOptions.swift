import Foundation
import OSecKeychain
import OSecKeychainPaths
import OSecToolBase
import Security

extension CommandOptions {
    /// The command's options, or nil after printing the option error (the command then returns 2, which prints
    /// its usage).
    static func parse(
        _ arguments: [String], valued: String, flags: String, promptable: String = "", jsonLetter: Character? = nil
    ) -> CommandOptions? {
        do {
            return try CommandOptions(
                arguments, valued: valued, flags: flags, promptable: promptable, jsonLetter: jsonLetter)
        } catch {
            if let message = error.message { ToolOutput.error(message) }
            return nil
        }
    }

    /// `true` when there are more operands than `maximum` (macOS treats extra operands as a usage error).
    func hasExtraOperands(beyond maximum: Int) -> Bool { operands.count > maximum }
}

/// Output and error conventions shared by the commands (modelled on macOS security(1)).
enum ToolOutput {
    /// The exit status that makes the dispatcher print the command's usage (macOS's `SHOW_USAGE_MESSAGE`).
    static let usageStatus: Int32 = 2

    /// Prints `security: <message>` and returns the usage status.
    static func usage(_ message: String) -> Int32 {
        error(message)
        return usageStatus
    }

    /// `security: <message>` on standard error.
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("security: \(message)\n".utf8))
    }

    /// A line on standard error, as is.
    static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// macOS exits with the OSStatus's low byte (errSecItemNotFound → 44, errSecDuplicateItem → 45).
    static func exitCode(_ status: OSStatus) -> Int32 {
        Int32(UInt32(bitPattern: status) & 0xFF)
    }

    /// The message of an OSStatus (`SecCopyErrorMessageString`).
    static func message(_ status: OSStatus) -> String {
        (SecCopyErrorMessageString(status, nil) as String?) ?? "error \(status)"
    }

    /// Reports a failed call as macOS does: `security: <call>: <message>` and the status's exit code.
    static func fail(_ call: String, _ status: OSStatus) -> Int32 {
        error("\(call): \(message(status))")
        return exitCode(status)
    }

    /// Writes `data` to standard output as is.
    static func write(_ data: Data) {
        FileHandle.standardOutput.write(data)
    }
}

/// Keychain operands: a path (with a `/`) or a name in the default keychain's directory, as `name.keychain-db`.
enum KeychainOperand {
    /// The rules are `KeychainLocations.operandPath` (shared with the front end), after `~` expansion.
    static func path(for operand: String) -> String {
        let expanded = (operand as NSString).expandingTildeInPath
        if expanded.contains("/") { return expanded }
        return KeychainLocations.operandPath(expanded, defaultKeychainPath: defaultKeychainPath())
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

    /// The exit status for a keychain operand that names no keychain (errSecNoSuchKeychain & 0xFF).
    static let missingStatus = ToolOutput.exitCode(errSecNoSuchKeychain)

    /// The keychain an operand names, or `nil` after reporting `errSecNoSuchKeychain` as macOS does (the caller
    /// exits with ``missingStatus``).
    static func existing(_ operand: String, call: String) -> SecKeychain? {
        let path = path(for: operand)
        guard FileManager.default.fileExists(atPath: path), let keychain = open(operand) else {
            _ = ToolOutput.fail("\(call) \(operand)", errSecNoSuchKeychain)
            return nil
        }
        return keychain
    }

    /// The keychain an optional operand names: `.some(nil)` when there is no operand (the call then uses its
    /// default), the keychain when it exists, or `nil` after reporting `errSecNoSuchKeychain` as
    /// ``existing(_:call:)`` does.
    static func existing(optional operand: String?, call: String) -> SecKeychain?? {
        guard let operand else { return .some(nil) }
        return existing(operand, call: call).map { Optional($0) }
    }

    /// The search list (the keychains searched when a command names none), with their paths.
    static func searchList() -> [(keychain: SecKeychain, path: String)] {
        var list: CFArray?
        guard SecKeychainCopySearchList(&list) == errSecSuccess else { return [] }
        return ((list as? [AnyObject]) ?? []).compactMap { $0 as? SecKeychain }.map { ($0, path(of: $0)) }
    }

    /// The keychains named by the operands (with their paths), or the search list when there are none.
    static func keychains(_ operands: [String]) -> [(keychain: SecKeychain, path: String)] {
        if operands.isEmpty { return searchList() }
        return operands.compactMap { operand in open(operand).map { ($0, path(for: operand)) } }
    }

    /// `SecItemCopyMatching` of `query` in one keychain: the result, `nil` when nothing matches there (or the
    /// keychain is gone, so that a search moves on to the next one), or the failure's status.
    static func copyMatching(_ query: [String: Any], in keychain: SecKeychain) -> Result<CFTypeRef?, OSStatusError> {
        var scoped = query
        scoped[kSecUseKeychain as String] = keychain
        var result: CFTypeRef?
        let status = SecItemCopyMatching(scoped as CFDictionary, &result)
        if status == errSecItemNotFound || status == errSecNoSuchKeychain { return .success(nil) }
        guard status == errSecSuccess else { return .failure(OSStatusError(status)) }
        return .success(result)
    }
}
