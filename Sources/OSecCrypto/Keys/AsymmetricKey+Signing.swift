internal import COpenSSL
import Foundation

extension AsymmetricKey {
    /// Signs `input` according to `scheme` (private keys only).
    package func sign(_ input: Data, scheme: SignatureScheme) throws(CryptoError) -> Data {
        guard isPrivate else { throw CryptoError(.invalidParameter, "signing needs a private key") }
        if case .ed25519 = scheme { return try ed25519Sign(input) }
        let plan = try signingPlan(input, scheme: scheme)
        let ctx = try PKeyContext(key: raw)
        try ossl(EVP_PKEY_sign_init(ctx.raw), "EVP_PKEY_sign_init")
        try plan.configure(ctx)
        let signature = try plan.tbs.withBytes { (tbs, count) throws(CryptoError) in
            var length = 0
            try ossl(
                EVP_PKEY_sign(ctx.raw, nil, &length, tbs.assumingMemoryBound(to: UInt8.self), count), "EVP_PKEY_sign")
            return try Data.filling(capacity: length) { (out) throws(CryptoError) in
                var written = length
                try ossl(
                    EVP_PKEY_sign(
                        ctx.raw, out.assumingMemoryBound(to: UInt8.self), &written,
                        tbs.assumingMemoryBound(to: UInt8.self), count),
                    .invalidParameter, "signing failed (input too large for the key?)")
                return written
            }
        }
        if case .ecdsaRaw = scheme, let curve {
            return try ECDSASignature.derToRaw(signature, fieldSize: curve.fieldSize)
        }
        return signature
    }

    /// Verifies `signature` over `input`. Returns false for a wrong or malformed signature (an answer);
    /// throws only for unusable parameters or an OpenSSL failure.
    package func verify(_ signature: Data, for input: Data, scheme: SignatureScheme) throws(CryptoError) -> Bool {
        if case .ed25519 = scheme { return try ed25519Verify(signature, message: input) }
        let plan = try signingPlan(input, scheme: scheme)
        var encoded = signature
        switch scheme {
        case .rsaRaw, .rsaPKCS1v15Raw, .rsaPKCS1v15, .rsaPSS:
            guard signature.count == blockSize else { return false }  // RFC 8017 §8.2.2 step 1
        case .ecdsaDER:
            guard ECDSASignature.isStrictDER(signature) else { return false }
        case .ecdsaRaw:
            guard let curve, signature.count == 2 * curve.fieldSize,
                let der = ECDSASignature.rawToDER(signature, fieldSize: curve.fieldSize)
            else { return false }
            encoded = der
        case .ed25519:
            break  // handled above
        }
        if case .rsaRaw = scheme { return try verifyRaw(signature, expected: plan.tbs) }
        let ctx = try PKeyContext(key: raw)
        try ossl(EVP_PKEY_verify_init(ctx.raw), "EVP_PKEY_verify_init")
        try plan.configure(ctx)
        let rc = try encoded.withBytes { (sig, sigCount) throws(CryptoError) in
            try plan.tbs.withBytes { (tbs, count) throws(CryptoError) in
                EVP_PKEY_verify(
                    ctx.raw, sig.assumingMemoryBound(to: UInt8.self), sigCount,
                    tbs.assumingMemoryBound(to: UInt8.self), count)
            }
        }
        switch rc {
        case 1:
            return true
        case 0:
            OpenSSLErrorQueue.clear()
            return false
        default:
            throw CryptoError.openSSL(.internalError, "signature verification failed to run")
        }
    }

    /// Raw RSA verification: public operation, then a constant-time comparison with the expected block.
    private func verifyRaw(_ signature: Data, expected: Data) throws(CryptoError) -> Bool {
        let recovered: Data
        do {
            recovered = try rsaPublicOperation(signature)
        } catch {
            OpenSSLErrorQueue.clear()
            return false  // e.g. signature ≥ n
        }
        return ConstantTime.equals(recovered, expected)
    }

