/// One BER/DER node: its identifier, its exact encoded bytes, and its content.
///
/// All slices share the buffer that was parsed and keep its indices, so
/// `node.encodedBytes` is exactly the bytes on the wire (for example a TBSCertificate to verify).
package struct ASN1Node: Sendable {
    /// The content of a node.
    package enum Content: Sendable {
        /// The content octets of a primitive node.
        case primitive(ArraySlice<UInt8>)
        /// The children of a constructed node.
        case constructed(ASN1NodeCollection)
    }

    /// The identifier (tag) of this node.
    package let identifier: ASN1Identifier
    /// The complete encoding (identifier, length, content and any end-of-contents octets).
    package let encodedBytes: ArraySlice<UInt8>
    /// The content: bytes or children.
    package let content: Content
    /// Nesting depth; the top-level node has depth 1.
    package let depth: Int
    /// The rules this node was parsed under. Type decoders apply the same rules.
    package let rules: EncodingRules

    init(
        identifier: ASN1Identifier, encodedBytes: ArraySlice<UInt8>, content: Content, depth: Int, rules: EncodingRules
    ) {
        self.identifier = identifier
        self.encodedBytes = encodedBytes
        self.content = content
        self.depth = depth
        self.rules = rules
    }

    /// Whether the node is constructed.
    package var isConstructed: Bool { identifier.isConstructed }

    /// The content octets of a primitive node, or `nil` for a constructed one.
    package var primitiveContent: ArraySlice<UInt8>? {
        if case .primitive(let bytes) = content { return bytes }
        return nil
    }

    /// The children of a constructed node, or `nil` for a primitive one.
    package var children: ASN1NodeCollection? {
        if case .constructed(let nodes) = content { return nodes }
        return nil
    }
}

extension ASN1Node {
    /// Parses `bytes` as exactly one node with the given rules.
    package init(parsing bytes: ArraySlice<UInt8>, rules: EncodingRules = .distinguished) throws {
        var parser = ASN1Parser(bytes: bytes, rules: rules)
        try parser.parseSingleNode()
        let storage = ASN1ParseStorage(bytes: bytes, records: parser.records, rules: rules)
        let collection = ASN1NodeCollection(storage: storage, range: 0..<1)
        self = collection.node(at: 0)
    }

    /// Parses `bytes` as exactly one node with the given rules.
    package init(parsing bytes: [UInt8], rules: EncodingRules = .distinguished) throws {
        try self.init(parsing: bytes[...], rules: rules)
    }
}

extension ASN1Node: Hashable {
    /// Nodes are equal when their encodings are equal.
    package static func == (lhs: ASN1Node, rhs: ASN1Node) -> Bool { lhs.encodedBytes == rhs.encodedBytes }
    package func hash(into hasher: inout Hasher) { hasher.combine(encodedBytes) }
}
