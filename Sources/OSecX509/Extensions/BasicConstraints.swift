import OSecASN1

/// `basicConstraints` (RFC 5280 §4.2.1.9).
package struct BasicConstraints: Hashable, Sendable {
    /// cA: whether the key may verify certificate signatures.
    package var isCertificateAuthority: Bool
    /// `pathLenConstraint`, if present.
    package var pathLengthConstraint: Int?

    /// Constraints with cA and an optional pathLenConstraint.
    package init(isCertificateAuthority: Bool, pathLengthConstraint: Int? = nil) {
        self.isCertificateAuthority = isCertificateAuthority
        self.pathLengthConstraint = pathLengthConstraint
    }

    /// Decodes `SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER (0..MAX) OPTIONAL }`.
    package init(derEncoded node: ASN1Node) throws {
        (isCertificateAuthority, pathLengthConstraint) = try DER.sequence(node) { nodes in
            var ca = false
            if nodes.peekIdentifier() == .boolean, let flag = nodes.next() { ca = try Bool(derEncoded: flag) }
            var length: Int? = nil
            if nodes.peekIdentifier() == .integer, let value = nodes.next() {
                let parsed = try Int(derEncoded: value)
                guard parsed >= 0 else { throw X509Error(.malformed, "negative pathLenConstraint") }
                length = parsed
            }
            return (ca, length)
        }
    }

    /// The DER extension value (cA omitted when false, as DER requires).
    package func encodedValue() throws -> [UInt8] {
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            if isCertificateAuthority { try coder.serialize(true) }
            if let pathLengthConstraint { try coder.serialize(pathLengthConstraint) }
        }
        return coder.serializedBytes
    }
}
