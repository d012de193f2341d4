/// An ASN.1 OCTET STRING. Under BER rules, constructed octet strings are concatenated.
package struct ASN1OctetString: Hashable, Sendable {
    /// The octets. For a DER parse this is a slice of the input buffer.
    package var bytes: ArraySlice<UInt8>

    /// Creates an octet string.
    package init(bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    /// Creates an octet string.
    package init(_ bytes: [UInt8]) { self.bytes = bytes[...] }
}

extension ASN1OctetString: DERImplicitlyTaggable {
    package static var defaultIdentifier: ASN1Identifier { .octetString }

    package init(derEncoded node: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        bytes = try node.stringContent(expecting: identifier, segmentTag: .octetString)
    }

    package func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        coder.appendPrimitiveNode(identifier: identifier) { $0.append(contentsOf: bytes) }
    }
}
