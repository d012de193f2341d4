/// A type that can be read from a PEM document with a known label.
package protocol PEMParseable: DERParseable {
    /// The PEM label this type is stored under, e.g. `CERTIFICATE`.
    static var defaultPEMDiscriminator: String { get }
}

extension PEMParseable {
    /// Decodes from a PEM document whose label must equal ``defaultPEMDiscriminator``.
    package init(pemDocument: PEMDocument) throws {
        guard pemDocument.type == Self.defaultPEMDiscriminator else {
            throw ASN1Error(.invalidPEM, "PEM label \(pemDocument.type) is not \(Self.defaultPEMDiscriminator)")
        }
        try self.init(derEncoded: pemDocument.derBytes)
    }

    /// Decodes from a string holding exactly one PEM document.
    package init(pemEncoded string: String) throws {
        try self.init(pemDocument: PEMDocument(pemString: string))
    }
}
