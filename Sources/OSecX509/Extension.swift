import OSecASN1

/// One certificate extension, stored raw: OID, critical flag and the `extnValue` octets.
/// Typed views are decoded on demand through ``Extensions``.
package struct Extension: Hashable, Sendable {
    package let oid: ASN1ObjectIdentifier
    package let critical: Bool
    /// The content of `extnValue` (itself a DER encoding of the extension-specific structure).
    package let value: ArraySlice<UInt8>
    /// Whether `critical FALSE` was encoded explicitly (forbidden by DER but found in the wild); kept for re-encoding.
    let encodesDefaultCritical: Bool

    package init(oid: ASN1ObjectIdentifier, critical: Bool, value: [UInt8]) {
        self.oid = oid
        self.critical = critical
        self.value = value[...]
        self.encodesDefaultCritical = false
    }

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

/// The ordered extension list of a certificate or CSR. Duplicate OIDs are rejected when the list is built.
package struct Extensions: Hashable, Sendable {
    package let all: [Extension]

    /// Builds the list, throwing ``X509Error/Code/duplicateExtension`` if an OID repeats.
    package init(_ extensions: [Extension]) throws(X509Error) {
        for (index, candidate) in extensions.enumerated() {
            for other in extensions[..<index] where other.oid == candidate.oid {
                throw X509Error(.duplicateExtension, "extension \(candidate.oid.dotted) appears twice")
            }
        }
        self.all = extensions
    }

    private init(unchecked extensions: [Extension]) { self.all = extensions }

    /// No extensions.
    package static let empty = Extensions(unchecked: [])

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

    package var isEmpty: Bool { all.isEmpty }
    package var count: Int { all.count }

    /// The extension with this OID, if present.
    package subscript(oid oid: ASN1ObjectIdentifier) -> Extension? { all.first { $0.oid == oid } }

    /// The critical extensions' OIDs.
    package var criticalOIDs: [ASN1ObjectIdentifier] { all.filter(\.critical).map(\.oid) }

    private func decode<T>(_ oid: ASN1ObjectIdentifier, _ body: (ASN1Node) throws -> T) throws(X509Error) -> T? {
        guard let item = self[oid: oid] else { return nil }
        let node = try item.parseValue()
        return try X509Error.wrapping("malformed \(oid.dotted) extension") { try body(node) }
    }

    // MARK: Typed accessors (nil when absent; throw when present but malformed)

    package var basicConstraints: BasicConstraints? {
        get throws(X509Error) { try decode(X509OID.basicConstraints, BasicConstraints.init(derEncoded:)) }
    }
    package var keyUsage: KeyUsage? {
        get throws(X509Error) { try decode(X509OID.keyUsage, KeyUsage.init(derEncoded:)) }
    }
    package var extendedKeyUsage: ExtendedKeyUsage? {
        get throws(X509Error) { try decode(X509OID.extKeyUsage, ExtendedKeyUsage.init(derEncoded:)) }
    }
    package var subjectAlternativeNames: [GeneralName]? {
        get throws(X509Error) { try decode(X509OID.subjectAltName) { try GeneralName.decodeList(Extensions.sequence($0)) } }
    }
    package var issuerAlternativeNames: [GeneralName]? {
        get throws(X509Error) { try decode(X509OID.issuerAltName) { try GeneralName.decodeList(Extensions.sequence($0)) } }
    }
    package var subjectKeyIdentifier: ArraySlice<UInt8>? {
        get throws(X509Error) { try decode(X509OID.subjectKeyIdentifier) { try ASN1OctetString(derEncoded: $0).bytes } }
    }
    package var authorityKeyIdentifier: AuthorityKeyIdentifier? {
        get throws(X509Error) { try decode(X509OID.authorityKeyIdentifier, AuthorityKeyIdentifier.init(derEncoded:)) }
    }
    package var nameConstraints: NameConstraints? {
        get throws(X509Error) { try decode(X509OID.nameConstraints, NameConstraints.init(derEncoded:)) }
    }
    package var certificatePolicies: [PolicyInformation]? {
        get throws(X509Error) { try decode(X509OID.certificatePolicies, PolicyInformation.decodeList) }
    }
    package var policyMappings: [PolicyMapping]? {
        get throws(X509Error) { try decode(X509OID.policyMappings, PolicyMapping.decodeList) }
    }
    package var policyConstraints: PolicyConstraints? {
        get throws(X509Error) { try decode(X509OID.policyConstraints, PolicyConstraints.init(derEncoded:)) }
    }
    package var inhibitAnyPolicy: Int? {
        get throws(X509Error) {
            try decode(X509OID.inhibitAnyPolicy) { node in
                let value = try Int(derEncoded: node)
                guard value >= 0 else { throw X509Error(.malformed, "negative inhibitAnyPolicy") }
                return value
            }
        }
    }
    package var crlDistributionPoints: [DistributionPoint]? {
        get throws(X509Error) { try decode(X509OID.crlDistributionPoints, DistributionPoint.decodeList) }
    }
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
    package var startIndex: Int { all.startIndex }
    package var endIndex: Int { all.endIndex }
    package subscript(position: Int) -> Extension { all[position] }
}
