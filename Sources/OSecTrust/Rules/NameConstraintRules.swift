import OSecX509

// RFC 5280 §4.2.1.10 and §6.1.3 (b)–(c): the names of every certificate below a CA (self-issued intermediates
// exempt, the leaf never) must lie in its permitted subtrees and outside its excluded ones. The form of the constraints
// themselves is checked per certificate (CertificateProfileRules.swift).
extension PathValidator {
    /// A name of a certificate as name constraints see it, prepared once per path.
    enum ConstrainedName {
        case dns(NameConstraintMatcher.DNSName, String)
        case ip(ArraySlice<UInt8>)
        case email(NameConstraintMatcher.Mailbox, String)
        case directory(DistinguishedName)
        case uri(NameConstraintMatcher.URIHost, String)
        case other(Int)

        /// The GeneralName tag of this name's form.
        var tag: Int {
            switch self {
            case .email: return 1
            case .dns: return 2
            case .directory: return 4
            case .uri: return 6
            case .ip: return 7
            case .other(let tag): return tag
            }
        }

        var description: String {
            switch self {
            case .dns(_, let n): return "DNS name \(n)"
            case .ip(let bytes): return "IP address \(IPAddressText.format(bytes))"
            case .email(_, let n): return "email \(n)"
            case .directory(let n): return "directory name \(n.rfc4514String)"
            case .uri(_, let n): return "URI \(n)"
            case .other(let tag): return "name of type \(tag)"
            }
        }
    }

    /// A constraint prepared once per path.
    enum PreparedConstraint {
        case dns(NameConstraintMatcher.DNSConstraint)
        case ip(ArraySlice<UInt8>)
        case email(NameConstraintMatcher.MailboxConstraint)
        case directory(DistinguishedName)
        case uri(NameConstraintMatcher.URIConstraint)
        /// A form we cannot compare (otherName, x400Address, ediPartyName, registeredID).
        case other

        init(_ name: GeneralName) {
            switch name {
            case .dnsName(let value): self = .dns(NameConstraintMatcher.DNSConstraint(value))
            case .ipAddress(let bytes): self = .ip(bytes)
            case .rfc822Name(let value): self = .email(NameConstraintMatcher.MailboxConstraint(value))
            case .directoryName(let dn): self = .directory(dn)
            case .uniformResourceIdentifier(let value): self = .uri(NameConstraintMatcher.URIConstraint(value))
            case .otherName, .x400Address, .ediPartyName, .registeredID: self = .other
            }
        }
    }

    /// One CA's constraints, by GeneralName tag.
    struct PreparedConstraints {
        var permitted: [Int: [(PreparedConstraint, GeneralName)]] = [:]
        var excluded: [Int: [(PreparedConstraint, GeneralName)]] = [:]

        init(_ constraints: NameConstraints) {
            for name in constraints.permittedSubtrees ?? [] {
                permitted[PathValidator.tag(name), default: []].append((PreparedConstraint(name), name))
            }
            for name in constraints.excludedSubtrees ?? [] {
                excluded[PathValidator.tag(name), default: []].append((PreparedConstraint(name), name))
            }
        }
    }

    /// Applies every CA's constraints to the certificates below it, on the shared budget.
    func checkNameConstraints(_ budget: inout TrustBudget, _ failures: inout [TrustFailure]) {
        var names: [Int: [ConstrainedName]] = [:]
        for issuerIndex in 1..<max(1, path.count) {
            guard let constraints = path[issuerIndex].nameConstraints else { continue }
            let prepared = PreparedConstraints(constraints)
            for index in 0..<issuerIndex {
                let info = path[index]
                // Self-issued intermediates are exempt (§6.1.3 (b)); the leaf never is.
                if index > 0 && info.isSelfIssued { continue }
                if names[index] == nil { names[index] = constrainedNames(of: info) }
                if let reason = violation(of: prepared, by: names[index] ?? [], &budget) {
                    failures.append(
                        TrustFailure(index, .nameConstraints, reason + " (constraint in certificate \(issuerIndex))"))
                }
                if budget.isExhausted { return }
            }
        }
    }

