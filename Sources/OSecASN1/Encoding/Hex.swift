#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Hexadecimal text to bytes (legacy PEM IVs, the `security` tool's `-X`, test vectors); the counterpart of
/// ``Base64`` for the layers above.
package enum HexDecoding {
    /// The bytes `text` spells with two hex digits each (either case), or nil for odd lengths and other characters.
    package static func data(_ text: String) -> Data? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out = Data(capacity: digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Bytes to hexadecimal text: the counterpart of ``HexDecoding`` (the `security` tool's `-w` for a secret that is
/// not text, Secret Service item ids, the envelope's legacy digests).
package enum HexEncoding {
    /// Two lowercase hexadecimal digits per byte, nothing between them.
    package static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
