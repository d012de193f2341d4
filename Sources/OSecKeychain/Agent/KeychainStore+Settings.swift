import OSecSQLite

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A keychain's lock settings (Apple's `SecKeychainSettings`): lock when the system sleeps, and lock after an
/// interval of inactivity. Stored in the keychain file; applied by the keychain agent to its copy of the keys.
package struct KeychainSettings: Sendable, Hashable {
    /// Lock when the system sleeps.
    package var lockOnSleep: Bool
    /// Apple's `useLockInterval` flag (reported as `use-lock-interval`).
    package var useLockInterval: Bool
    /// Seconds of inactivity before the keychain locks; ``noTimeout`` for never.
    package var lockInterval: UInt32

    package init(lockOnSleep: Bool, useLockInterval: Bool, lockInterval: UInt32) {
        self.lockOnSleep = lockOnSleep
        self.useLockInterval = useLockInterval
        self.lockInterval = lockInterval
    }

    /// Apple's "no timeout" (`INT_MAX`).
    package static let noTimeout = UInt32(Int32.max)

    /// What a new password-protected keychain gets, as on macOS: lock on sleep, lock after 5 minutes.
    package static let passwordDefault = KeychainSettings(lockOnSleep: true, useLockInterval: false, lockInterval: 300)

    /// What a keychain without a password reports (it never locks).
    package static let neverLocks = KeychainSettings(
        lockOnSleep: false, useLockInterval: false, lockInterval: noTimeout)

    /// The inactivity timeout the agent applies: any interval other than ``noTimeout`` locks (as on macOS, where a
    /// lock interval other than `INT_MAX` forces `useLockInterval`); `nil` for none.
    package var agentTimeout: UInt32? { lockInterval == Self.noTimeout ? nil : lockInterval }
}

extension KeychainStore {
    /// The keychain's settings: those stored by ``setSettings(_:)``, else ``KeychainSettings/passwordDefault`` for a
    /// password-protected keychain and ``KeychainSettings/neverLocks`` for one without a password.
    package func settings() throws(KeychainStoreError) -> KeychainSettings {
        try KeychainStore.mapErrors {
            let exists = try db.scalar(
                "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'keychain_settings'")
            if (exists.integerValue ?? 0) > 0 {
                let rows = try db.query(
                    "SELECT lock_on_sleep, use_lock_interval, lock_interval FROM keychain_settings WHERE singleton = 1"
                ) { row in
                    KeychainSettings(
                        lockOnSleep: row.int64(at: 0) != 0, useLockInterval: row.int64(at: 1) != 0,
                        lockInterval: UInt32(clamping: row.int64(at: 2)))
                }
                if let stored = rows.first { return stored }
            }
            return try status.isPasswordProtected ? KeychainSettings.passwordDefault : KeychainSettings.neverLocks
        }
    }

    /// Stores the keychain's settings (in the file: every process sees them) and passes them to the agent's copy.
    package func setSettings(_ settings: KeychainSettings) throws(KeychainStoreError) {
        try KeychainStore.mapErrors {
            try db.transaction(.immediate) {
                try db.run(
                    """
                    CREATE TABLE IF NOT EXISTS keychain_settings (
                        singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
                        lock_on_sleep INTEGER NOT NULL, use_lock_interval INTEGER NOT NULL,
                        lock_interval INTEGER NOT NULL)
                    """)
                try db.run(
                    """
                    INSERT INTO keychain_settings (singleton, lock_on_sleep, use_lock_interval, lock_interval)
                    VALUES (1, ?, ?, ?) ON CONFLICT (singleton) DO UPDATE SET lock_on_sleep = excluded.lock_on_sleep,
                        use_lock_interval = excluded.use_lock_interval, lock_interval = excluded.lock_interval
                    """,
                    [
                        .integer(settings.lockOnSleep ? 1 : 0), .integer(settings.useLockInterval ? 1 : 0),
                        .integer(Int64(settings.lockInterval)),
                    ])
            }
        }
        updateAgentSettings(settings)
    }
}
