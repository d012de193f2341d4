import OSecKeychainAgent
import OSecSystem
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The keychain's side of the per-user keychain agent: where a keychain that is locked in this process looks for
/// the keys another process unlocked it with.
///
/// With no agent running (no runtime directory, no socket, or nobody listening) every call answers "locked" at
/// once, and the keychain behaves as it does without an agent. `OPENSECURITY_KEYCHAIN_AGENT=off` turns the agent
/// off for a process; the agent turns it off for itself (``turnOffInThisProcess()``).
package enum KeychainAgentLink {
    /// Set by the agent's own process: the keychains it opens to answer password reads must not ask the agent —
    /// itself, busy with the request — for keys (their password-protected classes then read as locked).
    private static let turnedOff = Atomic<Bool>(false)

    /// Makes every keychain of this process behave as without an agent.
    package static func turnOffInThisProcess() { turnedOff.store(true, ordering: .relaxed) }

    /// The current user's agent, when one may be running.
    static var client: KeychainAgentClient? {
        KeychainAgentClient.isEnabledByEnvironment && !turnedOff.load(ordering: .relaxed)
            ? KeychainAgentClient.current() : nil
    }

    /// The agent's copy of a class key of keychain `keychainID`, or `nil` (locked there, or no agent).
    static func borrowedKey(keychainID: Data, protectionClass: ProtectionClass) -> KeyMaterial? {
        guard protectionClass != .always, let client else { return nil }
        guard var keys = try? client.fetch(keychainID: Array(keychainID)) else { return nil }
        defer { for index in keys.indices { KeychainAgentClient.wipe(&keys[index].bytes) } }
        let tag = protectionClass.byte
        guard let key = keys.first(where: { $0.tag == tag }) else { return nil }
        return KeyMaterial(Data(key.bytes))
    }
}
