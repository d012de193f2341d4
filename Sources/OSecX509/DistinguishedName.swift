import OSecASN1
import OSecCrypto

/// An X.501 `Name`: a sequence of relative distinguished names, kept with its exact encoding.
///
/// Equality and hashing use the encoded bytes (RFC 5280 name chaining after normalization is the trust layer's job;
/// ``normalizedDERBytes`` gives Apple's normalized form).
package struct DistinguishedName: Sendable {
    /// The full encoding of the Name SEQUENCE, as it appeared in the input.
    package let derBytes: ArraySlice<UInt8>
    /// The RDNs in encoding order (most significant first, usually `C` … `CN`).
    package let rdns: [RelativeDistinguishedName]

    /// Creates a name from RDNs, encoding it.
    package init(_ rdns: [RelativeDistinguishedName]) {
        self.rdns = rdns
        var coder = DER.Serializer()
        coder.appendConstructedNode(identifier: .sequence) { coder in
            for rdn in rdns { rdn.serialize(into: &coder) }
        }
        self.derBytes = coder.serializedBytes[...]
    }

    /// Convenience: a name with one single-valued RDN per `(type, UTF8String value)` pair, in the given order.
    /// `C` values are written as PrintableString (RFC 5280 requires it), everything else as UTF8String.
    package init(_ attributes: [(ASN1ObjectIdentifier, String)]) throws {
        var rdns: [RelativeDistinguishedName] = []
        for (type, value) in attributes {
            let attribute: AttributeTypeAndValue
            if type == X509OID.countryName || type == X509OID.dnQualifier || type == X509OID.serialNumber {
                attribute = try AttributeTypeAndValue(type: type, printableString: value)
            } else if type == X509OID.emailAddress || type == X509OID.domainComponent {
                attribute = try AttributeTypeAndValue(type: type, ia5String: value)
            } else {
                attribute = AttributeTypeAndValue(type: type, utf8String: value)
            }
            rdns.append(RelativeDistinguishedName([attribute]))
        }
        self.init(rdns)
    }

    /// The empty name (an empty SEQUENCE).
    package static let empty = DistinguishedName([RelativeDistinguishedName]())

    /// All attributes in encoding order, flattened across RDNs.
    package var attributes: [AttributeTypeAndValue] { rdns.flatMap(\.attributes) }

    /// String values of every attribute of `type`, in encoding order (non-string values are skipped).
    package func values(of type: ASN1ObjectIdentifier) -> [String] {
        var result: [String] = []
        for rdn in rdns {
            for attribute in rdn.attributes where attribute.type == type {
                if let string = attribute.stringValue { result.append(string) }
            }
        }
        return result
    }

    /// The common names, in encoding order.
    package var commonNames: [String] { values(of: X509OID.commonName) }

    /// Whether the name has no RDNs.
    package var isEmpty: Bool { rdns.isEmpty }

    /// The RFC 4514 string: RDNs in reverse order joined by `,`, multi-valued RDNs joined by `+`.
    package var rfc4514String: String {
        rdns.reversed().map { rdn in rdn.attributes.map(\.rfc4514String).joined(separator: "+") }.joined(separator: ",")
    }

    // MARK: Apple normalization (§6.2 of our reference)

    /// Apple's normalized Name (`SecCertificateCopyNormalizedSubjectSequence`): PrintableString values are
    /// upper-cased (ASCII), trimmed and have internal blank runs collapsed; everything else is kept. Full SEQUENCE.
    package var normalizedDERBytes: [UInt8] {
        let content = normalizedContentBytes
        var coder = DER.Serializer()
        coder.appendConstructedNode(identifier: .sequence) { coder in coder.appendRawBytes(content) }
        return coder.serializedBytes
    }

    /// The normalized Name contents without the outer SEQUENCE header (keychain `subj`/`issr`): the RDN SETs.
    package var normalizedContentBytes: [UInt8] {
        var coder = DER.Serializer()
        for rdn in rdns {
            coder.appendConstructedNode(identifier: .set) { coder in
                for attribute in rdn.attributes { attribute.normalized.serialize(into: &coder) }
            }
        }
        return coder.serializedBytes
    }
}

extension DistinguishedName: Hashable {
    /// Byte equality of the encodings (RFC 5280 §7.1 matching is ``normalizedDERBytes``'s business).
    package static func == (lhs: DistinguishedName, rhs: DistinguishedName) -> Bool {
        ByteEquality.equal(lhs.derBytes, rhs.derBytes)
    }
    /// Hashes the encoding.
    package func hash(into hasher: inout Hasher) { hasher.combine(derBytes) }
}

extension DistinguishedName: DERParseable, DERSerializable {
    /// Decodes an RDNSequence, keeping its encoding.
    package init(derEncoded node: ASN1Node) throws {
        guard node.identifier == .sequence, let children = node.children else {
            throw X509Error(.malformed, "Name is not a SEQUENCE")
        }
        var rdns: [RelativeDistinguishedName] = []
        for child in children { rdns.append(try RelativeDistinguishedName(derEncoded: child)) }
        self.rdns = rdns
        self.derBytes = node.encodedBytes
    }

    /// Writes the original encoding.
    package func serialize(into coder: inout DER.Serializer) throws {
        coder.appendRawBytes(derBytes)
    }

    /// Re-encodes from the parsed RDNs (used to check that parsing is lossless).
    package func reencoded() -> [UInt8] {
        var coder = DER.Serializer()
        coder.appendConstructedNode(identifier: .sequence) { coder in
            for rdn in rdns { rdn.serialize(into: &coder) }
        }
        return coder.serializedBytes
    }
}

extension DistinguishedName: CustomStringConvertible {
    /// The RFC 4514 form (`CN=example,O=Org`).
    package var description: String { rfc4514String }
}
