import Foundation
import Security

/// The `SecItem…` calls behind ``Keychain`` and the object store, with Apple's result codes turned into
/// ``SecurityKitError``s that say which item the call was about.
enum KeychainItems {
    /// How often ``upsert(_:value:attributes:what:)`` retries when another writer deletes the item between its
    /// add and its update (each retry needs a concurrent delete; more than a few means something is wrong).
    static let upsertAttempts = 4

    /// The error for a failed call: Apple's code, the item, and the Security module's own explanation when it
    /// has one.
    static func failure(_ status: OSStatus, _ call: String, _ what: String) -> SecurityKitError {
        let detail = SecCopyLastErrorMessage().map { ": \($0)" } ?? ""
        return SecurityKitError(status, reason: "\(call) for \(what) failed\(detail)")
    }

    /// Adds the item, or updates its value and `attributes` when it exists: never delete-and-add, so the item
    /// exists at every moment and a reader sees the old or the new value. A concurrent delete between the add
    /// and the update makes the add run again.
    static func upsert(
        _ query: [String: Any], value: Data, attributes: [String: Any], what: String
    ) throws(SecurityKitError) {
        var item = query.merging(attributes) { $1 }
        item[kSecValueData as String] = value
        var changes = attributes
        changes[kSecValueData as String] = value
        for _ in 0..<upsertAttempts {
            let added = SecItemAdd(item as CFDictionary, nil)
            if added == errSecSuccess { return }
            guard added == errSecDuplicateItem else { throw failure(added, "SecItemAdd", what) }
            let updated = SecItemUpdate(query as CFDictionary, changes as CFDictionary)
            if updated == errSecSuccess { return }
            guard updated == errSecItemNotFound else { throw failure(updated, "SecItemUpdate", what) }
        }
        throw SecurityKitError(errSecDuplicateItem, reason: "\(what) kept changing while it was written")
    }

    /// Updates an existing item only; errSecItemNotFound when there is none.
    static func update(
        _ query: [String: Any], value: Data, attributes: [String: Any], what: String
    ) throws(SecurityKitError) {
        var changes = attributes
        changes[kSecValueData as String] = value
        let status = SecItemUpdate(query as CFDictionary, changes as CFDictionary)
        guard status == errSecSuccess else { throw failure(status, "SecItemUpdate", what) }
    }

    /// The item's secret; nil when there is no such item.
    static func data(_ query: [String: Any], what: String) throws(SecurityKitError) -> Data? {
        var search = query
        search[kSecReturnData as String] = kCFBooleanTrue
        search[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(search as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else { throw failure(status, "SecItemCopyMatching", what) }
        guard let data = FoundationBytes.data(from: result) else {
            throw SecurityKitError(errSecInternal, reason: "SecItemCopyMatching returned no data for \(what)")
        }
        return data
    }

    /// Whether an item matches (no return keys: nothing is decrypted).
    static func exists(_ query: [String: Any], what: String) throws(SecurityKitError) -> Bool {
        let status = SecItemCopyMatching(query as CFDictionary, nil)
        if status == errSecItemNotFound { return false }
        guard status == errSecSuccess else { throw failure(status, "SecItemCopyMatching", what) }
        return true
    }

    /// Deletes every match; false when nothing matched.
    static func delete(_ query: [String: Any], what: String) throws(SecurityKitError) -> Bool {
        let status = SecItemDelete(query as CFDictionary)
        if status == errSecItemNotFound { return false }
        guard status == errSecSuccess else { throw failure(status, "SecItemDelete", what) }
        return true
    }

    /// The attribute dictionaries of every match (empty when nothing matches).
    static func attributes(_ query: [String: Any], what: String) throws(SecurityKitError) -> [[String: Any]] {
        var search = query
        search[kSecReturnAttributes as String] = kCFBooleanTrue
        search[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = SecItemCopyMatching(search as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess else { throw failure(status, "SecItemCopyMatching", what) }
        guard let array = result as? [Any] else {
            throw SecurityKitError(errSecInternal, reason: "SecItemCopyMatching returned no list for \(what)")
        }
        return array.compactMap(dictionary)
    }

    /// An attribute dictionary as `[String: Any]` (the keys are CFStrings).
    private static func dictionary(_ value: Any) -> [String: Any]? {
        if let dictionary = value as? [String: Any] { return dictionary }
        guard let dictionary = value as? NSDictionary else { return nil }
        var result: [String: Any] = [:]
        for (key, item) in dictionary {
            if let key = key as? String {
                result[key] = item
            } else if let key = key as? NSString {
                result[key as String] = item
            }
        }
        return result
    }
}
