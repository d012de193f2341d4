import OSecKeychain
import OSecSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The plain success case of `security find-generic-password -w` / `find-internet-password -w`, answered on the
/// keychain store directly (no `Security` facade, no full Foundation): what the `security` front end runs before
/// it hands everything else to the full tool.
///
/// It reads exactly what the full tool's general path would read — the same option letters, the same keychains
/// (``KeychainLocations``), the same query (the process's access groups, items that do not sync, the first match)
/// — and answers only when that is a password. Every other outcome (an option it does not take, no match, a
/// locked keychain, a damaged file, a default keychain that does not exist yet) is `nil`: the caller then runs
/// the full tool, which reports it in its own words and status.
package enum PasswordLookup {
    /// Which kind of password item.
    package enum Kind: Sendable {
        case generic, internet

        /// The command that finds it (`find-generic-password`, `find-internet-password`).
        package var findCommand: String { self == .generic ? "find-generic-password" : "find-internet-password" }

        /// The store class.
        package var itemClass: ItemClass { self == .generic ? .genericPassword : .internetPassword }

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
    }

    /// The password `find-<kind> <arguments>` prints with `-w`, or nil when the full tool must answer.
    package static func password(_ kind: Kind, arguments: [String]) -> Data? {
        guard let options = try? CommandOptions(arguments, valued: kind.valuedLetters, flags: "gw"),
            options.flags == ["w"], !options.json, options.valueMissing.isEmpty,
            let attributes = attributes(kind, options), let paths = keychainPaths(options.operands)
        else { return nil }
        var query = ItemQuery(
            itemClass: kind.itemClass, attributes: attributes,
            accessGroups: KeychainLocations.environmentAccessGroups(), isSynchronizable: false, limit: 1)
        query.includesAttributes = false
        for path in paths {
            switch secret(query, inKeychainAt: path) {
            case .found(let data): return data
            case .none: continue
            case .undecided: return nil
            }
        }
        return nil
    }

    /// The stores opened, kept open until the process exits, as the full tool keeps its stores: closing the last
    /// connection would checkpoint the keychain's write-ahead log on the way out. Their descriptors are
    /// close-on-exec, so a full tool that replaces this process starts without them (and without their locks).
    private static let openStores = LockedValue<[KeychainStore]>([])

    private enum Answer {
        case found(Data)
        case none
        case undecided
    }

    /// The secret of the first match in one keychain. A keychain that does not exist is skipped, as the full tool
    /// skips it; anything else that fails is for the full tool to report.
    private static func secret(_ query: ItemQuery, inKeychainAt path: String) -> Answer {
        let store: KeychainStore
        do {
            store = try KeychainStore.open(at: path)
            openStores.withLock { $0.append(store) }
        } catch  where error.code == .noSuchKeychain {
            return .none
        } catch {
            return .undecided
        }
        do {
            guard let item = try store.find(query).first else { return .none }
            return .found(try item.secret?.open() ?? Data())
        } catch {
            return .undecided
        }
    }

    /// The attribute conditions the options give, typed as the facade types the full tool's query: four-character
    /// codes (`-c`, `-C`) as numbers, `-P` as a port number, `-G` as bytes, the rest as strings (a number when the
    /// attribute stores numbers and the text is one). Nil for a value the full tool rejects.
    static func attributes(_ kind: Kind, _ options: CommandOptions) -> [String: AttributeValue]? {
        var attributes: [String: AttributeValue] = [:]
        for (letter, attribute) in kind.attributeOptions {
            guard let value = options.values[letter] else { continue }
            switch letter {
            case "P":
                guard let port = Int64(value), (0...65535).contains(port) else { return nil }
                attributes[attribute] = .integer(port)
            case "c", "C":
                guard value.utf8.count == 4 else { return nil }
                attributes[attribute] = .integer(value.utf8.reduce(0) { $0 << 8 | Int64($1) })
            case "r", "t":
                guard value.utf8.count == 4 else { return nil }
                attributes[attribute] = text(value, attribute, kind)
            case "G":
                attributes[attribute] = .data(Data(value.utf8))
            default:
                attributes[attribute] = text(value, attribute, kind)
            }
        }
        return attributes
    }

    /// A text value as the facade stores it: a number for a numeric attribute when it reads as one.
    private static func text(_ value: String, _ attribute: String, _ kind: Kind) -> AttributeValue {
        if kind.itemClass.descriptor(for: attribute)?.kind == .number, let number = Int64(value) {
            return .integer(number)
        }
        return .string(value)
    }

    /// The keychains the operands name, or the search list without operands; nil when only the full tool can
    /// tell (`~` to expand, or a default keychain it would create first).
    static func keychainPaths(_ operands: [String]) -> [String]? {
        let preferences = KeychainLocations.Preferences.read(at: KeychainLocations.userPreferencesPath)
        guard !operands.isEmpty else {
            if let list = preferences.searchList { return list }
            guard let path = try? KeychainLocations.defaultKeychainPath(preferences: preferences),
                KeychainFiles(database: path).exists
            else { return nil }
            return [path]
        }
        guard !operands.contains(where: { $0.hasPrefix("~") }) else { return nil }
        // Only a bare name needs the default keychain's directory.
        var home = ""
        if operands.contains(where: { !$0.contains("/") }) {
            guard let path = try? KeychainLocations.defaultKeychainPath(preferences: preferences) else { return nil }
            home = path
        }
        return operands.map { KeychainLocations.operandPath($0, defaultKeychainPath: home) }
    }
}
