/// The ASN.1 NULL value.
package struct ASN1Null: Hashable, Sendable {
    /// Creates the NULL value.
    package init() {}
}

extension ASN1Null: DERImplicitlyTaggable {
    package static var defaultIdentifier: ASN1Identifier { .null }

    package init(derEncoded node: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        guard try node.primitiveContent(expecting: identifier).isEmpty else {
            throw ASN1Error(.invalidNull, "NULL must have no content")
        }
    }

    package func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        coder.appendPrimitiveNode(identifier: identifier) { _ in }
    }
}
