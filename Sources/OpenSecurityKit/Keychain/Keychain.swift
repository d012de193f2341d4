import Foundation
import Security

/// Passwords and other secrets by service and account, one call each, on top of `SecItem…`.
///
/// A `Keychain` value names a service (`kSecAttrService`) and the options every item written through it gets:
///
/// ```swift
/// let keychain = Keychain(service: "api.example.com")
/// try keychain.set("s3cret", forAccount: "alice")              // add, or update if it exists
/// let password = try keychain.string(forAccount: "alice")       // "s3cret"; nil when there is none
/// let accounts = try keychain.accounts()                        // ["alice"]
/// try keychain.delete(account: "alice")
///
/// let shared = Keychain(service: "api.example.com", accessGroup: "com.example.shared")
///     .accessibility(.afterFirstUnlock).synchronizable(true).label("Example API")
/// ```
///
/// Items are generic passwords (`kSecClassGenericPassword`): on Apple platforms the same calls read and write the
/// same items that SSKeychain, SAMKeychain, KeychainAccess and hand-written `SecItem` code do. Every failure throws
/// a ``SecurityKitError`` with Apple's code; a missing item is `nil` (or `false`), not an error.
///
/// ``synchronizable`` is part of an item's identity, as on Apple platforms: a `Keychain` with `synchronizable` false
/// sees only items that are not synchronized, one with true only synchronized ones; ``allAccounts(accessGroup:in:)``
/// lists both.
///
/// The value is `Sendable`; every call is independent (there is no cache), so values can be shared between
/// threads and tasks. The `async` variants run the same calls on a background queue, off the caller's thread.
public struct Keychain: Sendable, Hashable {
    /// `kSecAttrService` of every item.
    public let service: String
    /// `kSecAttrAccessGroup`: the group items are written to and searched in; nil = the default group (writes)
    /// and every group the process may read (searches).
    public var accessGroup: String?
    /// `kSecAttrAccessible` given to items written through this value (Apple's default: when unlocked).
    public var accessibility: Accessibility
    /// `kSecAttrSynchronizable` of the items written and searched.
    public var synchronizable: Bool
    /// `kSecAttrLabel` given to items written through this value; nil leaves an existing label alone.
    public var label: String?
    /// `kSecAttrComment` given to items written through this value; nil leaves an existing comment alone.
    public var comment: String?
    /// The keychain to use (`kSecUseKeychain`, as on macOS); nil = the default keychain.
    public var keychain: SecKeychain?

    /// A keychain view for `service`.
    ///
    /// - Parameters:
    ///   - service: `kSecAttrService` of the items.
    ///   - accessGroup: `kSecAttrAccessGroup`; nil for the default.
    ///   - accessibility: `kSecAttrAccessible` for new and updated items.
    ///   - synchronizable: `kSecAttrSynchronizable`.
    ///   - label: `kSecAttrLabel` for new and updated items.
    ///   - comment: `kSecAttrComment` for new and updated items.
    ///   - keychain: a specific keychain (`kSecUseKeychain`); nil for the default keychain.
    public init(
        service: String, accessGroup: String? = nil, accessibility: Accessibility = .whenUnlocked,
        synchronizable: Bool = false, label: String? = nil, comment: String? = nil, keychain: SecKeychain? = nil
    ) {
        self.service = service
        self.accessGroup = accessGroup
        self.accessibility = accessibility
        self.synchronizable = synchronizable
        self.label = label
        self.comment = comment
        self.keychain = keychain
    }

    // MARK: Options, chainable

    /// A copy with another accessibility.
    public func accessibility(_ value: Accessibility) -> Keychain { with { $0.accessibility = value } }
    /// A copy with another access group.
    public func accessGroup(_ value: String?) -> Keychain { with { $0.accessGroup = value } }
    /// A copy that reads and writes synchronizable (or local) items.
    public func synchronizable(_ value: Bool) -> Keychain { with { $0.synchronizable = value } }
    /// A copy that labels the items it writes.
    public func label(_ value: String?) -> Keychain { with { $0.label = value } }
    /// A copy that sets the comment of the items it writes.
    public func comment(_ value: String?) -> Keychain { with { $0.comment = value } }
    /// A copy that uses `keychain` instead of the default keychain.
    public func keychain(_ value: SecKeychain?) -> Keychain { with { $0.keychain = value } }

    private func with(_ change: (inout Keychain) -> Void) -> Keychain {
        var copy = self
        change(&copy)
        return copy
    }

