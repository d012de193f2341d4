import Foundation
import OSecKeychain
import OSecSystem
import Synchronization

/// Apple's `SecKeychain` (macOS): one keychain file. Items are added to and searched in the default keychain
/// unless `kSecUseKeychain` / `kSecMatchSearchList` name others.
public final class SecKeychain: NSObject, Sendable {
    /// The keychain's file path.
    let path: String
    /// The store this object last resolved, with the registry generation it was valid for.
    private let resolved = LockedValue<(store: KeychainStore, generation: Int)?>(nil)

    init(path: String) {
        self.path = path
    }

    /// The open store (opened once per process; errSecNoSuchKeychain when the file does not exist).
    /// Remembered until the registry changes (a keychain created, deleted or re-registered).
    func store() throws -> KeychainStore {
        let generation = KeychainRegistry.generation
        if let known = resolved.withLock({ $0 }), known.generation == generation { return known.store }
        let store = try KeychainRegistry.store(at: path, create: false)
        resolved.withLock { $0 = (store, generation) }
        return store
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? SecKeychain)?.path == path
    }

    public override var hash: Int { path.hashValue }

    public override var description: String { "<SecKeychain \(path)>" }
}

/// Apple's `SecKeychainStatus` bit set.
public typealias SecKeychainStatus = UInt32
public var kSecUnlockStateStatus: SecKeychainStatus { 1 }
public var kSecReadPermStatus: SecKeychainStatus { 2 }
public var kSecWritePermStatus: SecKeychainStatus { 4 }

/// The keychains this process has opened, one store per path, and the default keychain.
enum KeychainRegistry {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var stores: [String: KeychainStore] = [:]
    nonisolated(unsafe) private static var defaultPath: String?
    /// The default keychain object, reused while `generation` is unchanged.
    nonisolated(unsafe) private static var defaultObject: (keychain: SecKeychain, generation: Int)?
    private static let generationCounter = Atomic<Int>(0)

    /// Changes whenever a store is registered or forgotten or the default changes; objects that remember a
    /// store or the default keychain check it before reuse.
    static var generation: Int { generationCounter.load(ordering: .acquiring) }

    private static func bumpGeneration() { generationCounter.add(1, ordering: .releasing) }

    /// The store for `path`, opened once per process (a password-protected keychain starts locked).
    static func store(at path: String, create: Bool) throws -> KeychainStore {
        lock.lock()
        defer { lock.unlock() }
        if let store = stores[path] { return store }
        let store = try mapStoreError {
            create ? try KeychainStore.openOrCreate(at: path) : try KeychainStore.open(at: path)
        }
        stores[path] = store
        SecSyncHooks.opened(store)
        return store
    }

    /// Every store this process has open.
    static func openStores() -> [KeychainStore] {
        lock.lock()
        defer { lock.unlock() }
        return Array(stores.values)
    }

    static func register(_ store: KeychainStore) {
        lock.lock()
        stores[store.path] = store
        bumpGeneration()
        lock.unlock()
    }

    /// Drops `store` when it is still the one registered for its path (its file was deleted or replaced by another
    /// process), so the next lookup opens the path again.
    static func reopen(_ store: KeychainStore) {
        lock.lock()
        if stores[store.path] === store {
            stores[store.path] = nil
            bumpGeneration()
        }
        lock.unlock()
    }

    static func forget(_ path: String) {
        lock.lock()
        stores[path] = nil
        if defaultPath == path { defaultPath = nil }
        bumpGeneration()
        lock.unlock()
    }

    /// The default keychain: set by `SecKeychainSetDefault`, else the environment/XDG default, created on first use.
    /// The environment is read when the default is first needed and again only after the registry changes
    /// (like the access groups, which are read once): reading it costs more than a keychain lookup.
    static func defaultKeychain() throws -> SecKeychain {
        lock.lock()
        let chosen = defaultPath
        let known = defaultObject
        lock.unlock()
        if let known, known.generation == generation { return known.keychain }
        let generation = self.generation
        let path = try chosen ?? SecKeychainPreferences.defaultKeychainPath()
        _ = try store(at: path, create: true)
        let keychain = SecKeychain(path: path)
        lock.lock()
        defaultObject = (keychain, generation)
        lock.unlock()
        return keychain
    }

    static func setDefault(_ keychain: SecKeychain?) {
        lock.lock()
        defaultPath = keychain?.path
        bumpGeneration()
        lock.unlock()
    }
}

/// Translates the storage engine's error into the facade's (each engine code carries Apple's OSStatus).
func mapStoreError<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as KeychainStoreError {
        throw SecError(error)
    }
}

// MARK: Apple's keychain-management API

private func withPassword<T>(_ length: UInt32, _ password: UnsafeRawPointer?, _ body: (Data?) throws -> T) rethrows -> T
{
    guard let password else { return try body(nil) }
    let bytes = Data(bytes: password, count: Int(length))
    return try body(bytes)
}

/// Apple's `SecKeychainCreate`: creates a keychain file protected by `password` (nil password and
/// `promptUser` false: a keychain protected only by its device key).
public func SecKeychainCreate(
    _ pathName: UnsafePointer<CChar>, _ passwordLength: UInt32, _ password: UnsafeRawPointer?,
    _ promptUser: Bool, _ initialAccess: SecAccess?,
    _ keychain: UnsafeMutablePointer<SecKeychain?>
) -> OSStatus {
    let path = String(cString: pathName)
    return withOSStatus {
        let store = try withPassword(passwordLength, password) { pw in
            try mapStoreError { try KeychainStore.create(at: path, password: pw) }
        }
        KeychainRegistry.register(store)
        SecKeychainAgentBridge.unlocked(store)
        keychain.pointee = SecKeychain(path: store.path)
    }
}

