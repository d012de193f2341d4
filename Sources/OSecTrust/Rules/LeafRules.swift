import OSecASN1
import OSecX509

// The policy's purpose and names for the leaf, and Apple's SSL rules (SSLHostname, ExtendedKeyUsage, ServerAuthEKU,
// KeyUsage, ValidityPeriodMaximums).
extension PathValidator {
    /// The key purpose the policy requires of the leaf, if any.
    var purposeOID: ASN1ObjectIdentifier? {
        switch options.purpose {
        case .any: return nil
        case .serverAuth: return X509OID.serverAuth
        case .clientAuth: return X509OID.clientAuth
        }
    }

    func checkLeaf(_ failures: inout [TrustFailure]) {
        let leaf = path[0]
        let certificate = leaf.certificate
        let isAlsoAnchor = anchored && path.count == 1
        // Names: every name the caller asked for, in the subjectAltName (no commonName fallback: Apple's rule).
        for name in options.peerNames where !HostnameMatcher.leaf(leaf.subjectAlternativeNames, matches: name) {
            let check: TrustCheck
            if case .email = name { check = .email } else { check = .sslHostname }
            failures.append(TrustFailure(0, check, "\(name) does not match the certificate's subjectAltName"))
        }
        // Apple's EAPTrustedServerNames: one of the leaf's DNS names must be a trusted server name.
        if !options.eapTrustedServerNames.isEmpty && !matchesEAPTrustedServerName(leaf) {
            failures.append(
                TrustFailure(0, .eapTrustedServerNames, "no DNS name of the certificate is a trusted server name"))
        }
        // Key usage the caller requires (when the leaf has a keyUsage extension).
        if let required = options.requiredKeyUsage, !required.isEmpty {
            if let ku = leaf.keyUsage, !ku.isSuperset(of: required) {
                failures.append(TrustFailure(0, .keyUsage, "key usage does not allow the requested usage"))
            }
        }
        // Extended key usage: the purpose and every usage the caller requires (RFC 5280 §4.2.1.12; anyEKU stands for
        // every purpose unless the policy refuses it).
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
        } else if options.purpose == .serverAuth && options.requireServerAuthEKU && !isAlsoAnchor
            && (usesSystemAnchors || certificate.notBefore.secondsSinceEpoch >= PathValidator.appleCutoff2019)
        {
            // Apple's ServerAuthEKU: a server leaf must carry the extension when it chains to a system anchor, or when
            // it was issued from 2019-07-01 (custom anchors). RFC 5280 allows a leaf without it.
            failures.append(TrustFailure(0, .serverAuthEKU, "server certificate without extendedKeyUsage"))
        }
        // Apple's leaf lifetime maximums (SSL server policy).
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

    /// Issuers below the anchor carrying an extendedKeyUsage must allow the leaf's purpose and every usage the
    /// caller requires (EKU chaining, as Apple, Mozilla and Chrome do; RFC 5280 leaves it open).
    func checkExtendedKeyUsageChain(_ failures: inout [TrustFailure]) {
        var purposes = options.requiredExtendedKeyUsages
        if let purposeOID, !purposes.contains(purposeOID) { purposes.insert(purposeOID, at: 0) }
        let end = anchored ? path.count - 1 : path.count
        guard !purposes.isEmpty, end > 1 else { return }
        for index in 1..<end {
            guard let eku = path[index].extendedKeyUsage, !eku.contains(X509OID.anyExtendedKeyUsage) else { continue }
            for purpose in purposes where !eku.contains(purpose) {
                failures.append(
                    TrustFailure(index, .extendedKeyUsage, "issuer extended key usage excludes \(purpose.dotted)"))
            }
        }
    }
}

extension PathValidator {
    /// Whether a DNS name of `leaf` (its subjectAltName dNSNames, or without any its subject common names, as
    /// Apple's SecCertificateCopyDNSNames) matches one of the EAP trusted server names.
    func matchesEAPTrustedServerName(_ leaf: CertificateInfo) -> Bool {
        var names: [String] = []
        for name in leaf.subjectAlternativeNames ?? [] {
            if case .dnsName(let dns) = name { names.append(dns) }
        }
        if names.isEmpty { names = leaf.certificate.subject.commonNames }
        return names.contains { presented in
            options.eapTrustedServerNames.contains { trusted in
                HostnameMatcher.matches(pattern: presented, host: trusted)
                    || presented.lowercased() == trusted.lowercased()
            }
        }
    }
}
