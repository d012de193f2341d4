/// An ASN.1 GeneralizedTime in RFC 5280 form: `YYYYMMDDHHMMSSZ`.
///
/// Fractional seconds (`YYYYMMDDHHMMSS.fffZ`, up to 9 digits) are accepted only when
/// ``EncodingRules/allowsFractionalSeconds`` is set; they are written without trailing zeros.
package struct GeneralizedTime: Hashable, Sendable {
    /// The represented instant.
    package let dateTime: ASN1DateTime

    /// Wraps a date-time.
    package init(_ dateTime: ASN1DateTime) { self.dateTime = dateTime }

    /// Creates a GeneralizedTime for whole seconds since the Unix epoch.
    package init(secondsSinceEpoch: Int64) throws {
        dateTime = try ASN1DateTime(secondsSinceEpoch: secondsSinceEpoch)
    }

    /// Parses content octets under the given rules.
    package init(contentBytes bytes: ArraySlice<UInt8>, rules: EncodingRules = .distinguished) throws {
        var digits = ASN1TimeDigits(bytes)
        let year = try digits.read(4)
        let (month, day, hours, minutes, seconds) = try digits.readMonthThroughSeconds()
        var nanoseconds = 0
        if digits.index < bytes.endIndex, bytes[digits.index] == UInt8(ascii: ".") {
            guard rules.allowsFractionalSeconds else {
                throw ASN1Error(.invalidTime, "RFC 5280 forbids fractional seconds")
            }
            digits.index += 1
            var count = 0
            var scale = 100_000_000
            while digits.index < bytes.endIndex, bytes[digits.index] != UInt8(ascii: "Z") {
                guard count < 9 else { throw ASN1Error(.invalidTime, "more than 9 fractional digits") }
                nanoseconds += try digits.read(1) * scale
                scale /= 10
                count += 1
            }
            guard count > 0 else { throw ASN1Error(.invalidTime, "empty fractional seconds") }
        }
        try digits.expect(UInt8(ascii: "Z"))
        guard digits.isAtEnd else { throw ASN1Error(.invalidTime, "trailing characters in GeneralizedTime") }
        dateTime = try ASN1DateTime(
            year: year, month: month, day: day, hours: hours, minutes: minutes, seconds: seconds,
            nanoseconds: nanoseconds)
    }

    /// Whole seconds since the Unix epoch.
    package var secondsSinceEpoch: Int64 { dateTime.secondsSinceEpoch }
}

extension GeneralizedTime: DERImplicitlyTaggable {
    package static var defaultIdentifier: ASN1Identifier { .generalizedTime }

    package init(derEncoded node: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        try self.init(
            contentBytes: node.stringContent(expecting: identifier, segmentTag: .generalizedTime), rules: node.rules)
    }

    package func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        coder.appendPrimitiveNode(identifier: identifier) { bytes in
            for (value, width) in [
                (dateTime.year, 4), (dateTime.month, 2), (dateTime.day, 2),
                (dateTime.hours, 2), (dateTime.minutes, 2), (dateTime.seconds, 2),
            ] {
                ASN1TimeDigits.append(value, width: width, to: &bytes)
            }
            if dateTime.nanoseconds != 0 {
                var fraction: [UInt8] = []
                ASN1TimeDigits.append(dateTime.nanoseconds, width: 9, to: &fraction)
                while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
                bytes.append(UInt8(ascii: "."))
                bytes.append(contentsOf: fraction)
            }
            bytes.append(UInt8(ascii: "Z"))
        }
    }
}

extension GeneralizedTime: Comparable {
    package static func < (lhs: GeneralizedTime, rhs: GeneralizedTime) -> Bool { lhs.dateTime < rhs.dateTime }
}
