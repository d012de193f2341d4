import OSecASN1

/// One RDN: a SET of attribute type-and-values (usually one).
package struct RelativeDistinguishedName: Hashable, Sendable {
    /// The attributes in encoding order.
    package let attributes: [AttributeTypeAndValue]

    /// An RDN of these attributes (usually one).
    package init(_ attributes: [AttributeTypeAndValue]) { self.attributes = attributes }

    /// Decodes a SET OF AttributeTypeAndValue.
    package init(derEncoded node: ASN1Node) throws {
        guard node.identifier == .set, let children = node.children else {
            throw X509Error(.malformed, "RDN is not a SET")
        }
        var attributes: [AttributeTypeAndValue] = []
        for child in children { attributes.append(try AttributeTypeAndValue(derEncoded: child)) }
        guard !attributes.isEmpty else { throw X509Error(.malformed, "empty RDN") }
        self.attributes = attributes
    }

    func serialize(into coder: inout DER.Serializer) {
        coder.appendConstructedNode(identifier: .set) { coder in
            // Keep the input order: re-sorting would change the bytes of unsorted (non-DER) names in the wild.
            for attribute in attributes { attribute.serialize(into: &coder) }
        }
    }
}
