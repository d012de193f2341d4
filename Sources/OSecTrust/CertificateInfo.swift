import Foundation
import OSecASN1
import OSecCrypto
import OSecSystem
import OSecX509

/// A certificate with the extensions the validator needs decoded once, its public key built on first use and
/// the results of signature checks against issuer keys remembered.
///
/// Instances are shared through ``CertificateInfo/make(_:)``'s process-wide cache, so re-evaluating the same
/// certificates (a new `SecTrust` over the same `SecCertificate`s) skips decoding and signature checks.
package final class CertificateInfo: Sendable {
    /// The certificate.
    package let certificate: Certificate
    /// Apple-normalized subject and issuer (for issuer lookup; RFC 5280 §7.1 name chaining, simplified).
    package let normalizedSubject: ByteKey
    /// The Apple-normalized issuer name.
    package let normalizedIssuer: ByteKey
    /// basicConstraints (RFC 5280 §4.2.1.9), nil when absent or malformed.
    package let basicConstraints: BasicConstraints?
    /// keyUsage (§4.2.1.3), nil when absent or malformed.
    package let keyUsage: KeyUsage?
    /// extKeyUsage (§4.2.1.12), nil when absent or malformed.
    package let extendedKeyUsage: ExtendedKeyUsage?
    /// subjectAltName entries (§4.2.1.6), nil when absent or malformed.
    package let subjectAlternativeNames: [GeneralName]?
    /// subjectKeyIdentifier (§4.2.1.2), nil when absent or malformed.
    package let subjectKeyIdentifier: ArraySlice<UInt8>?
    /// authorityKeyIdentifier (§4.2.1.1), nil when absent or malformed.
    package let authorityKeyIdentifier: AuthorityKeyIdentifier?
    /// nameConstraints (§4.2.1.10), nil when absent or malformed.
    package let nameConstraints: NameConstraints?
    /// Certificate policy processing inputs (RFC 5280 §6.1.3 (d)–(f), §6.1.4).
    package let certificatePolicies: [ASN1ObjectIdentifier]?
    /// policyMappings (§4.2.1.5).
    package let policyMappings: [PolicyMapping]?
    /// policyConstraints (§4.2.1.11).
    package let policyConstraints: PolicyConstraints?
    /// inhibitAnyPolicy SkipCerts (§4.2.1.14).
    package let inhibitAnyPolicy: Int?
    /// Known extensions that failed to decode (OIDs, dotted).
    package let unparseableExtensions: [String]
    /// Critical extensions no check of ours handles.
    package let unhandledCriticalExtensions: [String]
    /// Public key kind and size in bits (RSA modulus bits, EC field bits); 0 when unknown.
    package let keyKind: SubjectPublicKeyInfo.KeyKind
    /// The key size in bits: RSA modulus bits, EC field bits, 256 for Ed25519; 0 when unknown.
    package let keyBits: Int
    /// For an RSA key: whether the public exponent is odd and at least 3 (BR 6.1.6); true for other keys.
    package let rsaExponentIsOddAndAtLeast3: Bool
    /// Whether a cRLDistributionPoints entry has neither a distributionPoint nor a cRLIssuer (RFC 5280 §4.2.1.13).
    package let hasReasonsOnlyDistributionPoint: Bool
    /// subjectAltName entries that are not of their type's form (RFC 5280 §4.2.1.6), described; found once here, as a
    /// leaf with many names is checked on every candidate path.
    package let subjectAltNameProblems: [String]
    /// Name constraints that are not of their type's form (RFC 5280 §4.2.1.10), described; found once here.
    package let nameConstraintProblems: [String]
    /// Whether the signature AlgorithmIdentifier is one of the encodings BR §7.1.3.2 permits.
    package let hasBaselineSignatureEncoding: Bool
    /// Whether subject and issuer are the same normalized name (RFC 5280 §6.1: "self-issued").
    package let isSelfIssued: Bool
    private let state = LockedValue(State())

    private struct State {
        var key: AsymmetricKey?
        var keyFailed = false
        /// Signature verdicts by issuer SPKI bytes.
        var signatureVerdicts: [ByteKey: Bool] = [:]
    }

    /// Extensions the validator processes (a critical extension outside this set fails `CriticalExtensions`).
    package static let handledExtensions: Set<ASN1ObjectIdentifier> = [
        X509OID.basicConstraints, X509OID.keyUsage, X509OID.extKeyUsage, X509OID.subjectAltName,
        X509OID.nameConstraints, X509OID.certificatePolicies, X509OID.policyConstraints, X509OID.policyMappings,
        X509OID.inhibitAnyPolicy, X509OID.subjectKeyIdentifier, X509OID.authorityKeyIdentifier,
    ]

    /// Decodes what the validator needs; a known extension that does not decode is listed in ``unparseableExtensions``,
    /// never thrown.
    package init(_ certificate: Certificate) {
        self.certificate = certificate
        normalizedSubject = CertificateInfo.normalizedKey(certificate.subject)
        normalizedIssuer = CertificateInfo.normalizedKey(certificate.issuer)
        isSelfIssued = normalizedSubject == normalizedIssuer
        let extensions = certificate.extensions
        var bad: [String] = []
        func decode<T>(_ oid: ASN1ObjectIdentifier, _ body: () throws(X509Error) -> T?) -> T? {
            do { return try body() } catch {
                bad.append(oid.dotted)
                return nil
            }
        }
        basicConstraints = decode(X509OID.basicConstraints) { () throws(X509Error) in try extensions.basicConstraints }
        keyUsage = decode(X509OID.keyUsage) { () throws(X509Error) in try extensions.keyUsage }
        extendedKeyUsage = decode(X509OID.extKeyUsage) { () throws(X509Error) in try extensions.extendedKeyUsage }
        subjectAlternativeNames = decode(X509OID.subjectAltName) { () throws(X509Error) in
            try extensions.subjectAlternativeNames
        }
        subjectKeyIdentifier = decode(X509OID.subjectKeyIdentifier) { () throws(X509Error) in
            try extensions.subjectKeyIdentifier
        }
        authorityKeyIdentifier = decode(X509OID.authorityKeyIdentifier) { () throws(X509Error) in
            try extensions.authorityKeyIdentifier
        }
        nameConstraints = decode(X509OID.nameConstraints) { () throws(X509Error) in try extensions.nameConstraints }
        certificatePolicies = decode(X509OID.certificatePolicies) { () throws(X509Error) in
            try extensions.certificatePolicies?.map(\.policyIdentifier)
        }
        policyConstraints = decode(X509OID.policyConstraints) { () throws(X509Error) in try extensions.policyConstraints
        }
        inhibitAnyPolicy = decode(X509OID.inhibitAnyPolicy) { () throws(X509Error) in try extensions.inhibitAnyPolicy }
        policyMappings = decode(X509OID.policyMappings) { () throws(X509Error) in try extensions.policyMappings }
        _ = decode(X509OID.authorityInfoAccess) { () throws(X509Error) in try extensions.authorityInformationAccess }
        let distributionPoints = decode(X509OID.crlDistributionPoints) { () throws(X509Error) in
            try extensions.crlDistributionPoints
        }
        hasReasonsOnlyDistributionPoint = (distributionPoints ?? []).contains { $0.name == nil && $0.crlIssuer == nil }
        subjectAltNameProblems = (subjectAlternativeNames ?? []).compactMap(NameSyntax.subjectAltNameProblem)
        nameConstraintProblems =
            ((nameConstraints?.permittedSubtrees ?? []) + (nameConstraints?.excludedSubtrees ?? []))
            .compactMap(NameSyntax.constraintProblem)
        var coder = DER.Serializer()
        hasBaselineSignatureEncoding =
            (try? coder.serialize(certificate.signatureAlgorithm.identifier)).map {
                PathValidator.baselineSignatureAlgorithms.contains(coder.serializedBytes)
            } ?? false
        unparseableExtensions = bad
        unhandledCriticalExtensions = extensions.criticalOIDs
            .filter { !CertificateInfo.handledExtensions.contains($0) }.map(\.dotted)
        let spki = certificate.publicKeyInfo
        keyKind = spki.kind
        rsaExponentIsOddAndAtLeast3 = spki.kind == .rsa ? CertificateInfo.rsaExponentIsUsable(spki.keyBytes) : true
        switch spki.kind {
        case .rsa: keyBits = CertificateInfo.rsaModulusBits(spki.keyBytes)
        case .ec(let curve): keyBits = curve.bits
        case .ed25519: keyBits = 256
        case .ed448: keyBits = 456
        case .unsupported: keyBits = 0
        }
    }

    /// Apple's normalized name; only PrintableString values change, so names without one are used as encoded.
    static func normalizedKey(_ name: DistinguishedName) -> ByteKey {
        let printable = name.rdns.contains { $0.attributes.contains { $0.valueTag == .printableString } }
        return printable ? ByteKey(name.normalizedDERBytes) : ByteKey(name.derBytes)
    }

    /// The modulus size of an `RSAPublicKey` (PKCS#1) without building an OpenSSL key.
    static func rsaModulusBits(_ bytes: ArraySlice<UInt8>) -> Int {
        guard let node = try? DER.parse(bytes), let children = node.children, let modulus = children.first,
            let content = modulus.primitiveContent
        else { return 0 }
        let trimmed = content.drop { $0 == 0 }
        guard let first = trimmed.first else { return 0 }
        return (trimmed.count - 1) * 8 + (8 - first.leadingZeroBitCount)
    }

    /// Whether an `RSAPublicKey`'s exponent is odd and at least 3.
    static func rsaExponentIsUsable(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let node = try? DER.parse(bytes), let children = node.children else { return false }
        var iterator = children.makeIterator()
        _ = iterator.next()
        guard let exponent = iterator.next(), let content = exponent.primitiveContent, let last = content.last,
            content.first.map({ $0 & 0x80 == 0 }) ?? false
        else { return false }
        let significant = content.drop { $0 == 0 }
        return last & 1 == 1 && (significant.count > 1 || (significant.first ?? 0) >= 3)
    }

    /// The subject name.
    package var subject: DistinguishedName { certificate.subject }
    /// The encoded SubjectPublicKeyInfo (an anchor is a name and this key).
    package var spkiBytes: ArraySlice<UInt8> { certificate.publicKeyInfo.derBytes }
    /// Whether basicConstraints asserts cA.
    package var isCA: Bool { basicConstraints?.isCertificateAuthority ?? false }

    /// Whether issuer and subject match and the key signed itself (checked lazily).
    package var isSelfSigned: Bool { isSelfIssued && isSigned(by: self) }

    /// The public key, built once.
    package var publicKey: AsymmetricKey? {
        if let cached = state.withLock({ $0.keyFailed ? nil : $0.key }) { return cached }
        if state.withLock({ $0.keyFailed }) { return nil }
        let key = try? certificate.publicKeyInfo.makeKey()
        state.withLock {
            $0.key = key
            $0.keyFailed = key == nil
        }
        return key
    }

    /// Whether `issuer`'s key signed this certificate (remembered per issuer key).
    package func isSigned(by issuer: CertificateInfo) -> Bool {
        if let verdict = cachedVerdict(issuer) { return verdict }
        let verdict = issuer.publicKey.map { certificate.isSignature(validFor: $0) } ?? false
        state.withLock { $0.signatureVerdicts[ByteKey(issuer.spkiBytes)] = verdict }
        return verdict
    }

    /// The remembered verdict for `issuer`, if the signature was checked before.
    package func cachedVerdict(_ issuer: CertificateInfo) -> Bool? {
        state.withLock { $0.signatureVerdicts[ByteKey(issuer.spkiBytes)] }
    }

    // MARK: Shared cache

    private static let cache = LockedValue([ByteKey: CertificateInfo]())
    /// Entries kept before the cache is emptied (a crude bound; evaluation never depends on a hit).
    package static let cacheCapacity = 4096

    /// Empties the shared cache (benchmarks measure cold evaluations this way; tests use it to isolate runs),
    /// except for the certificates in `keeping` (e.g. anchors a caller holds parsed, as OpenSSL's X509_STORE does).
    package static func purgeCache(keeping: [Certificate] = []) {
        let kept = Set(keeping.map { ByteKey($0.derBytes) })
        cache.withLock { entries in
            if kept.isEmpty { entries.removeAll() } else { entries = entries.filter { kept.contains($0.key) } }
        }
        EvaluationMemo.purge()
    }

    /// The shared info for a certificate (decoded on first use).
    package static func make(_ certificate: Certificate) -> CertificateInfo {
        let key = ByteKey(certificate.derBytes)
        if let hit = cache.withLock({ $0[key] }) { return hit }
        let info = CertificateInfo(certificate)
        cache.withLock {
            if $0.count >= cacheCapacity { $0.removeAll(keepingCapacity: true) }
            $0[key] = info
        }
        return info
    }
}
