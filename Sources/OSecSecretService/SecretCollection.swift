import Foundation
import OSecKeychain

/// One item as the service shows it.
struct SecretItemView {
    /// The last element of the item's object path.
    let id: String
    var attributes: [String: String]
    var label: String
    var contentType: String
    let created: UInt64
    let modified: UInt64
}

/// An item of the in-memory `session` collection.
struct MemoryItem {
    var attributes: [String: String]
    var label: String
    var contentType: String
    var secret: Data
    let created: UInt64
    var modified: UInt64
}

/// One collection: a keychain, or the in-memory `session` collection.
final class SecretCollection {
    enum Backing {
        case keychain(KeychainStore)
        case memory
    }

    /// The last element of the collection's object path.
    let name: String
    var label: String
    let backing: Backing
    /// Locked by the service's Lock on a collection without password (until Unlock, which needs no prompt).
    var softLocked = false
    let created: UInt64
    var modified: UInt64
    /// The `session` collection's items, by id.
    var memoryItems: [String: MemoryItem] = [:]
    /// Projections of keychain items by persistent ref, valid while the item's modification date is unchanged (the
    /// stored map is decoded once, not at every search).
    private var projections: [PersistentRef: (modified: Date, projection: SecretAttributeMapping.Projection)] = [:]
    /// The most projections kept (the cache is emptied beyond).
    static let maximumCachedProjections = 100_000
    private var nextMemoryID = 1

    init(name: String, label: String, backing: Backing) {
        self.name = name
        self.label = label
        self.backing = backing
        let now = UInt64(Date().timeIntervalSince1970)
        self.created = now
        self.modified = now
    }

    var path: String { SecretServicePaths.collection(name) }

    var store: KeychainStore? {
        if case .keychain(let store) = backing { return store }
        return nil
    }

    /// Whether the keychain has a password (and so needs a prompt to unlock).
    var isPasswordProtected: Bool { (try? store?.status.isPasswordProtected) ?? false }

    /// The collection's `Locked`: locked by the service, or a password keychain whose key neither this process nor
    /// the keychain agent holds.
    var isLocked: Bool {
        if softLocked { return true }
        return isKeychainLocked
    }

    /// A password keychain whose key neither this process nor the keychain agent holds.
    var isKeychainLocked: Bool {
        guard let store else { return false }
        guard let status = try? store.status else { return true }
        guard status.isPasswordProtected else { return false }
        return !(status.isUnlocked || store.isUnlockedInAgent)
    }

    func newMemoryID() -> String {
        defer { nextMemoryID += 1 }
        return "m\(nextMemoryID)"
    }

    // MARK: Items

    /// Every item (a keychain's generic and internet passwords).
    func items(matching query: [String: String] = [:]) throws(KeychainStoreError) -> [SecretItemView] {
        guard let store else {
            return memoryItems.sorted { $0.key < $1.key }.compactMap { id, item in
                Self.matches(item.attributes, query)
                    ? SecretItemView(
                        id: id, attributes: item.attributes, label: item.label, contentType: item.contentType,
                        created: item.created, modified: item.modified) : nil
            }
        }
        var views: [SecretItemView] = []
        for itemClass in [ItemClass.genericPassword, .internetPassword] {
            var storeQuery = ItemQuery(itemClass: itemClass)
            if itemClass == .genericPassword, let service = query["service"] {
                storeQuery.attributes["svce"] = .string(service)
            }
            if itemClass == .internetPassword {
                if query["service"] != nil { continue }
                if let server = query["server"] { storeQuery.attributes["srvr"] = .string(server) }
            }
            for item in try store.find(storeQuery) {
                let projection = project(item)
                guard Self.matches(projection, query) else { continue }
                views.append(Self.view(item, projection))
            }
        }
        return views
    }

    /// The Secret Service view of `item`, from the cache when the item did not change.
    func project(_ item: KeychainItem) -> SecretAttributeMapping.Projection {
        if let cached = projections[item.persistentRef], cached.modified == item.modificationDate {
            return cached.projection
        }
        let projection = SecretAttributeMapping.project(item)
        if projections.count >= Self.maximumCachedProjections { projections.removeAll() }
        projections[item.persistentRef] = (item.modificationDate, projection)
        return projection
    }

    static func view(_ item: KeychainItem, _ projection: SecretAttributeMapping.Projection) -> SecretItemView {
        SecretItemView(
            id: itemID(item.persistentRef), attributes: projection.attributes, label: projection.label,
            contentType: projection.contentType, created: UInt64(max(0, item.creationDate.timeIntervalSince1970)),
            modified: UInt64(max(0, item.modificationDate.timeIntervalSince1970)))
    }

    static func matches(_ attributes: [String: String], _ query: [String: String]) -> Bool {
        query.allSatisfy { attributes[$0.key] == $0.value }
    }

