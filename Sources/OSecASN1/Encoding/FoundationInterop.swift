#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Convenience entry points for Foundation callers. The core API works on [UInt8] / ArraySlice.

extension ASN1Node {
    /// Parses `data` as exactly one node. Copies the bytes once into an array.
    package init(parsing data: Data, rules: EncodingRules = .distinguished) throws {
        try self.init(parsing: [UInt8](data)[...], rules: rules)
    }
}

extension DERParseable {
    /// Parses `data` and decodes the value.
    package init(derEncoded data: Data, rules: EncodingRules = .distinguished) throws {
        try self.init(derEncoded: [UInt8](data)[...], rules: rules)
    }
}

extension PEMDocument {
    /// Parses every PEM document in UTF-8 `data`.
    package static func parseMultiple(data: Data) throws -> [PEMDocument] {
        try parseMultiple(utf8: [UInt8](data)[...])
    }
}

extension ASN1DateTime {
    /// Creates a date-time from a `Date`, dropping sub-second precision.
    package init(_ date: Date) throws {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard let whole = Int64(exactly: seconds) else {
            throw ASN1Error(.invalidTime, "date out of range")
        }
        try self.init(secondsSinceEpoch: whole)
    }

    /// The instant as a `Date`.
    package var date: Date {
        Date(timeIntervalSince1970: Double(secondsSinceEpoch) + Double(nanoseconds) / 1_000_000_000)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (what Foundation's
    /// `trimmingCharacters(in: .whitespaces)` removes: Unicode's white space that is not a line break).
    package func trimmingSpaces() -> SubSequence {
        var trimmed = self[...]
        while let first = trimmed.first, first.isWhitespace, !first.isNewline { trimmed = trimmed.dropFirst() }
        while let last = trimmed.last, last.isWhitespace, !last.isNewline { trimmed = trimmed.dropLast() }
        return trimmed
    }
}
