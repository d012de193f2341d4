/// The identifier octets of a BER/DER node: tag class, constructed flag and tag number.
///
/// Tag numbers of 31 and above use the high-tag-number form on the wire.
package struct ASN1Identifier: Hashable, Sendable {
    /// The class of a tag. An open set of four values.
    package struct TagClass: Hashable, Sendable {
        /// The two class bits (0...3).
        package let rawValue: UInt8
        private init(rawValue: UInt8) { self.rawValue = rawValue }

        package static let universal = TagClass(rawValue: 0)
        package static let application = TagClass(rawValue: 1)
        package static let contextSpecific = TagClass(rawValue: 2)
        package static let `private` = TagClass(rawValue: 3)

        /// Creates a tag class from the top two bits of an identifier octet.
        init(topBits: UInt8) { self.rawValue = topBits & 0x3 }
    }

    /// The tag number.
    package var tagNumber: UInt
    /// The tag class.
    package var tagClass: TagClass
    /// Whether the node is constructed (contains child nodes) rather than primitive.
    package var isConstructed: Bool

    /// Creates an identifier.
    package init(tagNumber: UInt, tagClass: TagClass, constructed: Bool) {
        self.tagNumber = tagNumber
        self.tagClass = tagClass
        self.isConstructed = constructed
    }

    /// A context-specific tag `[n]`.
    package static func contextSpecific(_ tagNumber: UInt, constructed: Bool) -> ASN1Identifier {
        ASN1Identifier(tagNumber: tagNumber, tagClass: .contextSpecific, constructed: constructed)
    }

    /// Whether class and number match, ignoring the constructed flag.
    ///
    /// Use this where BER allows either form (strings), and let the decoder check the form.
    package func hasSameTag(as other: ASN1Identifier) -> Bool {
        tagNumber == other.tagNumber && tagClass == other.tagClass
    }

    /// This identifier with the constructed flag set as given.
    package func withConstructed(_ constructed: Bool) -> ASN1Identifier {
        ASN1Identifier(tagNumber: tagNumber, tagClass: tagClass, constructed: constructed)
    }

    private static func universal(_ number: UInt, constructed: Bool = false) -> ASN1Identifier {
        ASN1Identifier(tagNumber: number, tagClass: .universal, constructed: constructed)
    }

    package static let boolean = universal(1)
    package static let integer = universal(2)
    package static let bitString = universal(3)
    package static let octetString = universal(4)
    package static let null = universal(5)
    package static let objectIdentifier = universal(6)
    package static let enumerated = universal(10)
    package static let utf8String = universal(12)
    package static let sequence = universal(16, constructed: true)
    package static let set = universal(17, constructed: true)
    package static let numericString = universal(18)
    package static let printableString = universal(19)
    package static let teletexString = universal(20)
    package static let ia5String = universal(22)
    package static let utcTime = universal(23)
    package static let generalizedTime = universal(24)
    package static let visibleString = universal(26)
    package static let universalString = universal(28)
    package static let bmpString = universal(30)
}

extension ASN1Identifier {
    /// Appends the identifier octets (low- or high-tag-number form).
    func encode(into bytes: inout [UInt8]) {
        let first = (tagClass.rawValue << 6) | (isConstructed ? 0x20 : 0)
        if tagNumber < 31 {
            bytes.append(first | UInt8(truncatingIfNeeded: tagNumber))
            return
        }
        bytes.append(first | 0x1F)
        DER.appendBase128(tagNumber, to: &bytes)
    }
}

extension ASN1Identifier: CustomStringConvertible {
    package var description: String {
        let cls: String
        switch tagClass {
        case .universal: cls = "UNIVERSAL"
        case .application: cls = "APPLICATION"
        case .contextSpecific: cls = "CONTEXT"
        default: cls = "PRIVATE"
        }
        return "[\(cls) \(tagNumber)\(isConstructed ? " constructed" : "")]"
    }
}
