import Foundation
import OSecCrypto
import OSecX509

/// Apple's `SecIdentity`: a certificate together with the private key for its public key.
public final class SecIdentity: NSObject, @unchecked Sendable {
    // @unchecked: both stored properties are immutable references to immutable objects.
    let certificate: SecCertificate
    let privateKey: SecKey
    /// The private key's RSA/EC key (an identity's key is never symmetric: `init` checks it).
    let asymmetricKey: AsymmetricKey

    /// Pairs a certificate with its private key; throws `errSecParam` unless the key is private and its public
    /// half is the certificate's public key. (PKCS#12 import and the keychain build identities through this.)
    init(certificate: SecCertificate, privateKey: SecKey) throws {
        guard let asymmetricKey = privateKey.asymmetric, asymmetricKey.isPrivate else {
            throw SecError.param("an identity needs a private key")
        }
        guard let ownKey = try? SubjectPublicKeyInfo(asymmetricKey),
            ownKey.keyBytes == certificate.certificate.publicKeyInfo.keyBytes,
            ownKey.algorithm.oid == certificate.certificate.publicKeyInfo.algorithm.oid
        else { throw SecError.param("the private key does not match the certificate's public key") }
        self.certificate = certificate
        self.privateKey = privateKey
        self.asymmetricKey = asymmetricKey
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SecIdentity else { return false }
        return other === self || (other.certificate.isEqual(certificate) && other.privateKey.isEqual(privateKey))
    }

    public override var hash: Int { certificate.hash }

    public override var description: String { "<SecIdentityRef: \(certificate.description)>" }
}

/// The identity's certificate.
public func SecIdentityCopyCertificate(
    _ identityRef: SecIdentity, _ certificateRef: UnsafeMutablePointer<SecCertificate?>
) -> OSStatus {
    certificateRef.pointee = identityRef.certificate
    return errSecSuccess
}

/// The identity's private key.
public func SecIdentityCopyPrivateKey(
    _ identityRef: SecIdentity, _ privateKeyRef: UnsafeMutablePointer<SecKey?>
) -> OSStatus {
    privateKeyRef.pointee = identityRef.privateKey
    return errSecSuccess
}
