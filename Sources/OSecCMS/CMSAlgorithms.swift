import OSecASN1
import OSecCrypto
import OSecX509

/// The digest algorithms a SignerInfo may name, by OID.
package enum CMSDigest {
    /// The OID of a digest (MD5 is never written; reading it fails as unsupported).
    package static func oid(_ digest: DigestAlgorithm) -> ASN1ObjectIdentifier {
        switch digest {
        case .md5: [1, 2, 840, 113549, 2, 5]
        case .sha1: CMSOID.sha1
        case .sha224: CMSOID.sha224
        case .sha256: CMSOID.sha256
        case .sha384: CMSOID.sha384
        case .sha512: CMSOID.sha512
        }
    }

    /// The digest an AlgorithmIdentifier names (SHA-1 … SHA-512, parameters absent or NULL), else throws.
    package static func digest(_ identifier: AlgorithmIdentifier) throws(CMSError) -> DigestAlgorithm {
        for digest in [DigestAlgorithm.sha256, .sha1, .sha384, .sha512, .sha224] where oid(digest) == identifier.oid {
            guard identifier.hasAbsentOrNullParameters else {
                throw CMSError(.unsupportedAlgorithm, "digest \(identifier.oid.dotted) with parameters")
            }
            return digest
        }
        throw CMSError(.unsupportedAlgorithm, "unsupported digest algorithm \(identifier.oid.dotted)")
    }

    /// The AlgorithmIdentifier written for a digest: OID, parameters absent (RFC 5754 §2: SHOULD omit; OpenSSL
    /// and Apple read both).
    package static func identifier(_ digest: DigestAlgorithm) -> AlgorithmIdentifier {
        AlgorithmIdentifier(oid: oid(digest))
    }
}

/// How a SignerInfo's signature is checked: the scheme over the signed bytes.
enum CMSSignatureCheck {
    /// The scheme for `signatureAlgorithm` with the SignerInfo's `digest`, for a key of `keyAlgorithm`.
    ///
    /// `rsaEncryption` (what OpenSSL and Apple write) and the `…WithRSAEncryption` OIDs mean PKCS#1 v1.5; RSASSA-PSS
    /// takes its own parameters; `id-ecPublicKey` and the `ecdsa-with-…` OIDs mean ECDSA. The message digest is
    /// the SignerInfo's digest algorithm in every case (RFC 5652 §5.4), as OpenSSL computes it.
    static func scheme(
        _ signatureAlgorithm: AlgorithmIdentifier, digest: DigestAlgorithm, keyAlgorithm: KeyAlgorithm
    ) throws(CMSError) -> SignatureScheme {
        let oid = signatureAlgorithm.oid
        switch keyAlgorithm {
        case .rsa:
            if oid == CMSOID.rsaEncryption {
                return .rsaPKCS1v15(digest: digest, inputIsDigest: false)
            }
            if oid == CMSOID.rsassaPSS {
                let kind: SignatureAlgorithm.Kind
                do {
                    kind = try SignatureAlgorithm(identifier: signatureAlgorithm).kind
                } catch {
                    throw CMSError(.unsupportedAlgorithm, "unsupported RSASSA-PSS parameters", underlying: error)
                }
                guard case .rsaPSS(let pssDigest, let salt) = kind else {
                    throw CMSError(.unsupportedAlgorithm, "unsupported RSASSA-PSS parameters")
                }
                return .rsaPSS(digest: pssDigest, saltLength: salt, inputIsDigest: false)
            }
            if case .rsaPKCS1 = try? SignatureAlgorithm(identifier: signatureAlgorithm).kind {
                return .rsaPKCS1v15(digest: digest, inputIsDigest: false)
            }
        case .ec:
            if oid == CMSOID.ecPublicKey {
                return .ecdsaDER(digest: digest, inputIsDigest: false)
            }
            if case .ecdsa = try? SignatureAlgorithm(identifier: signatureAlgorithm).kind {
                return .ecdsaDER(digest: digest, inputIsDigest: false)
            }
        case .ed25519:
            break
        }
        throw CMSError(.unsupportedAlgorithm, "unsupported signature algorithm \(oid.dotted) for this key")
    }

    /// The signatureAlgorithm written for a key: rsaEncryption (NULL parameters) for RSA, as OpenSSL and Apple
    /// write; `ecdsa-with-<digest>` for EC.
    static func identifier(
        for keyAlgorithm: KeyAlgorithm, digest: DigestAlgorithm
    ) throws(CMSError)
        -> AlgorithmIdentifier
    {
        switch keyAlgorithm {
        case .rsa:
            return AlgorithmIdentifier(oid: CMSOID.rsaEncryption, parameters: [0x05, 0x00])
        case .ec:
            let oid: ASN1ObjectIdentifier
            switch digest {
            case .sha1, .md5: oid = CMSOID.ecdsaWithSHA1
            case .sha224: oid = CMSOID.ecdsaWithSHA224
            case .sha256: oid = CMSOID.ecdsaWithSHA256
            case .sha384: oid = CMSOID.ecdsaWithSHA384
            case .sha512: oid = CMSOID.ecdsaWithSHA512
            }
            return AlgorithmIdentifier(oid: oid)
        case .ed25519:
            throw CMSError(.unsupportedAlgorithm, "Ed25519 signers are not supported")
        }
    }
}
