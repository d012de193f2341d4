import Foundation
import OSecKeychain

/// The SecItem engine: turns parsed queries into storage-engine operations and results into Apple's shapes.
enum SecItemStore {
    // MARK: Keychains and access groups

    /// The keychains a query targets: `kSecUseKeychain` / `kSecMatchSearchList`, else the default keychain.
    static func keychains(for query: SecItemQuery) throws -> [SecKeychain] {
        guard let list = query.keychains else { return [try KeychainRegistry.defaultKeychain()] }
        let keychains = list.compactMap { $0 as? SecKeychain }
        guard keychains.count == list.count, !keychains.isEmpty else {
            throw SecError.param("kSecUseKeychain / kSecMatchSearchList must hold SecKeychain objects")
        }
        return keychains
    }

    /// The access group for a new item (or a query naming one): the one asked for, or the process's first
    /// (the shared default group when nothing restricts the process). With no restriction configured every
    /// group is the process's, as Linux has no entitlements; a configured list that lacks the group gives
    /// errSecMissingEntitlement, as a missing entitlement does on Apple platforms.
    static func accessGroup(for requested: AttributeValue?) throws -> String {
        let restricted = SecKeychainConfiguration.restrictedGroups
        guard let requested else { return restricted?.first ?? SecKeychainConfiguration.defaultAccessGroup }
        guard let name = requested.stringValue, !name.isEmpty else {
            throw SecError.param("kSecAttrAccessGroup must be a non-empty string")
        }
        if let restricted, !restricted.contains(name) {
            throw SecError(
                errSecMissingEntitlement,
                "access group \(name) is not one of this process's groups \(restricted) (configured with "
                    + "SecKeychainConfiguration.accessGroups or "
                    + "\(SecKeychainConfiguration.accessGroupsEnvironmentVariable))"
            )
        }
        return name
    }

    /// The groups a query without `kSecAttrAccessGroup` searches: the configured ones, or every group (nil).
    static var searchedGroups: [String]? { SecKeychainConfiguration.restrictedGroups }

    /// The accessibility for a new item: the one asked for, or Apple's default for the class.
    static func accessibility(for requested: AttributeValue?, itemClass: ItemClass) throws -> Accessibility {
        guard let requested else { return .default(for: itemClass) }
        return try accessibility(requested)
    }

    /// The accessibility a caller names (`kSecAttrAccessible`); errSecParam when it is not one of Apple's.
    static func accessibility(_ requested: AttributeValue) throws -> Accessibility {
        guard let raw = requested.stringValue, let value = Accessibility(rawValue: raw) else {
            throw SecError.param("kSecAttrAccessible: unknown accessibility \(requested.stringValue ?? "?")")
        }
        return value
    }

    // MARK: Writing

    /// Runs a write on `keychain`'s store. When another process deleted the keychain file (and maybe created a new
    /// one there) since this process opened it, the store refuses the write before writing anything
    /// (`keychainReplaced`); the keychain is then opened again and the write runs once more, on the file the path
    /// names now (errSecNoSuchKeychain when there is none).
    static func writing<T>(in keychain: SecKeychain, _ body: (KeychainStore) throws -> T) throws -> T {
        let store = try keychain.store()
        do {
            return try body(store)
        } catch let error as KeychainStoreError where error.code == .keychainReplaced {
            KeychainRegistry.reopen(store)
            return try mapStoreError { try body(try keychain.store()) }
        } catch let error as KeychainStoreError {
            throw SecError(error)
        }
    }

    // MARK: Queries

