import OSecASN1

/// The ordered extension list of a certificate or CSR. Duplicate OIDs are rejected when the list is built.
package struct Extensions: Hashable, Sendable {
    /// The extensions in encoding order.
    package let all: [Extension]

    /// Builds the list, throwing `X509Error.Code.duplicateExtension` if an OID repeats.
    package init(_ extensions: [Extension]) throws(X509Error) {
        for index in extensions.indices {
            let candidate = extensions[index].oid.contentBytes
            for other in extensions[..<index] where Extensions.sameBytes(other.oid.contentBytes, candidate) {
                throw X509Error(.duplicateExtension, "extension \(extensions[index].oid.dotted) appears twice")
            }
        }
        self.all = extensions
    }

    private init(unchecked extensions: [Extension]) { self.all = extensions }

    /// Byte equality, specialized here (the OID type's `==` is not inlinable across modules; this check runs on every
    /// parse).
    @inline(__always)
    static func sameBytes(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var i = a.startIndex
        var j = b.startIndex
        while i < a.endIndex {
            if a[i] != b[j] { return false }
            i += 1
            j += 1
        }
        return true
    }

    /// No extensions.
    package static let empty = Extensions(unchecked: [])

    /// Decodes the `Extensions` SEQUENCE; a repeated OID throws `X509Error.Code.duplicateExtension`.
    package init(derEncoded node: ASN1Node) throws {
        guard node.identifier == .sequence, let children = node.children else {
            throw X509Error(.malformed, "Extensions is not a SEQUENCE")
        }
        var list: [Extension] = []
        for child in children { list.append(try Extension(derEncoded: child)) }
        // RFC 5280: Extensions ::= SEQUENCE SIZE (1..MAX); OpenSSL accepts an empty list, and so do we.
        try self.init(list)
    }

    func serialize(into coder: inout DER.Serializer) throws {
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            for item in all { try item.serialize(into: &coder) }
        }
    }

    /// Whether there is no extension.
    package var isEmpty: Bool { all.isEmpty }
    /// The number of extensions.
    package var count: Int { all.count }

    /// The extension with this OID, if present.
    /// Compares OID bytes in place: `first(where:)` would copy (retain and release) every extension it passes.
    package subscript(oid oid: ASN1ObjectIdentifier) -> Extension? {
        let wanted = oid.contentBytes
        for index in all.indices where Extensions.sameBytes(all[index].oid.contentBytes, wanted) {
            return all[index]
        }
        return nil
    }

    /// Whether an extension with this OID is present (no copy).
    package func contains(oid: ASN1ObjectIdentifier) -> Bool {
        let wanted = oid.contentBytes
        for index in all.indices where Extensions.sameBytes(all[index].oid.contentBytes, wanted) { return true }
        return false
    }

    /// The critical extensions' OIDs.
    package var criticalOIDs: [ASN1ObjectIdentifier] {
        var result: [ASN1ObjectIdentifier] = []
        for index in all.indices where all[index].critical { result.append(all[index].oid) }
        return result
    }

    private func decode<T>(_ oid: ASN1ObjectIdentifier, _ body: (ASN1Node) throws -> T) throws(X509Error) -> T? {
        guard let item = self[oid: oid] else { return nil }
        let node = try item.parseValue()
        return try X509Error.wrapping("malformed \(oid.dotted) extension") { try body(node) }
    }

    // MARK: Typed accessors (nil when absent; throw when present but malformed)

    /// basicConstraints (RFC 5280 §4.2.1.9).
    package var basicConstraints: BasicConstraints? {
        get throws(X509Error) { try decode(X509OID.basicConstraints, BasicConstraints.init(derEncoded:)) }
    }
    /// keyUsage (§4.2.1.3).
    package var keyUsage: KeyUsage? {
        get throws(X509Error) { try decode(X509OID.keyUsage, KeyUsage.init(derEncoded:)) }
    }
    /// extKeyUsage (§4.2.1.12).
    package var extendedKeyUsage: ExtendedKeyUsage? {
        get throws(X509Error) { try decode(X509OID.extKeyUsage, ExtendedKeyUsage.init(derEncoded:)) }
    }
    /// subjectAltName (§4.2.1.6).
    package var subjectAlternativeNames: [GeneralName]? {
        get throws(X509Error) {
            try decode(X509OID.subjectAltName) { try GeneralName.decodeList(Extensions.sequence($0)) }
        }
    }
    /// issuerAltName (§4.2.1.7).
    package var issuerAlternativeNames: [GeneralName]? {
        get throws(X509Error) {
            try decode(X509OID.issuerAltName) { try GeneralName.decodeList(Extensions.sequence($0)) }
        }
    }
    /// subjectKeyIdentifier (§4.2.1.2): the key identifier octets.
    package var subjectKeyIdentifier: ArraySlice<UInt8>? {
        get throws(X509Error) { try decode(X509OID.subjectKeyIdentifier) { try ASN1OctetString(derEncoded: $0).bytes } }
    }
    /// authorityKeyIdentifier (§4.2.1.1).
    package var authorityKeyIdentifier: AuthorityKeyIdentifier? {
        get throws(X509Error) { try decode(X509OID.authorityKeyIdentifier, AuthorityKeyIdentifier.init(derEncoded:)) }
    }
    /// nameConstraints (§4.2.1.10).
    package var nameConstraints: NameConstraints? {
        get throws(X509Error) { try decode(X509OID.nameConstraints, NameConstraints.init(derEncoded:)) }
    }
    /// certificatePolicies (§4.2.1.4); a policy listed twice throws.
    package var certificatePolicies: [PolicyInformation]? {
        get throws(X509Error) { try decode(X509OID.certificatePolicies, PolicyInformation.decodeList) }
    }
    /// policyMappings (§4.2.1.5).
    package var policyMappings: [PolicyMapping]? {
        get throws(X509Error) { try decode(X509OID.policyMappings, PolicyMapping.decodeList) }
    }
    /// policyConstraints (§4.2.1.11).
    package var policyConstraints: PolicyConstraints? {
        get throws(X509Error) { try decode(X509OID.policyConstraints, PolicyConstraints.init(derEncoded:)) }
    }
    /// inhibitAnyPolicy (§4.2.1.14): SkipCerts.
    package var inhibitAnyPolicy: Int? {
        get throws(X509Error) {
            try decode(X509OID.inhibitAnyPolicy) { node in
                let value = try Int(derEncoded: node)
                guard value >= 0 else { throw X509Error(.malformed, "negative inhibitAnyPolicy") }
                return value
            }
        }
    }
    /// cRLDistributionPoints (§4.2.1.13).
    package var crlDistributionPoints: [DistributionPoint]? {
        get throws(X509Error) { try decode(X509OID.crlDistributionPoints, DistributionPoint.decodeList) }
    }
    /// authorityInfoAccess (§4.2.2.1).
    package var authorityInformationAccess: [AccessDescription]? {
        get throws(X509Error) { try decode(X509OID.authorityInfoAccess, AccessDescription.decodeList) }
    }

    /// The children of a SEQUENCE node, or a malformed error.
    static func sequence(_ node: ASN1Node) throws -> ASN1NodeCollection {
        guard node.identifier == .sequence, let children = node.children else {
            throw X509Error(.malformed, "expected a SEQUENCE")
        }
        return children
    }
}

extension Extensions: RandomAccessCollection {
    /// The first index.
    package var startIndex: Int { all.startIndex }
    /// One past the last index.
    package var endIndex: Int { all.endIndex }
    /// The extension at `position`.
    package subscript(position: Int) -> Extension { all[position] }
}
