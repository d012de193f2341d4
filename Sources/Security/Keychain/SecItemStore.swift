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

    /// One found item, ready to be shaped into Apple's result. Its attribute dictionary is made only when asked
    /// for (``attributes``, ``attributesObject``): a listing of refs or persistent refs never builds one.
    struct Found {
        /// A stored item (attributes made from it on demand), or attributes already made (joined identities).
        private let source: Either
        var data: () throws -> Data
        var ref: () throws -> AnyObject
        var persistentRef: Data

        private enum Either {
            case item(KeychainItem)
            case attributes([String: Any])
        }

        init(
            item: KeychainItem, data: @escaping () throws -> Data, ref: @escaping () throws -> AnyObject,
            persistentRef: Data
        ) {
            source = .item(item)
            self.data = data
            self.ref = ref
            self.persistentRef = persistentRef
        }

        init(
            attributes: [String: Any], data: @escaping () throws -> Data, ref: @escaping () throws -> AnyObject,
            persistentRef: Data
        ) {
            source = .attributes(attributes)
            self.data = data
            self.ref = ref
            self.persistentRef = persistentRef
        }

        /// Apple's attribute dictionary of the item (`kSecReturnAttributes`).
        var attributes: [String: Any] {
            switch source {
            case .attributes(let attributes): return attributes
            case .item(let item):
                var attributes: [String: Any] = [:]
                SecItemStore.forEachAttribute(of: item) { key, value in attributes[key] = value }
                return attributes
            }
        }

        /// ``attributes`` as the NSDictionary a result holds, built directly: bridging a `[String: Any]` checks
        /// and boxes every value dynamically, which cost more than reading the item.
        var attributesObject: NSDictionary {
            switch source {
            case .attributes(let attributes): return attributes as NSDictionary
            case .item(let item):
                // Class attributes straight from their stored values (no boxing into `Any` and casting back),
                // then the engine fields.
                let dictionary = NSMutableDictionary(capacity: item.attributes.count + 7)
                for entry in item.attributes {
                    dictionary.setObject(
                        SecItemStore.foundationObject(entry.value), forKey: NSString(string: entry.key))
                }
                SecItemStore.forEachEngineAttribute(of: item) { key, value in
                    dictionary.setObject(SecItemStore.foundationObject(value), forKey: NSString(string: key))
                }
                return dictionary
            }
        }
    }

    static func found(_ item: KeychainItem, in keychain: SecKeychain, itemClass: SecItemKind) -> Found {
        let reference = SecItemReference(keychainPath: keychain.path, persistentRef: item.persistentRef.data)
        let secret = item.secret
        let data: () throws -> Data = {
            guard let secret else { return Data() }
            return try mapStoreError { try secret.open() }
        }
        return Found(
            item: item,
            data: data,
            ref: { try SecItemRefs.ref(for: item, itemClass: itemClass, data: data, reference: reference) },
            persistentRef: item.persistentRef.data)
    }

    /// Calls `body` with every attribute Apple returns for `item`: its class attributes, then the engine fields
    /// and the access control (synthesized from the protection class when none was given, as Apple does).
    static func forEachAttribute(of item: KeychainItem, _ body: (String, Any) -> Void) {
        for entry in item.attributes { body(entry.key, entry.value.foundationValue) }
        forEachEngineAttribute(of: item, body)
    }

    /// The engine fields of ``forEachAttribute(of:_:)``: agrp, pdmn, accc, sync, cdat, mdat.
    static func forEachEngineAttribute(of item: KeychainItem, _ body: (String, Any) -> Void) {
        body(SecItemEngineField.accessGroup.rawValue, item.accessGroup)
        body(SecItemEngineField.accessibility.rawValue, item.accessibility.rawValue)
        let stored = item.attributes[QueryKeys.accessControl].flatMap { value -> SecAccessControl? in
            guard case .data(let data) = value else { return nil }
            return SecAccessControl.fromStored(data)
        }
        body(QueryKeys.accessControl, stored ?? SecAccessControl(protection: item.accessibility.rawValue, flags: []))
        body(SecItemEngineField.synchronizable.rawValue, NSNumber(value: item.isSynchronizable ? 1 : 0))
        body(SecItemEngineField.creationDate.rawValue, item.creationDate)
        body(SecItemEngineField.modificationDate.rawValue, item.modificationDate)
    }

    /// The object a bridged `[String: Any]` would hold for a stored attribute value.
    static func foundationObject(_ value: AttributeValue) -> AnyObject {
        switch value {
        case .string(let string): return NSString(string: string)
        case .data(let data): return NSData(data: data)
        case .integer(let number): return NSNumber(value: number)
        case .double(let number): return NSNumber(value: number)
        case .date(let date): return NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        }
    }

    /// The object a bridged `[String: Any]` would hold for an attribute value (String → NSString, Data → NSData,
    /// Date → NSDate; objects as they are).
    static func foundationObject(_ value: Any) -> AnyObject {
        switch value {
        case let string as String: return NSString(string: string)
        case let data as Data: return NSData(data: data)
        case let date as Date: return NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        default: return value as AnyObject
        }
    }

    /// Apple's result shape (reference §2.2) for `items`.
    static func shape(
        _ items: [Found], _ query: SecItemQuery, itemClass: SecItemKind, single: Bool
    ) throws -> AnyObject? {
        guard query.returnCount > 0 else { return nil }
        func value(_ item: Found) throws -> AnyObject {
            if query.returnCount == 1 {
                if query.returnData { return try item.data() as NSData }
                if query.returnAttributes { return item.attributesObject }
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