    /// The bytes to be signed and the context settings for one scheme.
    private struct SigningPlan {
        let tbs: Data
        let padding: Int32?
        let digest: DigestAlgorithm?
        let saltLength: Int?

        func configure(_ ctx: PKeyContext) throws(CryptoError) {
            if let padding { try ctx.setRSAPadding(padding) }
            if let digest { try ctx.setSignatureDigest(digest) }
            if let saltLength, let digest {
                try ossl(EVP_PKEY_CTX_set_rsa_mgf1_md(ctx.raw, try digest.fetched()), "EVP_PKEY_CTX_set_rsa_mgf1_md")
                try ossl(
                    EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx.raw, Int32(saltLength)), "EVP_PKEY_CTX_set_rsa_pss_saltlen")
            }
        }
    }

    private func signingPlan(_ input: Data, scheme: SignatureScheme) throws(CryptoError) -> SigningPlan {
        switch scheme {
        case .rsaRaw:
            try requireRSA()
            guard input.count == blockSize else {
                throw CryptoError(.invalidParameter, "raw RSA input must be exactly \(blockSize) bytes")
            }
            return SigningPlan(tbs: input, padding: RSA_NO_PADDING, digest: nil, saltLength: nil)
        case .rsaPKCS1v15Raw:
            try requireRSA()
            guard input.count <= blockSize - 11 else {
                throw CryptoError(.invalidParameter, "PKCS#1 v1.5 input must be at most \(blockSize - 11) bytes")
            }
            return SigningPlan(tbs: input, padding: RSA_PKCS1_PADDING, digest: nil, saltLength: nil)
        case .rsaPKCS1v15(let digest, let inputIsDigest):
            try requireRSA()
            let tbs = try Self.digestInput(input, digest, inputIsDigest)
            return SigningPlan(tbs: tbs, padding: RSA_PKCS1_PADDING, digest: digest, saltLength: nil)
        case .rsaPSS(let digest, let saltLength, let inputIsDigest):
            try requireRSA()
            guard saltLength >= -2, saltLength <= blockSize else {
                throw CryptoError(.invalidParameter, "PSS salt length out of range")
            }
            let tbs = try Self.digestInput(input, digest, inputIsDigest)
            return SigningPlan(tbs: tbs, padding: RSA_PKCS1_PSS_PADDING, digest: digest, saltLength: saltLength)
        case .ecdsaDER(let digest, let inputIsDigest), .ecdsaRaw(let digest, let inputIsDigest):
            guard curve != nil else { throw CryptoError(.invalidParameter, "ECDSA needs an EC key") }
            // No digest is set on the context: OpenSSL then signs the given hash, truncated to the order size.
            if let digest {
                return SigningPlan(
                    tbs: try Self.digestInput(input, digest, inputIsDigest), padding: nil, digest: nil, saltLength: nil)
            }
            guard inputIsDigest else {
                throw CryptoError(.invalidParameter, "ECDSA over a message needs a digest algorithm")
            }
            guard !input.isEmpty, input.count <= 1024 else {
                throw CryptoError(.invalidParameter, "ECDSA digest length out of range")
            }
            return SigningPlan(tbs: input, padding: nil, digest: nil, saltLength: nil)
        case .ed25519:
            throw CryptoError(.invalidParameter, "Ed25519 signs the message directly")  // sign/verify handle it first
        }
    }

    private func requireRSA() throws(CryptoError) {
        guard algorithm == .rsa else { throw CryptoError(.invalidParameter, "scheme needs an RSA key") }
    }

    private static func digestInput(
        _ input: Data, _ digest: DigestAlgorithm, _ inputIsDigest: Bool
    ) throws(CryptoError) -> Data {
        guard inputIsDigest else { return try Digest.hashOrThrow(digest, input) }
        guard input.count == digest.outputSize else {
            throw CryptoError(.invalidParameter, "digest must be \(digest.outputSize) bytes, got \(input.count)")
        }
        return input
    }
}
