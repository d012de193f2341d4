import OSecASN1

/// `extKeyUsage` (RFC 5280 §4.2.1.12): the purposes, in encoding order.
package struct ExtendedKeyUsage: Hashable, Sendable {
    /// The KeyPurposeIds, in encoding order.
    package var usages: [ASN1ObjectIdentifier]

    /// An extension listing these purposes.
    package init(_ usages: [ASN1ObjectIdentifier]) { self.usages = usages }

    /// Decodes `SEQUENCE SIZE (1..MAX) OF KeyPurposeId`; an empty list throws.
    package init(derEncoded node: ASN1Node) throws {
        var usages: [ASN1ObjectIdentifier] = []
        for child in try Extensions.sequence(node) { usages.append(try ASN1ObjectIdentifier(derEncoded: child)) }
        guard !usages.isEmpty else { throw X509Error(.malformed, "empty extKeyUsage") }
        self.usages = usages
    }

    /// Whether `oid` is listed (anyExtendedKeyUsage is not expanded).
    package func contains(_ oid: ASN1ObjectIdentifier) -> Bool { usages.contains(oid) }

    /// The DER extension value.
    package func encodedValue() throws -> [UInt8] {
        var coder = DER.Serializer()
        try coder.serializeSequenceOf(usages)
        return coder.serializedBytes
    }

    /// OpenSSL's long names for the common purposes.
    package static let names: [ASN1ObjectIdentifier: String] = [
        X509OID.serverAuth: "TLS Web Server Authentication", X509OID.clientAuth: "TLS Web Client Authentication",
        X509OID.codeSigning: "Code Signing", X509OID.emailProtection: "E-mail Protection",
        X509OID.timeStamping: "Time Stamping", X509OID.ocspSigning: "OCSP Signing",
        X509OID.anyExtendedKeyUsage: "Any Extended Key Usage",
    ]
}
