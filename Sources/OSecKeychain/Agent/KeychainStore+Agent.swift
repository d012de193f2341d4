import OSecKeychainAgent

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension KeychainStore {
    /// The keychain's random 16-byte id (how the agent knows it).
    package var keychainID: Data { keyRing.keychainID }

    /// Hands this process's unlocked class keys to the running keychain agent, with the keychain's inactivity
    /// timeout and lock-on-sleep setting. Later processes of the user read the keychain through the agent.
    /// - Returns: `false` when no agent runs (nothing is published; the keychain stays unlocked in this process).
    /// - Throws: `interactionNotAllowed` when the keychain is locked here; `internal` when the agent refuses.
    @discardableResult
    package func publishToAgent() throws(KeychainStoreError) -> Bool {
        guard let client = KeychainAgentLink.client, client.ping() != nil else { return false }
        return try publish(to: client)
    }

    /// Hands the unlocked class keys to `client`'s agent (see ``publishToAgent()``).
    package func publish(to client: KeychainAgentClient) throws(KeychainStoreError) -> Bool {
        guard let keys = keyRing.unlockedClassKeys() else {
            throw KeychainStoreError(.interactionNotAllowed, "the keychain is locked")
        }
        let settings = try self.settings()
        var agentKeys = [ProtectionClass.whenUnlocked, .afterFirstUnlock].compactMap { pc in
            keys[pc].map { AgentKey(tag: pc.byte, bytes: Array($0)) }
        }
        defer { for index in agentKeys.indices { KeychainAgentClient.wipe(&agentKeys[index].bytes) } }
        do {
            try client.store(
                keychainID: Array(keychainID), path: path, keys: agentKeys, timeout: settings.agentTimeout,
                lockOnSleep: settings.lockOnSleep)
            return true
        } catch {
            throw KeychainStoreError(.internal, "the keychain agent did not take the keys: \(error)")
        }
    }

    /// Locks the keychain in the agent (every process that reads it through the agent sees it locked).
    /// - Returns: whether the agent held it unlocked.
    @discardableResult
    package func forgetInAgent() -> Bool {
        guard let client = KeychainAgentLink.client else { return false }
        return (try? client.forget(keychainID: Array(keychainID))) ?? false
    }

    /// Locks every keychain in the agent; returns how many it held.
    @discardableResult
    package static func forgetAllInAgent() -> Int {
        guard let client = KeychainAgentLink.client else { return 0 }
        return (try? client.forgetAll()) ?? 0
    }

    /// Whether the agent holds this keychain unlocked.
    package var isUnlockedInAgent: Bool {
        guard let client = KeychainAgentLink.client else { return false }
        return ((try? client.fetch(keychainID: Array(keychainID))) ?? nil) != nil
    }

    /// Passes new settings to the agent's copy (the timeout counts from the last use).
    package func updateAgentSettings(_ settings: KeychainSettings) {
        guard let client = KeychainAgentLink.client else { return }
        _ = try? client.updateSettings(
            keychainID: Array(keychainID), timeout: settings.agentTimeout, lockOnSleep: settings.lockOnSleep)
    }
}
