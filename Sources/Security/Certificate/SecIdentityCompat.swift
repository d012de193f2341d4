import Foundation

/// Apple's `SecIdentityCreate` (public since iOS 26 / macOS 26, SPI before): the identity of a certificate and
/// its private key; nil when the key is not the private key of the certificate's public key.
public func SecIdentityCreate(
    _ allocator: CFAllocator?, _ certificate: SecCertificate, _ privateKey: SecKey
) -> SecIdentity? {
    try? SecIdentity(certificate: certificate, privateKey: privateKey)
}

/// Apple's macOS `kSecIdentityDomainDefault` (system identity domains; there are no system identities here).
nonisolated(unsafe) public let kSecIdentityDomainDefault: CFString = "com.apple.systemdefault"
/// Apple's macOS `kSecIdentityDomainKerberosKDC`.
nonisolated(unsafe) public let kSecIdentityDomainKerberosKDC: CFString = "com.apple.kerberos.kdc"
