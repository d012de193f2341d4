/// Strict standard base64 (RFC 4648 §4) for PEM bodies.
enum Base64 {
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// 0...63 for alphabet octets, 0xFE for '=', 0xFD for whitespace, 0xFF otherwise.
    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        table[Int(UInt8(ascii: "="))] = 0xFE
        for byte in [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n")] {
            table[Int(byte)] = 0xFD
        }
        return table
    }()

    /// Decodes base64, skipping whitespace. Padding is required and only allowed at the end.
    static func decode(_ text: ArraySlice<UInt8>) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3)
        var quad: UInt32 = 0
        var filled = 0
        var padding = 0
        for byte in text {
            let value = decodeTable[Int(byte)]
            switch value {
            case 0xFD:
                continue
            case _ where padding == 3:
                throw ASN1Error(.invalidPEM, "base64 data after padding")
            case 0xFF:
                throw ASN1Error(.invalidPEM, "invalid base64 character 0x\(String(byte, radix: 16))")
            case 0xFE:
                guard filled >= 2 || padding > 0 else { throw ASN1Error(.invalidPEM, "misplaced base64 padding") }
                padding += 1
                filled += 1
                quad <<= 6
            default:
                guard padding == 0 else { throw ASN1Error(.invalidPEM, "base64 data after padding") }
                quad = quad << 6 | UInt32(value)
                filled += 1
            }
            if filled == 4 {
                output.append(UInt8(truncatingIfNeeded: quad >> 16))
                if padding < 2 { output.append(UInt8(truncatingIfNeeded: quad >> 8)) }
                if padding < 1 { output.append(UInt8(truncatingIfNeeded: quad)) }
                quad = 0
                filled = 0
                if padding > 0 { padding = 3 }  // nothing may follow a padded quad
            }
        }
        guard filled == 0 else { throw ASN1Error(.invalidPEM, "base64 length is not a multiple of 4") }
        return output
    }

    /// Encodes with padding and no line breaks.
    static func encode(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(alphabet[Int(group >> 18 & 0x3F)])
            output.append(alphabet[Int(group >> 12 & 0x3F)])
            output.append(second == nil ? UInt8(ascii: "=") : alphabet[Int(group >> 6 & 0x3F)])
            output.append(third == nil ? UInt8(ascii: "=") : alphabet[Int(group & 0x3F)])
        }
        return output
    }
}
