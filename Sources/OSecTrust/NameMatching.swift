import OSecX509

/// Host name matching for the SSL policy (Apple's SSLHostname; RFC 6125 §6.4).
package enum HostnameMatcher {
    /// Whether `pattern` (a SAN dNSName) matches `host`.
    ///
    /// Label-wise ASCII case-insensitive comparison with equal label counts; one trailing dot on the host is ignored
    /// (a pattern with a trailing dot is not in RFC 5280's preferred name syntax and never matches). `*` is allowed
    /// only as the whole left-most label of a pattern with at least three labels and never
    /// matches an empty label; partial wildcards (`f*.example.com`) and wildcards over IDN A-labels never match.
    package static func matches(pattern rawPattern: String, host rawHost: String) -> Bool {
        // Works on ASCII bytes: this runs on every SSL evaluation, and String's Unicode-aware lower-casing,
        // splitting and (Foundation's) `contains` cost more than the rest of the leaf checks together.
        guard rawPattern.utf8.last != dot, let host = normalize(rawHost, allowWildcard: false),
            let pattern = normalize(rawPattern, allowWildcard: true)
        else { return false }
        let hostLabels = labelRanges(host)
        let patternLabels = labelRanges(pattern)
        guard hostLabels.count == patternLabels.count else { return false }
        for index in patternLabels.indices {
            let p = pattern[patternLabels[index]]
            let h = host[hostLabels[index]]
            if index == 0 && p.count == 1 && p.first == star {
                guard patternLabels.count >= 3, !h.isEmpty, !h.starts(with: aLabelPrefix) else { return false }
                let base = String(decoding: pattern[patternLabels[1].lowerBound...], as: UTF8.self)
                guard !PublicSuffixList.shared.isPublicSuffix(base) else { return false }
                continue
            }
            if p.contains(star) { return false }
            guard p.elementsEqual(h) else { return false }
        }
        return true
    }

    private static let dot = UInt8(ascii: ".")
    private static let star = UInt8(ascii: "*")
    private static let aLabelPrefix = Array("xn--".utf8)

    /// The ranges of the dot-separated labels of `name` (empty labels included).
    private static func labelRanges(_ name: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for index in name.indices where name[index] == dot {
            ranges.append(start..<index)
            start = index + 1
        }
        ranges.append(start..<name.count)
        return ranges
    }

    /// ASCII-lower-cased bytes without one trailing dot, or nil when the name is not a syntactically valid DNS
    /// name (LDH labels of 1–63 bytes, at most 253 bytes; `*` only as the whole first label when allowed).
    static func normalize(_ name: String, allowWildcard: Bool) -> [UInt8]? {
        var bytes = Array(name.utf8)
        if bytes.last == dot { bytes.removeLast() }
        guard !bytes.isEmpty, bytes.count <= 253 else { return nil }
        for index in bytes.indices where bytes[index] >= 0x41 && bytes[index] <= 0x5A { bytes[index] |= 0x20 }
        for (index, range) in labelRanges(bytes).enumerated() {
            let label = bytes[range]
            if allowWildcard && index == 0 && label.count == 1 && label.first == star { continue }
            guard isValidLabel(label) else { return nil }
        }
        return bytes
    }

    /// A lower-case LDH label: 1–63 bytes of a–z, 0–9 and inner hyphens.
    static func isValidLabel(_ label: ArraySlice<UInt8>) -> Bool {
        guard !label.isEmpty, label.count <= 63 else { return false }
        for byte in label {
            let ok = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
            guard ok else { return false }
        }
        return label.first != 0x2D && label.last != 0x2D
    }

    /// Whether any SAN of the leaf proves `name` (no CN fallback: Apple's rule).
    package static func leaf(_ names: [GeneralName]?, matches name: PeerName) -> Bool {
        guard let names else { return false }
        for san in names {
            switch (san, name) {
            case (.dnsName(let pattern), .dns(let host)):
                if matches(pattern: pattern, host: host) { return true }
            case (.ipAddress(let bytes), .ip(let address)):
                if bytes.elementsEqual(address) { return true }
            case (.rfc822Name(let mailbox), .email(let address)):
                if emailEqual(mailbox, address) { return true }
            default:
                continue
            }
        }
        return false
    }

    /// Local part compared exactly, domain case-insensitively.
    package static func emailEqual(_ a: String, _ b: String) -> Bool {
        guard let at1 = a.lastIndex(of: "@"), let at2 = b.lastIndex(of: "@") else { return false }
        return a[..<at1] == b[..<at2]
            && a[a.index(after: at1)...].lowercased() == b[b.index(after: at2)...].lowercased()
    }
}

