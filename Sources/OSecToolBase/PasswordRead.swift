import OSecKeychainAgent
import OSecKeychainPaths
import OSecSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `security find-generic-password -w` / `find-internet-password -w` as a read request: the first item of one
/// password class matching the options' attributes, in the first keychain of a list that has one.
///
/// The `security` front end makes the request and sends it to the keychain agent (``ask(_:)``), which answers it
/// on keychains it keeps open — so a process that prints a password loads neither SQLite nor libcrypto. The full
/// tool reads the same request itself when no agent answers (OSecToolCore's `PasswordLookup`). Both resolve the
/// same option letters, the same keychains (`KeychainLocations`: operands, the search list, the default keychain)
/// and the process's access groups; a command line whose answer is not the plain success case gives no request
/// (nil), and the full tool answers it in its own words and status.
package enum PasswordRead {
    /// Which kind of password item.
    package enum Kind: Sendable {
        case generic, internet

        /// The command that finds it (`find-generic-password`, `find-internet-password`).
        package var findCommand: String { self == .generic ? "find-generic-password" : "find-internet-password" }

        /// The class a read request names.
        package var requestClass: AgentReadRequest.ItemClass {
            self == .generic ? .genericPassword : .internetPassword
        }

        /// The valued options that select attributes (shared by add, find and delete), with the attribute each
        /// sets (Apple's raw `kSecAttr…` values).
        package var attributeOptions: [(letter: Character, attribute: String)] {
            switch self {
            case .generic:
                return [
                    ("a", "acct"), ("s", "svce"), ("l", "labl"), ("j", "icmt"), ("D", "desc"), ("G", "gena"),
                    ("c", "crtr"), ("C", "type"),
                ]
            case .internet:
                return [
                    ("a", "acct"), ("s", "srvr"), ("l", "labl"), ("j", "icmt"), ("D", "desc"), ("d", "sdmn"),
                    ("p", "path"), ("r", "ptcl"), ("t", "atyp"), ("P", "port"), ("c", "crtr"), ("C", "type"),
                ]
            }
        }

        /// The letters of ``attributeOptions``.
        package var valuedLetters: String { String(attributeOptions.map(\.letter)) }

        /// The kind `command` finds, if it is one of the two find commands.
        package init?(findCommand command: String) {
            switch command {
            case Kind.generic.findCommand: self = .generic
            case Kind.internet.findCommand: self = .internet
            default: return nil
            }
        }
    }

    /// The read `find-<kind> <arguments>` makes, or nil when the full tool must answer: any option but the
    /// attributes and `-w`, a value the full tool rejects, `~` in an operand, or no operand and no default keychain
    /// yet (the full tool creates it). The attributes come in name order; text stays text (the keychain's schema
    /// types it where it reads the keychain).
    package static func request(_ kind: Kind, arguments: [String]) -> AgentReadRequest? {
        guard let options = try? CommandOptions(arguments, valued: kind.valuedLetters, flags: "gw"),
            options.flags == ["w"], !options.json, options.valueMissing.isEmpty,
            let attributes = attributes(kind, options), let paths = keychainPaths(options.operands)
        else { return nil }
        return AgentReadRequest(
            itemClass: kind.requestClass, paths: paths,
            accessGroups: KeychainLocations.environmentAccessGroups() ?? [],
            attributes: attributes.sorted { $0.name < $1.name })
    }

    /// What the keychain agent said to a read.
    package enum Outcome {
        /// The password.
        case answered(Data)
        /// It runs and did not answer (no match, a keychain protected by a password, a request too large to send,
        /// or the agent is off for this process).
        case declined
        /// No agent listens for this user.
        case notRunning
    }

    /// The keychain agent's answer to `request`.
    package static func ask(_ request: AgentReadRequest) -> Outcome {
        guard KeychainAgentClient.isEnabledByEnvironment else { return .declined }
        guard let client = KeychainAgentClient.current() else { return .notRunning }
        do {
            guard var secret = try client.read(request) else { return .declined }
            defer { KeychainAgentClient.wipe(&secret) }
            return .answered(Data(secret))
        } catch {
            if case .notRunning = error { return .notRunning }
            return .declined
        }
    }

    /// The attribute conditions the options give: four-character codes (`-c`, `-C`) as numbers, `-P` as a port
    /// number, `-G` as bytes, the rest as text. Nil for a value the full tool rejects.
    static func attributes(_ kind: Kind, _ options: CommandOptions) -> [AgentReadRequest.Attribute]? {
        var attributes: [AgentReadRequest.Attribute] = []
        for (letter, attribute) in kind.attributeOptions {
            guard let value = options.values[letter] else { continue }
            switch letter {
            case "P":
                guard let port = Int64(value), (0...65535).contains(port) else { return nil }
                attributes.append(.init(name: attribute, value: .integer(port)))
            case "c", "C":
                guard value.utf8.count == 4 else { return nil }
                attributes.append(.init(name: attribute, value: .integer(value.utf8.reduce(0) { $0 << 8 | Int64($1) })))
            case "r", "t":
                guard value.utf8.count == 4 else { return nil }
                attributes.append(.init(name: attribute, value: .text(value)))
            case "G":
                attributes.append(.init(name: attribute, value: .bytes(Array(value.utf8))))
            default:
                attributes.append(.init(name: attribute, value: .text(value)))
            }
        }
        return attributes
    }

    /// The keychains the operands name, or the search list without operands; nil when only the full tool can
    /// tell (`~` to expand, or a default keychain it would create first).
    static func keychainPaths(_ operands: [String]) -> [String]? {
        // The preferences are read only when they decide (parsing them is a good part of a front end's read).
        func preferences() -> KeychainLocations.Preferences {
            KeychainLocations.Preferences.read(at: KeychainLocations.userPreferencesPath)
        }
        guard !operands.isEmpty else {
            let preferences = preferences()
            if let list = preferences.searchList { return list }
            // Something (a file, or a link, even a dangling one) must have the default keychain's name.
            guard let path = KeychainLocations.defaultKeychainPath(preferences: preferences),
                (try? POSIXFiles.linkStatus(path)) != nil
            else { return nil }
            return [path]
        }
        guard !operands.contains(where: { $0.hasPrefix("~") }) else { return nil }
        // Only a bare name needs the default keychain's directory.
        var home = ""
        if operands.contains(where: { !$0.contains("/") }) {
            guard let path = KeychainLocations.defaultKeychainPath(preferences: preferences()) else { return nil }
            home = path
        }
        return operands.map { KeychainLocations.operandPath($0, defaultKeychainPath: home) }
    }
}
