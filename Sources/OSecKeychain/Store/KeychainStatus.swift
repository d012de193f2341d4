/// The lock state of an open keychain, as seen by this process.
package struct KeychainStatus: Hashable, Sendable {
    /// The master key is wrapped by a password (otherwise by the device key, and the keychain is never locked).
    package let isPasswordProtected: Bool
    /// The master key is in memory: every secret can be read.
    package let isUnlocked: Bool
    /// The keychain was unlocked at least once in this process: AfterFirstUnlock secrets can be read.
    package let hasBeenUnlocked: Bool
}
