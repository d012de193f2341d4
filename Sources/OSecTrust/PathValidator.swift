import OSecASN1
import OSecCrypto
import OSecX509

/// RFC 5280 §6.1 path validation plus Apple's and the Web PKI's policy rules, on one candidate path.
///
/// The path is leaf first; when `anchored`, its last element is the trust anchor. Every check appends
/// ``TrustFailure``s instead of stopping, so callers can classify and rank them as Apple does.
package struct PathValidator {
    let path: [CertificateInfo]
    let anchored: Bool
    let options: ValidationOptions
    let usesSystemAnchors: Bool

    package init(path: [CertificateInfo], anchored: Bool, options: ValidationOptions, usesSystemAnchors: Bool = false) {
        self.path = path
        self.anchored = anchored
        self.options = options
        self.usesSystemAnchors = usesSystemAnchors
    }

    /// 2019-07-01T00:00:00Z: Apple's cut-off for the ServerAuthEKU and 825-day rules with custom anchors.
    static let appleCutoff2019: Int64 = 1_561_939_200
    /// 2018-03-01T00:00:00Z and 2020-09-01T00:00:00Z: the system-anchor 825/398-day cut-offs.
    static let appleCutoff2018: Int64 = 1_519_862_400
    static let appleCutoff2020: Int64 = 1_598_918_400
    static let day: Int64 = 86_400

    package func validate() -> (failures: [TrustFailure], revocationChecked: Bool) {
        var failures: [TrustFailure] = []
        let count = path.count
        let anchorIndex = anchored ? count - 1 : -1
        for (index, info) in path.enumerated() {
            let certificate = info.certificate
            let isAnchor = index == anchorIndex
            let isLeaf = index == 0

            // Temporal validity: every certificate, the anchor included (Apple's TemporalValidity).
            if !certificate.isValid(atSecondsSinceEpoch: options.time) {
                let reason =
                    options.time < certificate.notBefore.secondsSinceEpoch
                    ? "not valid before \(certificate.notBefore)" : "expired at \(certificate.notAfter)"
                failures.append(TrustFailure(index, .temporalValidity, reason))
            }
            checkStructure(info, index, isAnchor: isAnchor, isLeaf: isLeaf, &failures)
            checkKey(info, index, isAnchor: isAnchor, &failures)
            if !isAnchor { checkSignatureAlgorithm(info, index, &failures) }
            if !isLeaf { checkIssuer(info, index, isAnchor: isAnchor, &failures) }
        }
        checkLeaf(&failures)
        checkExtendedKeyUsageChain(&failures)
        checkNameConstraints(&failures)
        if anchored { checkPolicies(&failures) }
        let revocationChecked = checkRevocation(&failures)
        if let maximum = options.maximumIntermediates {
            let intermediates = max(0, count - (anchored ? 2 : 1))
            if intermediates > maximum {
                failures.append(
                    TrustFailure(
                        0, .callerConstraint, "\(intermediates) intermediates exceed the maximum of \(maximum)"))
            }
        }
        return (failures, revocationChecked)
    }

    // MARK: Per certificate

    private func checkStructure(
        _ info: CertificateInfo, _ index: Int, isAnchor: Bool, isLeaf: Bool,
        _ failures: inout [TrustFailure]
    ) {
        let certificate = info.certificate
        for oid in info.unparseableExtensions {
            failures.append(TrustFailure(index, .unparseableExtension, "extension \(oid) is malformed"))
        }
        // Unknown critical extensions are rejected on every certificate, the anchor included (RFC 5280 §4.2; webpki
        // ignores them on anchors, we take the stricter rule).
        for oid in info.unhandledCriticalExtensions {
            failures.append(TrustFailure(index, .criticalExtensions, "unknown critical extension \(oid)"))
        }
        // RFC 5280 §4.2.1.10: nameConstraints only in CA certificates, and always critical.
        if let extensionValue = certificate.extensions[oid: X509OID.nameConstraints] {
            if !info.isCA {
                failures.append(TrustFailure(index, .nameConstraints, "nameConstraints in a non-CA certificate"))
            } else if !extensionValue.critical {
                failures.append(TrustFailure(index, .nameConstraints, "nameConstraints not marked critical"))
            }
        }
        // RFC 5280 §4.2.1.11 / §4.2.1.14: policyConstraints and inhibitAnyPolicy MUST be critical.
        for oid in [X509OID.policyConstraints, X509OID.inhibitAnyPolicy] {
            if let item = certificate.extensions[oid: oid], !item.critical {
                failures.append(TrustFailure(index, .policyConstraints, "\(oid.dotted) must be critical"))
            }
        }
        // Malformed iPAddress constraints (wrong length, non-contiguous mask) poison the whole extension.
        if let constraints = info.nameConstraints {
            for case .ipAddress(let bytes) in (constraints.permittedSubtrees ?? [])
                + (constraints.excludedSubtrees ?? [])
            {
                let probe = [UInt8](repeating: 0, count: bytes.count == 8 ? 4 : 16)
                if NameConstraintMatcher.ip(probe[...], bytes) == .invalid {
                    failures.append(TrustFailure(index, .nameConstraints, "malformed iPAddress name constraint"))
                }
            }
        }
        if options.cabfProfile { checkBaselineProfile(info, index, isLeaf: isLeaf, &failures) }
        if options.rejectAnyExtendedKeyUsage && isAnchor && !isLeaf && info.extendedKeyUsage != nil {
            failures.append(TrustFailure(index, .extendedKeyUsage, "root certificate carries extendedKeyUsage"))
        }
        // RFC 5280 §4.1.2.2: serial numbers are positive and at most 20 octets.
        let serial = certificate.serialNumber
        if serial.count > 21 || (serial.count == 21 && serial.first != 0) {
            failures.append(TrustFailure(index, .malformed, "serial number longer than 20 octets"))
        }
        if let first = serial.first, first & 0x80 != 0 {
            failures.append(TrustFailure(index, .malformed, "negative serial number"))
        }
        if serial.allSatisfy({ $0 == 0 }) && !isAnchor {
            failures.append(TrustFailure(index, .malformed, "zero serial number"))
        }
        // RFC 5280 §4.2.1.2: SKI MUST NOT be critical; §4.2.1.1: AKI MUST NOT be critical.
        for oid in [X509OID.subjectKeyIdentifier, X509OID.authorityKeyIdentifier]
        where certificate.extensions[oid: oid]?.critical == true {
            failures.append(TrustFailure(index, .criticalExtensions, "\(oid.dotted) must not be critical"))
        }
        // RFC 5280 §4.2.1.6: an empty subject requires a critical SAN; a SAN must not be empty.
        if certificate.subject.isEmpty {
            let san = certificate.extensions[oid: X509OID.subjectAltName]
            if san == nil || san?.critical != true || info.isCA {
                failures.append(
                    TrustFailure(index, .nonEmptySubject, "empty subject without a critical subjectAltName"))
            }
        }
        // RFC 5280 §4.2.1.1: AKI required in every certificate except self-signed ones.
        // §4.2.1.1 also requires its keyIdentifier field in certificates from conforming CAs.
        if !isAnchor && !info.isSelfIssued {
            if info.authorityKeyIdentifier == nil {
                failures.append(TrustFailure(index, .idLinkage, "authorityKeyIdentifier missing"))
            } else if info.authorityKeyIdentifier?.keyIdentifier == nil {
                failures.append(TrustFailure(index, .idLinkage, "authorityKeyIdentifier without keyIdentifier"))
            }
        }
        // RFC 5280 §4.2.1.9: pathLenConstraint only with cA; keyCertSign requires cA (§4.2.1.3).
        if let bc = info.basicConstraints, !bc.isCertificateAuthority, bc.pathLengthConstraint != nil {
            failures.append(TrustFailure(index, .basicConstraints, "pathLenConstraint without cA"))
        }
        if let ku = info.keyUsage, ku.contains(.keyCertSign), !info.isCA {
            failures.append(TrustFailure(index, .basicConstraints, "keyCertSign without cA"))
        }
        if let ku = info.keyUsage, ku.isEmpty {
            failures.append(TrustFailure(index, .keyUsage, "keyUsage with no bits set"))
        }
        if let san = info.subjectAlternativeNames, san.isEmpty {
            failures.append(TrustFailure(index, .unparseableExtension, "empty subjectAltName"))
        }
    }

    /// CA/Browser Forum baseline rules that RFC 5280 leaves open.
    private func checkBaselineProfile(
        _ info: CertificateInfo, _ index: Int, isLeaf: Bool, _ failures: inout [TrustFailure]
    ) {
        let certificate = info.certificate
        // BR 7.1.2.7.12: SAN critical only when the subject is empty.
        if let san = certificate.extensions[oid: X509OID.subjectAltName], san.critical, !certificate.subject.isEmpty {
            failures.append(
                TrustFailure(index, .criticalExtensions, "subjectAltName critical with a non-empty subject"))
        }
        // BR 7.1.2.11.1: AKI carries only keyIdentifier; in a self-signed certificate it equals the SKI.
        if let aki = info.authorityKeyIdentifier {
            if aki.authorityCertIssuer != nil || aki.authorityCertSerialNumber != nil {
                failures.append(TrustFailure(index, .idLinkage, "authorityKeyIdentifier with issuer or serial number"))
            }
            if info.isSelfIssued, let keyID = aki.keyIdentifier, let ski = info.subjectKeyIdentifier, keyID != ski,
                info.isSelfSigned
            {
                failures.append(
                    TrustFailure(index, .idLinkage, "self-signed certificate whose AKI differs from its SKI"))
            }
        }
        // BR 6.1.5: RSA modulus size a multiple of 8 bits.
        if info.keyKind == .rsa && info.keyBits % 8 != 0 {
            failures.append(TrustFailure(index, .keySize, "RSA modulus of \(info.keyBits) bits is not a multiple of 8"))
        }
        // BR 7.1.2.7.8: a subscriber (leaf) certificate is not a CA. (x509-limbo's rfc5280::ca-as-leaf expects the
        // opposite for the same certificate; we take the stricter rule.)
        if isLeaf && options.purpose != .any && info.isCA && !(anchored && path.count == 1) {
            failures.append(TrustFailure(index, .notCA, "CA certificate used as an end entity"))
        }
        // BR 7.1.2.7.8 / 7.1.2.10.4: a certificate asserting cA must be able to sign certificates.
        if info.isCA, let ku = info.keyUsage, !ku.contains(.keyCertSign) {
            failures.append(TrustFailure(index, .basicConstraints, "cA asserted without keyCertSign"))
        }
        // BR 7.1.4.3: a leaf's commonName must be a character-for-character copy of a SAN entry. RFC 5280 lets the
        // CN be anything, so we enforce it where a mismatch is suspicious: a CN equal to a SAN entry except for
        // letter case, or an internationalized CN (U-label or A-label) not copied from the SAN.
        if isLeaf && options.purpose == .serverAuth {
            let dnsNames = (info.subjectAlternativeNames ?? []).compactMap { name -> String? in
                if case .dnsName(let value) = name { return value }
                return nil
            }
            for cn in certificate.subject.commonNames where !dnsNames.contains(cn) {
                let caseVariant = dnsNames.contains { $0.lowercased() == cn.lowercased() }
                let internationalized =
                    !cn.allSatisfy(\.isASCII) || cn.lowercased().split(separator: ".").contains { $0.hasPrefix("xn--") }
                if caseVariant || internationalized {
                    failures.append(
                        TrustFailure(index, .sslHostname, "commonName \(cn) is not a copy of a subjectAltName entry"))
                }
            }
        }
    }

    private func checkKey(_ info: CertificateInfo, _ index: Int, isAnchor: Bool, _ failures: inout [TrustFailure]) {
        switch info.keyKind {
        case .rsa:
            if info.keyBits < 1024 {
                failures.append(TrustFailure(index, .weakKeySize, "RSA key of \(info.keyBits) bits"))
            } else if info.keyBits < (options.sslRules ? max(2048, options.minimumRSABits) : options.minimumRSABits) {
                failures.append(
                    TrustFailure(index, .keySize, "RSA key of \(info.keyBits) bits is below the policy minimum"))
            }
        case .ec, .ed25519, .ed448:
            break
        case .unsupported:
            failures.append(
                TrustFailure(
                    index, .weakKeySize,
                    "unsupported public key algorithm \(info.certificate.publicKeyInfo.algorithm.oid.dotted)"))
        }
    }

    private func checkSignatureAlgorithm(_ info: CertificateInfo, _ index: Int, _ failures: inout [TrustFailure]) {
        let algorithm = info.certificate.signatureAlgorithm
        if let allowed = options.allowedSignatureAlgorithms, !allowed.contains(algorithm.identifier) {
            failures.append(TrustFailure(index, .callerConstraint, "signature algorithm \(algorithm) not allowed"))
        }
        guard let kind = try? algorithm.kind else {
            failures.append(TrustFailure(index, .signature, "unsupported signature algorithm \(algorithm.oid.dotted)"))
            return
        }
        let digest: DigestAlgorithm?
        switch kind {
        case .rsaPKCS1(let d), .ecdsa(let d): digest = d
        case .rsaPSS(let d, _): digest = d
        case .ed25519: digest = nil
        }
        if digest == .md5 {
            failures.append(TrustFailure(index, .weakSignature, "MD5 signature"))
        } else if digest == .sha1 {
            failures.append(TrustFailure(index, .signatureHashAlgorithms, "SHA-1 signature"))
        }
    }

    /// Checks a certificate that issues the one below it (index ≥ 1).
    private func checkIssuer(_ info: CertificateInfo, _ index: Int, isAnchor: Bool, _ failures: inout [TrustFailure]) {
        let certificate = info.certificate
        if certificate.version != .v3 {
            failures.append(TrustFailure(index, .basicConstraints, "\(certificate.version) certificate used as a CA"))
        }
        guard let bc = info.basicConstraints else {
            failures.append(TrustFailure(index, .basicConstraints, "CA certificate without basicConstraints"))
            return
        }
        guard bc.isCertificateAuthority else {
            failures.append(TrustFailure(index, .basicConstraintsCA, "issuer is not a CA (cA false)"))
            return
        }
        // RFC 5280 §4.2.1.9: basicConstraints MUST be critical in CA certificates (not enforced on anchors).
        if !isAnchor && certificate.extensions[oid: X509OID.basicConstraints]?.critical != true {
            failures.append(TrustFailure(index, .basicConstraints, "basicConstraints not critical in a CA certificate"))
        }
        if let ku = info.keyUsage, !ku.contains(.keyCertSign) {
            failures.append(TrustFailure(index, .keyUsage, "issuer key usage lacks keyCertSign"))
        }
        // RFC 5280 §4.2.1.2: CA certificates MUST carry a subjectKeyIdentifier.
        if info.subjectKeyIdentifier == nil {
            failures.append(TrustFailure(index, .idLinkage, "CA certificate without subjectKeyIdentifier"))
        }
        // The child's AKI keyIdentifier, when present, must match this SKI.
        let child = path[index - 1]
        if let aki = child.authorityKeyIdentifier?.keyIdentifier, let ski = info.subjectKeyIdentifier, aki != ski {
            failures.append(
                TrustFailure(index - 1, .idLinkage, "authorityKeyIdentifier does not match the issuer's SKI"))
        }
        if let limit = bc.pathLengthConstraint {
            // Non-self-issued intermediates below this certificate (the leaf does not count).
            let below = path[1..<index].filter { !$0.isSelfIssued }.count
            if below > limit {
                failures.append(
                    TrustFailure(index, .basicConstraintsPathLen, "pathLenConstraint \(limit) exceeded by \(below)"))
            }
        }
    }

    // MARK: Leaf

    private func checkLeaf(_ failures: inout [TrustFailure]) {
        let leaf = path[0]
        let certificate = leaf.certificate
        let isAlsoAnchor = anchored && path.count == 1
        // Name.
        for name in options.peerNames where !HostnameMatcher.leaf(leaf.subjectAlternativeNames, matches: name) {
            let check: TrustCheck
            if case .email = name { check = .email } else { check = .sslHostname }
            failures.append(TrustFailure(0, check, "\(name) does not match the certificate's subjectAltName"))
        }
        // Usage.
        if let required = options.requiredKeyUsage, !required.isEmpty {
            if let ku = leaf.keyUsage, !ku.isSuperset(of: required) {
                failures.append(TrustFailure(0, .keyUsage, "key usage does not allow the requested usage"))
            }
        }
        let purposeOID: ASN1ObjectIdentifier?
        switch options.purpose {
        case .any: purposeOID = nil
        case .serverAuth: purposeOID = X509OID.serverAuth
        case .clientAuth: purposeOID = X509OID.clientAuth
        }
        var requiredEKUs = options.requiredExtendedKeyUsages
        if let purposeOID, !requiredEKUs.contains(purposeOID) { requiredEKUs.append(purposeOID) }
        if let eku = leaf.extendedKeyUsage {
            if options.rejectAnyExtendedKeyUsage && options.purpose != .any && eku.contains(X509OID.anyExtendedKeyUsage)
            {
                failures.append(TrustFailure(0, .extendedKeyUsage, "anyExtendedKeyUsage in a TLS certificate"))
            }
            for oid in requiredEKUs where !eku.contains(oid) {
                if eku.contains(X509OID.anyExtendedKeyUsage) && !options.rejectAnyExtendedKeyUsage { continue }
                failures.append(TrustFailure(0, .extendedKeyUsage, "extended key usage lacks \(oid.dotted)"))
            }
        } else if options.purpose == .serverAuth && options.requireServerAuthEKU && !isAlsoAnchor {
            // Apple's ServerAuthEKU (for leaves issued after 2019-07-01), applied to every server leaf: the CA/B
            // Forum baseline requires the extension.
            failures.append(TrustFailure(0, .serverAuthEKU, "server certificate without extendedKeyUsage"))
        }
        // Apple's leaf lifetime maximums (SSL policy).
        if options.sslRules && options.purpose == .serverAuth && !isAlsoAnchor {
            let notBefore = certificate.notBefore.secondsSinceEpoch
            let lifetime = certificate.notAfter.secondsSinceEpoch - notBefore
            var maximum: Int64? = nil
            if usesSystemAnchors {
                if notBefore >= PathValidator.appleCutoff2020 {
                    maximum = 398 * PathValidator.day
                } else if notBefore >= PathValidator.appleCutoff2018 {
                    maximum = 825 * PathValidator.day + 3600
                }
            } else if notBefore >= PathValidator.appleCutoff2019 {
                maximum = 825 * PathValidator.day + 3600
            }
            if let maximum, lifetime > maximum {
                failures.append(
                    TrustFailure(
                        0, .validityPeriodMaximums, "leaf lifetime of \(lifetime / PathValidator.day) days is too long")
                )
            }
        }
    }

    /// Issuers carrying an extendedKeyUsage must allow the leaf's purpose (EKU chaining, as Apple, Mozilla and Chrome).
    private func checkExtendedKeyUsageChain(_ failures: inout [TrustFailure]) {
        let purposeOID: ASN1ObjectIdentifier
        switch options.purpose {
        case .any: return
        case .serverAuth: purposeOID = X509OID.serverAuth
        case .clientAuth: purposeOID = X509OID.clientAuth
        }
        let end = anchored ? path.count - 1 : path.count
        guard end > 1 else { return }
        for index in 1..<end {
            guard let eku = path[index].extendedKeyUsage else { continue }
            if !eku.contains(purposeOID) && !eku.contains(X509OID.anyExtendedKeyUsage) {
                failures.append(
                    TrustFailure(index, .extendedKeyUsage, "issuer extended key usage excludes \(purposeOID.dotted)"))
            }
        }
    }

    // MARK: Name constraints (RFC 5280 §4.2.1.10, §6.1.3 (b)–(c))

    private func checkNameConstraints(_ failures: inout [TrustFailure]) {
        var comparisons = 0
        for issuerIndex in 1..<max(1, path.count) {
            guard let constraints = path[issuerIndex].nameConstraints else { continue }
            for index in 0..<issuerIndex {
                let info = path[index]
                // Self-issued intermediates are exempt (§6.1.3 (b)); the leaf never is.
                if index > 0 && info.isSelfIssued { continue }
                if let reason = violation(of: constraints, by: info, comparisons: &comparisons) {
                    failures.append(
                        TrustFailure(index, .nameConstraints, reason + " (constraint in certificate \(issuerIndex))"))
                }
            }
        }
    }

    private enum Name {
        case dns(String)
        case ip(ArraySlice<UInt8>)
        case email(String)
        case directory(DistinguishedName)
        case uri(String)
        case other(Int)
    }

    private func names(of info: CertificateInfo) -> [Name] {
        var names: [Name] = []
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

    private static func tag(_ name: GeneralName) -> Int {
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

    private static func tag(_ name: Name) -> Int {
        switch name {
        case .email: return 1
        case .dns: return 2
        case .directory: return 4
        case .uri: return 6
        case .ip: return 7
        case .other(let tag): return tag
        }
    }

    private func compare(_ name: Name, _ constraint: GeneralName, forExclusion: Bool) -> NameConstraintMatcher.Verdict {
        switch (name, constraint) {
        case (.dns(let n), .dnsName(let c)): return NameConstraintMatcher.dns(n, c, forExclusion: forExclusion)
        case (.ip(let n), .ipAddress(let c)): return NameConstraintMatcher.ip(n, c)
        case (.email(let n), .rfc822Name(let c)): return NameConstraintMatcher.email(n, c)
        case (.directory(let n), .directoryName(let c)): return NameConstraintMatcher.directory(n, c)
        case (.uri(let n), .uniformResourceIdentifier(let c)): return NameConstraintMatcher.uri(n, c)
        default: return .invalid  // same tag, a form we cannot compare
        }
    }

    private func violation(of constraints: NameConstraints, by info: CertificateInfo, comparisons: inout Int) -> String?
    {
        let permitted = constraints.permittedSubtrees ?? []
        let excluded = constraints.excludedSubtrees ?? []
        // Constraint forms we cannot evaluate are only a problem if a name of that form is present.
        for name in names(of: info) {
            let tag = PathValidator.tag(name)
            for constraint in excluded where PathValidator.tag(constraint) == tag {
                comparisons += 1
                if comparisons > TrustLimits.maximumNameConstraintComparisons {
                    return "name-constraint budget exhausted"
                }
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
                comparisons += 1
                if comparisons > TrustLimits.maximumNameConstraintComparisons {
                    return "name-constraint budget exhausted"
                }
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

    private func describe(_ name: Name) -> String {
        switch name {
        case .dns(let n): return "DNS name \(n)"
        case .ip(let bytes): return "IP address \(IPAddressText.format(bytes))"
        case .email(let n): return "email \(n)"
        case .directory(let n): return "directory name \(n.rfc4514String)"
        case .uri(let n): return "URI \(n)"
        case .other(let tag): return "name of type \(tag)"
        }
    }

    // MARK: Certificate policies (RFC 5280 §6.1.2–§6.1.5)

    /// Policy processing with user-initial-policy-set = {anyPolicy} and no initial explicit-policy, mapping-inhibit or
    /// any-policy-inhibit requirement. The policy tree is reduced to the set of expected policies of its leaves, which
    /// decides the same question we need answered: whether the tree is empty when an explicit policy is required.
    private func checkPolicies(_ failures: inout [TrustFailure]) {
        let anyPolicy = X509OID.anyPolicy
        let n = path.count - 1  // certificates below the anchor
        guard n >= 1 else { return }
        var explicitPolicy = n + 1
        var inhibitAny = n + 1
        var policyMapping = n + 1
        var valid: Set<ASN1ObjectIdentifier>? = [anyPolicy]
        for step in 1...n {
            let index = n - step  // step 1 is the certificate issued by the anchor, step n the leaf
            let info = path[index]
            let isLast = step == n
            if let policies = info.certificatePolicies, let current = valid {
                var next = Set<ASN1ObjectIdentifier>()
                for policy in policies where policy != anyPolicy {
                    if current.contains(policy) || current.contains(anyPolicy) { next.insert(policy) }
                }
                if policies.contains(anyPolicy) && (inhibitAny > 0 || (!isLast && info.isSelfIssued)) {
                    next.formUnion(current)
                }
                valid = next.isEmpty ? nil : next
            } else {
                valid = nil
            }
            if explicitPolicy == 0 && valid == nil {
                failures.append(
                    TrustFailure(index, .policyConstraints, "no valid certificate policy where one is required"))
                return
            }
            if isLast { break }
            // Preparation for the next certificate (§6.1.4).
            if let mappings = info.policyMappings {
                if mappings.contains(where: {
                    $0.issuerDomainPolicy == anyPolicy || $0.subjectDomainPolicy == anyPolicy
                }) {
                    failures.append(TrustFailure(index, .policyConstraints, "policy mapping to or from anyPolicy"))
                    return
                }
                if var current = valid {
                    if policyMapping > 0 {
                        var mapped = current
                        for mapping in mappings
                        where current.contains(mapping.issuerDomainPolicy) || current.contains(anyPolicy) {
                            mapped.remove(mapping.issuerDomainPolicy)
                            mapped.insert(mapping.subjectDomainPolicy)
                        }
                        current = mapped
                    } else {
                        for mapping in mappings { current.remove(mapping.issuerDomainPolicy) }
                    }
                    valid = current.isEmpty ? nil : current
                }
            }
            if !info.isSelfIssued {
                explicitPolicy = max(0, explicitPolicy - 1)
                policyMapping = max(0, policyMapping - 1)
                inhibitAny = max(0, inhibitAny - 1)
            }
            if let constraints = info.policyConstraints {
                if let r = constraints.requireExplicitPolicy { explicitPolicy = min(explicitPolicy, r) }
                if let m = constraints.inhibitPolicyMapping { policyMapping = min(policyMapping, m) }
            }
            if let value = info.inhibitAnyPolicy { inhibitAny = min(inhibitAny, value) }
        }
        // Wrap-up (§6.1.5).
        if explicitPolicy > 0 { explicitPolicy -= 1 }
        if path[0].policyConstraints?.requireExplicitPolicy == 0 { explicitPolicy = 0 }
        if explicitPolicy == 0 && valid == nil {
            failures.append(TrustFailure(0, .policyConstraints, "no valid certificate policy where one is required"))
        }
    }

    // MARK: Revocation (caller-supplied CRLs; no network)

    private func checkRevocation(_ failures: inout [TrustFailure]) -> Bool {
        guard options.revocation.enabled || !options.crls.isEmpty || !options.ocspResponses.isEmpty else {
            return false
        }
        var allCovered = true
        // Every certificate with an issuer on the path (the anchor itself is not checked).
        for index in 0..<max(0, path.count - 1) {
            let certificate = path[index].certificate
            let issuer = path[index + 1]
            var covered = false
            var unusable: [String] = []
            for crl in options.crls where CertificateInfo.normalizedKey(crl.issuer) == issuer.normalizedSubject {
                guard crl.unhandledCriticalExtensions.isEmpty, !crl.hasIssuingDistributionPoint else {
                    unusable.append("CRL has extensions we do not process")
                    continue
                }
                guard let key = issuer.publicKey, crl.isSignature(validFor: key) else {
                    unusable.append("CRL signature does not verify")
                    continue
                }
                if let ku = issuer.keyUsage, !ku.contains(.cRLSign) {
                    unusable.append("CRL issuer lacks cRLSign")
                    continue
                }
                guard crl.thisUpdate.secondsSinceEpoch <= options.time else {
                    unusable.append("CRL not yet valid")
                    continue
                }
                if let next = crl.nextUpdate, next.secondsSinceEpoch < options.time {
                    unusable.append("CRL expired at \(next)")
                    continue
                }
                covered = true
                if crl.revokedSerials.contains(certificate.serialNumber) {
                    failures.append(
                        TrustFailure(index, .revocation, "serial number listed in a CRL issued \(crl.thisUpdate)"))
                }
            }
            // OCSP responses from the caller: a current, properly signed answer covers the certificate.
            for response in options.parsedOCSPResponses {
                guard let status = response.status(of: certificate, issuer: issuer, at: options.time) else { continue }
                switch status {
                case .good: covered = true
                case .revoked:
                    covered = true
                    failures.append(TrustFailure(index, .revocation, "OCSP response says revoked"))
                case .unknown: continue
                }
            }
            if !covered {
                allCovered = false
                // A CRL from this issuer was supplied but none could be used: the status is unknown, so reject
                // (a stale or forged CRL must not hide a revocation).
                if let reason = unusable.first {
                    failures.append(TrustFailure(index, .revocationResponseRequired, reason))
                } else if options.revocation.requirePositiveResponse {
                    failures.append(
                        TrustFailure(index, .revocationResponseRequired, "no usable CRL for this certificate"))
                }
            }
        }
        return allCovered
    }
}
