/// An ASN.1 UTCTime in RFC 5280 form: `YYMMDDHHMMSSZ`.
///
/// Two-digit years 50...99 mean 1950...1999 and 00...49 mean 2000...2049 (RFC 5280 §4.1.2.5.1).
package struct UTCTime: Hashable, Sendable {
    /// The represented instant.
    package let dateTime: ASN1DateTime

    /// Wraps a date-time; throws unless the year is 1950...2049 and there are no fractional seconds.
    package init(_ dateTime: ASN1DateTime) throws {
        guard (1950...2049).contains(dateTime.year), dateTime.nanoseconds == 0 else {
            throw ASN1Error(.invalidTime, "UTCTime can only represent whole seconds in 1950...2049")
        }
        self.dateTime = dateTime
    }

    /// Creates a UTCTime for whole seconds since the Unix epoch.
    package init(secondsSinceEpoch: Int64) throws {
        try self.init(ASN1DateTime(secondsSinceEpoch: secondsSinceEpoch))
    }

    /// Parses content octets.
    package init(contentBytes bytes: ArraySlice<UInt8>) throws {
        guard bytes.count == 13 else { throw ASN1Error(.invalidTime, "UTCTime must be YYMMDDHHMMSSZ") }
        var digits = ASN1TimeDigits(bytes)
        let shortYear = try digits.read(2)
        let (month, day, hours, minutes, seconds) = try digits.readMonthThroughSeconds()
        try digits.expect(UInt8(ascii: "Z"))
        dateTime = try ASN1DateTime(
            year: shortYear >= 50 ? 1900 + shortYear : 2000 + shortYear, month: month, day: day,
            hours: hours, minutes: minutes, seconds: seconds)
    }

    /// Whole seconds since the Unix epoch.
    package var secondsSinceEpoch: Int64 { dateTime.secondsSinceEpoch }
}

extension UTCTime: DERImplicitlyTaggable {
    package static var defaultIdentifier: ASN1Identifier { .utcTime }

    package init(derEncoded node: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        try self.init(contentBytes: node.stringContent(expecting: identifier, segmentTag: .utcTime))
    }

    package func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        coder.appendPrimitiveNode(identifier: identifier) { bytes in
            for (value, width) in [
                (dateTime.year % 100, 2), (dateTime.month, 2), (dateTime.day, 2),
                (dateTime.hours, 2), (dateTime.minutes, 2), (dateTime.seconds, 2),
            ] {
                ASN1TimeDigits.append(value, width: width, to: &bytes)
            }
            bytes.append(UInt8(ascii: "Z"))
        }
    }
}

extension UTCTime: Comparable {
    package static func < (lhs: UTCTime, rhs: UTCTime) -> Bool { lhs.dateTime < rhs.dateTime }
}
