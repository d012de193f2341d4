import OSecASN1
import OSecX509

/// Object identifiers the rules name that OSecX509 does not decode.
enum TrustOID {
    /// RFC 5280 §4.2.2.2 subjectInfoAccess.
    static let subjectInfoAccess: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 1, 11]
    /// RFC 5280 §4.2.1.15 freshestCRL.
    static let freshestCRL: ASN1ObjectIdentifier = [2, 5, 29, 46]
    /// RFC 5280 §4.2.1.8 subjectDirectoryAttributes.
    static let subjectDirectoryAttributes: ASN1ObjectIdentifier = [2, 5, 29, 9]
    /// RFC 6962 §3.1 Precertificate Signing Certificate key purpose.
    static let precertificateSigning: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 11129, 2, 4, 4]
}

// RFC 5280 §4.1 (the certificate's fields) and §4.2 (the profile of each extension), per certificate. Every policy
// applies these rules; a system-store anchor is exempt from the profile rules (``PathValidator/Role/isGrandfathered``).
extension PathValidator {
    /// Extensions that RFC 5280 says conforming CAs MUST mark non-critical (we do not process them, so a critical one
    /// fails CriticalExtensions anyway; this gives the precise reason).
    static let mustBeNonCritical: [ASN1ObjectIdentifier: String] = [
        X509OID.authorityKeyIdentifier: "authorityKeyIdentifier (RFC 5280 §4.2.1.1)",
        X509OID.subjectKeyIdentifier: "subjectKeyIdentifier (RFC 5280 §4.2.1.2)",
        X509OID.authorityInfoAccess: "authorityInfoAccess (RFC 5280 §4.2.2.1)",
        TrustOID.subjectInfoAccess: "subjectInfoAccess (RFC 5280 §4.2.2.2)",
        TrustOID.freshestCRL: "freshestCRL (RFC 5280 §4.2.1.15)",
        TrustOID.subjectDirectoryAttributes: "subjectDirectoryAttributes (RFC 5280 §4.2.1.8)",
    ]

    /// RFC 5280 §4.1: serial number, signature algorithm fields, issuer and subject names; §4.2: unknown critical
    /// extensions and known extensions that do not decode.
    func checkCertificateFields(_ info: CertificateInfo, _ role: Role, _ failures: inout [TrustFailure]) {
        let certificate = info.certificate
        let index = role.index
        // §4.2: a known extension that does not decode is not processed; we refuse it (even when non-critical, as
        // "MUST be processed if it is recognized" cannot be met).
        for oid in info.unparseableExtensions {
            failures.append(TrustFailure(index, .unparseableExtension, "extension \(oid) is malformed"))
        }
        // §4.2: a critical extension we do not recognise fails the certificate, the anchor included (webpki ignores
        // them on anchors; we take RFC 5280's rule).
        for oid in info.unhandledCriticalExtensions {
            failures.append(TrustFailure(index, .criticalExtensions, "unknown critical extension \(oid)"))
        }
        // §4.1.1.2 / §4.1.2.3: the two signature algorithm fields MUST be identical.
        if certificate.tbsSignatureAlgorithm.identifier != certificate.signatureAlgorithm.identifier {
            failures.append(
                TrustFailure(index, .malformed, "signatureAlgorithm differs from the TBSCertificate signature field"))
        }
        // §4.1.2.4: the issuer field MUST contain a non-empty distinguished name.
        if certificate.issuer.isEmpty {
            failures.append(TrustFailure(index, .malformed, "empty issuer name"))
        }
        // §4.1.2.6: a CA's subject MUST be non-empty; an empty subject requires a critical subjectAltName (§4.2.1.6).
        if certificate.subject.isEmpty {
            let san = certificate.extensions[oid: X509OID.subjectAltName]
            if info.isCA || role.isIssuer || san == nil || san?.critical != true {
                failures.append(
                    TrustFailure(index, .nonEmptySubject, "empty subject without a critical subjectAltName"))
            }
        }
        guard !role.isGrandfathered else { return }
        // §4.1.2.2: a positive integer of at most 20 octets.
        let serial = certificate.serialNumber
        if serial.count > 21 || (serial.count == 21 && serial.first != 0) {
            failures.append(TrustFailure(index, .malformed, "serial number longer than 20 octets"))
        }
        if let first = serial.first, first & 0x80 != 0 {
            failures.append(TrustFailure(index, .malformed, "negative serial number"))
        } else if serial.allSatisfy({ $0 == 0 }) {
            failures.append(TrustFailure(index, .malformed, "zero serial number"))
        }
    }

