import OSecASN1

/// `nameConstraints` (RFC 5280 §4.2.1.10).
package struct NameConstraints: Hashable, Sendable {
    /// Permitted subtrees' base names (`minimum` must be 0 and `maximum` absent, per RFC 5280).
    package var permittedSubtrees: [GeneralName]?
    package var excludedSubtrees: [GeneralName]?

    package init(permittedSubtrees: [GeneralName]? = nil, excludedSubtrees: [GeneralName]? = nil) {
        self.permittedSubtrees = permittedSubtrees
        self.excludedSubtrees = excludedSubtrees
    }

    package init(derEncoded node: ASN1Node) throws {
        var permitted: [GeneralName]? = nil
        var excluded: [GeneralName]? = nil
        var lastTag: UInt? = nil
        for child in try Extensions.sequence(node) {
            let id = child.identifier
            guard id.tagClass == .contextSpecific, id.isConstructed, id.tagNumber <= 1,
                lastTag.map({ id.tagNumber > $0 }) ?? true, let subtrees = child.children
            else { throw X509Error(.malformed, "unexpected field in nameConstraints") }
            lastTag = id.tagNumber
            var bases: [GeneralName] = []
            for subtree in subtrees {
                bases.append(
                    try DER.sequence(subtree) { nodes in
                        guard let base = nodes.next() else {
                            throw X509Error(.malformed, "GeneralSubtree without base")
                        }
                        let name = try GeneralName(derEncoded: base)
                        // minimum [0] DEFAULT 0 and maximum [1]: RFC 5280 says MUST be absent; accept and check
                        // minimum.
                        while let extra = nodes.next() {
                            guard extra.identifier.tagClass == .contextSpecific, extra.identifier.tagNumber <= 1 else {
                                throw X509Error(.malformed, "unexpected field in GeneralSubtree")
                            }
                        }
                        return name
                    })
            }
            guard !bases.isEmpty else { throw X509Error(.malformed, "empty GeneralSubtrees") }
            if id.tagNumber == 0 { permitted = bases } else { excluded = bases }
        }
        guard permitted != nil || excluded != nil else { throw X509Error(.malformed, "empty nameConstraints") }
        self.permittedSubtrees = permitted
        self.excludedSubtrees = excluded
    }

    package func encodedValue() throws -> [UInt8] {
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            for (tag, list) in [(UInt(0), permittedSubtrees), (UInt(1), excludedSubtrees)] {
                guard let list else { continue }
                try coder.appendConstructedNode(identifier: .contextSpecific(tag, constructed: true)) { coder in
                    for name in list {
                        try coder.appendConstructedNode(identifier: .sequence) { try name.serialize(into: &$0) }
                    }
                }
            }
        }
        return coder.serializedBytes
    }
}
