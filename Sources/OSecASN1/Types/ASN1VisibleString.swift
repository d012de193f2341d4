/// An ASN.1 VisibleString (printable ASCII, 0x20...0x7E).
package struct ASN1VisibleString: ASN1CharacterString {
    package let bytes: ArraySlice<UInt8>

    package init(validatedBytes: ArraySlice<UInt8>) { self.bytes = validatedBytes }

    package static var defaultIdentifier: ASN1Identifier { .visibleString }

    package static func validate(_ bytes: ArraySlice<UInt8>) throws {
        try ASN1SingleOctetAlphabet.validate(bytes, name: "VisibleString") { $0 >= 0x20 && $0 <= 0x7E }
    }

    package static func decode(_ bytes: ArraySlice<UInt8>) -> String { ASN1SingleOctetAlphabet.decodeASCII(bytes) }

    package static func encode(_ string: String) throws -> [UInt8] {
        try ASN1SingleOctetAlphabet.encode(string, name: "VisibleString") { $0 >= 0x20 && $0 <= 0x7E }
    }
}
