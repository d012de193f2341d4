import Foundation
import OSecToolBase
import Security

/// What kind of keychain item a block describes.
enum ItemKind: String, CaseIterable {
    case generic, internet, certificate, key

    var itemClass: CFString {
        switch self {
        case .generic: return kSecClassGenericPassword
        case .internet: return kSecClassInternetPassword
        case .certificate: return kSecClassCertificate
        case .key: return kSecClassKey
        }
    }
}

/// Prints keychain items the way macOS security(1) does: the keychain, `version: 512` (256 for certificates), the
/// class and every attribute of the class in Apple's order, with its type, `<NULL>` when absent.
enum ItemPrinter {
    typealias Row = (name: String, type: String, key: String)

    private static func rows(_ rows: [(String, String, String)]) -> [Row] {
        rows.map { (name: $0.0, type: $0.1, key: $0.2) }
    }

    /// The attributes security(1) lists per class: (printed name, type, attribute key).
    static func layout(_ kind: ItemKind) -> [Row] {
        switch kind {
        case .generic, .internet:
            // The password classes share most attributes; security(1) lists them by attribute code after the label
            // (0x07) and the print name (0x08).
            let shared = [
                ("acct", "blob"), ("cdat", "timedate"), ("crtr", "uint32"), ("cusi", "sint32"), ("desc", "blob"),
                ("icmt", "blob"), ("invi", "sint32"), ("mdat", "timedate"), ("nega", "sint32"), ("prot", "blob"),
                ("scrp", "sint32"), ("type", "uint32"),
            ]
            let own =
                kind == .generic
                ? [("gena", "blob"), ("svce", "blob")]
                : [
                    ("atyp", "blob"), ("path", "blob"), ("port", "uint32"), ("ptcl", "uint32"), ("sdmn", "blob"),
                    ("srvr", "blob"),
                ]
            let codes = (shared + own).sorted { $0.0 < $1.0 }
            return rows([("0x00000007 ", "blob", "labl"), ("0x00000008 ", "blob", "alis")])
                + codes.map { (name: "\"\($0.0)\"", type: $0.1, key: $0.0) }
        case .certificate:
            return rows([
                ("\"alis\"", "blob", "alis"), ("\"cenc\"", "uint32", "cenc"), ("\"ctyp\"", "uint32", "ctyp"),
                ("\"hpky\"", "blob", "pkhh"), ("\"issu\"", "blob", "issr"), ("\"labl\"", "blob", "labl"),
                ("\"skid\"", "blob", "skid"), ("\"snbr\"", "blob", "slnr"), ("\"subj\"", "blob", "subj"),
            ])
        case .key:
            // The CSSM key record schema: attribute numbers 0x00 (key class) to 0x1A (unwrap).
            let keys = [
                ("kcls", "uint32"), ("labl", "blob"), ("alis", "blob"), ("perm", "uint32"), ("priv", "uint32"),
                ("modi", "uint32"), ("klbl", "blob"), ("atag", "blob"), ("crtr", "blob"), ("type", "uint32"),
                ("bsiz", "uint32"), ("esiz", "uint32"), ("sdat", "timedate"), ("edat", "timedate"),
                ("sens", "uint32"), ("asen", "uint32"), ("extr", "uint32"), ("next", "uint32"), ("encr", "uint32"),
                ("decr", "uint32"), ("drve", "uint32"), ("sign", "uint32"), ("vrfy", "uint32"), ("snrc", "uint32"),
                ("vyrc", "uint32"), ("wrap", "uint32"), ("unwp", "uint32"),
            ]
            return keys.enumerated().map {
                (name: String(format: "0x%08X ", $0.offset), type: $0.element.1, key: $0.element.0)
            }
        }
    }

    /// The class line's value: `"genp"`, `"inet"`, certificates `0x80001000 `, keys by record type.
    static func classCode(_ kind: ItemKind, attributes: [String: Any]) -> String {
        switch kind {
        case .generic: return "\"genp\""
        case .internet: return "\"inet\""
        case .certificate: return "0x80001000 "
        case .key: return String(format: "0x%08X ", keyRecordType(attributes))
        }
    }

