import Foundation
import OSecX509

/// The attributes the keychain stores for a certificate (`SecItemAdd` with `kSecValueRef`), per Apple's
/// `SecCertificateCopyAttributeDictionary`: ctyp, cenc, subj, issr, slnr, skid, pkhh, default labl, v_Data.
extension SecCertificate {
    /// `kSecAttrCertificateType`: the X.509 version as a number (1, 2 or 3; CSSM_CERT_X_509v1…v3).
    var certificateTypeAttribute: Int { certificate.version.rawValue + 1 }

    /// `kSecAttrSubject`: normalized subject Name contents without the outer SEQUENCE header.
    var subjectAttribute: Data { Data(certificate.subject.normalizedContentBytes) }

    /// `kSecAttrIssuer`: normalized issuer Name contents without the outer SEQUENCE header.
    var issuerAttribute: Data { Data(certificate.issuer.normalizedContentBytes) }

    /// `kSecAttrSerialNumber`: serial INTEGER content octets as encoded.
    var serialNumberAttribute: Data { Data(certificate.serialNumber) }

    /// `kSecAttrSubjectKeyID`: the subjectKeyIdentifier octets, nil when the extension is absent (or malformed).
    var subjectKeyIDAttribute: Data? { (try? certificate.extensions.subjectKeyIdentifier)?.map { Data($0) } ?? nil }

    /// `kSecAttrPublicKeyHash`: SHA-1 of the SPKI BIT STRING payload (joins with a private key's `klbl`).
    var publicKeyHashAttribute: Data { certificate.publicKeyInfo.publicKeyHash }

    /// The default `kSecAttrLabel`: the subject summary.
    var defaultLabel: String? { SecCertificateSummary.summary(of: certificate) }

    /// The email addresses (SAN rfc822Names, then subject emailAddress).
    var emailAddresses: [String] { SecCertificateSummary.emailAddresses(certificate) }

    /// The attribute dictionary `SecItemAdd` merges *under* the caller's keys for a certificate ref.
    /// Keys are Apple's raw attribute names (`ctyp`, `cenc`, …); `v_Data` holds the DER.
    func keychainAttributes() -> [String: Any] {
        var attributes: [String: Any] = [
            kSecClass as String: kSecClassCertificate,
            kSecAttrCertificateType as String: NSNumber(value: certificateTypeAttribute),
            kSecAttrCertificateEncoding as String: NSNumber(value: 3),  // CSSM_CERT_ENCODING_DER
            kSecAttrSubject as String: subjectAttribute,
            kSecAttrIssuer as String: issuerAttribute,
            kSecAttrSerialNumber as String: serialNumberAttribute,
            kSecAttrPublicKeyHash as String: publicKeyHashAttribute,
            kSecValueData as String: Data(certificate.derBytes),
        ]
        if let skid = subjectKeyIDAttribute { attributes[kSecAttrSubjectKeyID as String] = skid }
        if let label = defaultLabel { attributes[kSecAttrLabel as String] = label }
        return attributes
    }

    /// Normalizes a DER Name given as `kSecAttrIssuer`/`kSecMatchIssuers` (full SEQUENCE) to the stored `issr` form;
    /// nil if it is not a Name.
    static func normalizedNameContents(fromDER data: Data) -> Data? {
        guard let name = try? DistinguishedName(derEncoded: [UInt8](data)) else { return nil }
        return Data(name.normalizedContentBytes)
    }
}