    /// The names constraints apply to: the subject DN, the subject's emailAddress attributes (as rfc822Names) and every
    /// subjectAltName entry.
    func constrainedNames(of info: CertificateInfo) -> [ConstrainedName] {
        var names: [ConstrainedName] = []
        let subject = info.certificate.subject
        if !subject.isEmpty { names.append(.directory(subject)) }
        for address in subject.values(of: X509OID.emailAddress) {
            names.append(.email(NameConstraintMatcher.Mailbox(address), address))
        }
        for san in info.subjectAlternativeNames ?? [] {
            switch san {
            case .dnsName(let name): names.append(.dns(NameConstraintMatcher.DNSName(name), name))
            case .ipAddress(let bytes): names.append(.ip(bytes))
            case .rfc822Name(let address): names.append(.email(NameConstraintMatcher.Mailbox(address), address))
            case .directoryName(let name): names.append(.directory(name))
            case .uniformResourceIdentifier(let uri): names.append(.uri(NameConstraintMatcher.URIHost(uri), uri))
            case .otherName: names.append(.other(0))
            case .x400Address: names.append(.other(3))
            case .ediPartyName: names.append(.other(5))
            case .registeredID: names.append(.other(8))
            }
        }
        return names
    }

    static func tag(_ name: GeneralName) -> Int {
        switch name {
        case .otherName: return 0
        case .rfc822Name: return 1
        case .dnsName: return 2
        case .x400Address: return 3
        case .directoryName: return 4
        case .ediPartyName: return 5
        case .uniformResourceIdentifier: return 6
        case .ipAddress: return 7
        case .registeredID: return 8
        }
    }

    func compare(
        _ name: ConstrainedName, _ constraint: PreparedConstraint, forExclusion: Bool
    ) -> NameConstraintMatcher.Verdict {
        switch (name, constraint) {
        case (.dns(let n, _), .dns(let c)): return NameConstraintMatcher.dns(n, c, forExclusion: forExclusion)
        case (.ip(let n), .ip(let c)): return NameConstraintMatcher.ip(n, c)
        case (.email(let n, _), .email(let c)): return NameConstraintMatcher.email(n, c)
        case (.directory(let n), .directory(let c)): return NameConstraintMatcher.directory(n, c)
        case (.uri(let n, _), .uri(let c)): return NameConstraintMatcher.uri(n, c)
        default: return .invalid  // same tag, a form we cannot compare
        }
    }

    /// Why `names` violate `constraints`, or nil. Each comparison draws on the shared budget; when it runs out the
    /// check stops (the evaluation then fails with WorkBudget).
    func violation(
        of constraints: PreparedConstraints, by names: [ConstrainedName], _ budget: inout TrustBudget
    ) -> String? {
        // Constraint forms we cannot evaluate are only a problem if a name of that form is present.
        for name in names {
            let tag = name.tag
            for (constraint, original) in constraints.excluded[tag] ?? [] {
                guard budget.consume(.nameConstraintComparisons) else { return nil }
                switch compare(name, constraint, forExclusion: true) {
                case .match: return "\(name.description) is in an excluded subtree"
                case .invalid: return "\(name.description) cannot be checked against an excluded \(original)"
                case .noMatch: continue
                }
            }
            guard let relevant = constraints.permitted[tag], !relevant.isEmpty else { continue }
            var allowed = false
            for (constraint, original) in relevant {
                guard budget.consume(.nameConstraintComparisons) else { return nil }
                switch compare(name, constraint, forExclusion: false) {
                case .match: allowed = true
                case .invalid: return "\(name.description) cannot be checked against a permitted \(original)"
                case .noMatch: continue
                }
                if allowed { break }
            }
            if !allowed { return "\(name.description) is outside the permitted subtrees" }
        }
        return nil
    }
}
