import OSecX509

// Revocation against caller-supplied CRLs and OCSP responses (RFC 5280 §6.3, RFC 6960); no network, ever.
extension PathValidator {
    /// Checks every certificate with an issuer on the path; returns whether each one was covered.
    func checkRevocation(_ failures: inout [TrustFailure]) -> Bool {
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
