internal import COpenSSL
internal import COpenSSLShims

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An RSA or EC key pair or public key. Owns one EVP_PKEY.
///
/// `@unchecked Sendable`: the EVP_PKEY is never mutated after `init` (OpenSSL's internal export cache is
/// guarded by the key's own lock), and EVP_PKEY is safe for concurrent read-only use. Every operation runs on
/// an EVP_PKEY_CTX of its own: one parked in ``contexts`` by an earlier operation with the same parameters, or a
/// new one (the pool is `Sendable` and hands each context to one caller at a time).
package final class AsymmetricKey: @unchecked Sendable {
    /// The owned EVP_PKEY (module-internal; never escapes OSecCrypto).
    let raw: OpaquePointer
    /// RSA or EC (with its curve).
    package let algorithm: KeyAlgorithm
    /// True when the key holds private material.
    package let isPrivate: Bool
    /// RSA modulus bits; EC curve bits.
    package let bitSize: Int
    /// The largest signature or RSA output block (EVP_PKEY_get_size): the output buffer size of sign and decrypt.
    let maximumOutputSize: Int
    /// Initialised contexts of finished operations, for the next operation with the same parameters.
    let contexts = PKeyContextPool()

    /// Takes ownership of `pkey` (freed in deinit, also when this initializer throws).
    init(takingOwnershipOf pkey: OpaquePointer, isPrivate: Bool) throws(CryptoError) {
        self.raw = pkey
        self.isPrivate = isPrivate
        self.maximumOutputSize = Int(EVP_PKEY_get_size(pkey))
        if EVP_PKEY_is_a(pkey, "RSA") == 1 {
            algorithm = .rsa
            bitSize = Int(EVP_PKEY_get_bits(pkey))
        } else if EVP_PKEY_is_a(pkey, "EC") == 1,
            let curve = ECCurve(shimIndex: osec_ec_curve_of(UnsafeRawPointer(pkey)))
        {
            algorithm = .ec(curve)
            bitSize = curve.bits
        } else if EVP_PKEY_is_a(pkey, "ED25519") == 1 {
            algorithm = .ed25519
            bitSize = 256
        } else {
            algorithm = .rsa
            bitSize = 0
            OpenSSLErrorQueue.clear()
            throw CryptoError(.unsupportedAlgorithm, "only RSA, NIST P-256/384/521 and Ed25519 keys are supported")
        }
    }

    deinit { EVP_PKEY_free(raw) }

    /// Lends the EVP_PKEY for the duration of `body`.
    func withRaw<R>(_ body: (OpaquePointer) throws(CryptoError) -> R) throws(CryptoError) -> R {
        try body(raw)
    }

    /// RSA modulus length in bytes; EC field length in bytes.
    package var blockSize: Int {
        switch algorithm {
        case .rsa: (bitSize + 7) / 8
        case .ec(let curve): curve.fieldSize
        case .ed25519: Ed25519.keyLength
        }
    }

    /// The curve of an EC key, or nil for RSA.
    package var curve: ECCurve? {
        if case .ec(let curve) = algorithm { return curve }
        return nil
    }

    /// The public half (self when the key is already public).
    package var publicKey: AsymmetricKey {
        guard isPrivate else { return self }
        // Re-imports the public part through the fast typed paths; cannot fail for a key we hold, but if
        // OpenSSL does fail we return self rather than trap (callers only use it for public operations).
        switch algorithm {
        case .rsa:
            if let der = try? publicPKCS1DER(), let key = try? AsymmetricKey(rsaPublicKeyPKCS1: der) { return key }
        case .ec(let curve):
            if let point = try? publicPoint(), let key = try? AsymmetricKey(ecPublicKeyX963: point, curve: curve) {
                return key
            }
        case .ed25519:
            if let raw = try? ed25519PublicKeyBytes, let key = try? AsymmetricKey(ed25519PublicKey: raw) { return key }
        }
        return self
    }

    /// True when both keys have the same algorithm and public components (EVP_PKEY_eq).
    package func isSamePublicKey(as other: AsymmetricKey) -> Bool {
        guard algorithm == other.algorithm else { return false }
        let result = EVP_PKEY_eq(raw, other.raw)
        OpenSSLErrorQueue.clear()
        return result == 1
    }

    // MARK: Generation

    /// Bounds for generated and imported RSA moduli (see the C shim for the rationale).
    package static let rsaBitRange = 512...16384

    /// Generates an RSA key pair (≈0.3 s for 2048 bits; reuse fixtures in tests).
    package static func generateRSA(bits: Int, publicExponent: UInt32 = 65537) throws(CryptoError) -> AsymmetricKey {
        guard rsaBitRange.contains(bits) else {
            throw CryptoError(
                .invalidParameter, "RSA key size must be in \(rsaBitRange.lowerBound)...\(rsaBitRange.upperBound) bits")
        }
        guard publicExponent >= 3, publicExponent & 1 == 1 else {
            throw CryptoError(.invalidParameter, "RSA public exponent must be odd and at least 3")
        }
        let ctx = try PKeyContext(algorithmName: "RSA")
        try ossl(EVP_PKEY_keygen_init(ctx.raw), "EVP_PKEY_keygen_init")
        try ossl(EVP_PKEY_CTX_set_rsa_keygen_bits(ctx.raw, Int32(bits)), "EVP_PKEY_CTX_set_rsa_keygen_bits")
        let exponent = try ossl(BN_new(), "BN_new")
        defer { BN_free(exponent) }
        try ossl(BN_set_word(exponent, UInt(publicExponent)), "BN_set_word")
        try ossl(EVP_PKEY_CTX_set1_rsa_keygen_pubexp(ctx.raw, exponent), "EVP_PKEY_CTX_set1_rsa_keygen_pubexp")
        return try ctx.generate()
    }

    /// Generates an Ed25519 key pair.
    package static func generateEd25519() throws(CryptoError) -> AsymmetricKey {
        let ctx = try PKeyContext(algorithmName: "ED25519")
        try ossl(EVP_PKEY_keygen_init(ctx.raw), "EVP_PKEY_keygen_init")
        return try ctx.generate()
    }

    /// Generates an EC key pair on `curve`.
    package static func generateEC(_ curve: ECCurve) throws(CryptoError) -> AsymmetricKey {
        let ctx = try PKeyContext(algorithmName: "EC")
        try ossl(EVP_PKEY_keygen_init(ctx.raw), "EVP_PKEY_keygen_init")
        try ossl(EVP_PKEY_CTX_set_group_name(ctx.raw, curve.openSSLGroupName), "EVP_PKEY_CTX_set_group_name")
        return try ctx.generate()
    }
}

extension ECCurve {
    /// OpenSSL's group name.
    var openSSLGroupName: String {
        switch self {
        case .p256: "prime256v1"
        case .p384: "secp384r1"
        case .p521: "secp521r1"
        case .p192: "prime192v1"
        case .p224: "secp224r1"
        }
    }
}

extension AsymmetricKey {
    /// Lends the EVP_PKEY to another OpenSSL wrapper target for the duration of `body`.
    ///
    /// OSecTLSCore uses it to install this very key on TLS connections (it takes its own reference with
    /// EVP_PKEY_up_ref), so handshake signatures are made with the key object an identity holds and no key
    /// bytes are exported. The handle must not be mutated; EVP_PKEY is safe for concurrent read-only use.
    package func withOpenSSLKeyHandle<R, E: Error>(_ body: (OpaquePointer) throws(E) -> R) throws(E) -> R {
        try body(raw)
    }
}
