import OSecX509

// RFC 5280 §6.1.4 (k)–(n) with §4.2.1.3 and §4.2.1.9: what a certificate must be to verify the certificate below it.
extension PathValidator {
    /// Checks a certificate that issues the one below it (index ≥ 1), the anchor included.
    func checkIssuer(_ info: CertificateInfo, _ role: Role, _ failures: inout [TrustFailure]) {
        let certificate = info.certificate
        let index = role.index
        // §6.1.4 (k): a v1 or v2 certificate cannot be shown to be a CA (we have no out-of-band means).
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
        // §6.1.4 (n): keyUsage, when present, asserts keyCertSign.
        if let ku = info.keyUsage, !ku.contains(.keyCertSign) {
            failures.append(TrustFailure(index, .keyUsage, "issuer key usage lacks keyCertSign"))
        }
        // The child's AKI keyIdentifier, when present, must match this SKI (§4.2.1.1: the AKI identifies the key
        // that signed; a mismatch names another key).
        let child = path[index - 1]
        if let aki = child.authorityKeyIdentifier?.keyIdentifier, let ski = info.subjectKeyIdentifier, aki != ski {
            failures.append(
                TrustFailure(index - 1, .idLinkage, "authorityKeyIdentifier does not match the issuer's SKI"))
        }
        // §6.1.4 (l)–(m): non-self-issued intermediates below this certificate; the leaf is never counted (§4.2.1.9:
        // "the last certificate in the certification path is not an intermediate certificate").
        if let limit = bc.pathLengthConstraint {
            let below = path[1..<index].filter { !$0.isSelfIssued }.count
            if below > limit {
                failures.append(
                    TrustFailure(index, .basicConstraintsPathLen, "pathLenConstraint \(limit) exceeded by \(below)"))
            }
        }
        guard !role.isGrandfathered else { return }
        // §4.2.1.9: basicConstraints MUST be critical in a CA certificate whose key verifies certificate signatures.
        if certificate.extensions[oid: X509OID.basicConstraints]?.critical != true {
            failures.append(TrustFailure(index, .basicConstraints, "basicConstraints not critical in a CA certificate"))
        }
        // §4.2.1.3: keyUsage MUST be present in a certificate whose key verifies certificate signatures.
        if info.keyUsage == nil {
            failures.append(TrustFailure(index, .keyUsage, "CA certificate without keyUsage"))
        }
    }
}
