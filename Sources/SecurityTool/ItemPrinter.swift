import Foundation
import Security

/// Prints keychain items the way macOS security(1) does: the keychain, `version: 512`, the class and every
/// attribute of the class in Apple's order, with its type, `<NULL>` when absent.
enum ItemPrinter {
    /// The attributes security(1) lists per class: (printed name, type, attribute key).
    static func layout(_ kind: PasswordCommands.Kind) -> [(name: String, type: String, key: String)] {
        let common: [(String, String, String)] = [
            ("0x00000007 ", "blob", "labl"), ("0x00000008 ", "blob", "alis"), ("\"acct\"", "blob", "acct"),
        ]
        switch kind {
        case .generic:
            return common
                + [
                    ("\"cdat\"", "timedate", "cdat"), ("\"crtr\"", "uint32", "crtr"), ("\"cusi\"", "sint32", "cusi"),
                    ("\"desc\"", "blob", "desc"), ("\"gena\"", "blob", "gena"), ("\"icmt\"", "blob", "icmt"),
                    ("\"invi\"", "sint32", "invi"), ("\"mdat\"", "timedate", "mdat"), ("\"nega\"", "sint32", "nega"),
                    ("\"prot\"", "blob", "prot"), ("\"scrp\"", "sint32", "scrp"), ("\"svce\"", "blob", "svce"),
                    ("\"type\"", "uint32", "type"),
                ].map { (name: $0.0, type: $0.1, key: $0.2) }
        case .internet:
            return common
                + [
                    ("\"atyp\"", "blob", "atyp"), ("\"cdat\"", "timedate", "cdat"), ("\"crtr\"", "uint32", "crtr"),
                    ("\"cusi\"", "sint32", "cusi"), ("\"desc\"", "blob", "desc"), ("\"icmt\"", "blob", "icmt"),
                    ("\"invi\"", "sint32", "invi"), ("\"mdat\"", "timedate", "mdat"), ("\"nega\"", "sint32", "nega"),
                    ("\"path\"", "blob", "path"), ("\"port\"", "uint32", "port"), ("\"prot\"", "blob", "prot"),
                    ("\"ptcl\"", "uint32", "ptcl"), ("\"scrp\"", "sint32", "scrp"), ("\"sdmn\"", "blob", "sdmn"),
                    ("\"srvr\"", "blob", "srvr"), ("\"type\"", "uint32", "type"),
                ].map { (name: $0.0, type: $0.1, key: $0.2) }
        }
    }

    static func describe(_ attributes: [String: Any], kind: PasswordCommands.Kind, keychainPath: String) -> String {
        var text = "keychain: \"\(keychainPath)\"\nversion: 512\nclass: \"\(kind.code)\"\nattributes:\n"
        for (name, type, key) in layout(kind) {
            text += "    \(name)<\(type)>=\(value(attributes[key], type: type))\n"
        }
        return text
    }

    static func value(_ raw: Any?, type: String) -> String {
        guard let raw else { return "<NULL>" }
        switch type {
        case "timedate":
            guard let date = raw as? Date else { return "<NULL>" }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyyMMddHHmmss'Z'"
            let stamp = formatter.string(from: date)
            return "0x" + hex(Data(stamp.utf8) + Data([0])) + "  \"\(stamp)\\000\""
        case "uint32", "sint32":
            if let code = raw as? String { return "\"\(code)\"" }
            guard let number = (raw as? NSNumber)?.int64Value ?? (raw as? Int).map(Int64.init) else { return "<NULL>" }
            if type == "uint32", let code = fourCharCode(number) { return "\"\(code)\"" }
            return String(format: "0x%08X ", UInt32(truncatingIfNeeded: number))
        default:
            if let string = raw as? String { return blob(Data(string.utf8)) }
            if let data = raw as? Data { return blob(data) }
            return "<NULL>"
        }
    }

    /// `"text"` for printable bytes, else `0xHEX  "escaped"`.
    static func blob(_ data: Data) -> String {
        if isPrintable(data) { return "\"\(String(decoding: data, as: UTF8.self))\"" }
        return "0x" + hex(data) + "  \"" + escaped(data) + "\""
    }

    /// The `password:` value of `-g`.
    static func password(_ data: Data) -> String { blob(data) }

    /// What `-w` prints: the password itself, or its hexadecimal form when it is not printable text.
    static func passwordForStandardOutput(_ data: Data) -> String {
        isPrintable(data) ? String(decoding: data, as: UTF8.self) : hex(data).lowercased()
    }

    static func isPrintable(_ data: Data) -> Bool {
        guard let text = String(data: data, encoding: .utf8) else { return false }
        return !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    static func hex(_ data: Data) -> String { data.map { String(format: "%02X", $0) }.joined() }

    static func escaped(_ data: Data) -> String {
        data.map { byte -> String in
            if byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C { return String(UnicodeScalar(byte)) }
            return String(format: "\\%03o", byte)
        }.joined()
    }

    /// A number whose four bytes are printable ASCII, as the four-character code security(1) shows.
    static func fourCharCode(_ number: Int64) -> String? {
        guard number > 0, number <= 0xFFFF_FFFF else { return nil }
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: number >> (24 - 8 * $0)) }
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
