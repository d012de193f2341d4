/// Namespace for DER/BER parsing entry points and the declarative decoding helpers.
///
/// ```swift
/// let node = try DER.parse(bytes)                    // strict DER
/// let ber  = try DER.parse(bytes, rules: .basic)      // lenient BER
/// let value = try DER.sequence(node) { nodes in … }   // walk a SEQUENCE
/// ```
package enum DER {
    /// The deepest nesting accepted. Real certificates and PKCS#12 files stay far below this;
    /// the bound keeps recursion (and malicious inputs) cheap.
    package static let maximumNestingDepth = 64

    /// Parses exactly one node covering all of `bytes`; trailing bytes are rejected.
    package static func parse(_ bytes: ArraySlice<UInt8>, rules: EncodingRules = .distinguished) throws -> ASN1Node {
        try ASN1Node(parsing: bytes, rules: rules)
    }

    /// Parses exactly one node covering all of `bytes`; trailing bytes are rejected.
    package static func parse(_ bytes: [UInt8], rules: EncodingRules = .distinguished) throws -> ASN1Node {
        try ASN1Node(parsing: bytes[...], rules: rules)
    }

    // MARK: Constructed types

    /// Decodes a SEQUENCE (or an implicitly tagged one) by walking its children in `body`.
    ///
    /// All children must be consumed by `body`; leftovers throw ``ASN1Error/Code/invalidASN1Object``.
    package static func sequence<T>(
        _ node: ASN1Node, identifier: ASN1Identifier = .sequence,
        _ body: (inout ASN1NodeCollection.Iterator) throws -> T
    ) throws -> T {
        try constructed(node, identifier: identifier, body)
    }

    /// Decodes a SET (fields in a fixed order) by walking its children in `body`.
    package static func set<T>(
        _ node: ASN1Node, identifier: ASN1Identifier = .set,
        _ body: (inout ASN1NodeCollection.Iterator) throws -> T
    ) throws -> T {
        try constructed(node, identifier: identifier, body)
    }

    /// Decodes a SEQUENCE OF `T`.
    package static func sequence<T: DERParseable>(
        of type: T.Type = T.self, identifier: ASN1Identifier = .sequence, rootNode: ASN1Node
    ) throws -> [T] {
        let children = try constructedChildren(rootNode, identifier: identifier)
        var result: [T] = []
        for child in children { result.append(try T(derEncoded: child)) }
        return result
    }

    /// Decodes a SET OF `T`. Under DER the elements must be in ascending order of their encodings.
    package static func set<T: DERParseable>(
        of type: T.Type = T.self, identifier: ASN1Identifier = .set, rootNode: ASN1Node
    ) throws -> [T] {
        let children = try constructedChildren(rootNode, identifier: identifier)
        var result: [T] = []
        var previous: ArraySlice<UInt8>? = nil
        for child in children {
            if !rootNode.rules.allowsUnsortedSets, let previous {
                guard !child.encodedBytes.lexicographicallyPrecedes(previous) else {
                    throw ASN1Error(.unsortedSet, "SET OF elements are not in DER order")
                }
            }
            previous = child.encodedBytes
            result.append(try T(derEncoded: child))
        }
        return result
    }

    // MARK: Tagging

    /// Unwraps an EXPLICIT `[tagNumber]` node and decodes its single child with `body`.
    package static func explicitlyTagged<T>(
        _ node: ASN1Node, tagNumber: UInt, tagClass: ASN1Identifier.TagClass = .contextSpecific,
        _ body: (ASN1Node) throws -> T
    ) throws -> T {
        let identifier = ASN1Identifier(tagNumber: tagNumber, tagClass: tagClass, constructed: true)
        return try constructed(node, identifier: identifier) { nodes in
            guard let inner = nodes.next() else {
                throw ASN1Error(.invalidASN1Object, "explicit tag \(identifier) is empty")
            }
            return try body(inner)
        }
    }

    /// Decodes an OPTIONAL EXPLICIT `[tagNumber]` field: returns `nil` (consuming nothing) when the
    /// next child does not carry the tag.
    package static func optionalExplicitlyTagged<T>(
        _ nodes: inout ASN1NodeCollection.Iterator, tagNumber: UInt,
        tagClass: ASN1Identifier.TagClass = .contextSpecific, _ body: (ASN1Node) throws -> T
    ) throws -> T? {
        guard let next = nodes.peekIdentifier(), next.tagNumber == tagNumber, next.tagClass == tagClass,
            let node = nodes.next()
        else { return nil }
        return try explicitlyTagged(node, tagNumber: tagNumber, tagClass: tagClass, body)
    }

    /// Decodes an OPTIONAL field of type `T` (untagged or IMPLICIT `identifier`): `nil` when absent.
    package static func optionalImplicitlyTagged<T: DERImplicitlyTaggable>(
        _ nodes: inout ASN1NodeCollection.Iterator, _ type: T.Type = T.self,
        identifier: ASN1Identifier = T.defaultIdentifier
    ) throws -> T? {
        guard let next = nodes.peekIdentifier(), next.hasSameTag(as: identifier), let node = nodes.next() else {
            return nil
        }
        return try T(derEncoded: node, withIdentifier: identifier)
    }

    /// Decodes an OPTIONAL IMPLICIT `[tagNumber]` field.
    package static func optionalImplicitlyTagged<T: DERImplicitlyTaggable>(
        _ nodes: inout ASN1NodeCollection.Iterator, _ type: T.Type = T.self, tagNumber: UInt,
        tagClass: ASN1Identifier.TagClass = .contextSpecific
    ) throws -> T? {
        let identifier = ASN1Identifier(
            tagNumber: tagNumber, tagClass: tagClass, constructed: T.defaultIdentifier.isConstructed)
        return try optionalImplicitlyTagged(&nodes, T.self, identifier: identifier)
    }

    /// Decodes a field with a DEFAULT value. Under DER, encoding the default value explicitly is an error.
    package static func decodeDefault<T: DERImplicitlyTaggable & Equatable>(
        _ nodes: inout ASN1NodeCollection.Iterator, identifier: ASN1Identifier = T.defaultIdentifier,
        defaultValue: T
    ) throws -> T {
        let isStrict = !nodes.rules.allowsEncodedDefaultValues
        guard let value = try optionalImplicitlyTagged(&nodes, T.self, identifier: identifier) else {
            return defaultValue
        }
        if isStrict && value == defaultValue {
            throw ASN1Error(.invalidASN1Object, "DER forbids encoding a DEFAULT value")
        }
        return value
    }

    /// Decodes an EXPLICIT `[tagNumber]` field with a DEFAULT value (e.g. X.509 `version`).
    package static func decodeDefaultExplicitlyTagged<T: DERParseable & Equatable>(
        _ nodes: inout ASN1NodeCollection.Iterator, tagNumber: UInt,
        tagClass: ASN1Identifier.TagClass = .contextSpecific, defaultValue: T
    ) throws -> T {
        let isStrict = !nodes.rules.allowsEncodedDefaultValues
        guard
            let value = try optionalExplicitlyTagged(
                &nodes, tagNumber: tagNumber, tagClass: tagClass, { try T(derEncoded: $0) })
        else {
            return defaultValue
        }
        if isStrict && value == defaultValue {
            throw ASN1Error(.invalidASN1Object, "DER forbids encoding a DEFAULT value")
        }
        return value
    }

    // MARK: Internals

    private static func constructedChildren(_ node: ASN1Node, identifier: ASN1Identifier) throws -> ASN1NodeCollection {
        guard node.identifier.hasSameTag(as: identifier) else {
            throw ASN1Error(.unexpectedTag, "expected \(identifier), got \(node.identifier)")
        }
        guard case .constructed(let children) = node.content else {
            throw ASN1Error(.invalidASN1Object, "\(identifier) must be constructed")
        }
        return children
    }

    private static func constructed<T>(
        _ node: ASN1Node, identifier: ASN1Identifier, _ body: (inout ASN1NodeCollection.Iterator) throws -> T
    ) throws -> T {
        var iterator = try constructedChildren(node, identifier: identifier).makeIterator()
        let result = try body(&iterator)
        guard iterator.isAtEnd else {
            throw ASN1Error(.invalidASN1Object, "unconsumed elements in \(identifier)")
        }
        return result
    }
}
