import OSecASN1

/// A certificate time (RFC 5280 §4.1.2.5): whole seconds since the Unix epoch, plus the encoding it came in.
///
/// Parsed without Foundation so certificate parsing stays fast; convert to a `Date` when needed.
package struct X509Time: Hashable, Sendable, Comparable {
    /// Seconds since 1970-01-01T00:00:00Z.
    package let secondsSinceEpoch: Int64
    /// Whether the value was (or will be) encoded as GeneralizedTime rather than UTCTime.
    package let isGeneralizedTime: Bool

    /// A time in the RFC 5280 encoding: UTCTime for 1950...2049, GeneralizedTime otherwise.
    package init(secondsSinceEpoch: Int64) {
        self.secondsSinceEpoch = secondsSinceEpoch
        // 1950-01-01 = -631152000, 2050-01-01 = 2524608000.
        self.isGeneralizedTime = !(secondsSinceEpoch >= -631_152_000 && secondsSinceEpoch < 2_524_608_000)
    }

    init(secondsSinceEpoch: Int64, isGeneralizedTime: Bool) {
        self.secondsSinceEpoch = secondsSinceEpoch
        self.isGeneralizedTime = isGeneralizedTime
    }

    /// Earlier first.
    package static func < (lhs: X509Time, rhs: X509Time) -> Bool { lhs.secondsSinceEpoch < rhs.secondsSinceEpoch }

    /// Decodes a UTCTime or a GeneralizedTime (DER rules), remembering which it was.
    package init(derEncoded node: ASN1Node) throws {
        if node.identifier == .utcTime, case .primitive(let content) = node.content {
            secondsSinceEpoch = try UTCTime(contentBytes: content).secondsSinceEpoch
            isGeneralizedTime = false
        } else if node.identifier == .generalizedTime, case .primitive(let content) = node.content {
            secondsSinceEpoch = try GeneralizedTime(contentBytes: content, rules: .distinguished).secondsSinceEpoch
            isGeneralizedTime = true
        } else {
            throw X509Error(.malformed, "time is neither UTCTime nor GeneralizedTime")
        }
    }

    func serialize(into coder: inout DER.Serializer) throws {
        if isGeneralizedTime {
            try coder.serialize(GeneralizedTime(secondsSinceEpoch: secondsSinceEpoch))
        } else {
            try coder.serialize(UTCTime(secondsSinceEpoch: secondsSinceEpoch))
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`.
    package var iso8601: String {
        guard let dt = try? ASN1DateTime(secondsSinceEpoch: secondsSinceEpoch) else { return "\(secondsSinceEpoch)" }
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return
            "\(pad(dt.year, 4))-\(pad(dt.month, 2))-\(pad(dt.day, 2))"
            + "T\(pad(dt.hours, 2)):\(pad(dt.minutes, 2)):\(pad(dt.seconds, 2))Z"
    }
}

extension X509Time: CustomStringConvertible {
    /// The ISO 8601 form.
    package var description: String { iso8601 }
}
