import OSecASN1
import OSecX509

// RFC 5280 §6.1.2–§6.1.5: certificate policy processing (with §4.2.1.5's ban on mapping anyPolicy).
extension PathValidator {
    /// Policy processing with user-initial-policy-set = {anyPolicy} and no initial explicit-policy, mapping-inhibit or
    /// any-policy-inhibit requirement. The policy tree is reduced to the set of expected policies of its leaves, which
    /// decides the same question we need answered: whether the tree is empty when an explicit policy is required.
    func checkPolicies(_ failures: inout [TrustFailure]) {
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
}
