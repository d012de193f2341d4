import OSecASN1
import OSecX509

// The CA/Browser Forum's Baseline Requirements §7.1 (certificate profiles) on top of RFC 5280, applied by the SSL
// server policy (``ValidationOptions/cabfProfile``). Section numbers are those of BR v2.x. Rules of §7.1 that a
// relying party cannot or should not check (issuance-side facts, or requirements that break certificates the suites
// and the system bundle treat as valid) are listed, with the reason, in docs/trust.md.
extension PathValidator {
    /// The signature AlgorithmIdentifier encodings BR §7.1.3.2 permits (no other encodings are permitted).
    static let baselineSignatureAlgorithms: [[UInt8]] = [
        // RSASSA-PKCS1-v1_5 with SHA-256 / SHA-384 / SHA-512, NULL parameters.
        hexBytes("300d06092a864886f70d01010b0500"), hexBytes("300d06092a864886f70d01010c0500"),
        hexBytes("300d06092a864886f70d01010d0500"),
        // RSASSA-PSS, MGF1 with the same hash, salt of the hash length, trailer field absent.
        hexBytes(
            "304106092a864886f70d01010a3034a00f300d06096086480165030402010500a11c301a06092a864886f70d010108300d"
                + "06096086480165030402010500a203020120"),
        hexBytes(
            "304106092a864886f70d01010a3034a00f300d06096086480165030402020500a11c301a06092a864886f70d010108300d"
                + "06096086480165030402020500a203020130"),
        hexBytes(
            "304106092a864886f70d01010a3034a00f300d06096086480165030402030500a11c301a06092a864886f70d010108300d"
                + "06096086480165030402030500a203020140"),
        // ECDSA with SHA-256 / SHA-384 / SHA-512, parameters absent.
        hexBytes("300a06082a8648ce3d040302"), hexBytes("300a06082a8648ce3d040303"),
        hexBytes("300a06082a8648ce3d040304"),
    ]

    /// Key purposes BR §7.1.2.7.10 forbids in a subscriber certificate.
    static let subscriberForbiddenPurposes: [(ASN1ObjectIdentifier, String)] = [
        (X509OID.anyExtendedKeyUsage, "anyExtendedKeyUsage"), (X509OID.emailProtection, "id-kp-emailProtection"),
        (X509OID.codeSigning, "id-kp-codeSigning"), (X509OID.timeStamping, "id-kp-timeStamping"),
        (X509OID.ocspSigning, "id-kp-OCSPSigning"), (TrustOID.precertificateSigning, "Precertificate Signing"),
    ]

    /// Key usage bits BR §7.1.2.7.11 does not permit in a subscriber certificate (for both RSA and ECC keys).
    static let subscriberForbiddenKeyUsage: KeyUsage = [.keyCertSign, .cRLSign, .encipherOnly, .decipherOnly]

    func checkBaselineProfile(_ info: CertificateInfo, _ role: Role, _ failures: inout [TrustFailure]) {
        let certificate = info.certificate
        let index = role.index
        // BR 7.1.2.7.12 (and RFC 5280 §4.2.1.6's SHOULD): subjectAltName critical only with an empty subject.
        if let san = certificate.extensions[oid: X509OID.subjectAltName], san.critical, !certificate.subject.isEmpty {
            failures.append(
                TrustFailure(index, .criticalExtensions, "subjectAltName critical with a non-empty subject"))
        }
        // BR 6.1.5: an RSA modulus is a multiple of 8 bits (also for grandfathered roots: none of them is otherwise).
        if info.keyKind == .rsa && info.keyBits % 8 != 0 {
            failures.append(TrustFailure(index, .keySize, "RSA modulus of \(info.keyBits) bits is not a multiple of 8"))
        }
        // BR 7.1.2.10.7 / 7.1.2.7.8: a certificate asserting cA must be able to sign certificates.
        if info.isCA, let ku = info.keyUsage, !ku.contains(.keyCertSign) {
            failures.append(TrustFailure(index, .basicConstraints, "cA asserted without keyCertSign"))
        }
        if role.isLeaf && !(anchored && path.count == 1) { checkSubscriberProfile(info, role, &failures) }
        guard !role.isGrandfathered else { return }
        checkBaselineFields(info, role, &failures)
        checkBaselineKeyIdentifiers(info, role, &failures)
        // BR 7.1.2.1.2: a root certificate MUST NOT carry extKeyUsage.
        if role.isRoot && info.extendedKeyUsage != nil {
            failures.append(TrustFailure(index, .extendedKeyUsage, "root certificate carries extKeyUsage"))
        }
    }