/// RFC 5280 §4.2.1.10 name-constraint matching.
package enum NameConstraintMatcher {
    /// The verdict for one name against one constraint.
    package enum Verdict {
        case match, noMatch
        /// The name or constraint cannot be evaluated (malformed, unsupported form): treat as a violation.
        case invalid
    }

    /// A DNS name against a dNSName constraint (RFC 5280 §4.2.1.10): `""` matches every name; `example.com` matches
    /// itself and every name made by adding labels on the left. A constraint that is not in the preferred name syntax
    /// (a leading period, a wildcard, an empty label) and a name that is not a DNS name are `.invalid`. A wildcard
    /// name `*.x` is treated as the set of names it can stand for: inside a permitted subtree iff every expansion is
    /// (`forExclusion == false`), inside an excluded subtree if any expansion could be (`forExclusion == true`).
    package static func dns(_ rawName: String, _ rawConstraint: String, forExclusion: Bool) -> Verdict {
        dns(DNSName(rawName), DNSConstraint(rawConstraint), forExclusion: forExclusion)
    }

    /// A DNS name prepared once for many comparisons: lower-cased bytes without a trailing dot, or nil when the name
    /// is not in the preferred name syntax (a left-most `*` label allowed).
    package struct DNSName: Sendable {
        let bytes: [UInt8]?
        /// The name is `*.` + base.
        let isWildcard: Bool

        /// Prepares `name` (a SAN dNSName).
        package init(_ name: String) {
            guard NameSyntax.isPreferredDNSName(name, allowWildcard: true),
                let normalized = HostnameMatcher.normalize(name, allowWildcard: true)
            else {
                bytes = nil
                isWildcard = false
                return
            }
            bytes = normalized
            isWildcard = normalized.count > 2 && normalized[0] == star && normalized[1] == dot
        }
    }

    /// A dNSName constraint prepared once: lower-cased bytes (empty: every name), or nil when malformed.
    package struct DNSConstraint: Sendable {
        let bytes: [UInt8]?

        /// Prepares `constraint` (a dNSName subtree base).
        package init(_ constraint: String) {
            if constraint.isEmpty {
                bytes = []
            } else if NameSyntax.isValidDNSConstraint(constraint) {
                bytes = HostnameMatcher.normalize(constraint, allowWildcard: false)
            } else {
                bytes = nil
            }
        }
    }

    /// A prepared DNS name against a prepared dNSName constraint (the rules of the string form above).
    package static func dns(_ name: DNSName, _ constraint: DNSConstraint, forExclusion: Bool) -> Verdict {
        guard let c = constraint.bytes else { return .invalid }
        if c.isEmpty { return .match }
        guard let n = name.bytes else { return .invalid }
        if name.isWildcard {
            let base = n[2...]
            // Expansions are exactly one label above `base`.
            if isSameOrBelow(base, c) { return .match }
            // The wildcard could expand to the constraint itself.
            if forExclusion, let dotIndex = c.firstIndex(of: dot), c[(dotIndex + 1)...].elementsEqual(base) {
                return .match
            }
            return .noMatch
        }
        return isSameOrBelow(n[...], c) ? .match : .noMatch
    }

    /// Whether `name` equals `domain` or ends with `.` + `domain` (lower-cased bytes).
    static func isSameOrBelow(_ name: ArraySlice<UInt8>, _ domain: [UInt8]) -> Bool {
        if name.count == domain.count { return name.elementsEqual(domain) }
        guard name.count > domain.count else { return false }
        let start = name.endIndex - domain.count
        return name[start - 1] == dot && name[start...].elementsEqual(domain)
    }

    private static let dot = UInt8(ascii: ".")
    private static let star = UInt8(ascii: "*")

    /// An IP address against an iPAddress constraint (address followed by mask, 8 or 32 octets).
    package static func ip(_ address: ArraySlice<UInt8>, _ constraint: ArraySlice<UInt8>) -> Verdict {
        guard constraint.count == 8 || constraint.count == 32 else { return .invalid }
        guard address.count == 4 || address.count == 16 else { return .invalid }
        let half = constraint.count / 2
        let base = Array(constraint.prefix(half))
        let mask = Array(constraint.suffix(half))
        // The mask must be a prefix mask (contiguous ones).
        var seenZero = false
        for byte in mask {
            for bit in 0..<8 {
                let one = byte & (0x80 >> bit) != 0
                if one && seenZero { return .invalid }
                if !one { seenZero = true }
            }
        }
        guard address.count == half else { return .noMatch }
        for (index, byte) in address.enumerated() where byte & mask[index] != base[index] & mask[index] {
            return .noMatch
        }
        return .match
    }

    /// An email address against an rfc822Name constraint (RFC 5280 §4.2.1.10): a mailbox (that mailbox only), a host
    /// (every mailbox at that host), or `.domain` (every mailbox at a host in the domain). A name that is not a mailbox
    /// or a constraint of none of these forms is `.invalid`.
    package static func email(_ address: String, _ constraint: String) -> Verdict {
        email(Mailbox(address), MailboxConstraint(constraint))
    }

    /// A mailbox prepared once: its local part and lower-cased domain, or nil when not a mailbox.
    package struct Mailbox: Sendable {
        let parts: (local: ArraySlice<UInt8>, domain: [UInt8])?

        /// Prepares `address` (a SAN rfc822Name or a subject emailAddress).
        package init(_ address: String) {
            let bytes = Array(address.utf8)
            guard NameSyntax.isMailbox(address), let at = NameSyntax.mailboxSeparator(bytes) else {
                parts = nil
                return
            }
            parts = (bytes[..<at], lowercased(bytes[(at + 1)...]))
        }
    }

    /// An rfc822Name constraint prepared once.
    package enum MailboxConstraint: Sendable {
        case invalid
        case everything
        /// One mailbox: the local part exactly, the domain in any letter case.
        case mailbox(local: ArraySlice<UInt8>, domain: [UInt8])
        /// Every mailbox at this host.
        case host([UInt8])
        /// Every mailbox at a host below this domain (the bytes after the leading period).
        case domain([UInt8])

        /// Prepares `constraint` (an rfc822Name subtree base).
        package init(_ constraint: String) {
            guard NameSyntax.isValidMailboxConstraint(constraint) else {
                self = .invalid
                return
            }
            let bytes = Array(constraint.utf8)
            if bytes.isEmpty {
                self = .everything
            } else if let at = NameSyntax.mailboxSeparator(bytes), bytes.contains(UInt8(ascii: "@")) {
                self = .mailbox(local: bytes[..<at], domain: lowercased(bytes[(at + 1)...]))
            } else if bytes.first == UInt8(ascii: ".") {
                self = .domain(lowercased(bytes.dropFirst()))
            } else {
                self = .host(lowercased(bytes[...]))
            }
        }
    }

    /// A prepared mailbox against a prepared rfc822Name constraint.
    package static func email(_ name: Mailbox, _ constraint: MailboxConstraint) -> Verdict {
        guard let (local, domain) = name.parts else { return .invalid }
        switch constraint {
        case .invalid: return .invalid
        case .everything: return .match
        case .mailbox(let l, let d): return local.elementsEqual(l) && domain == d ? .match : .noMatch
        case .host(let host): return domain == host ? .match : .noMatch
        case .domain(let suffix):
            return domain.count > suffix.count && isSameOrBelow(domain[...], suffix) ? .match : .noMatch
        }
    }

    /// ASCII lower-casing of bytes.
    static func lowercased(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }

    /// A directory name against a directoryName constraint: the constraint's RDNs are a prefix of the name's.
    package static func directory(_ name: DistinguishedName, _ constraint: DistinguishedName) -> Verdict {
        guard constraint.rdns.count <= name.rdns.count else { return .noMatch }
        for (a, b) in zip(constraint.rdns, name.rdns) {
            let na = DistinguishedName([a]).normalizedDERBytes
            let nb = DistinguishedName([b]).normalizedDERBytes
            if na != nb { return .noMatch }
        }
        return .match
    }

    /// A URI's host against a uniformResourceIdentifier constraint (RFC 5280 §4.2.1.10): a host (that host only) or
    /// `.domain` (every host in the domain). A URI without a DNS host (no authority, or an IP literal) cannot be
    /// checked and is `.invalid`, as is a malformed constraint.
    package static func uri(_ uri: String, _ constraint: String) -> Verdict {
        self.uri(URIHost(uri), URIConstraint(constraint))
    }

    /// The lower-cased host of a URI, or nil when it has none we can compare.
    package struct URIHost: Sendable {
        let bytes: [UInt8]?

        /// Prepares the host of `uri` (a SAN uniformResourceIdentifier).
        package init(_ uri: String) {
            if let host = NameSyntax.uriHost(uri), !host.isEmpty { bytes = Array(host.utf8) } else { bytes = nil }
        }
    }

    /// A uniformResourceIdentifier constraint prepared once.
    package enum URIConstraint: Sendable {
        case invalid
        case everything
        case host([UInt8])
        /// Hosts below this domain (the bytes after the leading period).
        case domain([UInt8])

        /// Prepares `constraint` (a uniformResourceIdentifier subtree base).
        package init(_ constraint: String) {
            let bytes = Array(constraint.utf8)
            if bytes.isEmpty {
                self = .everything
            } else if !NameSyntax.isValidDomainConstraint(constraint) {
                self = .invalid
            } else if bytes.first == UInt8(ascii: ".") {
                self = .domain(lowercased(bytes.dropFirst()))
            } else {
                self = .host(lowercased(bytes[...]))
            }
        }
    }

    /// A prepared URI host against a prepared uniformResourceIdentifier constraint.
    package static func uri(_ host: URIHost, _ constraint: URIConstraint) -> Verdict {
        guard let h = host.bytes else { return .invalid }
        switch constraint {
        case .invalid: return .invalid
        case .everything: return .match
        case .host(let c): return h == c ? .match : .noMatch
        case .domain(let suffix): return h.count > suffix.count && isSameOrBelow(h[...], suffix) ? .match : .noMatch
        }
    }
}
