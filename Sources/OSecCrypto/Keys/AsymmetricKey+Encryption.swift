internal import COpenSSL
internal import COpenSSLShims

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension AsymmetricKey {
    /// RSA encryption with an empty OAEP label.
    package func encrypt(_ plaintext: some CryptoInput, padding: RSAEncryptionPadding) throws(CryptoError) -> Data {
        try encrypt(plaintext, padding: padding, label: Data(), as: .data)
    }

    /// RSA decryption with an empty OAEP label.
    package func decrypt(_ ciphertext: some CryptoInput, padding: RSAEncryptionPadding) throws(CryptoError) -> Data {
        try decrypt(ciphertext, padding: padding, label: Data(), as: .data)
    }

    /// RSA encryption; `label` is the OAEP label (must be empty for other paddings). Addition to the contract.
    package func encrypt(
        _ plaintext: some CryptoInput, padding: RSAEncryptionPadding, label: Data
    ) throws(CryptoError) -> Data {
        try encrypt(plaintext, padding: padding, label: label, as: .data)
    }

    /// RSA decryption (private keys only); the ciphertext must be exactly k bytes. Padding failures throw
    /// `.decryptionFailed`. `.none` returns the full k-byte block. Addition to the contract: `label`.
    package func decrypt(
        _ ciphertext: some CryptoInput, padding: RSAEncryptionPadding, label: Data
    ) throws(CryptoError) -> Data {
        try decrypt(ciphertext, padding: padding, label: label, as: .data)
    }

    /// RSA encryption into `output`'s container (see ``encrypt(_:padding:label:)``).
    package func encrypt<Output>(
        _ plaintext: some CryptoInput, padding: RSAEncryptionPadding, label: Data, as output: CryptoOutput<Output>
    ) throws(CryptoError) -> Output {
        guard algorithm == .rsa else { throw CryptoError(.invalidParameter, "encryption needs an RSA key") }
        let k = blockSize
        let count = plaintext.cryptoByteCount
        switch padding {
        case .none:
            guard count <= k else { throw CryptoError(.invalidParameter, "plaintext longer than the modulus") }
            if count < k {  // raw RSA works on whole blocks: left-pad with zeros
                let block = Data(count: k - count) + plaintext.cryptoData
                return try encrypt(block, padding: .none, label: label, as: output)
            }
        case .pkcs1:
            guard count <= k - 11 else {
                throw CryptoError(.invalidParameter, "PKCS#1 v1.5 plaintext must be at most \(k - 11) bytes")
            }
        case .oaep(let digest):
            let limit = k - 2 * digest.outputSize - 2
            guard count <= limit else {
                throw CryptoError(.invalidParameter, "OAEP plaintext must be at most \(Swift.max(limit, 0)) bytes")
            }
        }
        return try withEncryptionContext(.encrypt, padding, label) { (ctx) throws(CryptoError) in
            try plaintext.withCryptoBytes { (bytes, count) throws(CryptoError) in
                try output.filling(capacity: k) { (out) throws(CryptoError) in
                    try runPKeyTransform(
                        EVP_PKEY_encrypt, ctx, bytes, count, into: out, capacity: k, .invalidParameter,
                        "RSA encryption failed (input not below the modulus?)")
                }
            }
        }
    }

    /// RSA decryption into `output`'s container (see ``decrypt(_:padding:label:)``).
    package func decrypt<Output>(
        _ ciphertext: some CryptoInput, padding: RSAEncryptionPadding, label: Data, as output: CryptoOutput<Output>
    ) throws(CryptoError) -> Output {
        guard algorithm == .rsa else { throw CryptoError(.invalidParameter, "decryption needs an RSA key") }
        guard isPrivate else { throw CryptoError(.invalidParameter, "decryption needs a private key") }
        let k = blockSize
        guard ciphertext.cryptoByteCount == k else {
            throw CryptoError(.decryptionFailed, "ciphertext must be \(k) bytes")
        }
        // OpenSSL 3.0 has no implicit rejection for PKCS#1 v1.5 (added in 3.2, where it would have to be
        // disabled with "rsa_pkcs1_implicit_rejection" = 0): bad padding is reported as an error here.
        return try withEncryptionContext(.decrypt, padding, label) { (ctx) throws(CryptoError) in
            try ciphertext.withCryptoBytes { (bytes, count) throws(CryptoError) in
                try output.filling(capacity: k) { (out) throws(CryptoError) in
                    var written = try runPKeyTransform(
                        EVP_PKEY_decrypt, ctx, bytes, count, into: out, capacity: k, .decryptionFailed,
                        "RSA decryption failed")
                    if case .none = padding, written < k {  // the full block, leading zeros included
                        out.advanced(by: k - written).copyMemory(from: out, byteCount: written)
                        out.initializeMemory(as: UInt8.self, repeating: 0, count: k - written)
                        written = k
                    }
                    return written
                }
            }
        }
    }

    /// Runs `body` with a context for RSA encryption or decryption with `padding`: from the key's pool when the
    /// label is empty (the usual case), else a fresh one configured with the label.
    private func withEncryptionContext<R>(
        _ kind: PKeyOperation.Kind, _ padding: RSAEncryptionPadding, _ label: Data,
        _ body: (OpaquePointer) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        let operation: PKeyOperation
        switch padding {
        case .none: operation = PKeyOperation(kind, padding: RSA_NO_PADDING)
        case .pkcs1: operation = PKeyOperation(kind, padding: RSA_PKCS1_PADDING)
        case .oaep(let digest): operation = PKeyOperation(kind, padding: RSA_PKCS1_OAEP_PADDING, digest: digest)
        }
        guard !label.isEmpty else { return try withContext(operation, body) }
        guard case .oaep = padding else { throw CryptoError(.invalidParameter, "a label is only valid with OAEP") }
        let ctx = try PKeyContext(key: raw, for: operation)
        try label.withBytes { (bytes, count) throws(CryptoError) in
            try ossl(osec_set_oaep_label(UnsafeMutableRawPointer(ctx.raw), bytes, count), "set OAEP label")
        }
        return try body(ctx.raw)
    }

    /// The RSA public operation without padding (used for raw verification).
    func rsaPublicOperation(_ block: some CryptoInput) throws(CryptoError) -> Data {
        let ctx = try PKeyContext(key: raw)
        try ossl(EVP_PKEY_verify_recover_init(ctx.raw), "EVP_PKEY_verify_recover_init")
        try ctx.setRSAPadding(RSA_NO_PADDING)
        let k = blockSize
        return try block.withCryptoBytes { (bytes, count) throws(CryptoError) in
            try Data.filling(capacity: k) { (out) throws(CryptoError) in
                try runPKeyTransform(
                    EVP_PKEY_verify_recover, ctx.raw, bytes, count, into: out, capacity: k, .internalError,
                    "EVP_PKEY_verify_recover failed")
            }
        }
    }

    /// ECDH: the raw shared X coordinate (field size bytes). Both keys must be on the same curve; the
    /// peer's point is validated by OpenSSL.
    package func deriveSharedSecret(with peer: AsymmetricKey) throws(CryptoError) -> Data {
        guard let curve else { throw CryptoError(.invalidParameter, "ECDH needs an EC key") }
        guard isPrivate else { throw CryptoError(.invalidParameter, "ECDH needs a private key") }
        guard peer.curve == curve else { throw CryptoError(.invalidParameter, "peer key is not on the same curve") }
        let ctx = try PKeyContext(key: raw)
        try ossl(EVP_PKEY_derive_init(ctx.raw), "EVP_PKEY_derive_init")
        try ossl(EVP_PKEY_derive_set_peer(ctx.raw, peer.raw), .invalidKey, "peer public key rejected")
        return try Data.filling(capacity: curve.fieldSize) { (out) throws(CryptoError) in
            var written = curve.fieldSize
            try ossl(EVP_PKEY_derive(ctx.raw, out.assumingMemoryBound(to: UInt8.self), &written), "EVP_PKEY_derive")
            return written
        }
    }
}