    /// BR 7.1.1, the field tables of 7.1.2.x, 7.1.3.1 and 6.1.6: version, unique identifiers, key encodings and the
    /// signature algorithm encoding.
    private func checkBaselineFields(_ info: CertificateInfo, _ role: Role, _ failures: inout [TrustFailure]) {
        let certificate = info.certificate
        let index = role.index
        // 7.1.1: certificates MUST be of type X.509 v3.
        if certificate.version != .v3 {
            failures.append(TrustFailure(index, .malformed, "\(certificate.version) certificate (v3 required)"))
        }
        // 7.1.2.x field tables: issuerUniqueID and subjectUniqueID MUST NOT be present.
        if certificate.issuerUniqueID != nil || certificate.subjectUniqueID != nil {
            failures.append(TrustFailure(index, .malformed, "issuerUniqueID or subjectUniqueID present"))
        }
        // 7.1.3.1: RSA (rsaEncryption with NULL parameters) or ECDSA on P-256, P-384, P-521; no other key.
        let algorithm = certificate.publicKeyInfo.algorithm
        switch info.keyKind {
        case .rsa:
            if algorithm.parameters.map({ !$0.elementsEqual([0x05, 0x00]) }) ?? true {
                failures.append(TrustFailure(index, .keySize, "rsaEncryption key without NULL parameters"))
            }
            // 6.1.6: the public exponent is odd and at least 3.
            if !info.rsaExponentIsOddAndAtLeast3 {
                failures.append(TrustFailure(index, .keySize, "RSA public exponent is even or below 3"))
            }
        case .ec:
            break
        case .ed25519, .ed448, .unsupported:
            failures.append(
                TrustFailure(index, .keySize, "key algorithm \(algorithm.oid.dotted) is not permitted for TLS"))
        }
        // 7.1.3.2: the signature of a certificate below the anchor uses one of the permitted encodings.
        if !role.isAnchor && !info.hasBaselineSignatureEncoding {
            failures.append(
                TrustFailure(
                    index, .signatureHashAlgorithms,
                    "signature algorithm \(certificate.signatureAlgorithm) is not a permitted encoding"))
        }
    }

    /// BR 7.1.2.11.1 (every certificate but a root) and 7.1.2.1.3 (roots): authorityKeyIdentifier holds only a
    /// keyIdentifier; in a root it equals the subjectKeyIdentifier.
    private func checkBaselineKeyIdentifiers(_ info: CertificateInfo, _ role: Role, _ failures: inout [TrustFailure]) {
        guard let aki = info.authorityKeyIdentifier else { return }
        let index = role.index
        if aki.authorityCertIssuer != nil || aki.authorityCertSerialNumber != nil {
            failures.append(TrustFailure(index, .idLinkage, "authorityKeyIdentifier with issuer or serial number"))
        }
        guard role.isRoot || (info.isSelfIssued && info.isSelfSigned) else { return }
        if aki.keyIdentifier == nil {
            failures.append(TrustFailure(index, .idLinkage, "root authorityKeyIdentifier without keyIdentifier"))
        } else if let ski = info.subjectKeyIdentifier, aki.keyIdentifier != ski {
            failures.append(TrustFailure(index, .idLinkage, "root authorityKeyIdentifier differs from its SKI"))
        }
    }

