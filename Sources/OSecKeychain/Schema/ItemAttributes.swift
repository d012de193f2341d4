/// The attributes of a stored item: an ordered list of (key, value) pairs (schema order, keys unique).
///
/// Reads like a dictionary (`attributes["acct"]`) but is built without hashing, which matters because
/// every find materializes one per item. Use ``dictionary`` when a real `Dictionary` is wanted.
package struct ItemAttributes: Sendable, Hashable {
    /// One attribute.
    package struct Entry: Sendable, Hashable {
        package let key: String
        package let value: AttributeValue
    }

    /// The attributes in schema order.
    package private(set) var entries: [Entry]

    package init() { entries = [] }

    init(reservingCapacity capacity: Int) {
        entries = []
        entries.reserveCapacity(capacity)
    }

    /// Appends an attribute whose key is not present yet (engine use: rows are decoded in schema order).
    mutating func appendUnique(_ key: String, _ value: AttributeValue) {
        entries.append(Entry(key: key, value: value))
    }

    /// The value for `key`, or `nil` when the item does not have the attribute.
    package subscript(key: String) -> AttributeValue? {
        for entry in entries where entry.key == key { return entry.value }
        return nil
    }

    /// The number of attributes.
    package var count: Int { entries.count }
    /// `true` when there are none (e.g. a find with `includesAttributes = false`).
    package var isEmpty: Bool { entries.isEmpty }
    /// The keys in schema order.
    package var keys: [String] { entries.map(\.key) }
    /// The attributes as a dictionary.
    package var dictionary: [String: AttributeValue] {
        Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}

extension ItemAttributes: Sequence {
    package func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }
}

extension ItemAttributes: ExpressibleByDictionaryLiteral {
    package init(dictionaryLiteral elements: (String, AttributeValue)...) {
        entries = []
        for (key, value) in elements where self[key] == nil { entries.append(Entry(key: key, value: value)) }
    }
}