    // MARK: Passwords

    /// Stores `password` (UTF-8) for `account`: adds the item, or replaces the password of an existing one.
    ///
    /// One item exists at every moment: the item is never deleted and re-added (the old value stays readable
    /// until the new one is in place), and a concurrent writer or deleter cannot make the call fail halfway.
    public func set(_ password: String, forAccount account: String) throws(SecurityKitError) {
        try set(Data(password.utf8), forAccount: account)
    }

    /// Stores `data` for `account` (see `set(_:forAccount:)`).
    public func set(_ data: Data, forAccount account: String) throws(SecurityKitError) {
        try KeychainItems.upsert(
            query(account: account), value: data, attributes: writtenAttributes, what: what(account))
    }

    /// The password of `account` as UTF-8 text; nil when there is no such item.
    ///
    /// - Throws: errSecConversionError when the stored bytes are not UTF-8; Apple's codes for other failures
    ///   (errSecInteractionNotAllowed when the keychain is locked, …).
    public func string(forAccount account: String) throws(SecurityKitError) -> String? {
        guard let data = try data(forAccount: account) else { return nil }
        guard let text = String(data: data, encoding: .utf8) else {
            throw SecurityKitError(errSecConversionError, reason: "\(what(account)) is not UTF-8 text")
        }
        return text
    }

    /// The stored bytes of `account`; nil when there is no such item.
    public func data(forAccount account: String) throws(SecurityKitError) -> Data? {
        try KeychainItems.data(query(account: account), what: what(account))
    }

    /// Deletes `account`'s item. Returns false when there was none (deleting twice is not an error).
    @discardableResult
    public func delete(account: String) throws(SecurityKitError) -> Bool {
        try KeychainItems.delete(query(account: account), what: what(account))
    }

    /// Deletes every item of the service (in this view's access group and synchronizable state); returns how many
    /// there were.
    @discardableResult
    public func deleteAll() throws(SecurityKitError) -> Int {
        let count = try items().count
        guard count > 0 else { return 0 }
        _ = try KeychainItems.delete(query(account: nil), what: "the items of service \(service)")
        return count
    }

    /// Whether `account` has an item (nothing is decrypted).
    public func contains(account: String) throws(SecurityKitError) -> Bool {
        try KeychainItems.exists(query(account: account), what: what(account))
    }

    /// The accounts of this service, sorted.
    public func accounts() throws(SecurityKitError) -> [String] {
        try items().map(\.account).sorted()
    }

    /// The items of this service with their attributes (no secrets), sorted by account.
    public func items() throws(SecurityKitError) -> [KeychainItem] {
        try KeychainItems.attributes(query(account: nil), what: "the items of service \(service)")
            .map(KeychainItem.init).sorted { $0.account < $1.account }
    }

    /// SSKeychain's `accountsForService:`: the attribute dictionaries of this service's items, as
    /// `SecItemCopyMatching` returns them (`kSecAttrAccount`, `kSecAttrService`, `kSecAttrLabel`,
    /// `kSecAttrCreationDate`, `kSecAttrModificationDate`, …; never the secret).
    public func accountDictionaries() throws(SecurityKitError) -> [[String: Any]] {
        try KeychainItems.attributes(query(account: nil), what: "the items of service \(service)")
    }

    /// SSKeychain's `allAccounts`: the attribute dictionaries of every generic password of every service
    /// (synchronizable or not), in `accessGroup` (nil: every group the process may read) of `keychain` (nil: the
    /// default keychain).
    public static func allAccounts(
        accessGroup: String? = nil, in keychain: SecKeychain? = nil
    ) throws(SecurityKitError) -> [[String: Any]] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        if let keychain { query[kSecUseKeychain as String] = keychain }
        return try KeychainItems.attributes(query, what: "all generic passwords")
    }

    // MARK: Queries

    private func what(_ account: String) -> String { "the item of account \"\(account)\" of service \"\(service)\"" }

    /// The query naming one item (or every item of the service when `account` is nil).
    func query(account: String?) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrSynchronizable as String: synchronizable ? kCFBooleanTrue as Any : kCFBooleanFalse as Any,
        ]
        if let account { query[kSecAttrAccount as String] = account }
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        if let keychain { query[kSecUseKeychain as String] = keychain }
        return query
    }

    /// Attributes written on add and on update.
    var writtenAttributes: [String: Any] {
        var attributes: [String: Any] = [kSecAttrAccessible as String: accessibility.rawValue]
        if let label { attributes[kSecAttrLabel as String] = label }
        if let comment { attributes[kSecAttrComment as String] = comment }
        return attributes
    }

    /// Equal when every option is equal (the keychain by identity).
    public static func == (lhs: Keychain, rhs: Keychain) -> Bool {
        lhs.service == rhs.service && lhs.accessGroup == rhs.accessGroup && lhs.accessibility == rhs.accessibility
            && lhs.synchronizable == rhs.synchronizable && lhs.label == rhs.label && lhs.comment == rhs.comment
            && lhs.keychain === rhs.keychain
    }

    /// Consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(service)
        hasher.combine(accessGroup)
        hasher.combine(accessibility)
        hasher.combine(synchronizable)
        hasher.combine(label)
        hasher.combine(comment)
        hasher.combine(keychain.map(ObjectIdentifier.init))
    }
}

