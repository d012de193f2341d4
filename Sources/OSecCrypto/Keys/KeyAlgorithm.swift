/// The algorithm family of an ``AsymmetricKey``.
package enum KeyAlgorithm: Sendable, Hashable {
    case rsa
    case ec(ECCurve)
    /// Ed25519 (RFC 8032): signatures only. Used for certificates and CRLs; Apple's SecKey has no such type.
    case ed25519
}

/// PEM encodings written by ``AsymmetricKey/pem(_:passphrase:)``.
package enum KeyPEMFormat: Sendable, Hashable {
    /// `RSA PRIVATE KEY` / `RSA PUBLIC KEY` (RSA only).
    case pkcs1
    /// `PUBLIC KEY` (SubjectPublicKeyInfo).
    case spki
    /// `PRIVATE KEY` (PKCS#8), or `ENCRYPTED PRIVATE KEY` when a passphrase is given.
    case pkcs8
    /// `EC PRIVATE KEY` (SEC1, EC private keys only).
    case sec1
}
