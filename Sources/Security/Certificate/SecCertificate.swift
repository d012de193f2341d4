import Foundation
import OSecTrust
import OSecX509
import Synchronization

/// Apple's `SecCertificate`: an immutable X.509 certificate.
///
/// Two certificates are equal when their DER encodings are equal (`CFEqual` on Apple platforms).
public final class SecCertificate: NSObject, @unchecked Sendable {
    // @unchecked: the stored properties are immutable values and an atomic reference set at most once.
    let certificate: Certificate
    /// Where the certificate is stored, when it came from (or was added to) a keychain.
    let keychainReference: SecItemReference?
    private let heldTrustInfo = AtomicLazyReference<CertificateInfo>()

    /// What trust evaluation decodes from the certificate, found (or made) in OSecTrust's shared cache on first use
    /// and then held here: every later `SecTrust` over this object reaches it without hashing the DER or taking the
    /// shared cache's lock, which threads evaluating at once would otherwise contend for.
    var trustInfo: CertificateInfo {
        if let held = heldTrustInfo.load() { return held }
        return heldTrustInfo.storeIfNil(CertificateInfo.make(certificate))
    }

    init(_ certificate: Certificate) {
        self.certificate = certificate
        self.keychainReference = nil
    }

    init(_ certificate: Certificate, keychainReference: SecItemReference?) {
        self.certificate = certificate
        self.keychainReference = keychainReference
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SecCertificate else { return false }
        return other === self || other.certificate == certificate
    }

    public override var hash: Int { certificate.hashValue }

    /// Apple's debug form: `<cert(0x…) s: <subject summary> i: <issuer summary>>`.
    public override var description: String {
        let subject = SecCertificateSummary.summary(of: certificate) ?? ""
        let issuer = SecCertificateSummary.nameSummary(certificate.issuer).summary ?? ""
        return
            "<cert(\(String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 16))) s: \(subject) i: "
            + "\(issuer)>"
    }
}

// MARK: - Apple's functions (SecCertificate.h)

/// Creates a certificate from DER. Returns nil for anything that is not one DER certificate (PEM included).
///
/// As on Apple platforms only the first top-level SEQUENCE is used; trailing bytes are tolerated and dropped.
/// The serial number must be 1…37 octets.
public func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData) -> SecCertificate? {
    let bytes = data.byteArray
    guard let certificate = try? Certificate(derEncodedPrefixOf: bytes),
        (1...37).contains(certificate.serialNumber.count)
    else { return nil }
    return SecCertificate(certificate)
}

/// The DER encoding of the certificate (without any trailing bytes given at creation).
public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData {
    Data(certificate.certificate.derBytes) as NSData
}

/// A human-readable summary of the subject (Apple's rule: the common name, else an email address or DNS name,
/// else the most significant of OU / O / other attributes).
public func SecCertificateCopySubjectSummary(_ certificate: SecCertificate) -> CFString? {
    SecCertificateSummary.summary(of: certificate.certificate).map { NSString(string: $0) }
}

/// The last common name of the subject. No common name → `errSecInternal` (-26276), as on Apple platforms.
public func SecCertificateCopyCommonName(
    _ certificate: SecCertificate, _ commonName: UnsafeMutablePointer<CFString?>
) -> OSStatus {
    guard let last = certificate.certificate.subject.commonNames.last else {
        commonName.pointee = nil
        return errSecInternal
    }
    commonName.pointee = NSString(string: last)
    return errSecSuccess
}

/// The email addresses: subjectAltName rfc822Names, then subject `emailAddress` values (empty array if none).
public func SecCertificateCopyEmailAddresses(
    _ certificate: SecCertificate, _ emailAddresses: UnsafeMutablePointer<CFArray?>
) -> OSStatus {
    emailAddresses.pointee =
        SecCertificateSummary.emailAddresses(certificate.certificate).map { NSString(string: $0) } as NSArray
    return errSecSuccess
}

/// The serial number INTEGER content octets as encoded (a leading 0x00 is kept).
public func SecCertificateCopySerialNumberData(
    _ certificate: SecCertificate, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    Data(certificate.certificate.serialNumber) as NSData
}

/// The issuer Name, normalized as Apple does (PrintableString values upper-cased and blank-collapsed), as a DER
/// SEQUENCE.
public func SecCertificateCopyNormalizedIssuerSequence(_ certificate: SecCertificate) -> CFData? {
    Data(certificate.certificate.issuer.normalizedDERBytes) as NSData
}

/// The subject Name, normalized as Apple does, as a DER SEQUENCE.
public func SecCertificateCopyNormalizedSubjectSequence(_ certificate: SecCertificate) -> CFData? {
    Data(certificate.certificate.subject.normalizedDERBytes) as NSData
}

/// The certificate's public key (RSA or EC P-256/384/521); nil for other key types (Ed25519 has no SecKey type).
public func SecCertificateCopyKey(_ certificate: SecCertificate) -> SecKey? {
    guard let key = try? certificate.certificate.publicKeyInfo.makeKey() else { return nil }
    return SecKey.wrapping(key)
}

/// iOS's deprecated spelling of ``SecCertificateCopyKey(_:)``.
@available(*, deprecated, renamed: "SecCertificateCopyKey")
public func SecCertificateCopyPublicKey(_ certificate: SecCertificate) -> SecKey? {
    SecCertificateCopyKey(certificate)
}
