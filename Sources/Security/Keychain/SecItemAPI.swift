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
        let found = SecItemStore.found(first, in: keychain, itemClass: SecItemClass(first.itemClass))
        return try SecItemStore.shape([found], query, itemClass: query.itemClass, single: true)
    }

    static func copyMatching(_ query: SecItemQuery) throws -> AnyObject? {
        guard let storeClass = query.itemClass.storeClass else { return try SecItemIdentities.copyMatching(query) }
        let limit = SecItemStore.limit(query)
        if query.returnData && query.returnCount == 1 && query.certificateFilter == nil {
            return try copyData(query, storeClass: storeClass, limit: limit)
        }
        var found: [SecItemStore.Found] = []
        let keychains = try SecItemStore.keychains(for: query)
        for keychain in keychains {
            var storeQuery = try SecItemStore.storeQuery(query, itemClass: storeClass, attributes: query.attributes)
            storeQuery.limit = limit.map { $0 - found.count }
            storeQuery.includesAttributes = query.returnAttributes || query.returnRef
            let store = try keychain.store()
            let items = try mapStoreError { try store.find(storeQuery) }
            found += items.map { SecItemStore.found($0, in: keychain, itemClass: query.itemClass) }
            if let limit, found.count >= limit { break }
        }
        if let filter = query.certificateFilter {
            let others =
                filter.needsKeychainCertificates ? try SecItemCertificateFilter.certificates(in: keychains) : []
            found = try found.filter { item in
                guard let certificate = try item.ref() as? SecCertificate else { return false }
                return filter.matches(certificate, others: others)
            }
            if let wanted = SecItemStore.resultLimit(query) { found = Array(found.prefix(wanted)) }
        }
        guard !found.isEmpty else {
            throw SecError(errSecItemNotFound, "no \(query.itemClass.rawValue) item matches the query")
        }
        return try SecItemStore.shape(found, query, itemClass: query.itemClass, single: query.matchLimit == .one)
    }

    /// `kSecReturnData` alone (the most common lookup): the secrets only, without building attribute
    /// dictionaries, refs or persistent refs for the found items. Same results and errors as the general path.
    private static func copyData(_ query: SecItemQuery, storeClass: ItemClass, limit: Int?) throws -> AnyObject? {
        var found: [KeychainItem] = []
        for keychain in try SecItemStore.keychains(for: query) {
            var storeQuery = try SecItemStore.storeQuery(query, itemClass: storeClass, attributes: query.attributes)
            storeQuery.limit = limit.map { $0 - found.count }
            storeQuery.includesAttributes = false
            let store = try keychain.store()
            let items = try mapStoreError { try store.find(storeQuery) }
            if found.isEmpty { found = items } else { found += items }
            if let limit, found.count >= limit { break }
        }
        guard !found.isEmpty else {
            throw SecError(errSecItemNotFound, "no \(query.itemClass.rawValue) item matches the query")
        }
        // Opened in place (`found[i].secret?.open()`): copying each item out first would retain and release
        // every field it holds.
        func data(_ index: Int) throws -> NSData {
            try mapStoreError { try found[index].secret?.open() }.map { $0 as NSData } ?? NSData()
        }
        if query.matchLimit == .one { return try data(0) }
        return try found.indices.map { try data($0) } as NSArray
    }

    static func update(_ query: SecItemQuery, _ attributesToUpdate: AttributeDictionary) throws {
        let query = try narrowedByCertificateFilter(query)
        let (updates, hasNonStringKeys) = attributesToUpdate.entries()
        guard !hasNonStringKeys else { throw SecError.param("attribute keys must be strings") }
        var changes = ItemChanges()
        for (key, value) in updates {
            if key == kSecValueData as String {
                guard let data = AttributeDictionary.dataValue(value) else {
                    throw SecError.param("kSecValueData must be data")
                }
                changes.secret = data
                continue
            }
            if key == QueryKeys.accessControl {
                guard let control = value as? SecAccessControl else {
                    throw SecError.param("kSecAttrAccessControl must be a SecAccessControl")
                }
                changes.accessibility = try SecItemStore.accessibility(
                    for: .string(control.protection), itemClass: query.itemClass.storeClass ?? .key)
                changes.attributes["accc"] = .data(control.storedForm)
                continue
            }
            guard key.utf8.count == 4, let kind = SecItemSchema.kind(of: key, in: query.itemClass) else {
                throw SecError(
                    errSecNoSuchAttr,
                    "\(key) cannot be updated: not an attribute of class \(query.itemClass.rawValue) (the class "
                        + "never changes)"
                )
            }
            guard let normalized = AttributeValue(caller: value, kind: kind) else {
                throw SecError.param("attribute \(key) has a value of the wrong type")
            }
            switch key {
            case "agrp": changes.accessGroup = try SecItemStore.accessGroup(for: normalized)
            case "pdmn":
                changes.accessibility = try SecItemStore.accessibility(
                    for: normalized, itemClass: query.itemClass.storeClass ?? .key)
            case "sync": changes.isSynchronizable = (normalized.integerValue ?? 0) != 0
            case "cdat", "mdat": throw SecError(errSecReadOnlyAttr, "\(key) is maintained by the keychain")
            default: changes.attributes[key] = normalized
            }
        }
        guard let storeClass = query.itemClass.storeClass else { return try SecItemIdentities.update(query, changes) }
        var total = 0
        for keychain in try SecItemStore.keychains(for: query) {
            let storeQuery = try SecItemStore.storeQuery(query, itemClass: storeClass, attributes: query.attributes)
            total += try SecItemStore.writing(in: keychain) { try $0.update(storeQuery, with: changes) }
        }
        guard total > 0 else {
            throw SecError(errSecItemNotFound, "no \(query.itemClass.rawValue) item matches the query")
        }
    }

    static func delete(_ query: SecItemQuery) throws {
        let query = try narrowedByCertificateFilter(query)
        guard let storeClass = query.itemClass.storeClass else { return try SecItemIdentities.delete(query) }
        var total = 0
        for keychain in try SecItemStore.keychains(for: query) {
            let storeQuery = try SecItemStore.storeQuery(query, itemClass: storeClass, attributes: query.attributes)
            total += try SecItemStore.writing(in: keychain) { try $0.delete(storeQuery) }
        }
        guard total > 0 else {
            throw SecError(errSecItemNotFound, "no \(query.itemClass.rawValue) item matches the query")
        }
    }
}
