/// A type that can be written as a PEM document with a known label.
package protocol PEMSerializable: DERSerializable {
    /// The PEM label this type is written under, e.g. `CERTIFICATE`.
    static var defaultPEMDiscriminator: String { get }
}

extension PEMSerializable {
    /// The value as a PEM document.
    package func serializeAsPEM() throws -> PEMDocument {
        PEMDocument(type: Self.defaultPEMDiscriminator, derBytes: try derEncoded())
    }
}
