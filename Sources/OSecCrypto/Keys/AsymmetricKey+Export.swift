internal import COpenSSL

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension AsymmetricKey {
    /// Default PBKDF2 iteration count for ``encryptedPKCS8DER(passphrase:iterations:)``: OWASP's 2023
    /// recommendation for PBKDF2-HMAC-SHA256 (≈ 0.55 s here per encryption and per decryption).
    #if KDF_FUZZING
    // Within the fuzz build's lowered ``KDF/maximumIterations``, so the seeds it exports stay importable.
    package static let defaultPKCS8Iterations = 2048
    #else
    package static let defaultPKCS8Iterations = 600_000
    #endif

    /// RSA only: private → RSAPrivateKey, public → RSAPublicKey (PKCS#1 DER).
    package var rsaPKCS1DER: Data {
        get throws(CryptoError) {
            guard algorithm == .rsa else { throw CryptoError(.invalidParameter, "not an RSA key") }
            return isPrivate
                ? try Self.encode("i2d_PrivateKey") { out in i2d_PrivateKey(raw, out) }
                : try publicPKCS1DER()
        }
    }

    /// EC only: public 04‖X‖Y, private 04‖X‖Y‖K (K left-padded to the field size).
    package var x963Representation: Data {
        get throws(CryptoError) {
            guard let curve else { throw CryptoError(.invalidParameter, "not an EC key") }
            var result = try publicPoint()
            guard isPrivate else { return result }
            result.append(try privateScalar(curve))
            return result
        }
    }

    /// SubjectPublicKeyInfo DER (i2d_PUBKEY).
    package var subjectPublicKeyInfoDER: Data {
        get throws(CryptoError) {
            try Self.encode("i2d_PUBKEY") { out in i2d_PUBKEY(raw, out) }
        }
    }

    /// PKCS#8 PrivateKeyInfo DER (private keys only).
    package var pkcs8DER: Data {
        get throws(CryptoError) {
            let info = try pkcs8Info()
            defer { PKCS8_PRIV_KEY_INFO_free(info) }
            return try Self.encode("i2d_PKCS8_PRIV_KEY_INFO") { out in i2d_PKCS8_PRIV_KEY_INFO(info, out) }
        }
    }

    /// SEC1 ECPrivateKey DER (EC private keys only; includes the curve OID and the public key).
    package var sec1DER: Data {
        get throws(CryptoError) {
            guard curve != nil else { throw CryptoError(.invalidParameter, "not an EC key") }
            guard isPrivate else { throw CryptoError(.invalidParameter, "not a private key") }
            return try Self.encode("i2d_PrivateKey") { out in i2d_PrivateKey(raw, out) }
        }
    }

    /// Encrypted PKCS#8 (PBES2: PBKDF2-HMAC-SHA256 with a random 16-byte salt, AES-256-CBC).
    package func encryptedPKCS8DER(
        passphrase: Data, iterations: Int = AsymmetricKey.defaultPKCS8Iterations
    ) throws(CryptoError) -> Data {
        guard (1...KDF.maximumIterations).contains(iterations) else {
            throw CryptoError(.invalidParameter, "iteration count must be in 1...\(KDF.maximumIterations)")
        }
        guard passphrase.count <= Int(Int32.max) else { throw CryptoError(.invalidParameter, "passphrase too long") }
        let info = try pkcs8Info()
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        let cipher = try BlockCipher.aes256CBC.fetched()
        let algorithm = try ossl(
            PKCS5_pbe2_set_iv_ex(cipher, Int32(iterations), nil, 16, nil, NID_hmacWithSHA256, nil),
            "PKCS5_pbe2_set_iv_ex")
        let signed: OpaquePointer? = try passphrase.withBytes { (pass, count) throws(CryptoError) in
            PKCS8_set0_pbe_ex(pass.assumingMemoryBound(to: CChar.self), Int32(count), info, algorithm, nil, nil)
        }
        guard let signed else {
            X509_ALGOR_free(algorithm)  // not consumed on failure
            throw CryptoError.failed("PKCS8_set0_pbe_ex")
        }
        defer { X509_SIG_free(signed) }
        return try Self.encode("i2d_X509_SIG") { out in i2d_X509_SIG(signed, out) }
    }

    // MARK: Helpers

    /// RSAPublicKey DER (i2d_PublicKey of an RSA key).
    func publicPKCS1DER() throws(CryptoError) -> Data {
        try Self.encode("i2d_PublicKey") { out in i2d_PublicKey(raw, out) }
    }

    /// The uncompressed public point 04‖X‖Y.
    func publicPoint() throws(CryptoError) -> Data {
        guard let curve else { throw CryptoError(.invalidParameter, "not an EC key") }
        let length = 1 + 2 * curve.fieldSize
        return try withRaw { (pkey) throws(CryptoError) in
            try Data.filling(capacity: length) { (out) throws(CryptoError) in
                var written = 0
                try ossl(
                    EVP_PKEY_get_octet_string_param(
                        pkey, OSSL_PKEY_PARAM_PUB_KEY,
                        out.assumingMemoryBound(to: UInt8.self), length, &written),
                    "EVP_PKEY_get_octet_string_param")
                guard written == length else { throw CryptoError(.internalError, "unexpected EC point encoding") }
                return written
            }
        }
    }

    /// The private scalar, left-padded to the field size.
    private func privateScalar(_ curve: ECCurve) throws(CryptoError) -> Data {
        try withRaw { (pkey) throws(CryptoError) in
            var scalar: OpaquePointer?
            try ossl(EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_PRIV_KEY, &scalar), "EVP_PKEY_get_bn_param")
            let bignum = try ossl(scalar, "EVP_PKEY_get_bn_param")
            defer { BN_clear_free(bignum) }
            return try Data.filling(capacity: curve.fieldSize) { (out) throws(CryptoError) in
                let written = BN_bn2binpad(bignum, out.assumingMemoryBound(to: UInt8.self), Int32(curve.fieldSize))
                guard written == Int32(curve.fieldSize) else { throw CryptoError.failed("BN_bn2binpad") }
                return curve.fieldSize
            }
        }
    }

    private func pkcs8Info() throws(CryptoError) -> OpaquePointer {
        guard isPrivate else { throw CryptoError(.invalidParameter, "not a private key") }
        return try ossl(EVP_PKEY2PKCS8(raw), "EVP_PKEY2PKCS8")
    }

    /// Runs an i2d-style encoder twice: once for the length, once into our buffer.
    static func encode(
        _ what: String, _ body: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
    ) throws(CryptoError) -> Data {
        let length = body(nil)
        guard length > 0 else { throw CryptoError.failed(what) }
        return try Data.filling(capacity: Int(length)) { (out) throws(CryptoError) in
            var cursor: UnsafeMutablePointer<UInt8>? = out.assumingMemoryBound(to: UInt8.self)
            let written = body(&cursor)
            guard written == length else { throw CryptoError.failed(what) }
            return Int(written)
        }
    }
}
