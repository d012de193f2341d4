/// `Bool` is the ASN.1 BOOLEAN type. DER requires `0x00` or `0xFF`.
extension Bool: DERImplicitlyTaggable {
    package static var defaultIdentifier: ASN1Identifier { .boolean }

    package init(derEncoded node: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        let bytes = try node.primitiveContent(expecting: identifier)
        guard bytes.count == 1, let byte = bytes.first else {
            throw ASN1Error(.invalidBoolean, "BOOLEAN must have exactly one content octet")
        }
        switch byte {
        case 0x00: self = false
        case 0xFF: self = true
        default:
            guard node.rules.allowsNonCanonicalBooleans else {
                throw ASN1Error(.invalidBoolean, "DER BOOLEAN must be 0x00 or 0xFF")
            }
            self = true
        }
    }

    package func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        coder.appendPrimitiveNode(identifier: identifier) { $0.append(self ? 0xFF : 0x00) }
    }
}
