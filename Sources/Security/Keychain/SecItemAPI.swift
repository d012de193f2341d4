import Foundation
import OSecKeychain

// Apple's Keychain Services item functions (Security/SecItem.h) with Apple's signatures and result shapes.
// `SecCopyLastErrorMessage()` tells why the last failing call on this thread failed.

/// Apple's `SecItemAdd`.
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    result?.pointee = nil
    return SecItemDiagnostics.run {
        let query = try SecItemQuery(attributes, for: .add)
        let output = try SecItemOperations.add(query)
        result?.pointee = output
    }
}

/// Apple's `SecItemCopyMatching`.
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    result?.pointee = nil
    return SecItemDiagnostics.run {
        let parsed = try SecItemQuery(query, for: .copyMatching)
        // Evaluate before assigning: `result?.pointee = try …` would skip the search when result is nil.
        let output = try SecItemOperations.copyMatching(parsed)
        result?.pointee = output
    }
}

/// Apple's `SecItemUpdate`: every match gets the new attributes (and `kSecValueData`, if given).
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    SecItemDiagnostics.run {
        let parsed = try SecItemQuery(query, for: .update)
        try SecItemOperations.update(parsed, AttributeDictionary(attributesToUpdate))
    }
}

/// Apple's `SecItemDelete`: deletes every match.
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    SecItemDiagnostics.run {
        let parsed = try SecItemQuery(query, for: .delete)
        try SecItemOperations.delete(parsed)
    }
}

/// The operations behind the four functions.
enum SecItemOperations {
    /// Update and delete with certificate filters (kSecMatchIssuers, kSecMatchPolicy, …, which macOS accepts
    /// there): the items `SecItemCopyMatching` would find, by persistent reference, so only those change.
    static func narrowedByCertificateFilter(_ query: SecItemQuery) throws -> SecItemQuery {
        guard query.certificateFilter != nil else { return query }
        var find = query
        find.returnData = false
        find.returnAttributes = false
        find.returnRef = false
        find.returnPersistentRef = true
        find.matchLimit = .all
        guard let refs = try copyMatching(find) as? NSArray else {
            throw SecError(errSecInternal, "the filtered items could not be listed")
        }
        var narrowed = query
        narrowed.certificateFilter = nil
        narrowed.valuePersistentRef = nil
        narrowed.matchItemList = refs.map { $0 as AnyObject }
        return narrowed
    }

    static func add(_ query: SecItemQuery) throws -> AnyObject? {
        if query.itemClass == .identity { return try SecItemIdentities.add(query) }
        let keychain = try SecItemStore.keychains(for: query)[0]
        let items = try SecItemRefs.newItems(for: query)
        let added = try SecItemStore.writing(in: keychain) { try $0.add(contentsOf: items) }
        guard query.returnCount > 0, let first = added.first else { return nil }
        let found = SecItemStore.found(first, in: keychain, itemClass: query.itemClass)
        return try SecItemStore.shape([found], query, itemClass: query.itemClass, single: true)
    }

    static func copyMatching(_ query: SecItemQuery) throws -> AnyObject? {
        guard let storeClass = query.itemClass.storeClass else { return try SecItemIdentities.copyMatching(query) }
        // `kSecReturnData` alone (the most common lookup) wants the secrets only: no attribute dictionaries,
        // refs or persistent refs are built for the found items.
        let dataOnly = query.returnData && query.returnCount == 1 && query.certificateFilter == nil
        let keychains = try SecItemStore.keychains(for: query)
        var storeQuery = try SecItemStore.storeQuery(query, itemClass: storeClass)
        storeQuery.includesAttributes = !dataOnly && (query.returnAttributes || query.returnRef)
        var batches = try find(storeQuery, in: keychains, limit: SecItemStore.limit(query))
        if dataOnly {
            guard !batches.isEmpty else { throw notFound(query) }
            // Opened in place (`batches[b].items[i].secret?.open()`): copying each item out first would retain
            // and release every field it holds.
            func data(_ batch: Int, _ index: Int) throws -> NSData {
                try mapStoreError { try batches[batch].items[index].secret?.open() }.map { $0 as NSData } ?? NSData()
            }
            if query.matchLimit == .one { return try data(0, 0) }
            var all: [NSData] = []
            for batch in batches.indices {
                for index in batches[batch].items.indices { all.append(try data(batch, index)) }
            }
            return all as NSArray
        }
        var found: [SecItemStore.Found] = []
        for batch in batches {
            found += batch.items.map { SecItemStore.found($0, in: batch.keychain, itemClass: query.itemClass) }
        }
        batches = []
        if let filter = query.certificateFilter {
            let others =
                filter.needsKeychainCertificates ? try SecItemCertificateFilter.certificates(in: keychains) : []
            found = try found.filter { item in
                guard let certificate = try item.ref() as? SecCertificate else { return false }
                return filter.matches(certificate, others: others)
            }
            if let wanted = SecItemStore.resultLimit(query) { found = Array(found.prefix(wanted)) }
        }
        guard !found.isEmpty else { throw notFound(query) }
        return try SecItemStore.shape(found, query, itemClass: query.itemClass, single: query.matchLimit == .one)
    }

