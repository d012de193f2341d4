import Foundation
import OSecCrypto

/// A private key with its certificate, to export.
package struct PKCS12ExportIdentity: Sendable {
    package var privateKey: AsymmetricKey
    /// Leaf certificate DER; its public key must match ``privateKey``.
    package var certificate: Data
    /// Written as friendlyName on the key and certificate bags.
    package var friendlyName: String?
    /// Written as localKeyId; defaults to the SHA-1 of the certificate (as OpenSSL does).
    package var localKeyID: Data?

    package init(privateKey: AsymmetricKey, certificate: Data, friendlyName: String? = nil, localKeyID: Data? = nil) {
        self.privateKey = privateKey
        self.certificate = certificate
        self.friendlyName = friendlyName
        self.localKeyID = localKeyID
    }
}