    /// The names clients use for the account of an item (`account`, `username` for Python keyring, `user` for
    /// libsecret's network schema).
    static let accountNames: Set<String> = ["account", "username", "user"]

    /// Whether a keychain item matches: every queried attribute equal. For an item added through SecItem or
    /// `security` (no stored map), a query's `account`, `username` or `user` matches its account under any of the
    /// three names.
    static func matches(_ projection: SecretAttributeMapping.Projection, _ query: [String: String]) -> Bool {
        query.allSatisfy { key, value in
            if let own = projection.attributes[key] { return own == value }
            guard !projection.isOwnItem, accountNames.contains(key) else { return false }
            return accountNames.contains { projection.attributes[$0] == value }
        }
    }

    /// `g<uuid hex>` for generic passwords, `i<uuid hex>` for internet passwords.
    static func itemID(_ ref: PersistentRef) -> String {
        (ref.itemClass == .internetPassword ? "i" : "g") + SecretAttributeMapping.hex(ref.uuid)
    }

    /// The persistent ref an item id names, or `nil`.
    static func persistentRef(ofItemID id: String) -> PersistentRef? {
        guard id.count == 33, let kind = id.first else { return nil }
        let itemClass: ItemClass
        switch kind {
        case "g": itemClass = .genericPassword
        case "i": itemClass = .internetPassword
        default: return nil
        }
        var bytes = Data()
        var index = id.index(after: id.startIndex)
        while index < id.endIndex {
            let next = id.index(index, offsetBy: 2)
            guard let byte = UInt8(id[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return try? PersistentRef(itemClass: itemClass, uuid: bytes)
    }

    /// The stored keychain item with id `id`, or `nil`.
    func keychainItem(_ id: String) throws(KeychainStoreError) -> KeychainItem? {
        guard let store, let ref = Self.persistentRef(ofItemID: id) else { return nil }
        return try store.find(persistentRef: ref)
    }

    /// Whether an item with id `id` exists (one indexed lookup, no attributes read).
    func hasItem(_ id: String) -> Bool {
        guard let store else { return memoryItems[id] != nil }
        guard let ref = Self.persistentRef(ofItemID: id) else { return false }
        var query = ItemQuery(persistentRef: ref)
        query.includesAttributes = false
        query.limit = 1
        return ((try? store.find(query)) ?? []).isEmpty == false
    }

    /// The item with id `id`, or `nil`.
    func item(_ id: String) throws(KeychainStoreError) -> SecretItemView? {
        if store == nil {
            guard let item = memoryItems[id] else { return nil }
            return SecretItemView(
                id: id, attributes: item.attributes, label: item.label, contentType: item.contentType,
                created: item.created, modified: item.modified)
        }
        guard let item = try keychainItem(id) else { return nil }
        return Self.view(item, project(item))
    }

    /// The secrets and content types of the items `ids` (missing ones left out), with one lookup per item class.
    func secrets(_ ids: [String]) throws(KeychainStoreError) -> [String: (secret: Data, contentType: String)] {
        var result: [String: (secret: Data, contentType: String)] = [:]
        guard let store else {
            for id in ids { if let item = memoryItems[id] { result[id] = (item.secret, item.contentType) } }
            return result
        }
        let refs = ids.compactMap(Self.persistentRef(ofItemID:))
        for itemClass in [ItemClass.genericPassword, .internetPassword] {
            let wanted = refs.filter { $0.itemClass == itemClass }
            guard !wanted.isEmpty else { continue }
            for item in try store.find(ItemQuery(itemClass: itemClass, persistentRefs: wanted)) {
                let secret = try item.secret?.open() ?? Data()
                result[Self.itemID(item.persistentRef)] = (secret, project(item).contentType)
            }
        }
        return result
    }

    /// The secret of item `id` (`nil` when there is no such item).
    func secret(_ id: String) throws(KeychainStoreError) -> (secret: Data, contentType: String)? {
        try secrets([id])[id]
    }
}

/// The object paths of the specification.
enum SecretServicePaths {
    static let service = "/org/freedesktop/secrets"
    static let collectionPrefix = "/org/freedesktop/secrets/collection/"
    static let aliasPrefix = "/org/freedesktop/secrets/aliases/"
    static let sessionPrefix = "/org/freedesktop/secrets/session/"
    static let promptPrefix = "/org/freedesktop/secrets/prompt/"

    static func collection(_ name: String) -> String { collectionPrefix + name }
    static func item(_ collection: String, _ id: String) -> String { collectionPrefix + collection + "/" + id }

    /// A path element made of `name`'s letters, digits and underscores (others become `_`).
    static func element(_ name: String) -> String {
        let mapped = String(
            name.unicodeScalars.map { scalar -> Character in
                let v = scalar.value
                let ok = (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A)
                return ok ? Character(scalar) : "_"
            })
        return mapped.isEmpty ? "collection" : String(mapped.prefix(64))
    }
}
