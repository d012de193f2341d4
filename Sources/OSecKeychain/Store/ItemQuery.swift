/// Which items a find, update or delete applies to: all conditions must hold (exact equality).
package struct ItemQuery: Sendable {
    /// The class searched.
    package var itemClass: ItemClass
    /// Attribute equality conditions by 4-character key. `.string` and `.data` with equal bytes match
    /// each other in `bytes` attributes; numbers compare numerically.
    package var attributes: [String: AttributeValue]
    /// Only items in one of these access groups; `nil` = any group.
    package var accessGroups: [String]?
    /// Only items with this accessibility; `nil` = any.
    package var accessibility: Accessibility?
    /// Only items with this `sync` flag; `nil` = both (the facade applies Apple's default `sync == 0`).
    package var isSynchronizable: Bool?
    /// Only these items (their class must be ``itemClass``); `nil` = no restriction.
    package var persistentRefs: [PersistentRef]?
    /// Only these row ids; `nil` = no restriction.
    package var rowIDs: [Int64]?
    /// At most this many results (finds only; ignored by update and delete); `nil` = all.
    package var limit: Int?
    /// Finds only: `false` skips reading the class attributes (``KeychainItem/attributes`` is empty),
    /// for callers that want just the secret, refs or engine fields (kSecReturnData-only lookups).
    package var includesAttributes = true

    package init(
        itemClass: ItemClass, attributes: [String: AttributeValue] = [:], accessGroups: [String]? = nil,
        accessibility: Accessibility? = nil, isSynchronizable: Bool? = nil,
        persistentRefs: [PersistentRef]? = nil, rowIDs: [Int64]? = nil, limit: Int? = nil
    ) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.accessGroups = accessGroups
        self.accessibility = accessibility
        self.isSynchronizable = isSynchronizable
        self.persistentRefs = persistentRefs
        self.rowIDs = rowIDs
        self.limit = limit
    }

    /// A query for exactly the item `ref` points to (the class comes from the ref).
    package init(persistentRef ref: PersistentRef) {
        self.init(itemClass: ref.itemClass, persistentRefs: [ref])
    }
}
