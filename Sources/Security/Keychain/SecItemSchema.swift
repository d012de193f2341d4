import Foundation

/// Apple's keychain item classes and their attributes (reference §1.1, Apple's data-protection schema).
enum SecItemClass: String, CaseIterable, Sendable {
    case genericPassword = "genp"
    case internetPassword = "inet"
    case certificate = "cert"
    case key = "keys"
    case identity = "idnt"

    init?(value: Any) {
        guard let s = AttributeDictionary.stringValue(value), let c = SecItemClass(rawValue: s) else { return nil }
        self = c
    }

    /// The stored classes (identity is a join of certificate and key).
    var isStored: Bool { self != .identity }
}

/// How Apple stores an attribute, which decides how values are normalized, compared and returned.
enum SecAttributeKind: Sendable {
    /// String or Data, kept as given; matched by bytes (String as UTF-8), case-sensitive.
    case blob
    /// A number (CFNumber, CFBoolean → 0/1, or a decimal string); a non-numeric string is kept as a string.
    case number
    /// A date.
    case date
    /// Binary data.
    case data
}

/// One attribute of a class: its key, kind, and whether it is part of the class's uniqueness key.
struct SecAttributeSpec: Sendable {
    let key: String
    let kind: SecAttributeKind
    let isPrimaryKey: Bool
    /// Set by the keychain itself; callers cannot set it on add or update.
    let isReadOnly: Bool
}

enum SecItemSchema {
    private static func spec(_ key: String, _ kind: SecAttributeKind, primary: Bool = false, readOnly: Bool = false) -> SecAttributeSpec {
        SecAttributeSpec(key: key, kind: kind, isPrimaryKey: primary, isReadOnly: readOnly)
    }

    /// Attributes every stored class has.
    private static let common: [SecAttributeSpec] = [
        spec("cdat", .date, readOnly: true), spec("mdat", .date, readOnly: true),
        spec("agrp", .blob, primary: true), spec("pdmn", .blob), spec("sync", .number, primary: true),
        spec("sha1", .data, readOnly: true), spec("vwht", .blob, primary: true), spec("tkid", .blob, primary: true),
    ]

    private static let passwordCommon: [SecAttributeSpec] = [
        spec("desc", .blob), spec("icmt", .blob), spec("labl", .blob), spec("alis", .blob), spec("prot", .blob),
        spec("crtr", .number), spec("type", .number), spec("scrp", .number), spec("invi", .number),
        spec("nega", .number), spec("cusi", .number),
    ]

    static let attributes: [SecItemClass: [String: SecAttributeSpec]] = {
        func table(_ specs: [SecAttributeSpec]) -> [String: SecAttributeSpec] {
            Dictionary((common + specs).map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        }
        let genp = table(passwordCommon + [spec("gena", .blob), spec("acct", .blob, primary: true), spec("svce", .blob, primary: true)])
        let inet = table(passwordCommon + [
            spec("acct", .blob, primary: true), spec("sdmn", .blob, primary: true), spec("srvr", .blob, primary: true),
            spec("ptcl", .number, primary: true), spec("atyp", .blob, primary: true), spec("port", .number, primary: true),
            spec("path", .blob, primary: true),
        ])
        let cert = table([
            spec("ctyp", .number, primary: true), spec("cenc", .number), spec("labl", .blob), spec("alis", .blob),
            spec("subj", .data), spec("issr", .data, primary: true), spec("slnr", .data, primary: true), spec("skid", .data),
            spec("pkhh", .data),
        ])
        let keyFlags = ["perm", "priv", "modi", "sens", "asen", "extr", "next", "encr", "decr", "drve", "sign", "vrfy",
                        "snrc", "vyrc", "wrap", "unwp"].map { spec($0, .number) }
        let keys = table(keyFlags + [
            spec("kcls", .number, primary: true), spec("labl", .blob), spec("alis", .blob), spec("klbl", .data, primary: true),
            spec("atag", .blob, primary: true), spec("crtr", .number, primary: true), spec("type", .number, primary: true),
            spec("bsiz", .number, primary: true), spec("esiz", .number, primary: true), spec("sdat", .date, primary: true),
            spec("edat", .date, primary: true),
        ])
        // Identity queries may use certificate and key attributes (the certificate's shadow the key's).
        var idnt = keys
        for (k, v) in cert where idnt[k] == nil || ["labl", "issr", "slnr", "skid"].contains(k) { idnt[k] = v }
        return [.genericPassword: genp, .internetPassword: inet, .certificate: cert, .key: keys, .identity: idnt]
    }()

    static func attribute(_ key: String, of itemClass: SecItemClass) -> SecAttributeSpec? {
        attributes[itemClass]?[key]
    }

    /// Apple's default for an omitted primary-key attribute ("" / empty for blobs and data, 0 for numbers).
    static func defaultValue(for spec: SecAttributeSpec) -> SecAttributeValue {
        switch spec.kind {
        case .blob: return .data(Data())
        case .data: return .data(Data())
        case .number: return .number(0)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: 0))
        }
    }
}
