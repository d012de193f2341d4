import OSecASN1

/// `nameConstraints` (RFC 5280 §4.2.1.10).
package struct NameConstraints: Hashable, Sendable {
    /// Permitted subtrees' base names (`minimum` must be 0 and `maximum` absent, per RFC 5280).
    package var permittedSubtrees: [GeneralName]?
    /// Excluded subtrees' base names.
    package var excludedSubtrees: [GeneralName]?
    /// Whether some `GeneralSubtree` has a `minimum` other than 0 or a `maximum` (RFC 5280 §4.2.1.10: "the minimum MUST
    /// be zero, and maximum MUST be absent"). Decoding accepts them so that a validator can say what is wrong.
    package var hasSubtreeDistances = false

    /// Constraints with the given subtrees (`nil`: the field is absent).
    package init(permittedSubtrees: [GeneralName]? = nil, excludedSubtrees: [GeneralName]? = nil) {
        self.permittedSubtrees = permittedSubtrees
        self.excludedSubtrees = excludedSubtrees
    }

    /// Decodes the extension value (`NameConstraints ::= SEQUENCE { permittedSubtrees [0], excludedSubtrees [1] }`).
    package init(derEncoded node: ASN1Node) throws {
        var distances = false
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
                        // minimum [0] DEFAULT 0 and maximum [1]: RFC 5280 says the minimum MUST be zero and the
                        // maximum absent; they are recorded (not thrown) so that the validator can reject them.
                        while let extra = nodes.next() {
                            guard extra.identifier.tagClass == .contextSpecific, extra.identifier.tagNumber <= 1 else {
                                throw X509Error(.malformed, "unexpected field in GeneralSubtree")
                            }
                            if extra.identifier.tagNumber == 1 {
                                distances = true
                            } else if case .primitive(let bytes) = extra.content, !bytes.allSatisfy({ $0 == 0 }) {
                                distances = true
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
        self.hasSubtreeDistances = distances
    }

    /// The DER extension value.
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
