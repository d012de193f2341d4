import OSecKeychain
import OSecKeychainAgent
import OSecSystem
import OSecToolBase

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The plain success case of `security find-generic-password -w` / `find-internet-password -w`, read on the
/// keychain store directly (no `Security` facade): what the full tool answers first when the `security` front end
/// hands it such a command line (no keychain agent answered it), and what the agent answers the front end with
/// (``AgentPasswordReads``).
///
/// It reads exactly what the full tool's general path would read — the request of ``PasswordRead`` (the same
/// option letters, the same keychains, the process's access groups), items that do not sync, the first match —
/// and answers only when that is a password. Every other outcome (no match, a locked keychain, a damaged file) is
/// `nil`: the general path then runs and reports it in its own words and status.
package enum PasswordLookup {
    /// What the full tool prints for the command line `arguments` (without the program name) when it is a
    /// `find-*-password -w` this type answers; nil otherwise. After such a read with no agent running it starts one
    /// (this executable as `keychain-agent`, detached, not waited for), which answers the user's next reads — the
    /// front end's — until it has had none for ten minutes; a failure to start it changes nothing but their speed.
    package static func answer(_ arguments: [String]) -> String? {
        guard let command = arguments.first, let kind = PasswordRead.Kind(findCommand: command) else { return nil }
        let startAgent = {
            guard let executable = SystemProcess.executablePath() else { return }
            _ = try? SystemProcess.spawnDetached(executable, arguments: ["keychain-agent"])
        }
        return password(kind, arguments: Array(arguments.dropFirst()), startAgent: startAgent).map {
            PasswordText.forStandardOutput($0) + "\n"
        }
    }

    /// The password `find-<kind> <arguments>` prints with `-w`, or nil when the general path must answer.
    ///
    /// The keychains are read here (the agent is not asked: the front end did, and it declined or none runs); after
    /// a read that found the password, `startAgent` is called when no agent answers a ping (not for a process with
    /// `OPENSECURITY_KEYCHAIN_AGENT=off`).
    package static func password(
        _ kind: PasswordRead.Kind, arguments: [String], startAgent: (() -> Void)? = nil
    ) -> Data? {
        guard let request = PasswordRead.request(kind, arguments: arguments) else { return nil }
        let secret = password(query(request), paths: request.paths) {
            (path: String) throws(KeychainStoreError) -> KeychainStore in
            let store = try KeychainStore.open(at: path)
            openStores.withLock { $0.append(store) }
            return store
        }
        if secret != nil, KeychainAgentClient.isEnabledByEnvironment, KeychainAgentClient.current()?.ping() == nil {
            startAgent?()
        }
        return secret
    }

    /// The store query of a read request, typed as the facade types the full tool's query: text given for an
    /// attribute the class stores as a number is that number when it reads as one.
    package static func query(_ request: AgentReadRequest) -> ItemQuery {
        let itemClass: ItemClass = request.itemClass == .genericPassword ? .genericPassword : .internetPassword
        var attributes: [String: AttributeValue] = [:]
        for attribute in request.attributes {
            switch attribute.value {
            case .text(let text):
                if itemClass.descriptor(for: attribute.name)?.kind == .number, let number = Int64(text) {
                    attributes[attribute.name] = .integer(number)
                } else {
                    attributes[attribute.name] = .string(text)
                }
            case .integer(let number): attributes[attribute.name] = .integer(number)
            case .bytes(let bytes): attributes[attribute.name] = .data(Data(bytes))
            }
        }
        var query = ItemQuery(
            itemClass: itemClass, attributes: attributes,
            accessGroups: request.accessGroups.isEmpty ? nil : request.accessGroups, isSynchronizable: false,
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
    /// connection would checkpoint the keychain's write-ahead log on the way out.
    private static let openStores = LockedValue<[KeychainStore]>([])

    private enum Answer {
        case found(Data)
        case none
        case undecided
    }

    /// The secret of the first match in one keychain; anything that fails is for the general path to report.
    private static func secret(_ query: ItemQuery, in store: KeychainStore) -> Answer {
        do {
            guard let item = try store.find(query).first else { return .none }
            return .found(try item.secret?.open() ?? Data())
        } catch {
            return .undecided
        }
    }
}
