import Foundation
import OSecCrypto

/// A private key with its certificate and chain, as found in a PKCS#12 file.
package struct PKCS12Identity: Sendable {
    /// The private key.
    package let privateKey: AsymmetricKey
    /// The private key as PKCS#8 PrivateKeyInfo DER.
    package let privateKeyPKCS8: Data
    /// The leaf certificate DER.
    package let certificate: Data
    /// Leaf first, then its issuers found in the file, in chain order.
    package let chain: [Data]
    /// The key bag's friendlyName, else the certificate bag's.
    package let friendlyName: String?
    /// The localKeyId of the key bag (or of the certificate bag), if any.
    package let localKeyID: Data?
    /// SHA-1 of the leaf's public key bits (Apple's key identifier).
    package let publicKeyHash: Data
    /// The key bag's raw attributes.
    package let keyAttributes: BagAttributes

    /// `localKeyID`, falling back to ``publicKeyHash``.
    package var keyID: Data { localKeyID ?? publicKeyHash }
}
