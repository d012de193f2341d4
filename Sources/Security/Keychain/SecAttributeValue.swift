import Foundation

/// An attribute value as the keychain stores it, normalized from the many Swift/Foundation spellings.
enum SecAttributeValue: Hashable, Sendable {
    case string(String)
    case data(Data)
    case number(Int64)
    case date(Date)

    /// Normalizes a caller's value for an attribute of `kind`, or nil when the value has the wrong type.
    init?(_ raw: Any, kind: SecAttributeKind) {
        switch kind {
        case .blob:
            if let s = AttributeDictionary.stringValue(raw) { self = .string(s); return }
            if let d = AttributeDictionary.dataValue(raw) { self = .data(d); return }
            if let n = raw as? NSNumber { self = .string(n.stringValue); return }
            return nil
        case .data:
            if let d = AttributeDictionary.dataValue(raw) { self = .data(d); return }
            if let s = AttributeDictionary.stringValue(raw) { self = .data(Data(s.utf8)); return }
            return nil
        case .number:
            if let s = AttributeDictionary.stringValue(raw) {
                // A decimal string becomes a number; anything else (e.g. a 4-char protocol code) stays a string.
                if let i = Int64(s) { self = .number(i) } else { self = .string(s) }
                return
            }
            guard let i = AttributeDictionary.intValue(raw), let v = Int64(exactly: i) else { return nil }
            self = .number(v)
        case .date:
            if let d = raw as? Date { self = .date(d); return }
            if let d = raw as? NSDate { self = .date(d as Date); return }
            return nil
        }
    }

    /// The bytes Apple compares for blob/data attributes (String as UTF-8), so "x" and Data("x") match.
    var matchBytes: Data {
        switch self {
        case .string(let s): return Data(s.utf8)
        case .data(let d): return d
        case .number(let n): return Data(String(n).utf8)
        case .date(let d): return Data(String(d.timeIntervalSinceReferenceDate).utf8)
        }
    }

    /// The value Apple returns in attribute dictionaries.
    var foundationValue: Any {
        switch self {
        case .string(let s): return s
        case .data(let d): return d
        case .number(let n): return NSNumber(value: n)
        case .date(let d): return d
        }
    }
}