    /// RFC 5280 §4.2.1: presence, criticality and consistency of the extensions of one certificate.
    func checkExtensionProfile(
        _ info: CertificateInfo, _ role: Role, _ budget: inout TrustBudget, _ failures: inout [TrustFailure]
    ) {
        let certificate = info.certificate
        let index = role.index
        checkNameConstraintsProfile(info, role, &failures)
        // §4.2.1.11 / §4.2.1.14: policyConstraints and inhibitAnyPolicy MUST be critical.
        for oid in [X509OID.policyConstraints, X509OID.inhibitAnyPolicy] {
            if let item = certificate.extensions[oid: oid], !item.critical {
                failures.append(TrustFailure(index, .policyConstraints, "\(oid.dotted) must be critical"))
            }
        }
        // §4.2.1.3: at least one bit set; keyCertSign only with cA.
        if let ku = info.keyUsage, ku.isEmpty {
            failures.append(TrustFailure(index, .keyUsage, "keyUsage with no bits set"))
        }
        if let ku = info.keyUsage, ku.contains(.keyCertSign), !info.isCA {
            failures.append(TrustFailure(index, .basicConstraints, "keyCertSign without cA"))
        }
        // §4.2.1.13: a DistributionPoint MUST NOT consist of the reasons field alone.
        if info.hasReasonsOnlyDistributionPoint {
            failures.append(
                TrustFailure(index, .unparseableExtension, "CRL distribution point with neither name nor cRLIssuer"))
        }
        guard !role.isGrandfathered else { return }
        for (oid, name) in PathValidator.mustBeNonCritical where certificate.extensions[oid: oid]?.critical == true {
            failures.append(TrustFailure(index, .criticalExtensions, "\(name) must not be critical"))
        }
        // §4.2.1.1: the keyIdentifier of an authorityKeyIdentifier MUST be present in every certificate except a
        // self-signed one (which MAY omit the extension).
        if info.authorityKeyIdentifier?.keyIdentifier == nil && !isSelfSigned(info, role, &budget) {
            let reason =
                info.authorityKeyIdentifier == nil
                ? "authorityKeyIdentifier missing" : "authorityKeyIdentifier without keyIdentifier"
            failures.append(TrustFailure(index, .idLinkage, reason))
        }
        // §4.2.1.2: subjectKeyIdentifier MUST appear in every certificate asserting cA.
        if info.isCA && info.subjectKeyIdentifier == nil {
            failures.append(TrustFailure(index, .idLinkage, "CA certificate without subjectKeyIdentifier"))
        }
        // §4.2.1.9: pathLenConstraint only when cA is asserted and keyUsage asserts keyCertSign.
        if let bc = info.basicConstraints, bc.pathLengthConstraint != nil {
            if !bc.isCertificateAuthority {
                failures.append(TrustFailure(index, .basicConstraints, "pathLenConstraint without cA"))
            } else if info.keyUsage?.contains(.keyCertSign) != true {
                failures.append(TrustFailure(index, .basicConstraints, "pathLenConstraint without keyCertSign"))
            }
        }
    }

    /// RFC 5280 §4.2.1.6: the syntax of every subjectAltName entry. A CA that issues a name outside its syntax has
    /// not issued a name: the certificate is refused, whatever name the caller asked for (a malformed entry next to a
    /// good one could otherwise slip past name constraints that cannot compare it).
    func checkSubjectAltNameSyntax(_ info: CertificateInfo, _ role: Role, _ failures: inout [TrustFailure]) {
        guard let names = info.subjectAlternativeNames, !role.isGrandfathered else { return }
        guard !names.isEmpty else {
            failures.append(TrustFailure(role.index, .unparseableExtension, "empty subjectAltName"))
            return
        }
        for problem in info.subjectAltNameProblems {
            failures.append(TrustFailure(role.index, .unparseableExtension, "subjectAltName \(problem)"))
        }
    }

