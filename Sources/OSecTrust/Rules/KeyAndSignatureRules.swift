import OSecCrypto
import OSecX509

// Key strength and signature algorithms (Apple's WeakKeySize/KeySize, WeakSignature/SignatureHashAlgorithms checks;
// RFC 5280 §4.1.1.2 for the algorithm fields is in CertificateProfileRules.swift).
extension PathValidator {
    /// Apple's key rules, on every certificate of the path (the anchor included): RSA below 1024 bits or a key type we
    /// cannot use is fatal (WeakKeySize); RSA below the policy's minimum is not (KeySize; 2048 under the SSL policy).
    func checkKey(_ info: CertificateInfo, _ role: Role, _ failures: inout [TrustFailure]) {
        let index = role.index
        switch info.keyKind {
        case .rsa:
            if info.keyBits < 1024 {
                failures.append(TrustFailure(index, .weakKeySize, "RSA key of \(info.keyBits) bits"))
            } else if info.keyBits < (options.sslRules ? max(2048, options.minimumRSABits) : options.minimumRSABits) {
                failures.append(
                    TrustFailure(index, .keySize, "RSA key of \(info.keyBits) bits is below the policy minimum"))
            }
        case .ec, .ed25519, .ed448:
            break
        case .unsupported:
            failures.append(
                TrustFailure(
                    index, .weakKeySize,
                    "unsupported public key algorithm \(info.certificate.publicKeyInfo.algorithm.oid.dotted)"))
        }
    }

    /// The signature on a certificate below the anchor: an algorithm we support, the caller's allowed set, no MD5
    /// (fatal) and no SHA-1 (SignatureHashAlgorithms, under every policy).
    func checkSignatureAlgorithm(_ info: CertificateInfo, _ role: Role, _ failures: inout [TrustFailure]) {
        let index = role.index
        let algorithm = info.certificate.signatureAlgorithm
        if let allowed = options.allowedSignatureAlgorithms, !allowed.contains(algorithm.identifier) {
            failures.append(TrustFailure(index, .callerConstraint, "signature algorithm \(algorithm) not allowed"))
        }
        guard let kind = try? algorithm.kind else {
            failures.append(TrustFailure(index, .signature, "unsupported signature algorithm \(algorithm.oid.dotted)"))
            return
        }
        let digest: DigestAlgorithm?
        switch kind {
        case .rsaPKCS1(let d), .ecdsa(let d): digest = d
        case .rsaPSS(let d, _): digest = d
        case .ed25519: digest = nil
        }
        if digest == .md5 {
            failures.append(TrustFailure(index, .weakSignature, "MD5 signature"))
        } else if digest == .sha1 {
            failures.append(TrustFailure(index, .signatureHashAlgorithms, "SHA-1 signature"))
        }
    }
}
