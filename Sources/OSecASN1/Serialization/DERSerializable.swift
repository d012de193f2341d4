/// A type that can be written by a ``DER/Serializer``.
package protocol DERSerializable {
    /// Appends the DER encoding of `self`.
    func serialize(into coder: inout DER.Serializer) throws
}

extension DERSerializable {
    /// The DER encoding of `self`.
    package func derEncoded() throws -> [UInt8] {
        var coder = DER.Serializer()
        try serialize(into: &coder)
        return coder.serializedBytes
    }
}
