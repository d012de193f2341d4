/// An ASN.1 IA5String (7-bit ASCII).
package struct ASN1IA5String: ASN1CharacterString {
    package let bytes: ArraySlice<UInt8>

    package init(validatedBytes: ArraySlice<UInt8>) { self.bytes = validatedBytes }

    package static var defaultIdentifier: ASN1Identifier { .ia5String }

    package static func validate(_ bytes: ArraySlice<UInt8>) throws {
        try ASN1SingleOctetAlphabet.validate(bytes, name: "IA5String") { $0 < 0x80 }
    }

    package static func decode(_ bytes: ArraySlice<UInt8>) -> String { ASN1SingleOctetAlphabet.decodeASCII(bytes) }

    package static func encode(_ string: String) throws -> [UInt8] {
        try ASN1SingleOctetAlphabet.encode(string, name: "IA5String") { $0 < 0x80 }
    }
}
