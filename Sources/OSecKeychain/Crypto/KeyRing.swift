import OSecCrypto
import OSecLocks

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The keys of one open keychain held in memory: the master key and the protection-class keys.
///
/// - The master key and the class A key are present only while unlocked; ``lock()`` wipes them.
/// - The class C key stays after the first unlock (AfterFirstUnlock semantics, per process).
/// - The class D key is wrapped by the device key and installed at open time, so Always items are
///   readable without a password.
final class KeyRing: @unchecked Sendable {  // sendable: mutable state guarded by `lock`
    /// The keychain's random 16-byte id, bound into every associated data.
    let keychainID: Data
    /// "OSecKeychain.item.v2" ‖ keychain id: the start of every item secret's associated data.
    let itemAADPrefix: [UInt8]
    /// "OSecKeychain.item.v1" ‖ keychain id: schema version 1's prefix, for re-sealing migrated secrets only.
    let legacyItemAADPrefix: [UInt8]
    private let lock = PosixMutex()
    private var master: KeyMaterial?
    private var classKeys: [ProtectionClass: KeyMaterial] = [:]
    /// Prepared AES-GCM keys for the class keys present (made on first use; dropped with their class key).
    private var classCiphers: [ProtectionClass: AESGCMKey] = [:]
    private var everUnlocked = false

    init(keychainID: Data) {
        self.keychainID = keychainID
        self.itemAADPrefix = Array(SecretBinding.label.utf8) + Array(keychainID)
        self.legacyItemAADPrefix = Array(SecretBinding.legacyLabel.utf8) + Array(keychainID)
    }

    /// Installs the class D key (available without a password).
    func installAlwaysKey(_ key: KeyMaterial) {
        lock.lock()
        defer { lock.unlock() }
        classKeys[.always] = key
        classCiphers[.always] = nil
    }

    /// Installs the master key and the class keys it unwrapped: the keychain is unlocked.
    func unlock(master: KeyMaterial, whenUnlocked: KeyMaterial, afterFirstUnlock: KeyMaterial) {
        lock.lock()
        defer { lock.unlock() }
        self.master?.wipe()
        self.master = master
        classKeys[.whenUnlocked]?.wipe()
        classKeys[.whenUnlocked] = whenUnlocked
        if let old = classKeys[.afterFirstUnlock], old !== afterFirstUnlock {
            old.wipe()
            classCiphers[.afterFirstUnlock] = nil
        }
        classKeys[.afterFirstUnlock] = afterFirstUnlock
        classCiphers[.whenUnlocked] = nil
        everUnlocked = true
    }

    /// Wipes the master key and the class A key; the class C and D keys stay.
    func lockKeys() {
        lock.lock()
        defer { lock.unlock() }
        master?.wipe()
        master = nil
        classKeys[.whenUnlocked]?.wipe()
        classKeys[.whenUnlocked] = nil
        classCiphers[.whenUnlocked] = nil  // frees the OpenSSL context, which cleanses the key schedule
    }

    /// `true` while the master key is in memory.
    var isUnlocked: Bool {
        lock.lock()
        defer { lock.unlock() }
        return master != nil
    }

    /// `true` once the keychain was unlocked in this process.
    var hasBeenUnlocked: Bool {
        lock.lock()
        defer { lock.unlock() }
        return everUnlocked
    }

