import OSecASN1

/// One certificate extension, stored raw: OID, critical flag and the `extnValue` octets.
/// Typed views are decoded on demand through ``Extensions``.
package struct Extension: Hashable, Sendable {
    /// The extension's OID (extnID).
    package let oid: ASN1ObjectIdentifier
    /// Whether the extension is marked critical (DEFAULT FALSE).
    package let critical: Bool
    /// The content of `extnValue` (itself a DER encoding of the extension-specific structure).
    package let value: ArraySlice<UInt8>
    /// Whether `critical FALSE` was encoded explicitly (forbidden by DER but found in the wild); kept for re-encoding.
    let encodesDefaultCritical: Bool

    /// An extension with the DER-encoded `value` (the contents of extnValue).
    package init(oid: ASN1ObjectIdentifier, critical: Bool, value: [UInt8]) {
        self.oid = oid
        self.critical = critical
        self.value = value[...]
        self.encodesDefaultCritical = false
    }

    /// Decodes `Extension ::= SEQUENCE { extnID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }`.
    package init(derEncoded node: ASN1Node) throws {
        var reader = try NodeReader(node, .sequence, "Extension")
        oid = try NodeReader.oid(try reader.next("extnID"))
        if let flag = reader.next(ifIdentifier: .boolean) {
            let content = try NodeReader.primitive(flag, .boolean, "critical")
            guard content.count == 1, let byte = content.first, byte == 0 || byte == 0xFF else {
                throw X509Error(.malformed, "critical is not a DER BOOLEAN")
            }
            critical = byte == 0xFF
            encodesDefaultCritical = !critical
        } else {
            critical = false
            encodesDefaultCritical = false
        }
        value = try NodeReader.primitive(try reader.next("extnValue"), .octetString, "extnValue")
        try reader.finish("Extension")
    }

    func serialize(into coder: inout DER.Serializer) throws {
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(oid)
            if critical || encodesDefaultCritical { try coder.serialize(critical) }
            try coder.serialize(ASN1OctetString(bytes: value))
        }
    }

    /// Parses the extension value as exactly one DER node.
    func parseValue() throws(X509Error) -> ASN1Node {
        try X509Error.wrapping("malformed \(oid.dotted) extension value") { try DER.parse(value) }
    }
}
