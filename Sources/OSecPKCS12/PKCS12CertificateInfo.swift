import Foundation
import OSecCrypto
import OSecX509

/// The fields of a certificate bag's X.509 certificate that PKCS#12 import needs: names for chain building
/// and the public key for pairing. A thin view over OSecX509's `Certificate`.
struct PKCS12CertificateInfo: Sendable {
    /// The certificate DER.
    let der: Data
    let certificate: Certificate

    init(der: Data) throws(PKCS12Error) {
        self.der = der
        do {
            certificate = try Certificate(derEncoded: der)
        } catch {
            throw PKCS12Error(.malformed, "a certificate bag does not hold a DER X.509 certificate: \(error)")
        }
    }

    /// Encoded issuer Name (used for issuer/subject matching).
    var issuer: ArraySlice<UInt8> { certificate.issuer.derBytes }
    /// Encoded subject Name.
    var subject: ArraySlice<UInt8> { certificate.subject.derBytes }
    /// Encoded SubjectPublicKeyInfo.
    var subjectPublicKeyInfo: ArraySlice<UInt8> { certificate.publicKeyInfo.derBytes }
    /// The subjectPublicKey BIT STRING content (RSAPublicKey DER, or the EC point).
    var publicKeyBits: ArraySlice<UInt8> { certificate.publicKeyInfo.keyBytes[...] }
    /// Whether the certificate is self-issued (subject equals issuer).
    var isSelfIssued: Bool { certificate.isSelfIssued }
    /// SHA-1 of the subjectPublicKey bits: Apple's key identifier (`klbl`, kSecImportItemKeyID).
    var publicKeyHash: Data { certificate.publicKeyInfo.publicKeyHash }
}