    /// RFC 5280 §4.2.1.10: where name constraints may appear, their criticality, and the form of every constraint.
    private func checkNameConstraintsProfile(_ info: CertificateInfo, _ role: Role, _ failures: inout [TrustFailure]) {
        guard let extensionValue = info.certificate.extensions[oid: X509OID.nameConstraints] else { return }
        let index = role.index
        // Only in CA certificates.
        if !info.isCA {
            failures.append(TrustFailure(index, .nameConstraints, "nameConstraints in a non-CA certificate"))
        } else if !extensionValue.critical && !options.nameConstraintsMayBeNonCritical {
            // MUST be critical (BR 7.1.2.10.8 allows non-critical; see nameConstraintsMayBeNonCritical).
            failures.append(TrustFailure(index, .nameConstraints, "nameConstraints not marked critical"))
        }
        guard let constraints = info.nameConstraints else { return }
        if constraints.hasSubtreeDistances {
            failures.append(
                TrustFailure(index, .nameConstraints, "name constraint with a minimum other than 0 or a maximum"))
        }
        // A constraint that is not of its type's form cannot be applied: the whole extension is refused (a malformed
        // permitted name must not widen, nor a malformed excluded name narrow, what the CA may issue).
        for problem in info.nameConstraintProblems {
            failures.append(TrustFailure(index, .nameConstraints, "malformed name constraint: \(problem)"))
        }
    }
}

extension NameSyntax {
    /// Why a subjectAltName entry is not of its type's form (RFC 5280 §4.2.1.6), or nil.
    package static func subjectAltNameProblem(_ name: GeneralName) -> String? {
        switch name {
        case .dnsName(let value):
            // Preferred name syntax (a left-most `*` label is the RFC 6125 wildcard); " " is named as forbidden.
            return isPreferredDNSName(value, allowWildcard: true) ? nil : "dNSName \"\(value)\" is not a valid DNS name"
        case .ipAddress(let bytes):
            return bytes.count == 4 || bytes.count == 16 ? nil : "iPAddress of \(bytes.count) octets"
        case .rfc822Name(let value):
            return isMailbox(value) ? nil : "rfc822Name \"\(value)\" is not a mailbox"
        case .uniformResourceIdentifier(let value):
            return isAbsoluteURI(value) ? nil : "uniformResourceIdentifier \"\(value)\" is not an absolute URI"
        case .directoryName(let dn):
            return dn.isEmpty ? "empty directoryName" : nil
        case .otherName, .x400Address, .ediPartyName, .registeredID:
            return nil
        }
    }

    /// Why a name constraint is not of its type's form (RFC 5280 §4.2.1.10), or nil.
    package static func constraintProblem(_ constraint: GeneralName) -> String? {
        switch constraint {
        case .dnsName(let value):
            return isValidDNSConstraint(value) ? nil : "dNSName \"\(value)\""
        case .ipAddress(let bytes):
            guard bytes.count == 8 || bytes.count == 32 else { return "iPAddress of \(bytes.count) octets" }
            return isPrefixMask(bytes.suffix(bytes.count / 2)) ? nil : "iPAddress mask is not a prefix"
        case .rfc822Name(let value):
            return isValidMailboxConstraint(value) ? nil : "rfc822Name \"\(value)\""
        case .uniformResourceIdentifier(let value):
            return value.isEmpty || isValidDomainConstraint(value) ? nil : "uniformResourceIdentifier \"\(value)\""
        case .directoryName, .otherName, .x400Address, .ediPartyName, .registeredID:
            return nil
        }
    }

    /// Whether `mask` is contiguous ones followed by zeros.
    package static func isPrefixMask(_ mask: ArraySlice<UInt8>) -> Bool {
        var seenZero = false
        for byte in mask {
            for bit in 0..<8 {
                let one = byte & (0x80 >> bit) != 0
                if one && seenZero { return false }
                if !one { seenZero = true }
            }
        }
        return true
    }
}
