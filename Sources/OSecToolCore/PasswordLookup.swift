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
    ///
    /// A running keychain agent is asked first (``AgentPasswordReads``): then this process opens no keychain, and
    /// neither SQLite nor libcrypto's ciphers are started. When it declines, or none runs, the keychains are read
    /// here; `startAgent` is called after such a read succeeded with no agent running, so that the next process
    /// finds one (the front end starts it; the agent is off for a process with `OPENSECURITY_KEYCHAIN_AGENT=off`).
    package static func password(_ kind: Kind, arguments: [String], startAgent: (() -> Void)? = nil) -> Data? {
        guard let lookup = lookup(kind, arguments: arguments) else { return nil }
        let outcome = AgentPasswordReads.ask(lookup)
        if case .answered(let secret) = outcome { return secret }
        let secret = password(query(lookup), paths: lookup.paths) {
            (path: String) throws(KeychainStoreError) -> KeychainStore in
            let store = try KeychainStore.open(at: path)
            openStores.withLock { $0.append(store) }
            return store
        }
        if secret != nil, case .notRunning = outcome { startAgent?() }
        return secret
    }

    /// What `find-<kind> <arguments>` looks for and where, before the keychain's schema types the values: what the
    /// front end sends the agent (reading the schema tables costs a process more than the agent's answer).
    package struct Lookup: Equatable, Sendable {
        package let kind: Kind
        /// The attribute conditions of the options (``attributes(_:_:)``).
        package let attributes: [String: AttributeValue]
        /// The keychains, in search order.
        package let paths: [String]
        /// The access groups the process may read (`nil`: every group).
        package let accessGroups: [String]?
    }

    /// The lookup `find-<kind> <arguments>` makes, or nil when the full tool must answer.
    package static func lookup(_ kind: Kind, arguments: [String]) -> Lookup? {
        guard let options = try? CommandOptions(arguments, valued: kind.valuedLetters, flags: "gw"),
            options.flags == ["w"], !options.json, options.valueMissing.isEmpty,
            let attributes = attributes(kind, options), let paths = keychainPaths(options.operands)
        else { return nil }
        return Lookup(
            kind: kind, attributes: attributes, paths: paths,
            accessGroups: KeychainLocations.environmentAccessGroups())
    }

    /// The store query of a lookup, typed as the facade types the full tool's query: text given for an attribute
    /// the class stores as a number is that number when it reads as one.
    package static func query(_ lookup: Lookup) -> ItemQuery {
        let itemClass = lookup.kind.itemClass
        var attributes = lookup.attributes
        for (name, value) in lookup.attributes {
            guard case .string(let text) = value, itemClass.descriptor(for: name)?.kind == .number,
                let number = Int64(text)
            else { continue }
            attributes[name] = .integer(number)
        }
        var query = ItemQuery(
            itemClass: itemClass, attributes: attributes, accessGroups: lookup.accessGroups, isSynchronizable: false,
            limit: 1)
        query.includesAttributes = false
        return query
    }

    /// The secret of the first match of `query` in the first of `paths` that has one, each keychain opened with
    /// `open`; nil when none matches or anything else happens (for the full tool to report).
    static func password(
        _ query: ItemQuery, paths: [String], open: (String) throws(KeychainStoreError) -> KeychainStore
    ) -> Data? {
        for path in paths {
            let store: KeychainStore
            do {
                store = try open(path)
            } catch  where error.code == .noSuchKeychain {
                // A keychain that does not exist is skipped, as the full tool skips it.
                continue
            } catch {
                return nil
            }
            switch secret(query, in: store) {
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

    /// The secret of the first match in one keychain; anything that fails is for the full tool to report.
    private static func secret(_ query: ItemQuery, in store: KeychainStore) -> Answer {
        do {
            guard let item = try store.find(query).first else { return .none }
            return .found(try item.secret?.open() ?? Data())
        } catch {
            return .undecided
        }
    }

    /// The attribute conditions the options give: four-character codes (`-c`, `-C`) as numbers, `-P` as a port
    /// number, `-G` as bytes, the rest as text (``query(_:)`` makes a number of text for a numeric attribute). Nil
    /// for a value the full tool rejects.
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
                attributes[attribute] = .string(value)
            case "G":
                attributes[attribute] = .data(Data(value.utf8))
            default:
                attributes[attribute] = .string(value)
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
            guard let path = try? KeychainLocations.defaultKeychainPath(preferences: preferences),
                KeychainFiles(database: path).exists
            else { return nil }
            return [path]
        }
        guard !operands.contains(where: { $0.hasPrefix("~") }) else { return nil }
        // Only a bare name needs the default keychain's directory.
        var home = ""
        if operands.contains(where: { !$0.contains("/") }) {
            guard let path = try? KeychainLocations.defaultKeychainPath(preferences: preferences()) else { return nil }
            home = path
        }
        return operands.map { KeychainLocations.operandPath($0, defaultKeychainPath: home) }
    }
}
