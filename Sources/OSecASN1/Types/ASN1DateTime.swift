/// A validated UTC calendar date and time (proleptic Gregorian, years 0...9999), the common
/// representation behind ``UTCTime`` and ``GeneralizedTime``.
///
/// Converts to and from seconds since the Unix epoch; leap seconds are not representable.
package struct ASN1DateTime: Hashable, Sendable {
    package let year: Int
    package let month: Int
    package let day: Int
    package let hours: Int
    package let minutes: Int
    package let seconds: Int
    /// Fractional seconds in nanoseconds (only non-zero for lenient GeneralizedTime).
    package let nanoseconds: Int

    /// Creates a date-time, validating every field against the calendar (including leap years).
    package init(year: Int, month: Int, day: Int, hours: Int, minutes: Int, seconds: Int, nanoseconds: Int = 0) throws {
        guard (0...9999).contains(year), (1...12).contains(month),
            (1...ASN1DateTime.daysInMonth(year: year, month: month)).contains(day),
            (0...23).contains(hours), (0...59).contains(minutes), (0...59).contains(seconds),
            (0...999_999_999).contains(nanoseconds)
        else {
            throw ASN1Error(
                .invalidTime, "date-time field out of range: \(year)-\(month)-\(day) \(hours):\(minutes):\(seconds)")
        }
        self.year = year
        self.month = month
        self.day = day
        self.hours = hours
        self.minutes = minutes
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// Creates the date-time for whole seconds since 1970-01-01T00:00:00Z. Throws outside years 0...9999.
    package init(secondsSinceEpoch: Int64) throws {
        let (days, secondOfDay) = ASN1DateTime.floorDivide(secondsSinceEpoch, 86_400)
        let (year, month, day) = ASN1DateTime.civil(fromDays: days)
        let second = Int(secondOfDay)
        try self.init(
            year: Int(exactly: year) ?? -1, month: month, day: day, hours: second / 3600,
            minutes: second / 60 % 60, seconds: second % 60)
    }

    /// Whole seconds since 1970-01-01T00:00:00Z (fractional seconds are dropped).
    package var secondsSinceEpoch: Int64 {
        let days = ASN1DateTime.days(year: Int64(year), month: Int64(month), day: Int64(day))
        return days * 86_400 + Int64(hours * 3600 + minutes * 60 + seconds)
    }

    static func isLeapYear(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor
        let remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// Days since the epoch for a civil date (H. Hinnant's algorithm).
    private static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date for days since the epoch. Callers pass `secondsSinceEpoch / 86400`, far from overflow.
    private static func civil(fromDays days: Int64) -> (Int64, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension ASN1DateTime: Comparable {
    package static func < (lhs: ASN1DateTime, rhs: ASN1DateTime) -> Bool {
        (lhs.secondsSinceEpoch, lhs.nanoseconds) < (rhs.secondsSinceEpoch, rhs.nanoseconds)
    }
}

/// Reads fixed-width decimal fields from time strings.
struct ASN1TimeDigits {
    let bytes: ArraySlice<UInt8>
    var index: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.index = bytes.startIndex
    }

    /// Reads `count` ASCII digits as a number.
    mutating func read(_ count: Int) throws -> Int {
        guard bytes.endIndex - index >= count else { throw ASN1Error(.invalidTime, "time string too short") }
        var value = 0
        for _ in 0..<count {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                throw ASN1Error(.invalidTime, "non-digit in time string")
            }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            index += 1
        }
        return value
    }

    /// Reads the `MMDDHHMMSS` that follows the year in both UTCTime and GeneralizedTime (two digits each; the
    /// ranges are checked when the ``ASN1DateTime`` is made).
    mutating func readMonthThroughSeconds() throws -> (month: Int, day: Int, hours: Int, minutes: Int, seconds: Int) {
        let month = try read(2)
        let day = try read(2)
        let hours = try read(2)
        let minutes = try read(2)
        let seconds = try read(2)
        return (month, day, hours, minutes, seconds)
    }

    /// Consumes a literal octet, or throws.
    mutating func expect(_ byte: UInt8) throws {
        guard index < bytes.endIndex, bytes[index] == byte else {
            throw ASN1Error(.invalidTime, "expected '\(Character(Unicode.Scalar(byte)))' in time string")
        }
        index += 1
    }

    var isAtEnd: Bool { index == bytes.endIndex }

    static func append(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: width)
        var rest = value
        for position in stride(from: width - 1, through: 0, by: -1) {
            digits[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        bytes.append(contentsOf: digits)
    }
}