/// Apple's `SecKeychainOpen`. Like Apple's, it succeeds for a path with no keychain yet; using such a
/// keychain later reports errSecNoSuchKeychain.
public func SecKeychainOpen(
    _ pathName: UnsafePointer<CChar>, _ keychain: UnsafeMutablePointer<SecKeychain?>
) -> OSStatus {
    let path = String(cString: pathName)
    keychain.pointee = SecKeychain(path: path)
    return errSecSuccess
}

/// Apple's `SecKeychainGetPath` (nil = the default keychain): copies the path, NUL-terminated, into
/// `pathName`, whose size `ioPathLength` gives; on return `ioPathLength` is the path's length in bytes. A buffer
/// too small for the path and its NUL gives errSecBufferTooSmall.
public func SecKeychainGetPath(
    _ keychain: SecKeychain?, _ ioPathLength: UnsafeMutablePointer<UInt32>,
    _ pathName: UnsafeMutablePointer<CChar>
) -> OSStatus {
    withOSStatus {
        let target = try keychain ?? KeychainRegistry.defaultKeychain()
        let bytes = Array(target.path.utf8)
        guard bytes.count < Int(ioPathLength.pointee) else {
            throw SecError(errSecBufferTooSmall, "SecKeychainGetPath: the path needs \(bytes.count + 1) bytes")
        }
        for (index, byte) in bytes.enumerated() { pathName[index] = CChar(bitPattern: byte) }
        pathName[bytes.count] = 0
        ioPathLength.pointee = UInt32(bytes.count)
    }
}

/// Apple's `SecKeychainDelete`: removes the keychain's files.
public func SecKeychainDelete(_ keychainOrArray: SecKeychain?) -> OSStatus {
    withOSStatus {
        let keychain = try keychainOrArray ?? KeychainRegistry.defaultKeychain()
        if let store = try? keychain.store() { SecKeychainAgentBridge.locked(store) }
        try mapStoreError { try KeychainStore.delete(at: keychain.path) }
        KeychainRegistry.forget(keychain.path)
    }
}

/// Apple's `SecKeychainCopyDefault`.
public func SecKeychainCopyDefault(_ keychain: UnsafeMutablePointer<SecKeychain?>) -> OSStatus {
    withOSStatus { keychain.pointee = try KeychainRegistry.defaultKeychain() }
}

/// Apple's `SecKeychainSetDefault` (for this process; nil restores the configured default).
public func SecKeychainSetDefault(_ keychain: SecKeychain?) -> OSStatus {
    KeychainRegistry.setDefault(keychain)
    return errSecSuccess
}

/// Apple's `SecKeychainLock` (nil = the default keychain).
public func SecKeychainLock(_ keychain: SecKeychain?) -> OSStatus {
    withOSStatus {
        let target = try keychain ?? KeychainRegistry.defaultKeychain()
        let store = try target.store()
        try mapStoreError { try store.lock() }
        SecKeychainAgentBridge.locked(store)
        KeychainEvents.post(.lockEvent, keychain: target, item: nil)
    }
}

/// Apple's `SecKeychainUnlock` (nil = the default keychain). A wrong password gives errSecAuthFailed.
public func SecKeychainUnlock(
    _ keychain: SecKeychain?, _ passwordLength: UInt32, _ password: UnsafeRawPointer?,
    _ usePassword: Bool
) -> OSStatus {
    withOSStatus {
        let target = try keychain ?? KeychainRegistry.defaultKeychain()
        guard usePassword, password != nil else {
            // No interactive prompt exists on a headless system.
            throw SecError(
                errSecInteractionNotAllowed, "SecKeychainUnlock: a password is required (no user interaction)")
        }
        let store = try target.store()
        try withPassword(passwordLength, password) { pw in
            try mapStoreError { try store.unlock(password: pw ?? Data()) }
        }
        SecKeychainAgentBridge.unlocked(store)
        KeychainEvents.post(.unlockEvent, keychain: target, item: nil)
    }
}

/// Apple's `SecKeychainGetStatus`.
public func SecKeychainGetStatus(
    _ keychain: SecKeychain?, _ keychainStatus: UnsafeMutablePointer<SecKeychainStatus>
) -> OSStatus {
    withOSStatus {
        let target = try keychain ?? KeychainRegistry.defaultKeychain()
        let store = try target.store()
        let status = try mapStoreError { try store.status }
        var bits = kSecReadPermStatus | kSecWritePermStatus
        if SecKeychainAgentBridge.isUnlocked(store, locally: status.isUnlocked) { bits |= kSecUnlockStateStatus }
        keychainStatus.pointee = bits
    }
}

/// Changes the keychain password (our API beyond Apple's `SecKeychainChangePassword`, which is SPI):
/// re-wraps only the master key. A nil new password removes password protection.
public func SecKeychainChangePassword(
    _ keychain: SecKeychain?, _ oldPassword: String?, _ newPassword: String?
) -> OSStatus {
    withOSStatus {
        let target = try keychain ?? KeychainRegistry.defaultKeychain()
        try mapStoreError {
            try target.store().changePassword(
                from: oldPassword.map { Data($0.utf8) }, to: newPassword.map { Data($0.utf8) })
        }
    }
}
