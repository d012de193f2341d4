import Foundation
import OSecASN1
import OSecCrypto

@testable import OSecX509

/// A small PKI built in code at a fixed time (2024-01-01 … 2034-01-01).
enum X509TestPKI {
    static let notBefore = X509Time(secondsSinceEpoch: 1_704_067_200)
    static let notAfter = X509Time(secondsSinceEpoch: 2_019_686_400)

    static func name(_ cn: String) throws -> DistinguishedName {
        try DistinguishedName([
            (X509OID.countryName, "US"), (X509OID.organizationName, "OpenSecurity Tests"), (X509OID.commonName, cn),
        ])
    }

    static func root(key: AsymmetricKey, cn: String = "Test Root") throws -> Certificate {
        var builder = try CertificateBuilder(
            subject: name(cn), publicKey: SubjectPublicKeyInfo(key), notBefore: notBefore, notAfter: notAfter)
        builder.basicConstraints = BasicConstraints(isCertificateAuthority: true)
        builder.keyUsage = [.keyCertSign, .cRLSign]
        return try builder.selfSigned(with: key)
    }

    static func leaf(
        key: AsymmetricKey, issuer: Certificate, issuerKey: AsymmetricKey, cn: String = "www.example.com"
    ) throws -> Certificate {
        var builder = try CertificateBuilder(
            subject: name(cn), publicKey: SubjectPublicKeyInfo(key), notBefore: notBefore, notAfter: notAfter)
        builder.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        builder.keyUsage = [.digitalSignature, .keyEncipherment]
        builder.extendedKeyUsage = [X509OID.serverAuth]
        builder.subjectAlternativeNames = [.dnsName(cn), .ipAddress([192, 0, 2, 7]), .rfc822Name("admin@example.com")]
        return try builder.issued(by: issuer, issuerKey: issuerKey)
    }

    /// Cached keys (RSA generation is slow).
    static let rsaKey: AsymmetricKey = { try! AsymmetricKey.generateRSA(bits: 2048) }()
    static let p256Key: AsymmetricKey = { try! AsymmetricKey.generateEC(.p256) }()
    static let p384Key: AsymmetricKey = { try! AsymmetricKey.generateEC(.p384) }()
    static let p521Key: AsymmetricKey = { try! AsymmetricKey.generateEC(.p521) }()

    static func write(_ text: String, to url: URL) throws {
        try text.write(to: url, atomically: false, encoding: .utf8)
    }
}
