import OSecKeychain
import OSecKeychainAgent
import OSecSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Password reads answered by the keychain agent, as securityd answers them on macOS: the `security` front end sends
/// the query it would run (``PasswordLookup``) over the agent's socket and prints the answer, so a process that only
/// prints a password opens no keychain and starts neither SQLite nor libcrypto's ciphers (docs/security-tool.md,
/// "Start-up cost").
///
/// The agent runs the same lookup on the same keychain files, for processes of its own user only (the socket's
/// peer check), and answers only the plain success case; whenever it declines — no agent, no match, a keychain
/// protected by a password, anything unusual — the front end reads the keychains itself, exactly as before.
package enum AgentPasswordReads {
    /// What the agent said to a read.
    enum Outcome {
        case answered(Data)
        /// It runs and did not answer (or the query cannot be sent, or the agent is off for this process).
        case declined
        /// No agent listens for this user.
        case notRunning
    }

    /// The agent's answer for `lookup`.
    static func ask(_ lookup: PasswordLookup.Lookup) -> Outcome {
        guard KeychainAgentLink.isEnabled, let request = request(lookup) else { return .declined }
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

    /// The wire form of a lookup; nil for one a read request cannot carry (a value that is not text, an integer or
    /// bytes).
    package static func request(_ lookup: PasswordLookup.Lookup) -> AgentReadRequest? {
        var attributes: [AgentReadRequest.Attribute] = []
        for (name, value) in lookup.attributes.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .string(let text): attributes.append(.init(name: name, value: .text(text)))
            case .integer(let number): attributes.append(.init(name: name, value: .integer(number)))
            case .data(let bytes): attributes.append(.init(name: name, value: .bytes(Array(bytes))))
            case .double, .date: return nil
            }
        }
        return AgentReadRequest(
            itemClass: lookup.kind == .generic ? .genericPassword : .internetPassword, paths: lookup.paths,
            accessGroups: lookup.accessGroups ?? [], attributes: attributes)
    }

    /// The lookup a read request stands for (the inverse of ``request(_:)``).
    package static func lookup(_ request: AgentReadRequest) -> PasswordLookup.Lookup {
        var attributes: [String: AttributeValue] = [:]
        for attribute in request.attributes {
            switch attribute.value {
            case .text(let text): attributes[attribute.name] = .string(text)
            case .integer(let number): attributes[attribute.name] = .integer(number)
            case .bytes(let bytes): attributes[attribute.name] = .data(Data(bytes))
            }
        }
        return PasswordLookup.Lookup(
            kind: request.itemClass == .genericPassword ? .generic : .internet, attributes: attributes,
            paths: request.paths, accessGroups: request.accessGroups.isEmpty ? nil : request.accessGroups)
    }

    /// The agent's reader: answers a request as ``PasswordLookup`` would in the asking process, on keychains kept
    /// open between requests. Turns off this process's own use of the agent (it is the agent).
    package static func reader() -> AgentReader {
        KeychainAgentLink.turnOffInThisProcess()
        let stores = OpenKeychains()
        return { request in
            guard !request.paths.isEmpty,
                var secret = PasswordLookup.password(
                    PasswordLookup.query(lookup(request)), paths: request.paths, open: stores.store(at:))
            else { return nil }
            // The agent outlives the read: its copy of the password does not (the server zeroes what it returns).
            defer { secret.resetBytes(in: 0..<secret.count) }
            return Array(secret)
        }
    }
}

/// The keychains an agent keeps open between reads. One is opened again — and so checked again as any open checks
/// it (``KeychainFiles``: owner, mode, kind) — when its database or device-key file is no longer the same file with
/// the same owner and mode, or when any process committed to it since it was opened (a new password, new class
/// keys: nothing read before a commit is trusted after it). Only the agent's single serving thread uses it.
private final class OpenKeychains {
    /// What is compared of each file before a kept keychain is used again.
    private struct FileFacts: Equatable {
        let identity: FileIdentity
        let owner: UInt32
        let permissions: UInt16
        let kind: FileStatus.Kind

        init?(_ path: String) {
            guard let status = FileStatus.of(path) else { return nil }
            identity = status.identity
            owner = status.owner
            permissions = status.permissions
            kind = status.kind
        }
    }

    private struct Entry {
        let store: KeychainStore
        let files: [FileFacts?]
        let token: KeychainChangeToken
    }

    /// Most keychains kept open; beyond it the cache starts over.
    static let capacity = 16

    private var entries: [String: Entry] = [:]

    private static func facts(_ path: String) -> [FileFacts?] {
        let files = KeychainFiles(database: path)
        return [FileFacts(files.database), FileFacts(files.deviceKey)]
    }

    func store(at path: String) throws(KeychainStoreError) -> KeychainStore {
        let files = Self.facts(path)
        if let entry = entries[path], entry.files == files, entry.store.changeToken == entry.token {
            return entry.store
        }
        entries[path] = nil
        let store = try KeychainStore.open(at: path)
        if files.first != nil, let token = store.changeToken {
            if entries.count >= Self.capacity { entries.removeAll() }
            entries[path] = Entry(store: store, files: files, token: token)
        }
        return store
    }
}
