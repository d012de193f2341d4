/// An ASN.1 NumericString (digits and space).
package struct ASN1NumericString: ASN1CharacterString {
    package let bytes: ArraySlice<UInt8>

    package init(validatedBytes: ArraySlice<UInt8>) { self.bytes = validatedBytes }

    package static var defaultIdentifier: ASN1Identifier { .numericString }

    static func isNumeric(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    package static func validate(_ bytes: ArraySlice<UInt8>) throws {
        try ASN1SingleOctetAlphabet.validate(bytes, name: "NumericString", allowed: isNumeric)
    }

    package static func decode(_ bytes: ArraySlice<UInt8>) -> String { ASN1SingleOctetAlphabet.decodeASCII(bytes) }

    package static func encode(_ string: String) throws -> [UInt8] {
        try ASN1SingleOctetAlphabet.encode(string, name: "NumericString", allowed: isNumeric)
    }
}
