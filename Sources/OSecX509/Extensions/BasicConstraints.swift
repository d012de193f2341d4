import OSecASN1

/// `basicConstraints` (RFC 5280 §4.2.1.9).
package struct BasicConstraints: Hashable, Sendable {
    package var isCertificateAuthority: Bool
    /// `pathLenConstraint`, if present.
    package var pathLengthConstraint: Int?

    package init(isCertificateAuthority: Bool, pathLengthConstraint: Int? = nil) {
        self.isCertificateAuthority = isCertificateAuthority
        self.pathLengthConstraint = pathLengthConstraint
    }

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

    package func encodedValue() throws -> [UInt8] {
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            if isCertificateAuthority { try coder.serialize(true) }
            if let pathLengthConstraint { try coder.serialize(pathLengthConstraint) }
        }
        return coder.serializedBytes
    }
}

/// `keyUsage` (RFC 5280 §4.2.1.3). Bit 0 (digitalSignature) is the most significant bit of the first octet.
package struct KeyUsage: OptionSet, Hashable, Sendable {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    package static let digitalSignature = KeyUsage(rawValue: 1 << 0)
    package static let nonRepudiation = KeyUsage(rawValue: 1 << 1)
    package static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
    package static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
    package static let keyAgreement = KeyUsage(rawValue: 1 << 4)
    package static let keyCertSign = KeyUsage(rawValue: 1 << 5)
    package static let cRLSign = KeyUsage(rawValue: 1 << 6)
    package static let encipherOnly = KeyUsage(rawValue: 1 << 7)
    package static let decipherOnly = KeyUsage(rawValue: 1 << 8)

    /// OpenSSL's names, in bit order.
    package static let names: [(KeyUsage, String)] = [
        (.digitalSignature, "Digital Signature"), (.nonRepudiation, "Non Repudiation"),
        (.keyEncipherment, "Key Encipherment"), (.dataEncipherment, "Data Encipherment"),
        (.keyAgreement, "Key Agreement"), (.keyCertSign, "Certificate Sign"), (.cRLSign, "CRL Sign"),
        (.encipherOnly, "Encipher Only"), (.decipherOnly, "Decipher Only"),
    ]

    package init(derEncoded node: ASN1Node) throws {
        // Lenient on trailing zero bits (common in the wild); bits beyond decipherOnly are ignored.
        guard node.identifier == .bitString, case .primitive(let content) = node.content, let unused = content.first,
            unused < 8, content.count > 1 || unused == 0
        else { throw X509Error(.malformed, "keyUsage is not a BIT STRING") }
        var value: UInt16 = 0
        for (offset, byte) in content.dropFirst().prefix(2).enumerated() {
            for bit in 0..<8 where byte & (0x80 >> bit) != 0 { value |= 1 << (offset * 8 + bit) }
        }
        // RFC 5280 §4.2.1.3: when present, at least one bit MUST be set.
        guard value != 0 else { throw X509Error(.malformed, "keyUsage with no bits set") }
        self.rawValue = value
    }

    /// DER: minimal BIT STRING with trailing zero bits removed.
    package func encodedValue() -> [UInt8] {
        var first: UInt8 = 0
        for bit in 0..<8 where rawValue & (1 << bit) != 0 { first |= 0x80 >> bit }
        var bytes: [UInt8] = [first]
        if rawValue & 0x100 != 0 { bytes.append(0x80) }
        while bytes.last == 0 { bytes.removeLast() }
        var unused = 0
        if let last = bytes.last { unused = last.trailingZeroBitCount }
        return [0x03, UInt8(bytes.count + 1), UInt8(unused)] + bytes
    }
}

/// `extKeyUsage` (RFC 5280 §4.2.1.12): the purposes, in encoding order.
package struct ExtendedKeyUsage: Hashable, Sendable {
    package var usages: [ASN1ObjectIdentifier]

    package init(_ usages: [ASN1ObjectIdentifier]) { self.usages = usages }

    package init(derEncoded node: ASN1Node) throws {
        var usages: [ASN1ObjectIdentifier] = []
        for child in try Extensions.sequence(node) { usages.append(try ASN1ObjectIdentifier(derEncoded: child)) }
        guard !usages.isEmpty else { throw X509Error(.malformed, "empty extKeyUsage") }
        self.usages = usages
    }

    package func contains(_ oid: ASN1ObjectIdentifier) -> Bool { usages.contains(oid) }

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

/// `authorityKeyIdentifier` (RFC 5280 §4.2.1.1).
package struct AuthorityKeyIdentifier: Hashable, Sendable {
    package var keyIdentifier: ArraySlice<UInt8>?
    package var authorityCertIssuer: [GeneralName]?
    package var authorityCertSerialNumber: ArraySlice<UInt8>?

    package init(keyIdentifier: [UInt8]) {
        self.keyIdentifier = keyIdentifier[...]
    }

    package init(derEncoded node: ASN1Node) throws {
        var keyIdentifier: ArraySlice<UInt8>? = nil
        var issuer: [GeneralName]? = nil
        var serial: ArraySlice<UInt8>? = nil
        var lastTag: UInt? = nil
        for child in try Extensions.sequence(node) {
            let id = child.identifier
            guard id.tagClass == .contextSpecific, lastTag.map({ id.tagNumber > $0 }) ?? true else {
                throw X509Error(.malformed, "unexpected field in authorityKeyIdentifier")
            }
            lastTag = id.tagNumber
            switch (id.tagNumber, child.content) {
            case (0, .primitive(let bytes)): keyIdentifier = bytes
            case (1, .constructed(let names)): issuer = try GeneralName.decodeList(names)
            case (2, .primitive(let bytes)):
                guard !bytes.isEmpty else { throw X509Error(.malformed, "empty authorityCertSerialNumber") }
                serial = bytes
            default: throw X509Error(.malformed, "unexpected field in authorityKeyIdentifier")
            }
        }
        self.keyIdentifier = keyIdentifier
        self.authorityCertIssuer = issuer
        self.authorityCertSerialNumber = serial
    }

    package func encodedValue() throws -> [UInt8] {
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            if let keyIdentifier {
                coder.appendPrimitiveNode(identifier: .contextSpecific(0, constructed: false)) { $0.append(contentsOf: keyIdentifier) }
            }
            if let authorityCertIssuer {
                try GeneralName.encodeList(authorityCertIssuer, identifier: .contextSpecific(1, constructed: true), into: &coder)
            }
            if let authorityCertSerialNumber {
                coder.appendPrimitiveNode(identifier: .contextSpecific(2, constructed: false)) { $0.append(contentsOf: authorityCertSerialNumber) }
            }
        }
        return coder.serializedBytes
    }
}
