import OSecX509

// RFC 5280 §4.2.1.10 and §6.1.3 (b)–(c): the names of every certificate below a CA (self-issued intermediates
// exempt, the leaf never) must lie in its permitted subtrees and outside its excluded ones. The form of the constraints
// themselves is checked per certificate (CertificateProfileRules.swift).
extension PathValidator {
    /// Applies every CA's constraints to the certificates below it, on the shared budget.
    func checkNameConstraints(_ budget: inout TrustBudget, _ failures: inout [TrustFailure]) {
        for issuerIndex in 1..<max(1, path.count) {
            guard let constraints = path[issuerIndex].nameConstraints else { continue }
            for index in 0..<issuerIndex {
                let info = path[index]
                // Self-issued intermediates are exempt (§6.1.3 (b)); the leaf never is.
                if index > 0 && info.isSelfIssued { continue }
                if let reason = violation(of: constraints, by: info, &budget) {
                    failures.append(
                        TrustFailure(index, .nameConstraints, reason + " (constraint in certificate \(issuerIndex))"))
                }
                if budget.isExhausted { return }
            }
        }
    }

    /// A name of a certificate, as name constraints see it.
    enum ConstrainedName {
        case dns(String)
        case ip(ArraySlice<UInt8>)
        case email(String)
        case directory(DistinguishedName)
        case uri(String)
        case other(Int)
    }

    func constrainedNames(of info: CertificateInfo) -> [ConstrainedName] {
        var names: [ConstrainedName] = []
        let subject = info.certificate.subject
        if !subject.isEmpty { names.append(.directory(subject)) }
        for address in subject.values(of: X509OID.emailAddress) { names.append(.email(address)) }
        for san in info.subjectAlternativeNames ?? [] {
            switch san {
            case .dnsName(let name): names.append(.dns(name))
            case .ipAddress(let bytes): names.append(.ip(bytes))
            case .rfc822Name(let address): names.append(.email(address))
            case .directoryName(let name): names.append(.directory(name))
            case .uniformResourceIdentifier(let uri): names.append(.uri(uri))
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

    static func tag(_ name: ConstrainedName) -> Int {
        switch name {
        case .email: return 1
        case .dns: return 2
        case .directory: return 4
        case .uri: return 6
        case .ip: return 7
        case .other(let tag): return tag
        }
    }

    func compare(
        _ name: ConstrainedName, _ constraint: GeneralName, forExclusion: Bool
    ) -> NameConstraintMatcher.Verdict {
        switch (name, constraint) {
        case (.dns(let n), .dnsName(let c)): return NameConstraintMatcher.dns(n, c, forExclusion: forExclusion)
        case (.ip(let n), .ipAddress(let c)): return NameConstraintMatcher.ip(n, c)
        case (.email(let n), .rfc822Name(let c)): return NameConstraintMatcher.email(n, c)
        case (.directory(let n), .directoryName(let c)): return NameConstraintMatcher.directory(n, c)
        case (.uri(let n), .uniformResourceIdentifier(let c)): return NameConstraintMatcher.uri(n, c)
        default: return .invalid  // same tag, a form we cannot compare
        }
    }

    /// Why `info` violates `constraints`, or nil. Each comparison draws on the shared budget; when it runs out the
    /// check stops (the evaluation then fails with WorkBudget).
    func violation(of constraints: NameConstraints, by info: CertificateInfo, _ budget: inout TrustBudget) -> String? {
        let permitted = constraints.permittedSubtrees ?? []
        let excluded = constraints.excludedSubtrees ?? []
        // Constraint forms we cannot evaluate are only a problem if a name of that form is present.
        for name in constrainedNames(of: info) {
            let tag = PathValidator.tag(name)
            for constraint in excluded where PathValidator.tag(constraint) == tag {
                guard budget.consume(.nameConstraintComparisons) else { return nil }
                switch compare(name, constraint, forExclusion: true) {
                case .match: return "\(describe(name)) is in an excluded subtree"
                case .invalid: return "\(describe(name)) cannot be checked against an excluded \(constraint)"
                case .noMatch: continue
                }
            }
            let relevant = permitted.filter { PathValidator.tag($0) == tag }
            if relevant.isEmpty { continue }
            var allowed = false
            for constraint in relevant {
                guard budget.consume(.nameConstraintComparisons) else { return nil }
                switch compare(name, constraint, forExclusion: false) {
                case .match: allowed = true
                case .invalid: return "\(describe(name)) cannot be checked against a permitted \(constraint)"
                case .noMatch: continue
                }
                if allowed { break }
            }
            if !allowed { return "\(describe(name)) is outside the permitted subtrees" }
        }
        return nil
    }

    func describe(_ name: ConstrainedName) -> String {
        switch name {
        case .dns(let n): return "DNS name \(n)"
        case .ip(let bytes): return "IP address \(IPAddressText.format(bytes))"
        case .email(let n): return "email \(n)"
        case .directory(let n): return "directory name \(n.rfc4514String)"
        case .uri(let n): return "URI \(n)"
        case .other(let tag): return "name of type \(tag)"
        }
    }
}
