internal import COpenSSL
internal import COpenSSLShims
import Foundation

extension AsymmetricKey {
    /// RSA encryption with an empty OAEP label.
    package func encrypt(_ plaintext: Data, padding: RSAEncryptionPadding) throws(CryptoError) -> Data {
        try encrypt(plaintext, padding: padding, label: Data())
    }

    /// RSA decryption with an empty OAEP label.
    package func decrypt(_ ciphertext: Data, padding: RSAEncryptionPadding) throws(CryptoError) -> Data {
        try decrypt(ciphertext, padding: padding, label: Data())
    }

    /// RSA encryption; `label` is the OAEP label (must be empty for other paddings). Addition to the contract.
    package func encrypt(_ plaintext: Data, padding: RSAEncryptionPadding, label: Data) throws(CryptoError) -> Data {
        guard algorithm == .rsa else { throw CryptoError(.invalidParameter, "encryption needs an RSA key") }
        let k = blockSize
        var input = plaintext
        switch padding {
        case .none:
            guard plaintext.count <= k else {
                throw CryptoError(.invalidParameter, "plaintext longer than the modulus")
            }
            if plaintext.count < k { input = Data(count: k - plaintext.count) + plaintext }
        case .pkcs1:
            guard plaintext.count <= k - 11 else {
                throw CryptoError(.invalidParameter, "PKCS#1 v1.5 plaintext must be at most \(k - 11) bytes")
            }
        case .oaep(let digest):
            let limit = k - 2 * digest.outputSize - 2
            guard plaintext.count <= limit else {
                throw CryptoError(.invalidParameter, "OAEP plaintext must be at most \(Swift.max(limit, 0)) bytes")
            }
        }
        let ctx = try PKeyContext(key: raw)
        try ossl(EVP_PKEY_encrypt_init(ctx.raw), "EVP_PKEY_encrypt_init")
        try configure(ctx, padding: padding, label: label)
        return try input.withBytes { (bytes, count) throws(CryptoError) in
            try Data.filling(capacity: k) { (out) throws(CryptoError) in
                var written = k
                try ossl(
                    EVP_PKEY_encrypt(
                        ctx.raw, out.assumingMemoryBound(to: UInt8.self), &written,
                        bytes.assumingMemoryBound(to: UInt8.self), count),
                    .invalidParameter, "RSA encryption failed (input not below the modulus?)")
                return written
            }
        }
    }

    /// RSA decryption (private keys only); the ciphertext must be exactly k bytes. Padding failures throw
    /// `.decryptionFailed`. `.none` returns the full k-byte block. Addition to the contract: `label`.
    package func decrypt(_ ciphertext: Data, padding: RSAEncryptionPadding, label: Data) throws(CryptoError) -> Data {
        guard algorithm == .rsa else { throw CryptoError(.invalidParameter, "decryption needs an RSA key") }
        guard isPrivate else { throw CryptoError(.invalidParameter, "decryption needs a private key") }
        let k = blockSize
        guard ciphertext.count == k else { throw CryptoError(.decryptionFailed, "ciphertext must be \(k) bytes") }
        // OpenSSL 3.0 has no implicit rejection for PKCS#1 v1.5 (added in 3.2, where it would have to be
        // disabled with "rsa_pkcs1_implicit_rejection" = 0): bad padding is reported as an error here.
        let ctx = try PKeyContext(key: raw)
        try ossl(EVP_PKEY_decrypt_init(ctx.raw), "EVP_PKEY_decrypt_init")
        try configure(ctx, padding: padding, label: label)
        let plaintext = try ciphertext.withBytes { (bytes, count) throws(CryptoError) in
            try Data.filling(capacity: k) { (out) throws(CryptoError) in
                var written = k
                try ossl(
                    EVP_PKEY_decrypt(
                        ctx.raw, out.assumingMemoryBound(to: UInt8.self), &written,
                        bytes.assumingMemoryBound(to: UInt8.self), count),
                    .decryptionFailed, "RSA decryption failed")
                return written
            }
        }
        if case .none = padding, plaintext.count < k { return Data(count: k - plaintext.count) + plaintext }
        return plaintext
    }

    /// The RSA public operation without padding (used for raw verification).
    func rsaPublicOperation(_ block: Data) throws(CryptoError) -> Data {
        let ctx = try PKeyContext(key: raw)
        try ossl(EVP_PKEY_verify_recover_init(ctx.raw), "EVP_PKEY_verify_recover_init")
        try ctx.setRSAPadding(RSA_NO_PADDING)
        let k = blockSize
        return try block.withBytes { (bytes, count) throws(CryptoError) in
            try Data.filling(capacity: k) { (out) throws(CryptoError) in
                var written = k
                try ossl(
                    EVP_PKEY_verify_recover(
                        ctx.raw, out.assumingMemoryBound(to: UInt8.self), &written,
                        bytes.assumingMemoryBound(to: UInt8.self), count),
                    "EVP_PKEY_verify_recover")
                return written
            }
        }
    }

    private func configure(_ ctx: PKeyContext, padding: RSAEncryptionPadding, label: Data) throws(CryptoError) {
        switch padding {
        case .none:
            try ctx.setRSAPadding(RSA_NO_PADDING)
        case .pkcs1:
            try ctx.setRSAPadding(RSA_PKCS1_PADDING)
        case .oaep(let digest):
            try ctx.setRSAPadding(RSA_PKCS1_OAEP_PADDING)
            let md = try digest.fetched()
            try ossl(EVP_PKEY_CTX_set_rsa_oaep_md(ctx.raw, md), "EVP_PKEY_CTX_set_rsa_oaep_md")
            try ossl(EVP_PKEY_CTX_set_rsa_mgf1_md(ctx.raw, md), "EVP_PKEY_CTX_set_rsa_mgf1_md")
            if !label.isEmpty {
                try label.withBytes { (bytes, count) throws(CryptoError) in
                    try ossl(osec_set_oaep_label(UnsafeMutableRawPointer(ctx.raw), bytes, count), "set OAEP label")
                }
            }
            return
        }
        guard label.isEmpty else { throw CryptoError(.invalidParameter, "a label is only valid with OAEP") }
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