    /// BR 7.1.2.7 (the subscriber certificate profile) and 7.1.4.3 (its commonName).
    private func checkSubscriberProfile(_ info: CertificateInfo, _ role: Role, _ failures: inout [TrustFailure]) {
        let certificate = info.certificate
        let index = role.index
        // 7.1.2.7.8: cA MUST be false (x509-limbo's rfc5280::ca-as-leaf expects the RFC 5280 reading, which lets a
        // CA certificate be a leaf; the SSL server policy takes the Baseline Requirements').
        if info.isCA {
            failures.append(TrustFailure(index, .notCA, "CA certificate used as an end entity"))
        }
        // 7.1.2.7.6: subjectAltName MUST be present.
        if certificate.extensions[oid: X509OID.subjectAltName] == nil {
            failures.append(TrustFailure(index, .sslHostname, "subscriber certificate without subjectAltName"))
        }
        // 7.1.2.7.6: extKeyUsage MUST NOT be critical; 7.1.2.7.10: the purposes that MUST NOT be present.
        if let item = certificate.extensions[oid: X509OID.extKeyUsage], item.critical {
            failures.append(TrustFailure(index, .extendedKeyUsage, "extKeyUsage critical in a subscriber certificate"))
        }
        if let eku = info.extendedKeyUsage {
            for (oid, name) in PathValidator.subscriberForbiddenPurposes where eku.contains(oid) {
                failures.append(TrustFailure(index, .extendedKeyUsage, "\(name) in a subscriber certificate"))
            }
        }
        // 7.1.2.7.11: key usage bits permitted for neither RSA nor ECC keys, and keyAgreement for RSA keys.
        if let ku = info.keyUsage {
            var forbidden = ku.intersection(PathValidator.subscriberForbiddenKeyUsage)
            if info.keyKind == .rsa && ku.contains(.keyAgreement) { forbidden.insert(.keyAgreement) }
            if !forbidden.isEmpty {
                failures.append(
                    TrustFailure(index, .keyUsage, "key usage not permitted in a subscriber certificate"))
            }
        }
        checkSubscriberCommonName(info, role, &failures)
    }

    /// BR 7.1.4.3: the subscriber's commonName, if present, is exactly one entry, and a value of the subjectAltName:
    /// an IP address written as RFC 3986's dotted decimal or RFC 5952's IPv6 text, a domain name as a
    /// character-for-character copy of a dNSName entry (LDH labels, P-labels not converted to Unicode).
    ///
    /// The membership half of the rule is applied where the commonName denotes a subjectAltName value (the same
    /// address in another textual form, the same name in another letter case) or is internationalized: an ASCII
    /// commonName or an address unrelated to every entry is not refused, because x509-limbo's own valid cases
    /// (commonName `example.com` beside other names) and the bettertls suite (commonName `EE` or `1.1.1.1` beside
    /// `localhost`) carry such certificates as valid (docs/trust.md has the counts).
    private func checkSubscriberCommonName(_ info: CertificateInfo, _ role: Role, _ failures: inout [TrustFailure]) {
        let commonNames = info.certificate.subject.commonNames
        guard !commonNames.isEmpty else { return }
        let index = role.index
        if commonNames.count > 1 {
            failures.append(TrustFailure(index, .sslHostname, "more than one commonName"))
        }
        let sanEntries = info.subjectAlternativeNames ?? []
        // The common case, a verbatim copy of a dNSName entry, needs no more work.
        let uncopied = commonNames.filter { !sanEntries.contains(.dnsName($0)) }
        guard !uncopied.isEmpty else { return }
        var dnsNames: [String] = []
        var addresses: [ArraySlice<UInt8>] = []
        for name in sanEntries {
            switch name {
            case .dnsName(let value): dnsNames.append(value)
            case .ipAddress(let bytes): addresses.append(bytes)
            default: continue
            }
        }
        for cn in uncopied {
            if let problem = PathValidator.commonNameProblem(cn, dnsNames: dnsNames, addresses: addresses) {
                failures.append(TrustFailure(index, .sslHostname, "commonName \(cn) \(problem)"))
            }
        }
    }

    /// Why a commonName that is not a verbatim dNSName entry breaks BR 7.1.4.3, or nil.
    static func commonNameProblem(_ cn: String, dnsNames: [String], addresses: [ArraySlice<UInt8>]) -> String? {
        // An IP address, in any textual form, that is an iPAddress entry must be written as its canonical text.
        if let address = NameSyntax.lenientIPAddress(cn), addresses.contains(where: { $0.elementsEqual(address) }) {
            return NameSyntax.canonicalText(address[...]) == cn
                ? nil : "is not the canonical text of its address (RFC 3986 §3.2.2 / RFC 5952 §4)"
        }
        // A domain name must be copied character for character: another letter case, or another form of the same
        // internationalized name, is not a copy.
        let lower = cn.lowercased()
        if dnsNames.contains(where: { $0.lowercased() == lower }) {
            return "differs from its subjectAltName entry in letter case"
        }
        let internationalized =
            !cn.allSatisfy(\.isASCII) || lower.split(separator: ".").contains { $0.hasPrefix("xn--") }
        if internationalized { return "is an internationalized name that is not a subjectAltName entry" }
        return nil
    }
}

/// Bytes from a hex literal of the source (constant tables only).
private func hexBytes(_ hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex), index < hex.endIndex {
        if let byte = UInt8(hex[index..<next], radix: 16) { bytes.append(byte) }
        index = next
    }
    return bytes
}
