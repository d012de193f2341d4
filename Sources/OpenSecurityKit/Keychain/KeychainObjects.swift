import Foundation
import Security

/// The keychain tutorials' `KeychainManager`: any archivable object saved, updated, read and deleted by one
/// identifier, in the format apps written after those tutorials already use.
///
/// Each object is a generic password whose service and account are both the identifier, accessible after first
/// unlock, holding an `NSKeyedArchiver` archive of the object: the item the widely copied
/// `save:data:` / `load:` / `delete:` helpers (`getKeychainQuery:`) write, so values those apps stored are read
/// here and the other way round.
///
/// ```swift
/// try KeychainObjects.save(["token": "abc", "uid": 42] as NSDictionary, forIdentifier: "session")
/// let session = try KeychainObjects.object(forIdentifier: "session") as? NSDictionary
/// try KeychainObjects.delete(identifier: "session")
/// ```
///
/// Unlike the tutorials' helpers it never deletes before adding (a crash in between lost the value), and every
/// failure is a ``SecurityKitError`` rather than silence.
public enum KeychainObjects {
    /// The view of the item for `identifier`: service = account = identifier, after first unlock.
    static func keychain(_ identifier: String, _ keychain: SecKeychain?) -> Keychain {
        Keychain(service: identifier, accessibility: .afterFirstUnlock, keychain: keychain)
    }

    /// Archives `object` (`NSKeyedArchiver`, binary property list) and stores it under `identifier`, adding or
    /// replacing the item.
    ///
    /// - Parameters:
    ///   - object: an `NSCoding` object: `NSString`, `NSNumber`, `NSData`, `NSDate`, `NSArray`, `NSDictionary`,
    ///     your own `NSCoding` classes, or Swift values that bridge to them.
    ///   - identifier: the item's service and account.
    ///   - keychain: a specific keychain; nil for the default one.
    /// - Throws: errSecParam when the object cannot be archived.
    public static func save(
        _ object: Any, forIdentifier identifier: String, in keychain: SecKeychain? = nil
    )
        throws(SecurityKitError)
    {
        try self.keychain(identifier, keychain).set(try archive(object, identifier), forAccount: identifier)
    }

    /// Replaces the object stored under `identifier`; errSecItemNotFound when there is none.
    public static func update(
        _ object: Any, forIdentifier identifier: String, in keychain: SecKeychain? = nil
    )
        throws(SecurityKitError)
    {
        let view = self.keychain(identifier, keychain)
        try KeychainItems.update(
            view.query(account: identifier), value: try archive(object, identifier), attributes: [:],
            what: "the object \"\(identifier)\"")
    }

    /// The object stored under `identifier`; nil when there is none (or when nil was archived).
    ///
    /// Foundation's value classes come back as Swift values: `String`, `NSNumber`, `Data`, `Date`, `[Any]`,
    /// `NSSet`, `NSDictionary` (cast with `as? [String: Any]`), `NSNull`, `UUID`, `URL`. Archives of other classes
    /// are decoded by `NSKeyedUnarchiver` when every class they name exists in the process.
    ///
    /// - Throws: errSecDecode when the item holds no keyed archive, a malformed one, or one of classes the process
    ///   does not have.
    public static func object(
        forIdentifier identifier: String, in keychain: SecKeychain? = nil
    )
        throws(SecurityKitError) -> Any?
    {
        guard let data = try self.keychain(identifier, keychain).data(forAccount: identifier) else { return nil }
        return try unarchive(data, identifier)
    }

