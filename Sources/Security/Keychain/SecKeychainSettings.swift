import Foundation
import OSecKeychain

/// Apple's `SecKeychainSettings`: when a keychain locks by itself.
///
/// Stored in the keychain file. The keychain agent applies them to its copy of the unlocked keys: after
/// `lockInterval` seconds without a read it locks the keychain for every process (an interval other than
/// `Int32.max` locks whether or not `useLockInterval` is set, as on macOS), and `lockOnSleep` keychains lock
/// when the system sleeps.
public struct SecKeychainSettings: Sendable, Equatable {
    /// `SEC_KEYCHAIN_SETTINGS_VERS1`.
    public var version: UInt32
    /// Lock when the system sleeps (C `Boolean`, imported as `DarwinBoolean` as on Apple's platforms).
    public var lockOnSleep: DarwinBoolean
    /// Lock after `lockInterval` seconds of inactivity.
    public var useLockInterval: DarwinBoolean
    /// Seconds of inactivity before the keychain locks (`Int32.max`: never).
    public var lockInterval: UInt32

    /// Settings with these fields (Apple's memberwise initializer).
    public init(
        version: UInt32, lockOnSleep: DarwinBoolean, useLockInterval: DarwinBoolean, lockInterval: UInt32
    ) {
        self.version = version
        self.lockOnSleep = lockOnSleep
        self.useLockInterval = useLockInterval
        self.lockInterval = lockInterval
    }

    /// All zero (fill in with `SecKeychainCopySettings`).
    public init() {
        self.init(version: 0, lockOnSleep: false, useLockInterval: false, lockInterval: 0)
    }
}

/// Apple's `SEC_KEYCHAIN_SETTINGS_VERS1`.
public var SEC_KEYCHAIN_SETTINGS_VERS1: Int32 { 1 }

/// Apple's `SecKeychainCopySettings` (nil = the default keychain). The settings' `version` must be
/// `SEC_KEYCHAIN_SETTINGS_VERS1` (else errSecParam). A keychain whose settings were never set reports macOS's
/// defaults: lock on sleep and a 300-second interval for a password-protected keychain, no timeout for one
/// without a password (it never locks).
public func SecKeychainCopySettings(
    _ keychain: SecKeychain?, _ outSettings: UnsafeMutablePointer<SecKeychainSettings>
) -> OSStatus {
    withOSStatus {
        guard outSettings.pointee.version == UInt32(SEC_KEYCHAIN_SETTINGS_VERS1) else {
            throw SecError.param("SecKeychainCopySettings: version must be SEC_KEYCHAIN_SETTINGS_VERS1")
        }
        let target = try keychain ?? KeychainRegistry.defaultKeychain()
        let settings = try mapStoreError { try target.store().settings() }
        outSettings.pointee = SecKeychainSettings(
            version: UInt32(SEC_KEYCHAIN_SETTINGS_VERS1), lockOnSleep: DarwinBoolean(settings.lockOnSleep),
            useLockInterval: DarwinBoolean(settings.useLockInterval), lockInterval: settings.lockInterval)
    }
}

/// Apple's `SecKeychainSetSettings` (nil = the default keychain): stores the settings in the keychain and applies
/// them to the keychain agent's copy at once (its inactivity timer counts from the last read).
public func SecKeychainSetSettings(
    _ keychain: SecKeychain?, _ newSettings: UnsafePointer<SecKeychainSettings>
) -> OSStatus {
    withOSStatus {
        let requested = newSettings.pointee
        guard requested.version == UInt32(SEC_KEYCHAIN_SETTINGS_VERS1) else {
            throw SecError.param("SecKeychainSetSettings: version must be SEC_KEYCHAIN_SETTINGS_VERS1")
        }
        let target = try keychain ?? KeychainRegistry.defaultKeychain()
        let settings = KeychainSettings(
            lockOnSleep: requested.lockOnSleep.boolValue, useLockInterval: requested.useLockInterval.boolValue,
            lockInterval: requested.lockInterval)
        try mapStoreError { try target.store().setSettings(settings) }
    }
}

/// Apple's `SecKeychainLockAll`: locks every keychain this process opened and every keychain the keychain agent
/// holds unlocked for the user.
public func SecKeychainLockAll() -> OSStatus {
    withOSStatus {
        for store in KeychainRegistry.openStores() { try? store.lock() }
        KeychainStore.forgetAllInAgent()
    }
}

/// The keychain agent's part in unlocking, locking and status (see `docs/security-tool.md`, "The keychain agent").
package enum SecKeychainAgentBridge {
    /// Hands an unlocked keychain's keys to the running agent (replacing what it held for that keychain), for the
    /// `security` tool, which must know that the unlock reached the agent.
    /// - Parameter keychain: the keychain; `nil` for the default keychain.
    /// - Returns: errSecSuccess when the agent took the keys; errSecNotAvailable when no agent answers (or it
    ///   refused the keys); errSecInteractionNotAllowed when the keychain is locked in this process; errSecSuccess
    ///   without asking the agent for a keychain without a password (it never locks).
    package static func publish(_ keychain: SecKeychain?) -> OSStatus {
        withOSStatus {
            let store = try (keychain ?? KeychainRegistry.defaultKeychain()).store()
            guard try mapStoreError({ try store.status.isPasswordProtected }) else { return }
            let published: Bool
            do throws(KeychainStoreError) {
                published = try store.publishToAgent()
            } catch  where error.code == .interactionNotAllowed {
                throw SecError(errSecInteractionNotAllowed, "the keychain is locked")
            } catch {
                throw SecError(errSecNotAvailable, error.reason)
            }
            guard published else { throw SecError(errSecNotAvailable, "the keychain agent is not running") }
        }
    }

    /// After an unlock in this process: hand the keys to the agent if one runs, so that other processes of the
    /// user can read the keychain until it locks.
    static func unlocked(_ store: KeychainStore) {
        guard (try? store.status.isPasswordProtected) == true else { return }
        _ = try? store.publishToAgent()
    }

    /// After a lock in this process: lock it in the agent too (every process sees it locked).
    static func locked(_ store: KeychainStore) {
        guard (try? store.status.isPasswordProtected) == true else { return }
        store.forgetInAgent()
    }

    /// Whether the keychain is unlocked here or in the agent.
    static func isUnlocked(_ store: KeychainStore, locally: Bool) -> Bool {
        locally || store.isUnlockedInAgent
    }
}
