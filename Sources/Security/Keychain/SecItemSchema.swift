import Foundation
import OSecKeychain

/// Apple's keychain item classes: the one enumeration of them (`kSecClass`).
///
/// Four classes are stored; each names the storage engine's schema for it (``storeClass``, an `ItemClass`
/// value, whose `code` is Apple's class code). The identity class is not stored: it is the join of a
/// certificate and the private key whose `klbl` equals the certificate's `pkhh` (reference §3), so it has
/// no schema and ``storeClass`` is nil. A class code nothing here names is errSecNoSuchClass (Apple's answer).
enum SecItemKind: CaseIterable, Sendable {
    case genericPassword
    case internetPassword
    case certificate
    case key
    case identity

    /// The class of Apple's code (`kSecClass`'s value: `genp`, `inet`, `cert`, `keys`, `idnt`), or nil.
    init?(rawValue: String) {
        guard let found = SecItemKind.byCode[rawValue] else { return nil }
        self = found
    }

    /// Apple's class code: the stored schema's code, or `idnt`.
    var rawValue: String { storeClass?.code ?? SecItemKind.identityCode }

    /// The storage engine's schema for the class (nil for the identity join).
    var storeClass: ItemClass? {
        switch self {
        case .genericPassword: return .genericPassword
        case .internetPassword: return .internetPassword
        case .certificate: return .certificate
        case .key: return .key
        case .identity: return nil
        }
    }

    /// The position in `allCases` (per-class tables are arrays in this order).
    var ordinal: Int {
        switch self {
        case .genericPassword: 0
        case .internetPassword: 1
        case .certificate: 2
        case .key: 3
        case .identity: 4
        }
    }

    /// Apple's code of the identity class (`kSecClassIdentity`), which no stored schema has.
    static let identityCode = kSecClassIdentity as String

    private static let byCode: [String: SecItemKind] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })
}

/// The attributes every stored class has that the storage engine keeps as dedicated fields of an item
/// (`NewItem`, `ItemQuery`, `ItemChanges`, `KeychainItem`) rather than in its class attributes. A parsed
/// query holds them apart (``SecItemQuery/engineFields``); results put them back under these keys.
enum SecItemEngineField: String, CaseIterable, Sendable {
    /// `kSecAttrAccessGroup`.
    case accessGroup = "agrp"
    /// `kSecAttrAccessible` (also set by `kSecAttrAccessControl`).
    case accessibility = "pdmn"
    /// `kSecAttrSynchronizable` (0 or 1; `kSecAttrSynchronizableAny` in queries matches both).
    case synchronizable = "sync"
    /// `kSecAttrCreationDate`: maintained by the keychain (accepted in queries, read-only in updates).
    case creationDate = "cdat"
    /// `kSecAttrModificationDate`: maintained by the keychain (accepted in queries, read-only in updates).
    case modificationDate = "mdat"

    /// How callers' values for the field are normalized.
    var kind: AttributeDescriptor.Kind {
        switch self {
        case .accessGroup, .accessibility: .bytes
        case .synchronizable: .number
        case .creationDate, .modificationDate: .date
        }
    }

    /// Whether the keychain maintains the field (callers cannot set it).
    var isReadOnly: Bool { self == .creationDate || self == .modificationDate }
}

/// Which attributes the identity class takes from the certificate (the rest are the private key's).
enum SecItemSchema {
    /// Certificate attributes that an identity query may use (they shadow the key's).
    static let identityCertificateAttributes: Set<String> = [
        "labl", "issr", "slnr", "skid", "subj", "pkhh", "ctyp", "cenc", "alis",
    ]

    /// How a class stores `key`, engine fields aside (nil when the class has no such attribute).
    static func classKind(of key: String, in itemClass: SecItemKind) -> AttributeDescriptor.Kind? {
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
