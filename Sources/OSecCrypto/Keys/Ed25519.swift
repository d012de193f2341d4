internal import COpenSSL

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Ed25519 (RFC 8032, PureEdDSA) constants and encodings (RFC 8410).
package enum Ed25519 {
    /// Public key and private seed length.
    package static let keyLength = 32
    /// Signature length (R ‖ S).
    package static let signatureLength = 64
    /// The content octets of id-Ed25519 (1.3.101.112).
    static let oidContent: [UInt8] = [0x2b, 0x65, 0x70]
}

extension AsymmetricKey {
    /// An Ed25519 public key from its 32 raw bytes (RFC 8032 encoding).
    package convenience init(ed25519PublicKey raw: Data) throws(CryptoError) {
        let pkey = try Self.decodeEd25519(ArraySlice(raw), isPrivate: false)
        try self.init(takingOwnershipOf: pkey, isPrivate: false)
    }

    /// An Ed25519 private key from its 32-byte seed (the public key is derived).
    package convenience init(ed25519PrivateKey seed: Data) throws(CryptoError) {
        let pkey = try Self.decodeEd25519(ArraySlice(seed), isPrivate: true)
        try self.init(takingOwnershipOf: pkey, isPrivate: true)
    }

    /// The 32 raw public-key bytes of an Ed25519 key.
    package var ed25519PublicKeyBytes: Data {
        get throws(CryptoError) {
            guard algorithm == .ed25519 else { throw CryptoError(.invalidParameter, "not an Ed25519 key") }
            return try rawKeyBytes(isPrivate: false)
        }
    }

    /// The 32-byte seed of an Ed25519 private key.
    package var ed25519PrivateKeyBytes: Data {
        get throws(CryptoError) {
            guard algorithm == .ed25519, isPrivate else {
                throw CryptoError(.invalidParameter, "not an Ed25519 private key")
            }
            return try rawKeyBytes(isPrivate: true)
        }
    }

    private func rawKeyBytes(isPrivate: Bool) throws(CryptoError) -> Data {
        try Data.filling(capacity: Ed25519.keyLength) { (out) throws(CryptoError) in
            var length = Ed25519.keyLength
            let bytes = out.assumingMemoryBound(to: UInt8.self)
            let rc =
                isPrivate
                ? EVP_PKEY_get_raw_private_key(raw, bytes, &length) : EVP_PKEY_get_raw_public_key(raw, bytes, &length)
            try ossl(rc, "EVP_PKEY_get_raw_key")
            guard length == Ed25519.keyLength else {
                throw CryptoError(.internalError, "unexpected Ed25519 key length")
            }
            return length
        }
    }

    /// Signs `message` (the whole message: PureEdDSA hashes internally).
    func ed25519Sign<Output>(
        _ message: some CryptoInput, as output: CryptoOutput<Output>
    ) throws(CryptoError) -> Output {
        guard algorithm == .ed25519 else { throw CryptoError(.invalidParameter, "Ed25519 needs an Ed25519 key") }
        guard isPrivate else { throw CryptoError(.invalidParameter, "signing needs a private key") }
        let ctx = try DigestSigningContext()
        try ossl(EVP_DigestSignInit(ctx.raw, nil, nil, nil, raw), "EVP_DigestSignInit")
        return try message.withCryptoBytes { (bytes, count) throws(CryptoError) in
            try output.filling(capacity: Ed25519.signatureLength) { (out) throws(CryptoError) in
                var length = Ed25519.signatureLength
                try ossl(
                    EVP_DigestSign(
                        ctx.raw, out.assumingMemoryBound(to: UInt8.self), &length,
                        bytes.assumingMemoryBound(to: UInt8.self), count), "EVP_DigestSign")
                return length
            }
        }
    }

    /// Verifies an Ed25519 signature over `message`: false for a wrong or malformed signature.
    func ed25519Verify(_ signature: some CryptoInput, message: some CryptoInput) throws(CryptoError) -> Bool {
        guard algorithm == .ed25519 else { throw CryptoError(.invalidParameter, "Ed25519 needs an Ed25519 key") }
        guard signature.cryptoByteCount == Ed25519.signatureLength else { return false }
        let ctx = try DigestSigningContext()
        try ossl(EVP_DigestVerifyInit(ctx.raw, nil, nil, nil, raw), "EVP_DigestVerifyInit")
        let rc = try signature.withCryptoBytes { (sig, sigCount) throws(CryptoError) in
            try message.withCryptoBytes { (msg, count) throws(CryptoError) in
                EVP_DigestVerify(
                    ctx.raw, sig.assumingMemoryBound(to: UInt8.self), sigCount, msg.assumingMemoryBound(to: UInt8.self),
                    count)
            }
        }
        // OpenSSL reports malformed signatures (e.g. S ≥ L) as errors, not as 0.
        if rc != 1 { OpenSSLErrorQueue.clear() }
        return rc == 1
    }

    /// An owned EVP_PKEY for raw Ed25519 key bytes (public key, or private seed).
    static func decodeEd25519(_ bytes: ArraySlice<UInt8>, isPrivate: Bool) throws(CryptoError) -> OpaquePointer {
        guard bytes.count == Ed25519.keyLength else {
            throw CryptoError(.invalidKey, "Ed25519 keys are \(Ed25519.keyLength) bytes, got \(bytes.count)")
        }
        let pkey = bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> OpaquePointer? in
            let base = buffer.bindMemory(to: UInt8.self).baseAddress
            return isPrivate
                ? EVP_PKEY_new_raw_private_key_ex(nil, "ED25519", nil, base, buffer.count)
                : EVP_PKEY_new_raw_public_key_ex(nil, "ED25519", nil, base, buffer.count)
        }
        guard let pkey else {
            OpenSSLErrorQueue.clear()
            throw CryptoError(.invalidKey, "not a valid Ed25519 key")
        }
        return pkey
    }
}

/// Owns one EVP_MD_CTX for a one-shot EVP_DigestSign / EVP_DigestVerify.
private final class DigestSigningContext {
    let raw: OpaquePointer

    init() throws(CryptoError) {
        raw = try ossl(EVP_MD_CTX_new(), "EVP_MD_CTX_new")
    }

    deinit { EVP_MD_CTX_free(raw) }
}
