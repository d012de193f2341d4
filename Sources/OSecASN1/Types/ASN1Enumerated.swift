/// An ASN.1 ENUMERATED value (machine-word sized).
package struct ASN1Enumerated: Hashable, Sendable {
    /// The numeric value.
    package var rawValue: Int

    /// Creates an ENUMERATED value.
    package init(rawValue: Int) { self.rawValue = rawValue }
}

extension ASN1Enumerated: DERImplicitlyTaggable {
    package static var defaultIdentifier: ASN1Identifier { .enumerated }

    package init(derEncoded node: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        let integer = try ASN1Integer.decode(node.primitiveContent(expecting: identifier), rules: node.rules)
        guard let value = Int(exactly: integer) else {
            throw ASN1Error(.invalidInteger, "ENUMERATED does not fit in Int")
        }
        rawValue = value
    }

    package func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        try ASN1Integer(rawValue).serialize(into: &coder, withIdentifier: identifier)
    }
}