    /// CSSM record type of a key item: public 0x0F, private 0x10, symmetric 0x11.
    static func keyRecordType(_ attributes: [String: Any]) -> UInt32 {
        switch (attributes["kcls"] as? NSNumber)?.intValue ?? Int(attributes["kcls"] as? String ?? "") ?? 1 {
        case 0: return 0x0F
        case 2: return 0x11
        default: return 0x10
        }
    }

    static func describe(_ attributes: [String: Any], kind: ItemKind, keychainPath: String) -> String {
        let version = kind == .certificate ? 256 : 512
        var text =
            "keychain: \"\(keychainPath)\"\nversion: \(version)\nclass: \(classCode(kind, attributes: attributes))\n"
        text += "attributes:\n"
        for (name, type, key) in layout(kind) {
            var raw = attributes[key]
            if kind == .key && key == "kcls" { raw = NSNumber(value: keyRecordType(attributes)) }
            text += "    \(name)<\(type)>=\(value(raw, type: type))\n"
        }
        return text
    }

    /// The attributes of an item for `--json`: four-character code → value (bytes base64, dates RFC 3339).
    static func json(_ attributes: [String: Any], kind: ItemKind, keychainPath: String) -> [String: Any] {
        var values: [String: Any] = [:]
        for (_, _, key) in layout(kind) {
            guard let raw = attributes[key] else { continue }
            values[key] = raw is String || raw is NSString ? raw : JSONOutput.normalize(raw)
        }
        return [
            "keychain": keychainPath,
            "class": kind == .key
                ? "keys"
                : classCode(kind, attributes: [:])
                    .trimmingCharacters(in: CharacterSet(charactersIn: "\" ")), "attributes": values,
        ]
    }

    static func value(_ raw: Any?, type: String) -> String {
        guard let raw else { return "<NULL>" }
        switch type {
        case "timedate":
            guard let date = raw as? Date else { return "<NULL>" }
            let stamp = timestamp(date)
            return "0x" + hex(Data(stamp.utf8) + Data([0])) + "  \"\(stamp)\\000\""
        case "uint32", "sint32":
            if let code = raw as? String {
                return code.utf8.count == 4 ? blob(Data(code.utf8)) : "\"\(code)\""
            }
            guard let number = (raw as? NSNumber)?.int64Value ?? (raw as? Int).map(Int64.init) else { return "<NULL>" }
            return integer(UInt32(truncatingIfNeeded: number))
        default:
            if let string = raw as? String { return blob(Data(string.utf8)) }
            if let data = raw as? Data { return blob(data) }
            return "<NULL>"
        }
    }

    /// `20240101120000Z` (UTC), the keychain's date format.
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss'Z'"
        return formatter.string(from: date)
    }

    /// A 32-bit value as its four big-endian bytes: `"htps"` when all are printable, `0x000001BB ` when none is,
    /// `0x00000050  "\000\000\000P"` when some are.
    static func integer(_ value: UInt32) -> String {
        let bytes = Data([UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return blob(bytes) }
        if !bytes.contains(where: { $0 >= 0x20 && $0 < 0x7F && $0 != 0x5C }) { return "0x" + hex(bytes) + " " }
        return "0x" + hex(bytes) + "  \"" + escaped(bytes) + "\""
    }

    /// The byte printer: `"text"` when the bytes are printable UTF-8, else `0xHEX  "escaped"` (non-printable
    /// bytes, `"` and `\` as `\ooo`).
    static func blob(_ data: Data) -> String {
        if isPrintable(data) { return "\"\(String(decoding: data, as: UTF8.self))\"" }
        return "0x" + hex(data) + "  \"" + escaped(data) + "\""
    }

    /// The `password:` value of `-g`.
    static func password(_ data: Data) -> String { blob(data) }

    /// What `-w` prints: the password itself, or its hexadecimal form when it is not printable text (shared with
    /// the front end).
    static func passwordForStandardOutput(_ data: Data) -> String { PasswordText.forStandardOutput(data) }

    static func isPrintable(_ data: Data) -> Bool { PasswordText.isPrintable(data) }

    static func hex(_ data: Data) -> String { data.map { String(format: "%02X", $0) }.joined() }

    static func escaped(_ data: Data) -> String {
        data.map { byte -> String in
            if byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C { return String(UnicodeScalar(byte)) }
            return String(format: "\\%03o", byte)
        }.joined()
    }
}
