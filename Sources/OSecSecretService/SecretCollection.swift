import Foundation
import OSecASN1
import OSecKeychain
import OSecSystem

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

/// An item of the in-memory `session` collection (its secret in locked memory, zeroed when released).
struct MemoryItem {
    var attributes: [String: String]
    var label: String
    var contentType: String
    var secret: SecureBytes
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
    /// The keychain items as the service shows them, indexed by attribute, valid while the keychain's change
    /// token is the one it was built under (see ``SecretItemIndex``).
    private var index: SecretItemIndex?
    /// Stored maps already decoded, by their `gena` bytes (an unchanged item is not decoded again on a rebuild).
    private var decodedMaps: [Data: SecretAttributeMapping.StoredMap] = [:]
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

    /// Every item matching `query` (a keychain's generic and internet passwords), in the keychain's order.
    func items(matching query: [String: String] = [:]) throws(KeychainStoreError) -> [SecretItemView] {
        guard store != nil else {
            return memoryItems.sorted { $0.key < $1.key }.compactMap { id, item in
                Self.matches(item.attributes, query)
                    ? SecretItemView(
                        id: id, attributes: item.attributes, label: item.label, contentType: item.contentType,
                        created: item.created, modified: item.modified) : nil
            }
        }
        return try currentIndex().search(query)
    }

    /// The index, rebuilt first when anything committed to the keychain since it was built (a change made by
    /// this service, SecItem, `security` or another process). Between changes a search touches only the items
    /// listed under its rarest attribute.
    func currentIndex() throws(KeychainStoreError) -> SecretItemIndex {
        guard let store else { return SecretItemIndex() }
        let token = store.changeToken  // read before the finds it vouches for
        if let index, let token, index.token == token { return index }
        var found: [KeychainItem] = []
        for itemClass in [ItemClass.genericPassword, .internetPassword] {
            found += try store.find(ItemQuery(itemClass: itemClass))
        }
        var decoded: [Data: SecretAttributeMapping.StoredMap] = [:]
        let previous = decodedMaps
        let rebuilt = SecretItemIndex(token: token, items: found) { item in
            SecretAttributeMapping.project(item) { generic in
                if let known = decoded[generic] ?? previous[generic] {
                    decoded[generic] = known
                    return known
                }
                let map = SecretAttributeMapping.decodeStored(generic)
                if let map { decoded[generic] = map }
                return map
            }
        }
        decodedMaps = decoded
        index = rebuilt
        return rebuilt
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
        (ref.itemClass == .internetPassword ? "i" : "g") + HexEncoding.lowercase(ref.uuid)
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

    /// Whether an item with id `id` exists (from the index).
    func hasItem(_ id: String) -> Bool {
        guard store != nil else { return memoryItems[id] != nil }
        return (try? currentIndex().items[id]) != nil
    }

    /// The item with id `id`, or `nil`.
    func item(_ id: String) throws(KeychainStoreError) -> SecretItemView? {
        if store == nil {
            guard let item = memoryItems[id] else { return nil }
            return SecretItemView(
                id: id, attributes: item.attributes, label: item.label, contentType: item.contentType,
                created: item.created, modified: item.modified)
        }
        return try currentIndex().items[id]
    }

    /// The secrets and content types of the items `ids` (missing ones left out), with one lookup per item class.
    func secrets(_ ids: [String]) throws(KeychainStoreError) -> [String: (secret: Data, contentType: String)] {
        var result: [String: (secret: Data, contentType: String)] = [:]
        guard let store else {
            for id in ids { if let item = memoryItems[id] { result[id] = (item.secret.copy(), item.contentType) } }
            return result
        }
        let index = try currentIndex()
        let refs = ids.compactMap(Self.persistentRef(ofItemID:))
        for itemClass in [ItemClass.genericPassword, .internetPassword] {
            let wanted = refs.filter { $0.itemClass == itemClass }
            guard !wanted.isEmpty else { continue }
            var query = ItemQuery(itemClass: itemClass, persistentRefs: wanted)
            query.includesAttributes = false
            for item in try store.find(query) {
                let id = Self.itemID(item.persistentRef)
                let secret = try item.secret?.open() ?? Data()
                // An item added after the index was built (a commit in between) is projected on its own.
                var contentType = index.items[id]?.contentType
                if contentType == nil, let stored = try keychainItem(id) {
                    contentType = SecretAttributeMapping.project(stored).contentType
                }
                result[id] = (secret, contentType ?? SecretAttributeMapping.defaultContentType)
            }
        }
        return result
    }

    /// The secret of item `id` (`nil` when there is no such item).
    func secret(_ id: String) throws(KeychainStoreError) -> (secret: Data, contentType: String)? {
        try secrets([id])[id]
    }
}

/// A keychain collection's items as the service shows them, and an index from every attribute (name and value)
/// to the items that carry it, so that a search reads only the items listed under its rarest attribute instead of
/// projecting every item. Built from one find per item class; valid while the keychain's change token is unchanged.
/// An item added through SecItem or `security` (no stored map) is listed under its account for all three account
/// names (`account`, `username`, `user`), as ``SecretCollection/matches(_:_:)-(Projection,_)`` matches it.
struct SecretItemIndex {
    /// One attribute, as an index key.
    struct Attribute: Hashable {
        let name: String
        let value: String
    }

    /// The token the index was built under (`nil`: rebuilt at every use).
    let token: KeychainChangeToken?
    /// Items by id.
    private(set) var items: [String: SecretItemView] = [:]
    /// Whether the item was created through the service (its map stored whole).
    private var ownItems: Set<String> = []
    /// Item ids in the keychain's order (generic passwords, then internet passwords, each by row id).
    private(set) var order: [String] = []
    /// Item ids (in order) by attribute.
    private var postings: [Attribute: [String]] = [:]

    init() { token = nil }

    init(
        token: KeychainChangeToken?, items found: [KeychainItem],
        project: (KeychainItem) -> SecretAttributeMapping.Projection
    ) {
        self.token = token
        order.reserveCapacity(found.count)
        items.reserveCapacity(found.count)
        for item in found {
            let projection = project(item)
            let view = SecretCollection.view(item, projection)
            order.append(view.id)
            items[view.id] = view
            if projection.isOwnItem { ownItems.insert(view.id) }
            for (name, value) in projection.attributes {
                if !projection.isOwnItem && SecretCollection.accountNames.contains(name) {
                    for alias in SecretCollection.accountNames {
                        postings[Attribute(name: alias, value: value), default: []].append(view.id)
                    }
                } else {
                    postings[Attribute(name: name, value: value), default: []].append(view.id)
                }
            }
        }
    }

    /// The items matching every attribute of `query` (all items for an empty query), in order.
    func search(_ query: [String: String]) -> [SecretItemView] {
        guard !query.isEmpty else { return order.compactMap { items[$0] } }
        var candidates: [String]?
        for (name, value) in query {
            guard let listed = postings[Attribute(name: name, value: value)] else { return [] }
            if candidates == nil || listed.count < (candidates?.count ?? 0) { candidates = listed }
        }
        return (candidates ?? []).compactMap { id in
            guard let view = items[id] else { return nil }
            let projection = SecretAttributeMapping.Projection(
                attributes: view.attributes, label: view.label, contentType: view.contentType,
                isOwnItem: ownItems.contains(id))
            return SecretCollection.matches(projection, query) ? view : nil
        }
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