    /// The one find loop: `storeQuery` in each keychain in turn until `limit` items are found. Returns the
    /// non-empty batches, each with the keychain it came from.
    private static func find(
        _ storeQuery: ItemQuery, in keychains: [SecKeychain], limit: Int?
    ) throws -> [(keychain: SecKeychain, items: [KeychainItem])] {
        var batches: [(keychain: SecKeychain, items: [KeychainItem])] = []
        var storeQuery = storeQuery
        var count = 0
        for keychain in keychains {
            storeQuery.limit = limit.map { $0 - count }
            let store = try keychain.store()
            let items = try mapStoreError { try store.find(storeQuery) }
            guard !items.isEmpty else { continue }
            batches.append((keychain, items))
            count += items.count
            if let limit, count >= limit { break }
        }
        return batches
    }

    private static func notFound(_ query: SecItemQuery) -> SecError {
        SecError(errSecItemNotFound, "no \(query.itemClass.rawValue) item matches the query")
    }

    static func update(_ query: SecItemQuery, _ attributesToUpdate: AttributeDictionary) throws {
        let query = try narrowedByCertificateFilter(query)
        let (updates, hasNonStringKeys) = attributesToUpdate.entries()
        guard !hasNonStringKeys else { throw SecError.param("attribute keys must be strings") }
        var changes = ItemChanges()
        for (key, value) in updates {
            switch SecItemKeyTable.kind(of: key) {
            case .value(.data):
                guard let data = AttributeDictionary.dataValue(value) else {
                    throw SecError.param("kSecValueData must be data")
                }
                changes.secret = data
            case .accessControl:
                guard let control = value as? SecAccessControl else {
                    throw SecError.param("kSecAttrAccessControl must be a SecAccessControl")
                }
                changes.accessibility = try SecItemStore.accessibility(.string(control.protection))
                changes.attributes[QueryKeys.accessControl] = .data(control.storedForm)
            case .itemClass:
                // Code that updates with its whole query repeats kSecClass: macOS accepts it when it names the
                // query's class (the class never changes).
                guard let name = AttributeDictionary.stringValue(value), SecItemKind(rawValue: name) == query.itemClass
                else { throw notUpdatable(key, query) }
            case .match, .returns, .use:
                // Query-only keys repeated from the query (kSecMatchLimit, kSecReturn…, kSecUse…): macOS drops them
                // from the attributes to update instead of failing, and so does this — when they are valid query
                // options; anything else is not an attribute.
                guard isValidQueryOption(key, value, query.itemClass) else { throw notUpdatable(key, query) }
                continue
            case .attribute(let attribute)
            where attribute.engineField == .synchronizable
                && AttributeDictionary.stringValue(value) == QueryKeys.synchronizableAny:
                continue  // kSecAttrSynchronizableAny repeated from the query changes nothing
            case .attribute(let attribute):
                guard let kind = attribute.kind(in: query.itemClass) else { throw notUpdatable(key, query) }
                guard let normalized = AttributeValue(caller: value, kind: kind) else {
                    throw SecError.param("attribute \(key) has a value of the wrong type")
                }
                switch attribute.engineField {
                case .accessGroup: changes.accessGroup = try SecItemStore.accessGroup(for: normalized)
                case .accessibility: changes.accessibility = try SecItemStore.accessibility(normalized)
                case .synchronizable: changes.isSynchronizable = (normalized.integerValue ?? 0) != 0
                case .creationDate, .modificationDate:
                    throw SecError(errSecReadOnlyAttr, "\(key) is maintained by the keychain")
                case nil: changes.attributes[key] = normalized
                }
            default:
                throw notUpdatable(key, query)
            }
        }
        guard let storeClass = query.itemClass.storeClass else { return try SecItemIdentities.update(query, changes) }
        let keychains = try SecItemStore.keychains(for: query)
        let storeQuery = try SecItemStore.storeQuery(query, itemClass: storeClass)
        var total = 0
        for keychain in keychains {
            total += try SecItemStore.writing(in: keychain) { try $0.update(storeQuery, with: changes) }
        }
        guard total > 0 else { throw notFound(query) }
    }

    /// Whether `key: value` is accepted in a SecItemCopyMatching query of `itemClass`.
    private static func isValidQueryOption(_ key: String, _ value: Any, _ itemClass: SecItemKind) -> Bool {
        let probe = NSDictionary(
            objects: [itemClass.rawValue, value], forKeys: [QueryKeys.itemClass as NSString, key as NSString])
        return (try? SecItemQuery(probe, for: .copyMatching)) != nil
    }

    private static func notUpdatable(_ key: String, _ query: SecItemQuery) -> SecError {
        SecError(
            errSecNoSuchAttr,
            "\(key) cannot be updated: not an attribute of class \(query.itemClass.rawValue) (the class never changes)")
    }

    static func delete(_ query: SecItemQuery) throws {
        let query = try narrowedByCertificateFilter(query)
        guard let storeClass = query.itemClass.storeClass else { return try SecItemIdentities.delete(query) }
        let keychains = try SecItemStore.keychains(for: query)
        let storeQuery = try SecItemStore.storeQuery(query, itemClass: storeClass)
        var total = 0
        for keychain in keychains {
            total += try SecItemStore.writing(in: keychain) { try $0.delete(storeQuery) }
        }
        guard total > 0 else { throw notFound(query) }
    }
}
