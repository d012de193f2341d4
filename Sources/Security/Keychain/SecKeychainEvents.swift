import Foundation
import OSecKeychain
import OSecSystem
import Synchronization

// macOS's keychain event callbacks (Security/SecKeychain.h). Events of this process's SecKeychain… calls are
// delivered synchronously, on the calling thread, after the change: adds, modifications and deletions made through
// the SecKeychain item API, lock and unlock. Changes made by other processes, or through SecItem…, are not
// reported (there is no keychain daemon to broadcast them).

/// Apple's `SecKeychainEvent`.
public enum SecKeychainEvent: UInt32, @unchecked Sendable {
    case lockEvent = 1
    case unlockEvent = 2
    case addEvent = 3
    case deleteEvent = 4
    case updateEvent = 5
    case passwordChangedEvent = 6
    case defaultChangedEvent = 9
    case dataAccessEvent = 10
    case keychainListChangedEvent = 11
    case trustSettingsChangedEvent = 12
}

/// Apple's `SecKeychainEventMask`.
public struct SecKeychainEventMask: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static var lockEventMask: SecKeychainEventMask { .init(rawValue: 1 << 1) }
    public static var unlockEventMask: SecKeychainEventMask { .init(rawValue: 1 << 2) }
    public static var addEventMask: SecKeychainEventMask { .init(rawValue: 1 << 3) }
    public static var deleteEventMask: SecKeychainEventMask { .init(rawValue: 1 << 4) }
    public static var updateEventMask: SecKeychainEventMask { .init(rawValue: 1 << 5) }
    public static var passwordChangedEventMask: SecKeychainEventMask { .init(rawValue: 1 << 6) }
    public static var defaultChangedEventMask: SecKeychainEventMask { .init(rawValue: 1 << 9) }
    public static var dataAccessEventMask: SecKeychainEventMask { .init(rawValue: 1 << 10) }
    public static var keychainListChangedMask: SecKeychainEventMask { .init(rawValue: 1 << 11) }
    public static var trustSettingsChangedEventMask: SecKeychainEventMask { .init(rawValue: 1 << 12) }
    public static var everyEventMask: SecKeychainEventMask { .init(rawValue: 0xFFFF_FFFF) }
}

/// Apple's `SecKeychainCallbackInfo`: what an event concerns (`item` is not meaningful for lock and unlock).
public struct SecKeychainCallbackInfo {
    public var version: UInt32
    public var item: Unmanaged<SecKeychainItem>
    public var keychain: Unmanaged<SecKeychain>
    public var pid: pid_t

    public init(version: UInt32, item: Unmanaged<SecKeychainItem>, keychain: Unmanaged<SecKeychain>, pid: pid_t) {
        self.version = version
        self.item = item
        self.keychain = keychain
        self.pid = pid
    }
}

/// Apple's `SecKeychainCallback`.
public typealias SecKeychainCallback = (
    SecKeychainEvent, UnsafeMutablePointer<SecKeychainCallbackInfo>, UnsafeMutableRawPointer?
) -> OSStatus

/// The registered callbacks.
enum KeychainEvents {
    struct Registration: @unchecked Sendable {  // the context pointer is the caller's, passed back untouched
        let id: Int
        let callback: SecKeychainCallback
        let mask: SecKeychainEventMask
        let context: UnsafeMutableRawPointer?
    }
    private static let registrations = LockedValue<[Registration]>([])
    private static let nextID = Atomic<Int>(0)

    static func add(
        _ callback: @escaping SecKeychainCallback, mask: SecKeychainEventMask, context: UnsafeMutableRawPointer?
    ) {
        let id = nextID.add(1, ordering: .relaxed).newValue
        registrations.withLock { $0.append(Registration(id: id, callback: callback, mask: mask, context: context)) }
    }

    /// Removes the most recent registration (a Swift function value has no identity to compare); false when none.
    static func removeLast() -> Bool {
        registrations.withLock { list in
            guard !list.isEmpty else { return false }
            list.removeLast()
            return true
        }
    }

    /// Placeholder item for events that concern no item.
    private static let noItem = SecKeychainItem(
        reference: SecItemReference(keychainPath: "", persistentRef: Data()), itemClass: .genericPassword)

    static func post(_ event: SecKeychainEvent, keychain: SecKeychain, item: SecKeychainItem?) {
        let bit = SecKeychainEventMask(rawValue: 1 << event.rawValue)
        let targets = registrations.withLock { $0 }.filter { $0.mask.contains(bit) }
        guard !targets.isEmpty else { return }
        let info = SecKeychainCallbackInfo(
            version: 0, item: .passUnretained(item ?? noItem), keychain: .passUnretained(keychain), pid: getpid())
        for target in targets {
            _ = withTemporaryPointer(to: info) { target.callback(event, $0, target.context) }
        }
        withExtendedLifetime((item, keychain)) {}
    }

    static func post(_ event: SecKeychainEvent, item: SecKeychainItem) {
        post(event, keychain: SecKeychain(path: item.reference.keychainPath), item: item)
    }
}

/// Apple's `SecKeychainAddCallback`: calls `callbackFunction` for the events of `eventMask` (see the top of this
/// file for which are delivered).
public func SecKeychainAddCallback(
    _ callbackFunction: @escaping SecKeychainCallback, _ eventMask: SecKeychainEventMask,
    _ userContext: UnsafeMutableRawPointer?
) -> OSStatus {
    KeychainEvents.add(callbackFunction, mask: eventMask, context: userContext)
    return errSecSuccess
}

/// Apple's `SecKeychainRemoveCallback`: unregisters the most recently added callback (Swift function values cannot
/// be compared). errSecInvalidCallback when none is registered.
public func SecKeychainRemoveCallback(_ callbackFunction: @escaping SecKeychainCallback) -> OSStatus {
    KeychainEvents.removeLast() ? errSecSuccess : errSecInvalidCallback
}

/// Apple's `SecKeychainResetLogin`: replaces the login keychain with a new, empty one protected by `password`
/// (its items are lost, as on macOS) and, with `resetSearchList`, makes the search list the login keychain alone.
public func SecKeychainResetLogin(
    _ passwordLength: UInt32, _ password: UnsafeRawPointer?, _ resetSearchList: Bool
) -> OSStatus {
    withOSStatus {
        let path = try SecKeychainPreferences.loginKeychainPath()
        let secret = password.map { Data(bytes: $0, count: Int(passwordLength)) }
        if FileManager.default.fileExists(atPath: path) {
            try mapStoreError { try KeychainStore.delete(at: path) }
            KeychainRegistry.forget(path)
        }
        let store = try mapStoreError { try KeychainStore.create(at: path, password: secret) }
        KeychainRegistry.register(store)
        if resetSearchList {
            try SecKeychainPreferences.write(.user) { $0["SearchList"] = [path] }
        }
    }
}
