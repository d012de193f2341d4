import OSecASN1
import OSecCrypto

/// The signature algorithm of a certificate, CSR or CRL, as encoded (an ``AlgorithmIdentifier``),
/// with a typed view (``kind``) decoded on demand.
package struct SignatureAlgorithm: Hashable, Sendable {
    /// The algorithm identifier exactly as encoded.
    package let identifier: AlgorithmIdentifier

    /// The algorithm of an encoded identifier (``kind`` tells whether we support it).
    package init(identifier: AlgorithmIdentifier) { self.identifier = identifier }

    /// The algorithm OID.
    package var oid: ASN1ObjectIdentifier { identifier.oid }

    /// The algorithms we verify and produce.
    package enum Kind: Hashable, Sendable {
        /// RSASSA-PKCS1-v1_5 with the given digest (MD5 is decoded but weak; SHA-1/224/256/384/512).
        case rsaPKCS1(DigestAlgorithm)
        /// RSASSA-PSS (RFC 4055) with explicit parameters; the MGF1 digest must equal the message digest.
        case rsaPSS(digest: DigestAlgorithm, saltLength: Int)
        /// ECDSA with the given digest; signature is a DER `Ecdsa-Sig-Value`.
        case ecdsa(DigestAlgorithm)
        /// Ed25519 (RFC 8410), parameters absent.
        case ed25519
    }

    /// PKCS#1 v1.5 and ECDSA signature OIDs with their digests (built once: `kind` runs on every verification).
    private static let rsaDigests: [(ASN1ObjectIdentifier, DigestAlgorithm)] = [
        (X509OID.sha256WithRSAEncryption, .sha256), (X509OID.sha384WithRSAEncryption, .sha384),
        (X509OID.sha512WithRSAEncryption, .sha512), (X509OID.sha1WithRSAEncryption, .sha1),
        (X509OID.sha224WithRSAEncryption, .sha224), (X509OID.md5WithRSAEncryption, .md5),
    ]
    private static let ecdsaDigests: [(ASN1ObjectIdentifier, DigestAlgorithm)] = [
        (X509OID.ecdsaWithSHA256, .sha256), (X509OID.ecdsaWithSHA384, .sha384),
        (X509OID.ecdsaWithSHA512, .sha512), (X509OID.ecdsaWithSHA1, .sha1), (X509OID.ecdsaWithSHA224, .sha224),
    ]

    /// The decoded algorithm. Throws `X509Error.Code.unsupportedAlgorithm` for unknown OIDs or bad parameters.
    package var kind: Kind {
        get throws(X509Error) {
            let oid = identifier.oid
            for (candidate, digest) in SignatureAlgorithm.rsaDigests
            where Extensions.sameBytes(candidate.contentBytes, oid.contentBytes) {
                // RFC 4055 §5: parameters MUST be NULL; some old encoders omit them, which OpenSSL accepts.
                guard identifier.hasAbsentOrNullParameters else {
                    throw X509Error(.unsupportedAlgorithm, "RSA PKCS#1 signature with non-NULL parameters")
                }
                return .rsaPKCS1(digest)
            }
            for (candidate, digest) in SignatureAlgorithm.ecdsaDigests
            where Extensions.sameBytes(candidate.contentBytes, oid.contentBytes) {
                // RFC 5758 §3.2: parameters MUST be absent.
                guard identifier.parameters == nil else {
                    throw X509Error(.unsupportedAlgorithm, "ECDSA signature algorithm with parameters")
                }
                return .ecdsa(digest)
            }
            if oid == X509OID.ed25519 {
                guard identifier.parameters == nil else {
                    throw X509Error(.unsupportedAlgorithm, "Ed25519 signature algorithm with parameters")
                }
                return .ed25519
            }
            if oid == X509OID.rsassaPSS {
                return try SignatureAlgorithm.decodePSS(identifier.parameters)
            }
            throw X509Error(.unsupportedAlgorithm, "unsupported signature algorithm \(oid.dotted)")
        }
    }

    /// Builds the encoded identifier for a kind (the form OpenSSL and Apple produce).
    package init(_ kind: Kind) {
        switch kind {
        case .rsaPKCS1(let digest):
            let oid: ASN1ObjectIdentifier
            switch digest {
            case .md5: oid = X509OID.md5WithRSAEncryption
            case .sha1: oid = X509OID.sha1WithRSAEncryption
            case .sha224: oid = X509OID.sha224WithRSAEncryption
            case .sha256: oid = X509OID.sha256WithRSAEncryption
            case .sha384: oid = X509OID.sha384WithRSAEncryption
            case .sha512: oid = X509OID.sha512WithRSAEncryption
            }
            identifier = AlgorithmIdentifier(oid: oid, parameters: AlgorithmIdentifier.nullParameters)
        case .ecdsa(let digest):
            let oid: ASN1ObjectIdentifier
            switch digest {
            case .sha1, .md5: oid = X509OID.ecdsaWithSHA1
            case .sha224: oid = X509OID.ecdsaWithSHA224
            case .sha256: oid = X509OID.ecdsaWithSHA256
            case .sha384: oid = X509OID.ecdsaWithSHA384
            case .sha512: oid = X509OID.ecdsaWithSHA512
            }
            identifier = AlgorithmIdentifier(oid: oid)
        case .ed25519:
            identifier = AlgorithmIdentifier(oid: X509OID.ed25519)
        case .rsaPSS(let digest, let saltLength):
            identifier = AlgorithmIdentifier(
                oid: X509OID.rsassaPSS, parameters: SignatureAlgorithm.encodePSS(digest, saltLength)[...])
        }
    }

    // MARK: RSASSA-PSS parameters (RFC 4055 §3.1)

    static func digestOID(_ digest: DigestAlgorithm) -> ASN1ObjectIdentifier {
        switch digest {
        case .md5: return [1, 2, 840, 113549, 2, 5]
        case .sha1: return X509OID.sha1
        case .sha224: return X509OID.sha224
        case .sha256: return X509OID.sha256
        case .sha384: return X509OID.sha384
        case .sha512: return X509OID.sha512
        }
    }

    static func digest(forOID oid: ASN1ObjectIdentifier) -> DigestAlgorithm? {
        for digest in [DigestAlgorithm.sha1, .sha224, .sha256, .sha384, .sha512] where digestOID(digest) == oid {
            return digest
        }
        return nil
    }

    private static func decodeDigestIdentifier(_ node: ASN1Node) throws -> DigestAlgorithm {
        let algorithm = try AlgorithmIdentifier(derEncoded: node)
        guard algorithm.hasAbsentOrNullParameters, let digest = digest(forOID: algorithm.oid) else {
            throw X509Error(.unsupportedAlgorithm, "unsupported PSS digest \(algorithm.oid.dotted)")
        }
        return digest
    }

    private static func decodePSS(_ parameters: ArraySlice<UInt8>?) throws(X509Error) -> Kind {
        guard let parameters else { throw X509Error(.unsupportedAlgorithm, "RSASSA-PSS without parameters") }
        do {
            let node = try DER.parse(parameters)
            return try DER.sequence(node) { nodes in
                let digest =
                    try DER.optionalExplicitlyTagged(&nodes, tagNumber: 0) { try decodeDigestIdentifier($0) } ?? .sha1
                let mgfDigest =
                    try DER.optionalExplicitlyTagged(&nodes, tagNumber: 1) { node -> DigestAlgorithm in
                        let mgf = try AlgorithmIdentifier(derEncoded: node)
                        guard mgf.oid == X509OID.mgf1, let inner = mgf.parameters else {
                            throw X509Error(.unsupportedAlgorithm, "PSS mask generation is not MGF1")
                        }
                        return try decodeDigestIdentifier(try DER.parse(inner))
                    } ?? .sha1
                let salt = try DER.optionalExplicitlyTagged(&nodes, tagNumber: 2) { try Int(derEncoded: $0) } ?? 20
                let trailer = try DER.optionalExplicitlyTagged(&nodes, tagNumber: 3) { try Int(derEncoded: $0) } ?? 1
                guard trailer == 1, mgfDigest == digest, (0...1024).contains(salt) else {
                    throw X509Error(.unsupportedAlgorithm, "unsupported RSASSA-PSS parameters")
                }
                return .rsaPSS(digest: digest, saltLength: salt)
            }
        } catch let error as X509Error {
            throw error
        } catch {
            throw X509Error(.unsupportedAlgorithm, "malformed RSASSA-PSS parameters", underlying: error)
        }
    }

    private static func encodePSS(_ digest: DigestAlgorithm, _ saltLength: Int) -> [UInt8] {
        var coder = DER.Serializer()
        let hash = AlgorithmIdentifier(oid: digestOID(digest), parameters: AlgorithmIdentifier.nullParameters)
        // Serialization of these fixed shapes cannot fail.
        try? coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(hash, explicitlyTaggedWithTagNumber: 0)
            let hashBytes = try hash.derEncoded()
            try coder.serialize(
                AlgorithmIdentifier(oid: X509OID.mgf1, parameters: hashBytes[...]), explicitlyTaggedWithTagNumber: 1)
            try coder.serialize(saltLength, explicitlyTaggedWithTagNumber: 2)
        }
        return coder.serializedBytes
    }
}

extension SignatureAlgorithm: CustomStringConvertible {
    /// A readable name (`ecdsa-with-sha256`, `sha256WithRSAEncryption`), else the dotted OID.
    package var description: String {
        guard let kind = try? kind else { return identifier.oid.dotted }
        switch kind {
        case .rsaPKCS1(let digest): return "\(digest)WithRSAEncryption"
        case .rsaPSS(let digest, let salt): return "rsassaPss(\(digest), salt \(salt))"
        case .ecdsa(let digest): return "ecdsa-with-\(digest)"
        case .ed25519: return "ED25519"
        }
    }
}
