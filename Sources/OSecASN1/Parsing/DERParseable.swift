/// A type that can be decoded from a parsed ``ASN1Node``.
package protocol DERParseable {
    /// Decodes the value from a node.
    init(derEncoded node: ASN1Node) throws
}

extension DERParseable {
    /// Decodes the value from the next child of a sequence; throws if there is none.
    package init(derEncoded iterator: inout ASN1NodeCollection.Iterator) throws {
        guard let node = iterator.next() else {
            throw ASN1Error(.invalidASN1Object, "missing required element \(Self.self)")
        }
        try self.init(derEncoded: node)
    }

    /// Parses `bytes` as DER (or with the given rules) and decodes the value.
    package init(derEncoded bytes: ArraySlice<UInt8>, rules: EncodingRules = .distinguished) throws {
        try self.init(derEncoded: ASN1Node(parsing: bytes, rules: rules))
    }

    /// Parses `bytes` as DER (or with the given rules) and decodes the value.
    package init(derEncoded bytes: [UInt8], rules: EncodingRules = .distinguished) throws {
        try self.init(derEncoded: ASN1Node(parsing: bytes[...], rules: rules))
    }
}
