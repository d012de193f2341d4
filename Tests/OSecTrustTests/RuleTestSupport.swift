import Foundation
import OSecASN1
import OSecCrypto
import OSecTrust
import OSecX509

/// The three policies of Apple's API as SecTrust maps them (Sources/Security/Trust/SecTrust.swift).
enum RulePolicy: String, CaseIterable, Sendable {
    case basic = "Basic X.509"
    case sslServer = "SSL server"
    case sslClient = "SSL client"

    func options(host: String?, time: Int64 = TestPKI.now) -> ValidationOptions {
        var options = ValidationOptions(time: time)
        switch self {
        case .basic:
            break
        case .sslServer:
            options.purpose = .serverAuth
            options.sslRules = true
            options.requireServerAuthEKU = true
            options.cabfProfile = true
            options.nameConstraintsMayBeNonCritical = true
            if let host { options.peerNames = [PeerName.host(host)] }
        case .sslClient:
            options.purpose = .clientAuth
            if let host { options.peerNames = [PeerName.host(host)] }
        }
        return options
    }
}

/// Certificates built for one rule: a leaf, its intermediates and the anchors.
struct RuleScenario {
    var leaf: Certificate
    var intermediates: [Certificate] = []
    var anchors: [Certificate]
    /// The host the SSL policies ask for (nil: no name check).
    var host: String? = "www.example.com"

    func evaluate(_ policy: RulePolicy) -> TrustEvaluation {
        ChainBuilder(
            anchors: [AnchorStore(anchors)], intermediates: intermediates, options: policy.options(host: host)
        ).evaluate(leaf)
    }
}

/// Ways to make certificates that CertificateBuilder's typed fields cannot express.
enum Craft {
    /// The SHA-1 key identifier CertificateBuilder writes for `key`.
    static func keyID(_ node: TestPKI.Node) -> [UInt8] {
        (try? node.certificate.extensions.subjectKeyIdentifier).flatMap { $0.map(Array.init) }
            ?? Array(Digest.hash(.sha1, Data(node.certificate.publicKeyInfo.keyBytes)))
    }

    /// Replaces the builder's typed extensions by the raw list they encode, after `edit`: criticality changes, removals
    /// and raw values the typed fields do not allow. `issuer` is nil for a self-signed certificate.
    static func editExtensions(
        _ b: inout CertificateBuilder, issuer: TestPKI.Node?, _ edit: (inout [Extension]) -> Void
    ) {
        let issuerKeyID =
            issuer.map(keyID) ?? Array(Digest.hash(.sha1, Data(b.publicKey.keyBytes)))
        guard var list = try? b.extensions(issuerKeyID: issuerKeyID) else { return }
        edit(&list)
        b.basicConstraints = nil
        b.keyUsage = nil
        b.extendedKeyUsage = nil
        b.subjectAlternativeNames = nil
        b.nameConstraints = nil
        b.includesSubjectKeyIdentifier = false
        b.includesAuthorityKeyIdentifier = false
        b.additionalExtensions = list
    }

    /// Sets the criticality of extension `oid` (which must be present).
    static func setCritical(_ oid: ASN1ObjectIdentifier, _ critical: Bool) -> (inout [Extension]) -> Void {
        { list in
            for index in list.indices where list[index].oid == oid {
                list[index] = Extension(oid: oid, critical: critical, value: Array(list[index].value))
            }
        }
    }

    /// Removes extension `oid`.
    static func remove(_ oid: ASN1ObjectIdentifier) -> (inout [Extension]) -> Void {
        { list in list.removeAll { $0.oid == oid } }
    }

    /// Sets (replacing or appending) extension `oid` to a raw value.
    static func set(_ oid: ASN1ObjectIdentifier, critical: Bool, _ value: [UInt8]) -> (inout [Extension]) -> Void {
        { list in
            list.removeAll { $0.oid == oid }
            list.append(Extension(oid: oid, critical: critical, value: value))
        }
    }

