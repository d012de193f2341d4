/// The immutable result of one parse, shared by every node and collection derived from it.
///
/// A class so that handing out a node costs one reference count instead of one per field;
/// it is `Sendable` because every stored property is an immutable value.
final class ASN1ParseStorage: Sendable {
    let bytes: ArraySlice<UInt8>
    let records: [ASN1NodeRecord]
    let rules: EncodingRules

    init(bytes: ArraySlice<UInt8>, records: [ASN1NodeRecord], rules: EncodingRules) {
        self.bytes = bytes
        self.records = records
        self.rules = rules
    }
}

/// The children of a constructed node, iterated lazily from the flat node table.
package struct ASN1NodeCollection: Sendable {
    let storage: ASN1ParseStorage
    /// Record indices of the whole subtree below the parent (children and their descendants).
    let range: Range<Int>

    init(storage: ASN1ParseStorage, range: Range<Int>) {
        self.storage = storage
        self.range = range
    }

    var rules: EncodingRules { storage.rules }

    func node(at index: Int) -> ASN1Node {
        let record = storage.records[index]
        let content: ASN1Node.Content
        if record.identifier.isConstructed {
            content = .constructed(ASN1NodeCollection(storage: storage, range: (index + 1)..<record.subtreeEnd))
        } else {
            content = .primitive(storage.bytes[record.contentStart..<record.contentEnd])
        }
        return ASN1Node(
            identifier: record.identifier, encodedBytes: storage.bytes[record.encodedStart..<record.encodedEnd],
            content: content, depth: record.depth, rules: storage.rules)
    }

    /// The first child, if any.
    package var first: ASN1Node? { range.isEmpty ? nil : node(at: range.lowerBound) }

    /// Whether the parent has no children.
    package var isEmpty: Bool { range.isEmpty }
}

extension ASN1NodeCollection: Sequence {
    /// Iterates the direct children. Also the cursor used by ``DER/sequence(_:identifier:_:)`` closures.
    package struct Iterator: IteratorProtocol, Sendable {
        private let collection: ASN1NodeCollection
        private var index: Int

        init(_ collection: ASN1NodeCollection) {
            self.collection = collection
            self.index = collection.range.lowerBound
        }

        /// Returns the next child and advances past its subtree.
        package mutating func next() -> ASN1Node? {
            guard index < collection.range.upperBound else { return nil }
            let node = collection.node(at: index)
            index = collection.storage.records[index].subtreeEnd
            return node
        }

        /// The identifier of the next child, without consuming it.
        package func peekIdentifier() -> ASN1Identifier? {
            guard index < collection.range.upperBound else { return nil }
            return collection.storage.records[index].identifier
        }

        /// The rules the parent was parsed under.
        package var rules: EncodingRules { collection.rules }

        /// Whether all children have been consumed.
        package var isAtEnd: Bool { index >= collection.range.upperBound }

        /// Consumes all remaining children (for extensible `...` structures).
        package mutating func skipRemaining() { index = collection.range.upperBound }
    }

    package func makeIterator() -> Iterator { Iterator(self) }

    package var underestimatedCount: Int { range.isEmpty ? 0 : 1 }
}
