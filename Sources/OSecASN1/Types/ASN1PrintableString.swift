/// An ASN.1 PrintableString: `A-Z a-z 0-9 space ' ( ) + , - . / : = ?`.
package struct ASN1PrintableString: ASN1CharacterString {
    package let bytes: ArraySlice<UInt8>

    package init(validatedBytes: ArraySlice<UInt8>) { self.bytes = validatedBytes }

    package static var defaultIdentifier: ASN1Identifier { .printableString }

    static func isPrintable(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: " "), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "+"),
            UInt8(ascii: ","), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: ":"),
            UInt8(ascii: "="), UInt8(ascii: "?"):
            return true
        default:
            return false
        }
    }

    package static func validate(_ bytes: ArraySlice<UInt8>) throws {
        try ASN1SingleOctetAlphabet.validate(bytes, name: "PrintableString", allowed: isPrintable)
    }

    package static func decode(_ bytes: ArraySlice<UInt8>) -> String { ASN1SingleOctetAlphabet.decodeASCII(bytes) }

    package static func encode(_ string: String) throws -> [UInt8] {
        try ASN1SingleOctetAlphabet.encode(string, name: "PrintableString", allowed: isPrintable)
    }
}
