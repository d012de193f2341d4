import OSecX509

/// Syntax rules for the names RFC 5280 puts in certificates: DNS names in the preferred name syntax, mailboxes,
/// URIs and the textual forms of IP addresses.
///
/// Everything here works on ASCII bytes and reads no state: the rules are the same for every certificate, whatever
/// suite or caller produced it.
package enum NameSyntax {
    // MARK: DNS names

    /// Whether `name` is in the preferred name syntax of RFC 1034 §3.5 as modified by RFC 1123 §2.1 (RFC 5280
    /// §4.2.1.6): LDH labels of 1–63 octets, letters or digits at both ends, at most 253 octets, no empty label (so
    /// no leading, trailing or doubled dot). With `allowWildcard`, the whole left-most label may be `*` (RFC 6125
    /// §6.4.3 and the CA/B Forum's Wildcard Domain Name), provided a label follows it. (Whether a wildcard may match
    /// is ``HostnameMatcher``'s question: never over fewer than two labels or a public suffix.)
    package static func isPreferredDNSName(_ name: String, allowWildcard: Bool = false) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        var labels = bytes.split(separator: dot, omittingEmptySubsequences: false)
        if allowWildcard, let first = labels.first, first.count == 1, first.first == star {
            guard labels.count >= 2 else { return false }
            labels.removeFirst()
        }
        return labels.allSatisfy(isLDHLabel)
    }

    /// A label of letters, digits and inner hyphens, 1–63 octets (either letter case).
    package static func isLDHLabel(_ label: ArraySlice<UInt8>) -> Bool {
        guard !label.isEmpty, label.count <= 63, label.first != hyphen, label.last != hyphen else { return false }
        return label.allSatisfy { isLetterOrDigit($0) || $0 == hyphen }
    }

    /// Whether a dNSName name constraint is well formed (RFC 5280 §4.2.1.10): empty (every name), or a DNS name in the
    /// preferred name syntax. Unlike URI and rfc822Name constraints, a dNSName constraint never starts with a period
    /// and never holds a wildcard.
    package static func isValidDNSConstraint(_ constraint: String) -> Bool {
        constraint.isEmpty || isPreferredDNSName(constraint)
    }

    /// Whether a host or domain constraint of a URI or rfc822Name constraint is well formed: a DNS name in the
    /// preferred name syntax, optionally preceded by one period ("any host in the domain").
    package static func isValidDomainConstraint(_ constraint: String) -> Bool {
        var text = Substring(constraint)
        if text.hasPrefix(".") { text = text.dropFirst() }
        return isPreferredDNSName(String(text))
    }

    // MARK: Mailboxes (rfc822Name)

    /// Whether `address` is an RFC 5321 §4.1.2 `Mailbox` (`Local-part "@" Domain`), as RFC 5280 §4.2.1.6 requires of
    /// an rfc822Name: a dot-string or quoted-string local part, exactly one unquoted `@`, and a domain in the preferred
    /// name syntax (address literals are not used in certificates).
    package static func isMailbox(_ address: String) -> Bool {
        let bytes = Array(address.utf8)
        guard let at = mailboxSeparator(bytes) else { return false }
        let local = bytes[..<at]
        let domain = bytes[(at + 1)...]
        return isLocalPart(local) && isPreferredDNSName(String(decoding: domain, as: UTF8.self))
    }

    /// Whether an rfc822Name name constraint is well formed (RFC 5280 §4.2.1.10): a mailbox, a host, or a domain
    /// preceded by a period.
    package static func isValidMailboxConstraint(_ constraint: String) -> Bool {
        if constraint.isEmpty { return true }
        if constraint.utf8.contains(at) { return isMailbox(constraint) }
        return isValidDomainConstraint(constraint)
    }

    /// The index of the `@` that separates local part and domain: the last one outside a quoted local part.
    static func mailboxSeparator(_ bytes: [UInt8]) -> Int? {
        var quoted = false
        var escaped = false
        var separator: Int? = nil
        for (index, byte) in bytes.enumerated() {
            if escaped {
                escaped = false
                continue
            }
            if quoted && byte == backslash {
                escaped = true
            } else if byte == quote {
                quoted.toggle()
            } else if byte == at && !quoted {
                guard separator == nil else { return nil }
                separator = index
            }
        }
        return quoted ? nil : separator
    }

    private static func isLocalPart(_ local: ArraySlice<UInt8>) -> Bool {
        guard !local.isEmpty, local.count <= 64 else { return false }
        if local.first == quote {
            // quoted-string: printable ASCII, backslash escapes, closing quote last.
            guard local.count >= 2, local.last == quote else { return false }
            return local.dropFirst().dropLast().allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        }
        // dot-string: atoms of atext separated by single dots.
        let atoms = local.split(separator: dot, omittingEmptySubsequences: false)
        return atoms.allSatisfy { atom in !atom.isEmpty && atom.allSatisfy(isAtext) }
    }

    private static func isAtext(_ byte: UInt8) -> Bool {
        isLetterOrDigit(byte) || Array("!#$%&'*+-/=?^_`{|}~".utf8).contains(byte)
    }

    // MARK: URIs

    /// Whether `uri` is an absolute URI (RFC 3986) as RFC 5280 §4.2.1.6 requires of a uniformResourceIdentifier: a
    /// scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`), a colon and a non-empty scheme-specific part; when it has
    /// an authority (`//`), the host is not empty.
    package static func isAbsoluteURI(_ uri: String) -> Bool {
        let bytes = Array(uri.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return false }
        let scheme = bytes[..<colon]
        guard let first = scheme.first, isLetter(first),
            scheme.allSatisfy({ isLetterOrDigit($0) || $0 == 0x2B || $0 == hyphen || $0 == dot })
        else { return false }
        let rest = bytes[(colon + 1)...]
        guard !rest.isEmpty, rest.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return false }
        if rest.starts(with: [0x2F, 0x2F]) {
            return uriHost(uri).map { !$0.isEmpty } ?? false
        }
        return true
    }

    /// The host of a URI with an authority (`scheme://[userinfo@]host[:port]/…`), lower-cased; nil without one, or
    /// when the host is an IP literal in brackets.
    package static func uriHost(_ uri: String) -> String? {
        guard let schemeEnd = uri.range(of: "://") else { return nil }
        var rest = uri[schemeEnd.upperBound...]
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        if rest.hasPrefix("[") { return nil }
        if let colon = rest.lastIndex(of: ":") { rest = rest[..<colon] }
        return rest.lowercased()
    }

    // MARK: IP addresses in text

    /// Reads a string as an IP address the way a lenient resolver would (`inet_aton` for IPv4: one to four parts,
    /// each decimal, octal with a leading `0`, or hexadecimal with `0x`; any IPv6 text with or without `::`, in either
    /// letter case, with leading zeros, or with a trailing dotted quad). Nil when the string is not an address.
    ///
    /// This is how a certificate's commonName can *denote* an address without being its canonical text; compare the
    /// result with ``canonicalText(_:)`` to tell the two apart.
    package static func lenientIPAddress(_ text: String) -> [UInt8]? {
        if text.contains(":") { return IPAddressText.parse(text) }
        return lenientIPv4(text)
    }

    private static func lenientIPv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var values: [UInt64] = []
        for part in parts {
            guard let value = inetNumber(part) else { return nil }
            values.append(value)
        }
        // The last part fills the remaining octets (a.b.c.d, a.b.c16, a.b24, a32).
        let lastCapacity = UInt64(1) << (8 * UInt64(5 - parts.count))
        guard values.dropLast().allSatisfy({ $0 <= 0xFF }), let last = values.last, last < lastCapacity else {
            return nil
        }
        var address: UInt64 = 0
        for value in values.dropLast() { address = address << 8 | value }
        address = address << (8 * UInt64(5 - parts.count)) | last
        return (0..<4).map { UInt8(truncatingIfNeeded: address >> (8 * UInt64(3 - $0))) }
    }

    /// One `inet_aton` number: `0x…` hexadecimal, `0…` octal, else decimal; at most 32 bits.
    private static func inetNumber(_ part: Substring) -> UInt64? {
        guard !part.isEmpty, part.count <= 34 else { return nil }
        let lower = part.lowercased()
        let value: UInt64?
        if lower.hasPrefix("0x") {
            let digits = lower.dropFirst(2)
            value = digits.isEmpty ? 0 : UInt64(digits, radix: 16)
        } else if lower.count > 1 && lower.hasPrefix("0") {
            value = UInt64(lower.dropFirst(), radix: 8)
        } else {
            value = lower.allSatisfy(\.isASCII) ? UInt64(lower, radix: 10) : nil
        }
        guard let value, value <= 0xFFFF_FFFF else { return nil }
        return value
    }

    /// The canonical text of an address: RFC 3986 §3.2.2 dotted decimal without leading zeros for IPv4, RFC 5952 §4
    /// for IPv6 (lower case, no leading zeros, the longest run of two or more zero groups as `::`, the first one on a
    /// tie). Nil for other lengths.
    package static func canonicalText(_ bytes: ArraySlice<UInt8>) -> String? {
        if bytes.count == 4 { return bytes.map { String($0) }.joined(separator: ".") }
        guard bytes.count == 16 else { return nil }
        var groups: [UInt16] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            groups.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
            index += 2
        }
        // The longest run of zero groups (length ≥ 2), first on a tie.
        var bestStart = -1
        var bestLength = 0
        var runStart = -1
        for (position, group) in groups.enumerated() {
            if group == 0 {
                if runStart < 0 { runStart = position }
                let length = position - runStart + 1
                if length > bestLength {
                    bestLength = length
                    bestStart = runStart
                }
            } else {
                runStart = -1
            }
        }
        func hex(_ range: Range<Int>) -> String {
            groups[range].map { String($0, radix: 16) }.joined(separator: ":")
        }
        guard bestLength >= 2 else { return hex(0..<8) }
        return hex(0..<bestStart) + "::" + hex((bestStart + bestLength)..<8)
    }

    // MARK: Bytes

    private static let dot = UInt8(ascii: ".")
    private static let star = UInt8(ascii: "*")
    private static let hyphen = UInt8(ascii: "-")
    private static let at = UInt8(ascii: "@")
    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    private static func isLetterOrDigit(_ byte: UInt8) -> Bool { isLetter(byte) || (byte >= 0x30 && byte <= 0x39) }
}
