#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The value of one item attribute.
///
/// The engine keeps the case the caller used: an account given as `.string` comes back as `.string`, the
/// same bytes given as `.data` come back as `.data`, and both match each other in queries (Apple matches
/// blob attributes by their bytes, UTF-8 for strings).
package enum AttributeValue: Sendable, Hashable {
    /// Text (stored as its UTF-8 bytes in `bytes` attributes, as TEXT in `number` attributes, e.g. `ptcl` = "htps").
    case string(String)
    /// Raw bytes.
    case data(Data)
    /// An integer (CFNumber / CFBoolean as 0 or 1).
    case integer(Int64)
    /// A floating-point number.
    case double(Double)
    /// A date (stored as seconds since 2001-01-01 UTC, Apple's `CFAbsoluteTime`).
    case date(Date)
}

extension AttributeValue {
    /// The bytes of a `.string` (UTF-8) or `.data` value.
    package var bytes: Data? {
        switch self {
        case .string(let s): Data(s.utf8)
        case .data(let d): d
        default: nil
        }
    }
}