    /// The engine query for a parsed query on a stored class: the query's class attributes, or `attributes`
    /// (an identity query's certificate or key part); engine fields and references come from `query`.
    static func storeQuery(
        _ query: SecItemQuery, itemClass: ItemClass, attributes: [String: AttributeValue]? = nil
    ) throws -> ItemQuery {
        var classAttributes = attributes ?? query.attributes
        if itemClass == .certificate { SecItemCertificates.normalizeNameAttributes(&classAttributes) }
        var storeQuery = ItemQuery(itemClass: itemClass, attributes: classAttributes, accessGroups: searchedGroups)
        let fields = query.engineFields
        if !fields.isEmpty {
            if let requested = fields[.accessGroup] { storeQuery.accessGroups = [try accessGroup(for: requested)] }
            if let requested = fields[.accessibility] { storeQuery.accessibility = try accessibility(requested) }
        }
        var refs: [PersistentRef] = []
        if let ref = query.valuePersistentRef { refs.append(try SecPersistentRef.storeRef(ref)) }
        for entry in query.matchItemList ?? [] {
            if let data = AttributeDictionary.dataValue(entry) {
                refs.append(try SecPersistentRef.storeRef(data))
            } else if let reference = SecItemRefs.reference(of: entry) {
                refs.append(try SecPersistentRef.storeRef(reference.persistentRef))
            }
        }
        if let ref = query.valueRef {
            if let reference = SecItemRefs.reference(of: ref) {
                refs.append(try SecPersistentRef.storeRef(reference.persistentRef))
            } else {
                // A ref that never was in a keychain matches the stored item with the same identifying attributes.
                for (k, v) in try SecItemRefs.identifyingAttributes(of: ref) where storeQuery.attributes[k] == nil {
                    storeQuery.attributes[k] = v
                }
            }
        }
        let byReference =
            query.valuePersistentRef != nil || query.matchItemList != nil
            || (query.valueRef.map { SecItemRefs.reference(of: $0) != nil } ?? false)
        if byReference {
            let wanted = refs.filter { $0.itemClass == itemClass }
            storeQuery.persistentRefs = wanted
        }
        // Without kSecAttrSynchronizable a query sees only items that do not sync, unless it names its items by
        // reference: a persistent ref (or a ref, or an item list) finds its item whether it syncs or not, as on
        // Apple platforms (the server adds `sync == 0` only to queries without a persistent ref).
        let requestedSync = fields[.synchronizable]
        if !query.synchronizableAny && (requestedSync != nil || !byReference) {
            storeQuery.isSynchronizable = (requestedSync?.integerValue ?? 0) != 0
        }
        return storeQuery
    }

    /// The store-level limit: none when certificate filters will drop some of the items found.
    static func limit(_ query: SecItemQuery) -> Int? {
        if query.certificateFilter != nil { return nil }
        return resultLimit(query)
    }

    /// The number of results the caller asked for (kSecMatchLimit).
    static func resultLimit(_ query: SecItemQuery) -> Int? {
        switch query.matchLimit {
        case .one: return 1
        case .count(let n): return n
        case .all: return nil
        }
    }

    // MARK: Results

    /// One found item, ready to be shaped into Apple's result.
    struct Found {
        var attributes: [String: Any]
        var data: () throws -> Data
        var ref: () throws -> AnyObject
        var persistentRef: Data
    }

    static func found(_ item: KeychainItem, in keychain: SecKeychain, itemClass: SecItemKind) -> Found {
        var attributes: [String: Any] = [:]
        for entry in item.attributes { attributes[entry.key] = entry.value.foundationValue }
        attributes[SecItemEngineField.accessGroup.rawValue] = item.accessGroup
        attributes[SecItemEngineField.accessibility.rawValue] = item.accessibility.rawValue
        // Apple returns every item's access control (synthesized from the protection class when none was given).
        let stored = item.attributes[QueryKeys.accessControl].flatMap { value -> SecAccessControl? in
            guard case .data(let data) = value else { return nil }
            return SecAccessControl.fromStored(data)
        }
        attributes[QueryKeys.accessControl] =
            stored ?? SecAccessControl(protection: item.accessibility.rawValue, flags: [])
        attributes[SecItemEngineField.synchronizable.rawValue] = NSNumber(value: item.isSynchronizable ? 1 : 0)
        attributes[SecItemEngineField.creationDate.rawValue] = item.creationDate
        attributes[SecItemEngineField.modificationDate.rawValue] = item.modificationDate
        let reference = SecItemReference(keychainPath: keychain.path, persistentRef: item.persistentRef.data)
        let secret = item.secret
        let data: () throws -> Data = {
            guard let secret else { return Data() }
            return try mapStoreError { try secret.open() }
        }
        return Found(
            attributes: attributes,
            data: data,
            ref: { try SecItemRefs.ref(for: item, itemClass: itemClass, data: data, reference: reference) },
            persistentRef: item.persistentRef.data)
    }

    /// Apple's result shape (reference §2.2) for `items`.
    static func shape(
        _ items: [Found], _ query: SecItemQuery, itemClass: SecItemKind, single: Bool
    ) throws -> AnyObject? {
        guard query.returnCount > 0 else { return nil }
        func value(_ item: Found) throws -> AnyObject {
            if query.returnCount == 1 {
                if query.returnData { return try item.data() as NSData }
                if query.returnAttributes { return item.attributes as NSDictionary }
                if query.returnRef { return try item.ref() }
                return item.persistentRef as NSData
            }
            var dict: [String: Any] = query.returnAttributes ? item.attributes : [:]
            if query.returnData { dict[QueryKeys.valueData] = try item.data() }
            if query.returnRef {
                dict[QueryKeys.valueRef] = try item.ref()
                dict[QueryKeys.itemClass] = itemClass.rawValue
            }
            if query.returnPersistentRef { dict[QueryKeys.valuePersistentRef] = item.persistentRef }
            return dict as NSDictionary
        }
        if single, let first = items.first { return try value(first) }
        return try items.map { try value($0) } as NSArray
    }
}
