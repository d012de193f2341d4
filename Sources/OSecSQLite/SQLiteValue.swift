#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A value as SQLite stores it: one of its five storage classes.
package enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

extension SQLiteValue {
    /// The integer, or `nil` for any other storage class.
    package var integerValue: Int64? { if case .integer(let v) = self { v } else { nil } }
    /// The real (or an integer widened to a real), or `nil`.
    package var realValue: Double? {
        switch self {
        case .real(let v): v
        case .integer(let v): Double(v)
        default: nil
        }
    }
    /// The text, or `nil`.
    package var textValue: String? { if case .text(let v) = self { v } else { nil } }
    /// The blob, or `nil`.
    package var blobValue: Data? { if case .blob(let v) = self { v } else { nil } }
    /// `true` for `.null`.
    package var isNull: Bool { self == .null }
}

extension SQLiteValue: ExpressibleByIntegerLiteral {
    package init(integerLiteral value: Int64) { self = .integer(value) }
}

extension SQLiteValue: ExpressibleByStringLiteral {
    package init(stringLiteral value: String) { self = .text(value) }
}

extension SQLiteValue: ExpressibleByNilLiteral {
    package init(nilLiteral: ()) { self = .null }
}
