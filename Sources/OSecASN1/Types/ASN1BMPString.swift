/// An ASN.1 BMPString, UTF-16BE (surrogate pairs accepted, unpaired surrogates rejected).
package struct ASN1BMPString: ASN1CharacterString {
    package let bytes: ArraySlice<UInt8>

    package init(validatedBytes: ArraySlice<UInt8>) { self.bytes = validatedBytes }

    package static var defaultIdentifier: ASN1Identifier { .bmpString }

    package static func validate(_ bytes: ArraySlice<UInt8>) throws {
        guard bytes.count % 2 == 0 else { throw ASN1Error(.invalidString, "BMPString has an odd length") }
        var decoder = UTF16()
        var units = codeUnits(bytes).makeIterator()
        while true {
            switch decoder.decode(&units) {
            case .scalarValue: continue
            case .emptyInput: return
            case .error: throw ASN1Error(.invalidString, "BMPString contains an unpaired surrogate")
            }
        }
    }

    private static func codeUnits(_ bytes: ArraySlice<UInt8>) -> [UInt16] {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while bytes.endIndex - index >= 2 {
            units.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
            index += 2
        }
        return units
    }

    package static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: codeUnits(bytes), as: UTF16.self)
    }

    package static func encode(_ string: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for unit in string.utf16 {
            bytes.append(UInt8(truncatingIfNeeded: unit >> 8))
            bytes.append(UInt8(truncatingIfNeeded: unit))
        }
        return bytes
    }
}
