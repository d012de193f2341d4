import Foundation
import OSecASN1
import OSecCrypto
import OSecTrust
import OSecX509

/// Builds small PKIs in code at fixed times (no clock is read).
enum TestPKI {
    /// 2025-01-01T00:00:00Z, the "now" of these tests.
    static let now: Int64 = 1_735_689_600
    static let day: Int64 = 86_400

    /// Keys are expensive (RSA-2048 ≈ 0.3 s): generate a few once and reuse them.
    static let ecKeys: [AsymmetricKey] = (0..<8).map { _ in try! AsymmetricKey.generateEC(.p256) }
    static let rsaKey: AsymmetricKey = try! AsymmetricKey.generateRSA(bits: 2048)
    static let rsa1024Key: AsymmetricKey = try! AsymmetricKey.generateRSA(bits: 1024)

    static func name(_ cn: String) -> DistinguishedName { try! DistinguishedName([(X509OID.commonName, cn)]) }

    struct Node {
        let certificate: Certificate
        let key: AsymmetricKey
    }

    static func builder(
        _ cn: String, key: AsymmetricKey, from: Int64 = now - 30 * day, to: Int64 = now + 300 * day,
        subject: DistinguishedName? = nil
    ) -> CertificateBuilder {
        try! CertificateBuilder(
            subject: subject ?? name(cn), publicKey: try! SubjectPublicKeyInfo(key),
            notBefore: X509Time(secondsSinceEpoch: from), notAfter: X509Time(secondsSinceEpoch: to))
    }

    static func root(
        _ cn: String = "Test Root", key: AsymmetricKey = ecKeys[0], pathLength: Int? = nil,
        configure: (inout CertificateBuilder) -> Void = { _ in }
    ) -> Node {
        var b = builder(cn, key: key, from: now - 3650 * day, to: now + 3650 * day)
        b.basicConstraints = BasicConstraints(isCertificateAuthority: true, pathLengthConstraint: pathLength)
        b.keyUsage = [.keyCertSign, .cRLSign]
        configure(&b)
        return Node(certificate: try! b.selfSigned(with: key), key: key)
    }

    static func intermediate(
        _ cn: String = "Test Intermediate", key: AsymmetricKey = ecKeys[1], issuer: Node,
        pathLength: Int? = nil, configure: (inout CertificateBuilder) -> Void = { _ in }
    ) -> Node {
        var b = builder(cn, key: key, from: now - 1000 * day, to: now + 1000 * day)
        b.basicConstraints = BasicConstraints(isCertificateAuthority: true, pathLengthConstraint: pathLength)
        b.keyUsage = [.keyCertSign, .cRLSign]
        configure(&b)
        return Node(certificate: try! b.issued(by: issuer.certificate, issuerKey: issuer.key), key: key)
    }

    static func leaf(
        _ dns: [String] = ["www.example.com"], key: AsymmetricKey = ecKeys[2], issuer: Node,
        eku: [ASN1ObjectIdentifier]? = [X509OID.serverAuth],
        configure: (inout CertificateBuilder) -> Void = { _ in }
    ) -> Node {
        var b = builder(dns.first ?? "leaf", key: key)
        b.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        b.keyUsage = [.digitalSignature]
        b.extendedKeyUsage = eku
        b.subjectAlternativeNames = dns.map { GeneralName.dnsName($0) }
        configure(&b)
        return Node(certificate: try! b.issued(by: issuer.certificate, issuerKey: issuer.key), key: key)
    }

    /// A standard root → intermediate → leaf chain.
    static func chain() -> (root: Node, intermediate: Node, leaf: Node) {
        let r = root()
        let i = intermediate(issuer: r)
        let l = leaf(issuer: i)
        return (r, i, l)
    }

    static func serverOptions(_ host: String? = "www.example.com", time: Int64 = now) -> ValidationOptions {
        var options = ValidationOptions(time: time)
        options.purpose = .serverAuth
        if let host { options.peerNames = [PeerName.host(host)] }
        return options
    }

    static func evaluate(
        _ leaf: Node, intermediates: [Node] = [], anchors: [Node],
        options: ValidationOptions = serverOptions()
    ) -> TrustEvaluation {
        ChainBuilder(
            anchors: [AnchorStore(anchors.map(\.certificate))], intermediates: intermediates.map(\.certificate),
            options: options
        ).evaluate(leaf.certificate)
    }
}

extension TrustEvaluation {
    var checks: Set<TrustCheck> { Set(failures.map(\.check)) }
}