    /// Whether the key of `protectionClass` is in memory.
    func hasKey(_ protectionClass: ProtectionClass) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return classKeys[protectionClass] != nil
    }

    /// Throws `interactionNotAllowed` unless the key of `protectionClass` is in memory or held by the keychain agent
    /// (checked before a write transaction starts, so a locked keychain refuses an add without taking the write
    /// lock).
    func requireKey(_ protectionClass: ProtectionClass) throws(KeychainStoreError) {
        guard
            hasKey(protectionClass)
                || KeychainAgentLink.borrowedKey(keychainID: keychainID, protectionClass: protectionClass) != nil
        else {
            throw KeychainStoreError(
                .interactionNotAllowed, "the keychain is locked (protection class \(protectionClass.rawValue))")
        }
    }

    /// The master key bytes, or `interactionNotAllowed` while locked.
    func masterKey() throws(KeychainStoreError) -> Data {
        lock.lock()
        defer { lock.unlock() }
        guard let master else { throw KeychainStoreError(.interactionNotAllowed, "the keychain is locked") }
        return master.bytes
    }

    /// The prepared cipher for a class key, or `interactionNotAllowed` while that key is locked away.
    private func classCipher(_ protectionClass: ProtectionClass) throws(KeychainStoreError) -> AESGCMKey {
        lock.lock()
        defer { lock.unlock() }
        if let cipher = classCiphers[protectionClass] { return cipher }
        guard let key = classKeys[protectionClass] else {
            // Locked in this process: the keychain agent may hold the key (unlocked by another process). Not
            // cached, so that a lock from any process takes effect here at once.
            if let borrowed = KeychainAgentLink.borrowedKey(keychainID: keychainID, protectionClass: protectionClass) {
                do { return try AESGCMKey(key: borrowed.bytes) } catch {
                    throw KeychainStoreError(.internal, "preparing the class key failed", underlying: error)
                }
            }
            throw KeychainStoreError(
                .interactionNotAllowed,
                "the keychain is locked (protection class \(protectionClass.rawValue))")
        }
        do {
            let cipher = try AESGCMKey(key: key.bytes)
            classCiphers[protectionClass] = cipher
            return cipher
        } catch {
            throw KeychainStoreError(.internal, "preparing the class key failed", underlying: error)
        }
    }

    /// Seals an item secret under its protection class key, bound to its row.
    func sealSecret(_ secret: Data, binding: SecretBinding) throws(KeychainStoreError) -> Data {
        let cipher = try classCipher(binding.protectionClass)
        return try AEADBox.seal(secret, cipher: cipher, aad: binding.associatedData(prefix: itemAADPrefix))
    }

    /// Opens an item secret; a blob that does not belong to the row throws `integrityCheckFailed`.
    func openSecret(_ blob: Data, binding: SecretBinding) throws(KeychainStoreError) -> Data {
        do {
            return try openSecret(
                blob, protectionClass: binding.protectionClass,
                associatedData: binding.associatedData(prefix: itemAADPrefix))
        } catch  where error.code == .integrityCheckFailed {
            throw binding.tamperError(underlying: error)
        }
    }

    /// Opens a secret sealed by schema version 1 (bound to keychain id, class, persistent ref and protection class).
    func openLegacySecret(_ blob: Data, binding: SecretBinding) throws(KeychainStoreError) -> Data {
        try openSecret(
            blob, protectionClass: binding.protectionClass,
            associatedData: binding.legacyAssociatedData(prefix: legacyItemAADPrefix))
    }

    /// Opens an item secret whose associated data the caller already holds.
    func openSecret(
        _ blob: Data, protectionClass: ProtectionClass, associatedData: Data
    ) throws(KeychainStoreError) -> Data {
        try AEADBox.open(
            blob, cipher: try classCipher(protectionClass), aad: associatedData, failure: .integrityCheckFailed)
    }

    /// The class keys an unlock installed (WhenUnlocked and AfterFirstUnlock), for the keychain agent; `nil`
    /// while locked.
    func unlockedClassKeys() -> [ProtectionClass: Data]? {
        lock.lock()
        defer { lock.unlock() }
        guard master != nil, let a = classKeys[.whenUnlocked], let c = classKeys[.afterFirstUnlock] else { return nil }
        return [.whenUnlocked: a.bytes, .afterFirstUnlock: c.bytes]
    }

    /// Associated data for wrapping a key of the given purpose (`"master/password"`, `"class/A"`, …).
    func wrapAAD(_ purpose: String) -> Data {
        KeyRing.wrapAAD(purpose, keychainID: keychainID)
    }

    static func wrapAAD(_ purpose: String, keychainID: Data) -> Data {
        var aad = Data("OSecKeychain.key.v1|\(purpose)|".utf8)
        aad.append(keychainID)
        return aad
    }
}
