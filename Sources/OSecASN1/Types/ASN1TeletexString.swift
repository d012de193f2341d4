/// An ASN.1 TeletexString (T61String), decoded as ISO 8859-1 (Latin-1), as most software does.
package struct ASN1TeletexString: ASN1CharacterString {
    package let bytes: ArraySlice<UInt8>

    package init(validatedBytes: ArraySlice<UInt8>) { self.bytes = validatedBytes }

    package static var defaultIdentifier: ASN1Identifier { .teletexString }

    package static func validate(_ bytes: ArraySlice<UInt8>) throws {}

    package static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
        return String(scalars)
    }

    package static func encode(_ string: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in string.unicodeScalars {
            guard let byte = UInt8(exactly: scalar.value) else {
                throw ASN1Error(
                    .invalidString, "TeletexString (Latin-1) cannot hold U+\(String(scalar.value, radix: 16))")
            }
            bytes.append(byte)
        }
        return bytes
    }
}