    /// The object stored under `identifier` if it is a `T` (`NSDictionary`, `NSArray`, `NSString`, your own
    /// `NSSecureCoding` class); nil when there is no item. Foundation's value classes are read as by
    /// ``object(forIdentifier:in:)``; other classes with secure coding, so only `T` and what it decodes is made.
    ///
    /// - Throws: errSecDecode when the archive does not hold a `T`.
    public static func object<T: NSObject & NSSecureCoding>(
        ofClass type: T.Type, forIdentifier identifier: String, in keychain: SecKeychain? = nil
    ) throws(SecurityKitError) -> T? {
        guard let data = try self.keychain(identifier, keychain).data(forAccount: identifier) else { return nil }
        let notA = SecurityKitError(errSecDecode, reason: "the object \"\(identifier)\" is not a \(T.self)")
        switch try decode(data, identifier) {
        case .value(let value):
            guard let object = value.flatMap({ $0 as? T }) else { throw notA }
            return object
        case .foundationClasses:
            do {
                guard let object = try NSKeyedUnarchiver.unarchivedObject(ofClass: type, from: data) else { throw notA }
                return object
            } catch {
                throw notA
            }
        }
    }

    /// Deletes the object stored under `identifier`; false when there was none.
    @discardableResult
    public static func delete(identifier: String, in keychain: SecKeychain? = nil) throws(SecurityKitError) -> Bool {
        try self.keychain(identifier, keychain).delete(account: identifier)
    }

    /// Whether an object is stored under `identifier`.
    public static func contains(identifier: String, in keychain: SecKeychain? = nil) throws(SecurityKitError) -> Bool {
        try self.keychain(identifier, keychain).contains(account: identifier)
    }

    // MARK: Archives

    static func archive(_ object: Any, _ identifier: String) throws(SecurityKitError) -> Data {
        do {
            return try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: false)
        } catch {
            throw SecurityKitError(errSecParam, reason: "cannot archive the object for \"\(identifier)\": \(error)")
        }
    }

    /// What an archive holds: values the reader decoded, or objects of other classes (each of which exists in
    /// this process) for `NSKeyedUnarchiver`.
    enum Decoded {
        case value(Any?)
        case foundationClasses
    }

    /// Decodes a keyed archive with ``KeyedArchiveReader`` (which never traps on a bad archive); an archive of
    /// classes the reader does not know is left to `NSKeyedUnarchiver` only when it is well formed otherwise and
    /// every class it names exists.
    static func decode(_ data: Data, _ identifier: String) throws(SecurityKitError) -> Decoded {
        let malformed: KeyedArchiveReader.Malformed
        do {
            return .value(try KeyedArchiveReader.decode(data))
        } catch {
            malformed = error
        }
        guard malformed.unsupportedClass != nil else {
            throw SecurityKitError(
                errSecDecode, reason: "the item \"\(identifier)\" holds no valid keyed archive: \(malformed.reason)")
        }
        let names: Set<String>
        do {
            names = try KeyedArchiveReader.classNames(in: data)
        } catch {
            throw SecurityKitError(
                errSecDecode, reason: "the item \"\(identifier)\" holds no valid keyed archive: \(error.reason)")
        }
        guard names.allSatisfy({ NSClassFromString($0) != nil }) else {
            throw SecurityKitError(
                errSecDecode,
                reason: "the item \"\(identifier)\" holds an archive of classes this process does not have ("
                    + names.sorted().joined(separator: ", ") + ")")
        }
        return .foundationClasses
    }

    /// Decodes any keyed archive (see ``decode(_:_:)``).
    static func unarchive(_ data: Data, _ identifier: String) throws(SecurityKitError) -> Any? {
        switch try decode(data, identifier) {
        case .value(let value): return value
        case .foundationClasses: return try unarchiveWithFoundation(data, identifier)
        }
    }

    /// `NSKeyedUnarchiver` for archives of custom classes, with errors returned rather than raised.
    private static func unarchiveWithFoundation(_ data: Data, _ identifier: String) throws(SecurityKitError) -> Any? {
        let failure = SecurityKitError(errSecDecode, reason: "the archive of \"\(identifier)\" does not decode")
        guard let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data) else { throw failure }
        unarchiver.requiresSecureCoding = false
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        defer { unarchiver.finishDecoding() }
        let object = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
        guard unarchiver.error == nil else { throw failure }
        return object
    }
}
