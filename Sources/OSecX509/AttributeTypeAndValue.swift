import OSecASN1

/// An attribute type and its value, the value kept as its encoded node.
package struct AttributeTypeAndValue: Hashable, Sendable {
    /// The attribute type, e.g. `2.5.4.3` (CN).
    package let type: ASN1ObjectIdentifier
    /// The value's tag.
    package let valueTag: ASN1Identifier
    /// The value's content octets.
    package let valueContent: ArraySlice<UInt8>
    /// The value's full encoding (tag, length, content).
    package let valueEncoding: ArraySlice<UInt8>

    /// Decodes `SEQUENCE { type OID, value ANY }`, keeping the value's encoding and string tag.
    package init(derEncoded node: ASN1Node) throws {
        var reader = try NodeReader(node, .sequence, "AttributeTypeAndValue")
        type = try NodeReader.oid(try reader.next("attribute type"))
        let value = try reader.next("attribute value")
        try reader.finish("AttributeTypeAndValue")
        // Constructed values (rare: e.g. a SEQUENCE-valued attribute) keep their content octets too.
        valueContent = value.contentBytes
        valueTag = value.identifier
        valueEncoding = value.encodedBytes
        if valueTag.tagClass == .universal {
            try AttributeTypeAndValue.validateString(tag: valueTag.tagNumber, valueContent)
        }
    }

    /// A value with the given tag and content.
    package init(type: ASN1ObjectIdentifier, tag: ASN1Identifier, content: [UInt8]) {
        self.type = type
        self.valueTag = tag
        var coder = DER.Serializer()
        coder.appendPrimitiveNode(identifier: tag) { $0.append(contentsOf: content) }
        let encoding = coder.serializedBytes[...]
        self.valueEncoding = encoding
        self.valueContent = encoding.suffix(content.count)
    }

    /// An attribute whose value is a UTF8String.
    package init(type: ASN1ObjectIdentifier, utf8String: String) {
        self.init(type: type, tag: .utf8String, content: Array(utf8String.utf8))
    }

    /// An attribute whose value is a PrintableString; throws when `printableString` has characters outside its set.
    package init(type: ASN1ObjectIdentifier, printableString: String) throws {
        let content = Array(printableString.utf8)
        try AttributeTypeAndValue.validateString(tag: 19, content[...])
        self.init(type: type, tag: .printableString, content: content)
    }

    /// An attribute whose value is an IA5String (7-bit ASCII); throws otherwise.
    package init(type: ASN1ObjectIdentifier, ia5String: String) throws {
        let content = Array(ia5String.utf8)
        try AttributeTypeAndValue.validateString(tag: 22, content[...])
        self.init(type: type, tag: .ia5String, content: content)
    }

    /// Rejects string values whose bytes are invalid for their type. PrintableString is checked leniently
    /// (any ASCII), as OpenSSL does: real CA certificates carry `&`, `*` or `@` in PrintableStrings.
    static func validateString(tag: UInt, _ bytes: ArraySlice<UInt8>) throws {
        switch tag {
        case 19, 22, 26, 18:  // Printable, IA5, Visible, Numeric
            guard bytes.allSatisfy({ $0 < 0x80 }) else {
                throw X509Error(.malformed, "non-ASCII octet in an ASCII string type")
            }
        case 12:
            guard String(validating: bytes, as: UTF8.self) != nil else {
                throw X509Error(.malformed, "invalid UTF-8 in UTF8String")
            }
        case 30:
            guard bytes.count % 2 == 0 else { throw X509Error(.malformed, "odd-length BMPString") }
        case 28:
            guard bytes.count % 4 == 0 else {
                throw X509Error(.malformed, "UniversalString length not a multiple of 4")
            }
        default:
            break
        }
    }

    /// Whether the value is a character string type.
    package var isString: Bool {
        valueTag.tagClass == .universal && !valueTag.isConstructed
            && [12, 18, 19, 20, 22, 26, 28, 30].contains(valueTag.tagNumber)
    }

    /// The decoded string for character string types, else `nil`.
    /// TeletexString is read as Latin-1, BMPString as UTF-16BE, UniversalString as UTF-32BE.
    package var stringValue: String? {
        guard valueTag.tagClass == .universal, !valueTag.isConstructed else { return nil }
        switch valueTag.tagNumber {
        case 12, 18, 19, 22, 26:
            return String(decoding: valueContent, as: UTF8.self)
        case 20:
            var scalars = String.UnicodeScalarView()
            for byte in valueContent { scalars.append(Unicode.Scalar(byte)) }
            return String(scalars)
        case 30:
            var units: [UInt16] = []
            units.reserveCapacity(valueContent.count / 2)
            var index = valueContent.startIndex
            while index + 1 < valueContent.endIndex {
                units.append(UInt16(valueContent[index]) << 8 | UInt16(valueContent[index + 1]))
                index += 2
            }
            return String(decoding: units, as: UTF16.self)
        case 28:
            var scalars = String.UnicodeScalarView()
            var index = valueContent.startIndex
            while index + 3 < valueContent.endIndex {
                var value: UInt32 = 0
                for offset in 0..<4 { value = value << 8 | UInt32(valueContent[index + offset]) }
                scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                index += 4
            }
            return String(scalars)
        default:
            return nil
        }
    }

    func serialize(into coder: inout DER.Serializer) {
        coder.appendConstructedNode(identifier: .sequence) { coder in
            try? coder.serialize(type)
            coder.appendRawBytes(valueEncoding)
        }
    }

    /// Apple's normalization of one attribute: only PrintableString values change.
    var normalized: AttributeTypeAndValue {
        guard valueTag == .printableString else { return self }
        var out: [UInt8] = []
        out.reserveCapacity(valueContent.count)
        var pendingSpace = false
        for byte in valueContent {
            if byte == 0x20 {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace {
                out.append(0x20)
                pendingSpace = false
            }
            out.append(byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte)
        }
        return AttributeTypeAndValue(type: type, tag: .printableString, content: out)
    }

    /// The RFC 4514 short name for the type, or the dotted OID.
    package var typeName: String {
        AttributeTypeAndValue.shortNames[type] ?? type.dotted
    }

    static let shortNames: [ASN1ObjectIdentifier: String] = [
        X509OID.commonName: "CN", X509OID.localityName: "L", X509OID.stateOrProvinceName: "ST",
        X509OID.organizationName: "O", X509OID.organizationalUnitName: "OU", X509OID.countryName: "C",
        X509OID.streetAddress: "STREET", X509OID.domainComponent: "DC", X509OID.userID: "UID",
    ]

    /// `type=value` with RFC 4514 escaping; non-string values as `#` + hex of the encoding.
    package var rfc4514String: String {
        guard let string = stringValue else {
            return typeName + "=#" + valueEncoding.map { hexByte($0) }.joined()
        }
        return typeName + "=" + AttributeTypeAndValue.escape(string)
    }

    static func escape(_ string: String) -> String {
        var out = ""
        let scalars = Array(string.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case ",", "+", "\"", "\\", "<", ">", ";", "=":
                out += "\\" + String(scalar)
            case "#" where index == 0, " " where index == 0 || index == scalars.count - 1:
                out += "\\" + String(scalar)
            case "\u{0}":
                out += "\\00"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\" + hexByte(UInt8(scalar.value))
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}

extension AttributeTypeAndValue: CustomStringConvertible {
    /// The RFC 4514 form (`CN=example`).
    package var description: String { rfc4514String }
}

func hexByte(_ byte: UInt8) -> String {
    let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}
