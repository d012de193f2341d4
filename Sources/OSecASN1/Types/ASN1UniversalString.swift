/// An ASN.1 UniversalString, UTF-32BE.
package struct ASN1UniversalString: ASN1CharacterString {
    package let bytes: ArraySlice<UInt8>

    package init(validatedBytes: ArraySlice<UInt8>) { self.bytes = validatedBytes }

    package static var defaultIdentifier: ASN1Identifier { .universalString }

    package static func validate(_ bytes: ArraySlice<UInt8>) throws {
        guard bytes.count % 4 == 0 else {
            throw ASN1Error(.invalidString, "UniversalString length is not a multiple of 4")
        }
        for value in codePoints(bytes) where Unicode.Scalar(value) == nil {
            throw ASN1Error(.invalidString, "UniversalString contains an invalid code point")
        }
    }

    private static func codePoints(_ bytes: ArraySlice<UInt8>) -> [UInt32] {
        var values: [UInt32] = []
        var index = bytes.startIndex
        while bytes.endIndex - index >= 4 {
            var value: UInt32 = 0
            for offset in 0..<4 { value = value << 8 | UInt32(bytes[index + offset]) }
            values.append(value)
            index += 4
        }
        return values
    }

    package static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        for value in codePoints(bytes) { scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}") }
        return String(scalars)
    }

    package static func encode(_ string: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in string.unicodeScalars {
            let value = scalar.value
            for shift in stride(from: 24, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
            }
        }
        return bytes
    }
}
