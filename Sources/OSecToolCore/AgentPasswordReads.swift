import OSecKeychain
import OSecKeychainAgent
import OSecSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Password reads answered by the keychain agent, as securityd answers them on macOS: the `security` front end sends
/// the request it would otherwise hand to the full tool (`PasswordRead`) over the agent's socket and prints the
/// answer, so a process that only prints a password opens no keychain and loads neither SQLite nor libcrypto
/// (docs/security-tool.md, "Start-up cost").
///
/// The agent runs the lookup the full tool would run (``PasswordLookup``) on the same keychain files, for processes
/// of its own user only (the socket's peer check), and answers only the plain success case; whenever it declines —
/// no match, a keychain protected by a password, anything unusual — the front end hands the command line to the
/// full tool, exactly as without an agent.
package enum AgentPasswordReads {
    /// The agent's reader: answers a request as ``PasswordLookup`` would in the asking process, on keychains kept
    /// open between requests. Turns off this process's own use of the agent (it is the agent).
    package static func reader() -> AgentReader {
        KeychainAgentLink.turnOffInThisProcess()
        let stores = OpenKeychains()
        return { request in
            guard !request.paths.isEmpty,
                var secret = PasswordLookup.password(
                    PasswordLookup.query(request), paths: request.paths, open: stores.store(at:))
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