    /// Re-signs `certificate` with `key` (ECDSA P-256, SHA-256) after editing the TBSCertificate's encoded fields
    /// (version, serial, signature, issuer, validity, subject, SPKI, [issuerUID], [subjectUID], [extensions]).
    /// `outerAlgorithm` overrides the outer signatureAlgorithm encoding.
    static func resign(
        _ certificate: Certificate, key: AsymmetricKey, outerAlgorithm: [UInt8]? = nil,
        _ edit: (inout [[UInt8]]) -> Void
    ) throws -> Certificate {
        let tbsNode = try DER.parse(certificate.tbsBytes)
        var fields = (tbsNode.children.map { Array($0.map(\.encodedBytes)) } ?? []).map { Array($0) }
        edit(&fields)
        var tbsCoder = DER.Serializer()
        tbsCoder.appendConstructedNode(identifier: .sequence) { coder in
            for field in fields { coder.appendRawBytes(field) }
        }
        let tbs = tbsCoder.serializedBytes
        let signature = try key.sign(Data(tbs), scheme: .ecdsaDER(digest: .sha256, inputIsDigest: false))
        var algorithmCoder = DER.Serializer()
        try algorithmCoder.serialize(certificate.signatureAlgorithm.identifier)
        let algorithm = outerAlgorithm ?? algorithmCoder.serializedBytes
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            coder.appendRawBytes(tbs)
            coder.appendRawBytes(algorithm)
            try coder.serialize(ASN1BitString(bytes: [UInt8](signature)[...]))
        }
        return try Certificate(derEncoded: coder.serializedBytes)
    }

    /// An RSA SubjectPublicKeyInfo with a chosen modulus size, exponent and parameters (the key is never used: a leaf's
    /// key only needs decoding).
    static func rsaSPKI(
        modulusBits: Int, exponent: [UInt8] = [0x01, 0x00, 0x01], nullParameters: Bool = true
    ) throws
        -> SubjectPublicKeyInfo
    {
        var modulus = [UInt8](repeating: 0xA5, count: (modulusBits + 7) / 8)
        let topBits = modulusBits % 8 == 0 ? 8 : modulusBits % 8
        modulus[0] = UInt8((1 << topBits) - 1) & 0xFF | UInt8(1 << (topBits - 1))
        modulus[modulus.count - 1] |= 1
        var key = DER.Serializer()
        key.appendConstructedNode(identifier: .sequence) { coder in
            coder.appendPrimitiveNode(identifier: .integer) { $0.append(contentsOf: [0x00] + modulus) }
            coder.appendPrimitiveNode(identifier: .integer) { $0.append(contentsOf: exponent) }
        }
        var spki = DER.Serializer()
        try spki.appendConstructedNode(identifier: .sequence) { coder in
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(X509OID.rsaEncryption)
                if nullParameters { coder.appendRawBytes([0x05, 0x00]) }
            }
            try coder.serialize(ASN1BitString(bytes: key.serializedBytes[...]))
        }
        return try SubjectPublicKeyInfo(derEncoded: spki.serializedBytes)
    }

    /// A DER NameConstraints value with one permitted dNSName subtree carrying explicit `minimum`/`maximum` fields.
    static func nameConstraintsWithDistances(_ dnsName: String, minimum: Int?, maximum: Int?) throws -> [UInt8] {
        let dnsNameBase = [0x82, UInt8(dnsName.utf8.count)] + Array(dnsName.utf8)
        var coder = DER.Serializer()
        coder.appendConstructedNode(identifier: .sequence) { coder in
            coder.appendConstructedNode(identifier: .contextSpecific(0, constructed: true)) { coder in
                coder.appendConstructedNode(identifier: .sequence) { coder in
                    coder.appendRawBytes(dnsNameBase)
                    if let minimum {
                        coder.appendPrimitiveNode(identifier: .contextSpecific(0, constructed: false)) {
                            $0.append(UInt8(minimum))
                        }
                    }
                    if let maximum {
                        coder.appendPrimitiveNode(identifier: .contextSpecific(1, constructed: false)) {
                            $0.append(UInt8(maximum))
                        }
                    }
                }
            }
        }
        return coder.serializedBytes
    }

    /// A DER certificatePolicies value listing `oids` (duplicates allowed, for the negative case).
    static func certificatePolicies(_ oids: [ASN1ObjectIdentifier]) throws -> [UInt8] {
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            for oid in oids {
                try coder.appendConstructedNode(identifier: .sequence) { try $0.serialize(oid) }
            }
        }
        return coder.serializedBytes
    }

    /// A DER AuthorityKeyIdentifier with the chosen fields.
    static func authorityKeyIdentifier(
        keyID: [UInt8]?, issuer: DistinguishedName?, serial: [UInt8]?
    ) throws
        -> [UInt8]
    {
        var coder = DER.Serializer()
        coder.appendConstructedNode(identifier: .sequence) { coder in
            if let keyID {
                coder.appendPrimitiveNode(identifier: .contextSpecific(0, constructed: false)) {
                    $0.append(contentsOf: keyID)
                }
            }
            if let issuer {
                // [1] GeneralNames { [4] directoryName { Name } }
                coder.appendConstructedNode(identifier: .contextSpecific(1, constructed: true)) { coder in
                    coder.appendConstructedNode(identifier: .contextSpecific(4, constructed: true)) { coder in
                        coder.appendRawBytes(Array(issuer.derBytes))
                    }
                }
            }
            if let serial {
                coder.appendPrimitiveNode(identifier: .contextSpecific(2, constructed: false)) {
                    $0.append(contentsOf: serial)
                }
            }
        }
        return coder.serializedBytes
    }
}
