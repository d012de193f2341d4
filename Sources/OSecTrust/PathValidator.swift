import OSecASN1
import OSecCrypto
import OSecX509

/// RFC 5280 §6.1 path validation plus Apple's and the CA/Browser Forum's policy rules, on one candidate path.
///
/// The path is leaf first; when `anchored`, its last element is the trust anchor. Every check appends
/// ``TrustFailure``s instead of stopping, so callers can classify and rank them as Apple does.
///
/// The checks are split by cost. ``validateCertificates(_:)`` holds everything linear in the path's size (the
/// profile of each certificate, the links between neighbours, the leaf's names and usages); the chain builder runs it
/// on every candidate path, dead ends included. ``validatePath(_:)`` holds what can cost more (name constraints, which
/// compare every name below a CA with every constraint; the policy tree; revocation) and runs only on paths that reach
/// an anchor, and on the one dead end reported. Both draw on the evaluation's ``TrustBudget``.
///
/// The rules themselves live in `Rules/`, one file per source: `CertificateProfileRules.swift` (RFC 5280 §4.1, §4.2),
/// `IssuerRules.swift` (§6.1.4), `LeafRules.swift` (the policy's purpose and names, Apple's SSL rules),
/// `BaselineRules.swift` (CA/B Forum BR §7.1), `NameConstraintRules.swift` (§4.2.1.10, §6.1.3 (b)–(c)),
/// `PolicyRules.swift` (§6.1.2–§6.1.5) and `RevocationRules.swift`. docs/trust.md has the rule table.
package struct PathValidator {
    let path: [CertificateInfo]
    let anchored: Bool
    let options: ValidationOptions
    let usesSystemAnchors: Bool
    /// Whether the anchor is one the system root program vouches for (same subject and key as a certificate of
    /// ``AnchorStore/system``). Such roots predate the certificate profiles (the oldest in Debian's bundle are from
    /// 1998–2004) and are exempt from the profile rules on the anchor itself; see ``Role/isGrandfathered``.
    let anchorIsGrandfathered: Bool

    /// A validator for `path` (leaf first; ends at the anchor when `anchored`) under `options`; `usesSystemAnchors`
    /// selects Apple's system-anchor lifetime limits.
    package init(path: [CertificateInfo], anchored: Bool, options: ValidationOptions, usesSystemAnchors: Bool = false) {
        self.path = path
        self.anchored = anchored
        self.options = options
        self.usesSystemAnchors = usesSystemAnchors
        if anchored, let last = path.last {
            anchorIsGrandfathered = AnchorStore.system.anchor(matching: last) != nil
        } else {
            anchorIsGrandfathered = false
        }
    }

    /// 2019-07-01T00:00:00Z: Apple's cut-off for the ServerAuthEKU and 825-day rules with custom anchors.
    static let appleCutoff2019: Int64 = 1_561_939_200
    /// 2018-03-01T00:00:00Z and 2020-09-01T00:00:00Z: the system-anchor 825/398-day cut-offs.
    static let appleCutoff2018: Int64 = 1_519_862_400
    static let appleCutoff2020: Int64 = 1_598_918_400
    static let day: Int64 = 86_400

    /// Where a certificate sits on the path, which decides the rules that apply to it.
    struct Role {
        /// Index on the path (0 = leaf).
        let index: Int
        /// The first certificate: the end entity (which may also be a CA certificate or the anchor itself).
        let isLeaf: Bool
        /// The last certificate of an anchored path.
        let isAnchor: Bool
        /// A certificate whose key verified the certificate below it (index ≥ 1).
        let isIssuer: Bool
        /// An anchor the system root program vouches for: the certificate-profile rules (presence and criticality of
        /// extensions, serial number form, encodings) are not applied to it, as root programs grandfather roots issued
        /// before the profiles. Rules on what the anchor authorises (cA, keyCertSign, pathLenConstraint, name
        /// constraints, unknown critical extensions, validity, key strength) still apply.
        let isGrandfathered: Bool
        /// A self-issued anchor (the root of the path); its self-signature is not needed to trust it.
        let isRoot: Bool
    }

    func role(_ index: Int) -> Role {
        let isAnchor = anchored && index == path.count - 1
        return Role(
            index: index, isLeaf: index == 0, isAnchor: isAnchor, isIssuer: index >= 1,
            isGrandfathered: isAnchor && anchorIsGrandfathered, isRoot: isAnchor && path[index].isSelfIssued)
    }

    /// The per-certificate and per-link checks (linear in the path's size).
    package func validateCertificates(_ budget: inout TrustBudget) -> [TrustFailure] {
        var failures: [TrustFailure] = []
        for index in path.indices {
            let info = path[index]
            let role = role(index)
            checkTemporalValidity(info, role, &failures)
            checkCertificateFields(info, role, &failures)
            checkExtensionProfile(info, role, &budget, &failures)
            checkSubjectAltNameSyntax(info, role, &failures)
            checkKey(info, role, &failures)
            if !role.isAnchor { checkSignatureAlgorithm(info, role, &failures) }
            if role.isIssuer { checkIssuer(info, role, &failures) }
            if options.cabfProfile { checkBaselineProfile(info, role, &failures) }
        }
        checkLeaf(&failures)
        checkExtendedKeyUsageChain(&failures)
        if let maximum = options.maximumIntermediates {
            let intermediates = max(0, path.count - (anchored ? 2 : 1))
            if intermediates > maximum {
                failures.append(
                    TrustFailure(
                        0, .callerConstraint, "\(intermediates) intermediates exceed the maximum of \(maximum)"))
            }
        }
        return failures
    }

    /// The whole-path checks: name constraints (on the shared budget), certificate policies (anchored paths) and
    /// revocation.
    package func validatePath(_ budget: inout TrustBudget) -> (failures: [TrustFailure], revocationChecked: Bool) {
        var failures: [TrustFailure] = []
        checkNameConstraints(&budget, &failures)
        if anchored { checkPolicies(&failures) }
        let revocationChecked = checkRevocation(&failures)
        return (failures, revocationChecked)
    }

    /// Both parts, on a fresh budget (for callers that validate one path they built themselves).
    package func validate() -> (failures: [TrustFailure], revocationChecked: Bool) {
        var budget = TrustBudget()
        var failures = validateCertificates(&budget)
        let (pathFailures, revocationChecked) = validatePath(&budget)
        failures.append(contentsOf: pathFailures)
        if let exhausted = budget.failure { failures.append(exhausted) }
        return (failures, revocationChecked)
    }

    /// RFC 5280 §6.1.3 (a)(2), applied as Apple does to every certificate, the anchor included (inclusive bounds).
    private func checkTemporalValidity(_ info: CertificateInfo, _ role: Role, _ failures: inout [TrustFailure]) {
        let certificate = info.certificate
        guard !certificate.isValid(atSecondsSinceEpoch: options.time) else { return }
        let reason =
            options.time < certificate.notBefore.secondsSinceEpoch
            ? "not valid before \(certificate.notBefore)" : "expired at \(certificate.notAfter)"
        failures.append(TrustFailure(role.index, .temporalValidity, reason))
    }

    /// Whether `info` is a "self-signed" certificate in the sense of the profile rule that exempts the form in which
    /// a CA distributes its own key (RFC 5280 §4.2.1.1): a self-issued anchor counts without checking its signature
    /// (it is trusted as a name and key, §6.1.1 (d)); any other certificate counts when its signature verifies under
    /// its own key, whatever issuer name it carries (an authorityKeyIdentifier would only repeat its own key).
    func isSelfSigned(_ info: CertificateInfo, _ role: Role, _ budget: inout TrustBudget) -> Bool {
        if info.isSelfIssued && role.isAnchor { return true }
        guard budget.consume(.signatureChecks) else { return false }
        return info.isSigned(by: info)
    }
}
