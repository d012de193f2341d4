internal import COpenSSL

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension AsymmetricKey {
    /// Signs `input` according to `scheme` (private keys only).
    package func sign(_ input: some CryptoInput, scheme: SignatureScheme) throws(CryptoError) -> Data {
        try sign(input, scheme: scheme, as: .data)
    }

    /// Signs `input` according to `scheme` (private keys only), returning the signature as `output` says.
    ///
    /// The input is read in place; a message scheme hashes it into a stack buffer; the signature is written
    /// straight into the returned container; the EVP_PKEY_CTX comes from the key's pool when an earlier
    /// signature with the same scheme left one there.
    package func sign<Output>(
        _ input: some CryptoInput, scheme: SignatureScheme, as output: CryptoOutput<Output>
    ) throws(CryptoError) -> Output {
        guard isPrivate else { throw CryptoError(.invalidParameter, "signing needs a private key") }
        if case .ed25519 = scheme { return try ed25519Sign(input, as: output) }
        let plan = try signingPlan(scheme, inputCount: input.cryptoByteCount)
        if case .ecdsaRaw = scheme, let curve {
            let der = try signPlanned(input, plan, as: .data)
            return try ECDSASignature.derToRaw(der, fieldSize: curve.fieldSize, as: output)
        }
        return try signPlanned(input, plan, as: output)
    }

    private func signPlanned<Output>(
        _ input: some CryptoInput, _ plan: SigningPlan, as output: CryptoOutput<Output>
    ) throws(CryptoError) -> Output {
        try withContext(plan.operation(.sign)) { (ctx) throws(CryptoError) in
            try plan.withTBS(input) { (tbs, count) throws(CryptoError) in
                var capacity = maximumOutputSize
                if capacity <= 0 {  // not expected for RSA and EC keys; ask OpenSSL rather than guess
                    try ossl(
                        EVP_PKEY_sign(ctx, nil, &capacity, tbs.assumingMemoryBound(to: UInt8.self), count),
                        "EVP_PKEY_sign")
                }
                return try output.filling(capacity: capacity) { (out) throws(CryptoError) in
                    try runPKeyTransform(
                        EVP_PKEY_sign, ctx, tbs, count, into: out, capacity: capacity, .invalidParameter,
                        "signing failed (input too large for the key?)")
                }
            }
        }
    }

    /// Verifies `signature` over `input`. Returns false for a wrong or malformed signature (an answer);
    /// throws only for unusable parameters or an OpenSSL failure.
    package func verify(
        _ signature: some CryptoInput, for input: some CryptoInput, scheme: SignatureScheme
    ) throws(CryptoError) -> Bool {
        if case .ed25519 = scheme { return try ed25519Verify(signature, message: input) }
        let plan = try signingPlan(scheme, inputCount: input.cryptoByteCount)
        let count = signature.cryptoByteCount
        switch scheme {
        case .rsaRaw:
            guard count == blockSize else { return false }  // RFC 8017 §8.2.2 step 1
            return try verifyRaw(signature, expected: input)
        case .rsaPKCS1v15Raw, .rsaPKCS1v15, .rsaPSS:
            guard count == blockSize else { return false }  // RFC 8017 §8.2.2 step 1
            return try verifyPlanned(signature, input, plan)
        case .ecdsaDER:
            // OpenSSL decodes the ECDSA-Sig-Value and rejects it unless re-encoding gives the same bytes
            // (ossl_ecdsa_verify), so non-DER and trailing bytes fail there; here only the size is bounded.
            guard count > 0, count <= ECDSASignature.maximumDERLength else { return false }
            return try verifyPlanned(signature, input, plan)
        case .ecdsaRaw:
            guard let curve, count == 2 * curve.fieldSize,
                let der = ECDSASignature.rawToDER(signature, fieldSize: curve.fieldSize)
            else { return false }
            return try verifyPlanned(der, input, plan)
        case .ed25519:
            return false  // handled above
        }
    }

    private func verifyPlanned(
        _ signature: some CryptoInput, _ input: some CryptoInput, _ plan: SigningPlan
    ) throws(CryptoError) -> Bool {
        let rc = try withContext(plan.operation(.verify)) { (ctx) throws(CryptoError) in
            try signature.withCryptoBytes { (sig, sigCount) throws(CryptoError) in
                try plan.withTBS(input) { (tbs, count) throws(CryptoError) in
                    EVP_PKEY_verify(
                        ctx, sig.assumingMemoryBound(to: UInt8.self), sigCount,
                        tbs.assumingMemoryBound(to: UInt8.self), count)
                }
            }
        }
        switch rc {
        case 1:
            return true
        case 0:
            OpenSSLErrorQueue.clear()
            return false
        default:
            // ECDSA reports a signature that does not decode (or is not DER) as an error, not as 0.
            guard curve == nil else {
                OpenSSLErrorQueue.clear()
                return false
            }
            throw CryptoError.openSSL(.internalError, "signature verification failed to run")
        }
    }

    /// Raw RSA verification: public operation, then a constant-time comparison with the expected block.
    private func verifyRaw(_ signature: some CryptoInput, expected: some CryptoInput) throws(CryptoError) -> Bool {
        let recovered: Data
        do {
            recovered = try rsaPublicOperation(signature)
        } catch {
            OpenSSLErrorQueue.clear()
            return false  // e.g. signature ≥ n
        }
        return ConstantTime.equals(recovered, expected.cryptoData)
    }

    /// The context settings for one scheme, and whether the input is hashed first.
    private struct SigningPlan {
        /// The message digest computed over the input before signing (message schemes); nil: the input is the
        /// value to sign.
        let hash: DigestAlgorithm?
        let padding: Int32?
        /// The digest set on the context (PKCS#1 DigestInfo, PSS hash and MGF1).
        let digest: DigestAlgorithm?
        let saltLength: Int32?

        func operation(_ kind: PKeyOperation.Kind) -> PKeyOperation {
            PKeyOperation(kind, padding: padding, digest: digest, pssSaltLength: saltLength)
        }

        /// Lends `body` the bytes to sign: the input itself, or its digest in a stack buffer.
        func withTBS<R>(
            _ input: some CryptoInput, _ body: (UnsafeRawPointer, Int) throws(CryptoError) -> R
        ) throws(CryptoError) -> R {
            guard let hash else { return try input.withCryptoBytes(body) }
            return try Digest.withDigest(hash, of: input, body)
        }
    }

    private func signingPlan(_ scheme: SignatureScheme, inputCount: Int) throws(CryptoError) -> SigningPlan {
        switch scheme {
        case .rsaRaw:
            try requireRSA()
            guard inputCount == blockSize else {
                throw CryptoError(.invalidParameter, "raw RSA input must be exactly \(blockSize) bytes")
            }
            return SigningPlan(hash: nil, padding: RSA_NO_PADDING, digest: nil, saltLength: nil)
        case .rsaPKCS1v15Raw:
            try requireRSA()
            guard inputCount <= blockSize - 11 else {
                throw CryptoError(.invalidParameter, "PKCS#1 v1.5 input must be at most \(blockSize - 11) bytes")
            }
            return SigningPlan(hash: nil, padding: RSA_PKCS1_PADDING, digest: nil, saltLength: nil)
        case .rsaPKCS1v15(let digest, let inputIsDigest):
            try requireRSA()
            let hash = try Self.hashFirst(inputCount, digest, inputIsDigest)
            return SigningPlan(hash: hash, padding: RSA_PKCS1_PADDING, digest: digest, saltLength: nil)
        case .rsaPSS(let digest, let saltLength, let inputIsDigest):
            try requireRSA()
            guard saltLength >= -2, saltLength <= blockSize else {
                throw CryptoError(.invalidParameter, "PSS salt length out of range")
            }
            let hash = try Self.hashFirst(inputCount, digest, inputIsDigest)
            return SigningPlan(
                hash: hash, padding: RSA_PKCS1_PSS_PADDING, digest: digest, saltLength: Int32(saltLength))
        case .ecdsaDER(let digest, let inputIsDigest), .ecdsaRaw(let digest, let inputIsDigest):
            guard curve != nil else { throw CryptoError(.invalidParameter, "ECDSA needs an EC key") }
            // No digest is set on the context: OpenSSL then signs the given hash, truncated to the order size.
            if let digest {
                return SigningPlan(
                    hash: try Self.hashFirst(inputCount, digest, inputIsDigest), padding: nil, digest: nil,
                    saltLength: nil)
            }
            guard inputIsDigest else {
                throw CryptoError(.invalidParameter, "ECDSA over a message needs a digest algorithm")
            }
            guard inputCount > 0, inputCount <= ECDSASignature.maximumDigestLength else {
                throw CryptoError(.invalidParameter, "ECDSA digest length out of range")
            }
            return SigningPlan(hash: nil, padding: nil, digest: nil, saltLength: nil)
        case .ed25519:
            throw CryptoError(.invalidParameter, "Ed25519 signs the message directly")  // sign/verify handle it first
        }
    }

    private func requireRSA() throws(CryptoError) {
        guard algorithm == .rsa else { throw CryptoError(.invalidParameter, "scheme needs an RSA key") }
    }

    /// The digest to hash a message input with, or nil for a digest input (whose length must then match).
    private static func hashFirst(
        _ inputCount: Int, _ digest: DigestAlgorithm, _ inputIsDigest: Bool
    ) throws(CryptoError) -> DigestAlgorithm? {
        guard inputIsDigest else { return digest }
        guard inputCount == digest.outputSize else {
            throw CryptoError(.invalidParameter, "digest must be \(digest.outputSize) bytes, got \(inputCount)")
        }
        return nil
    }
}
