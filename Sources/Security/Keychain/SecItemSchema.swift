import Foundation
import OSecKeychain

/// Apple's keychain item classes. Four are stored; the identity class is the join of a certificate and the
/// private key whose `klbl` equals the certificate's `pkhh` (reference §3).
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

    /// The storage engine's class (nil for the identity join).
    var storeClass: ItemClass? {
        switch self {
        case .genericPassword: return .genericPassword
        case .internetPassword: return .internetPassword
        case .certificate: return .certificate
        case .key: return .key
        case .identity: return nil
        }
    }

    init(_ storeClass: ItemClass) {
        self = SecItemClass(rawValue: storeClass.code) ?? .genericPassword
    }

    /// The position in `allCases`.
    var ordinal: Int {
        switch self {
        case .genericPassword: 0
        case .internetPassword: 1
        case .certificate: 2
        case .key: 3
        case .identity: 4
        }
    }
}

/// Which attribute keys a class accepts and how their values are stored. The per-class attribute lists
/// live in the storage engine (`ItemClass`); the facade adds the fields the engine keeps separately.
enum SecItemSchema {
    /// Attributes every stored class has that the engine keeps as dedicated fields.
    static let engineFields: [String: AttributeDescriptor.Kind] = [
        "agrp": .bytes, "pdmn": .bytes, "sync": .number, "cdat": .date, "mdat": .date,
    ]

    /// Certificate attributes that an identity query may use (they shadow the key's).
    static let identityCertificateAttributes: Set<String> = [
        "labl", "issr", "slnr", "skid", "subj", "pkhh", "ctyp", "cenc", "alis",
    ]

    /// How `key` is stored for `itemClass`, or nil when the class has no such attribute (errSecNoSuchAttr).
    static func kind(of key: String, in itemClass: SecItemClass) -> AttributeDescriptor.Kind? {
        lookup(key, in: itemClass)?.kind
    }

    /// ``kind(of:in:)`` and whether the key is an engine field, with one dictionary lookup (parsing a query
    /// asks this for every attribute).
    static func lookup(
        _ key: String, in itemClass: SecItemClass
    ) -> (kind: AttributeDescriptor.Kind, isEngineField: Bool)? {
        guard let entry = kindsByKey[key], let kind = entry.kinds[itemClass.ordinal] else { return nil }
        return (kind, entry.isEngineField)
    }

    /// Every attribute key with its storage kind per class (in `SecItemClass.allCases` order; engine fields
    /// have theirs in every class) and whether it is an engine field.
    private static let kindsByKey: [String: (isEngineField: Bool, kinds: [AttributeDescriptor.Kind?])] = {
        var keys = Set(engineFields.keys)
        for storeClass in ItemClass.all { keys.formUnion(storeClass.attributes.map(\.key)) }
        var table: [String: (isEngineField: Bool, kinds: [AttributeDescriptor.Kind?])] = [:]
        for key in keys {
            let engineKind = engineFields[key]
            table[key] = (engineKind != nil, SecItemClass.allCases.map { engineKind ?? classKind(of: key, in: $0) })
        }
        return table
    }()

    /// How a class stores `key`, engine fields aside.
    private static func classKind(of key: String, in itemClass: SecItemClass) -> AttributeDescriptor.Kind? {
        switch itemClass {
        case .identity:
            if identityCertificateAttributes.contains(key) { return ItemClass.certificate.descriptor(for: key)?.kind }
            return ItemClass.key.descriptor(for: key)?.kind
        default:
            return itemClass.storeClass?.descriptor(for: key)?.kind
        }
    }
}

extension AttributeValue {
    /// Normalizes a caller's value for an attribute stored as `kind`; nil when the value has the wrong type.
    /// Numbers accept CFNumber, CFBoolean (0/1) and decimal strings; a non-numeric string in a number
    /// attribute stays a string (e.g. `ptcl` = "htps"), as in Apple's keychain.
    init?(caller raw: Any, kind: AttributeDescriptor.Kind) {
        switch kind {
        case .bytes:
            if let s = AttributeDictionary.stringValue(raw) {
                self = .string(s)
                return
            }
            if let d = AttributeDictionary.dataValue(raw) {
                self = .data(d)
                return
            }
            if let n = raw as? NSNumber {
                self = .string(n.stringValue)
                return
            }
            return nil
        case .number:
            if let s = AttributeDictionary.stringValue(raw) {
                if let i = Int64(s) { self = .integer(i) } else { self = .string(s) }
                return
            }
            guard let i = AttributeDictionary.intValue(raw), let v = Int64(exactly: i) else { return nil }
            self = .integer(v)
        case .date:
            if let d = raw as? Date {
                self = .date(d)
                return
            }
            if let d = raw as? NSDate {
                self = .date(d as Date)
                return
            }
            return nil
        }
    }

    /// The value Apple returns in attribute dictionaries (numbers as NSNumber).
    var foundationValue: Any {
        switch self {
        case .string(let s): return s
        case .data(let d): return d
        case .integer(let n): return NSNumber(value: n)
        case .double(let d): return NSNumber(value: d)
        case .date(let d): return d
        }
    }

    var stringValue: String? {
        switch self {
        case .string(let s): return s
        case .data(let d): return String(data: d, encoding: .utf8)
        case .integer(let n): return String(n)
        default: return nil
        }
    }

    var integerValue: Int64? {
        switch self {
        case .integer(let n): return n
        case .string(let s): return Int64(s)
        case .double(let d): return Int64(exactly: d)
        default: return nil
        }
    }
}