extension Keychain {
    /// When an item can be read (`kSecAttrAccessible`), with Apple's values.
    public struct Accessibility: Sendable, Hashable, CustomStringConvertible {
        /// The constant's value (`ak`, `ck`, …).
        public let rawValue: String

        /// An accessibility by its `kSecAttrAccessible…` value (for values this type does not name).
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `kSecAttrAccessibleWhenUnlocked` (Apple's default).
        public static let whenUnlocked = Accessibility(rawValue: kSecAttrAccessibleWhenUnlocked as String)
        /// `kSecAttrAccessibleAfterFirstUnlock` (background work; the guides' choice).
        public static let afterFirstUnlock = Accessibility(rawValue: kSecAttrAccessibleAfterFirstUnlock as String)
        /// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`.
        public static let whenUnlockedThisDeviceOnly = Accessibility(
            rawValue: kSecAttrAccessibleWhenUnlockedThisDeviceOnly as String)
        /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`.
        public static let afterFirstUnlockThisDeviceOnly = Accessibility(
            rawValue: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String)
        /// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`.
        public static let whenPasscodeSetThisDeviceOnly = Accessibility(
            rawValue: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly as String)
        /// `kSecAttrAccessibleAlways` (deprecated by Apple; readable while locked).
        public static let always = Accessibility(rawValue: kSecAttrAccessibleAlways as String)
        /// `kSecAttrAccessibleAlwaysThisDeviceOnly` (deprecated by Apple).
        public static let alwaysThisDeviceOnly = Accessibility(
            rawValue: kSecAttrAccessibleAlwaysThisDeviceOnly as String)

        /// The raw value.
        public var description: String { rawValue }
    }
}

/// One item's attributes as `SecItemCopyMatching` reports them (never its secret).
public struct KeychainItem: Sendable, Hashable {
    /// `kSecAttrAccount` ("" when the item has none).
    public let account: String
    /// `kSecAttrService`.
    public let service: String
    /// `kSecAttrLabel`.
    public let label: String?
    /// `kSecAttrComment`.
    public let comment: String?
    /// `kSecAttrAccessGroup`.
    public let accessGroup: String?
    /// `kSecAttrAccessible`.
    public let accessibility: Keychain.Accessibility?
    /// `kSecAttrSynchronizable`.
    public let synchronizable: Bool
    /// `kSecAttrCreationDate`.
    public let creationDate: Date?
    /// `kSecAttrModificationDate`.
    public let modificationDate: Date?

    init(_ attributes: [String: Any]) {
        account = KeychainItem.text(attributes[kSecAttrAccount as String]) ?? ""
        service = KeychainItem.text(attributes[kSecAttrService as String]) ?? ""
        label = KeychainItem.text(attributes[kSecAttrLabel as String])
        comment = KeychainItem.text(attributes[kSecAttrComment as String])
        accessGroup = KeychainItem.text(attributes[kSecAttrAccessGroup as String])
        accessibility = KeychainItem.text(attributes[kSecAttrAccessible as String]).map(Keychain.Accessibility.init)
        synchronizable = (attributes[kSecAttrSynchronizable as String] as? NSNumber)?.boolValue ?? false
        creationDate = attributes[kSecAttrCreationDate as String] as? Date
        modificationDate = attributes[kSecAttrModificationDate as String] as? Date
    }

    /// A string attribute, which Apple stores as given: String, or Data holding UTF-8.
    private static func text(_ value: Any?) -> String? {
        if let string = value as? String { return string }
        if let data = FoundationBytes.data(from: value) { return String(data: data, encoding: .utf8) }
        return nil
    }
}
