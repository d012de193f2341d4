import OSecASN1

/// An X.509 `AlgorithmIdentifier`: an OID and optional parameters, kept as encoded.
package struct AlgorithmIdentifier: Hashable, Sendable {
    /// The algorithm OID.
    package let oid: ASN1ObjectIdentifier
    /// The encoded parameters node (tag, length, content), or `nil` when absent.
    package let parameters: ArraySlice<UInt8>?

    /// An identifier with `oid` and the encoded `parameters` node (nil: absent).
    package init(oid: ASN1ObjectIdentifier, parameters: ArraySlice<UInt8>? = nil) {
        self.oid = oid
        self.parameters = parameters
    }

    /// Whether the parameters are absent or an ASN.1 NULL.
    package var hasAbsentOrNullParameters: Bool {
        guard let parameters else { return true }
        return parameters.elementsEqual([0x05, 0x00])
    }

    static let nullParameters: ArraySlice<UInt8> = [0x05, 0x00]
}

extension AlgorithmIdentifier: DERParseable, DERSerializable {
    /// Decodes `AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY OPTIONAL }`.
    package init(derEncoded node: ASN1Node) throws {
        var reader = try NodeReader(node, .sequence, "AlgorithmIdentifier")
        oid = try NodeReader.oid(try reader.next("algorithm"))
        parameters = reader.isAtEnd ? nil : try reader.next("parameters").encodedBytes
        try reader.finish("AlgorithmIdentifier")
    }

    /// Encodes the SEQUENCE, parameters as they were given.
    package func serialize(into coder: inout DER.Serializer) throws {
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(oid)
            if let parameters { coder.appendRawBytes(parameters) }
        }
    }
}

extension AlgorithmIdentifier: CustomStringConvertible {
    /// The dotted OID.
    package var description: String { oid.dotted }
}
