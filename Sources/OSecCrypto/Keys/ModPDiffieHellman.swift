internal import COpenSSL

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Finite-field Diffie-Hellman in RFC 2409's second Oakley group (the 1024-bit MODP prime, generator 2), as the
/// freedesktop Secret Service's `dh-ietf1024-sha256-aes128-cbc-pkcs7` session uses it. Every operation is
/// OpenSSL's (`BN_get_rfc2409_prime_1024`, `EVP_PKEY_generate`, `EVP_PKEY_derive` with `EVP_PKEY_CTX_set_dh_pad`).
///
/// Public values travel as unsigned big-endian integers. A peer may send fewer than 128 bytes (leading zeros
/// dropped, as libsecret does); values 0, 1, p−1, p or more, and anything longer than 128 bytes are refused.
package final class ModPDiffieHellman: @unchecked Sendable {  // sendable: immutable after init; EVP_PKEY is ref-counted
    /// The length of the prime, of public values and of the shared secret, in bytes.
    package static let length = 128
    // EVP_PKEY_fromdata selections (OpenSSL's macros are composite, so Swift does not import them).
    private static let selectParameters: Int32 = 0x84  // OSSL_KEYMGMT_SELECT_ALL_PARAMETERS
    private static let selectPublicKey: Int32 = 0x86  // EVP_PKEY_PUBLIC_KEY

    private let key: OpaquePointer
    /// This side's public value, 128 bytes big-endian.
    package let publicValue: Data

    /// Generates a fresh key pair in the group.
    package init() throws(CryptoError) {
        let parameters = try Self.makeKey(publicValue: nil)
        defer { EVP_PKEY_free(parameters) }
        let context = try PKeyContext(key: parameters)
        try ossl(EVP_PKEY_keygen_init(context.raw), "EVP_PKEY_keygen_init")
        var generated: OpaquePointer?
        try ossl(EVP_PKEY_generate(context.raw, &generated), "EVP_PKEY_generate")
        let key = try ossl(generated, "EVP_PKEY_generate")
        do {
            var bignum: OpaquePointer?
            try ossl(EVP_PKEY_get_bn_param(key, "pub", &bignum), "EVP_PKEY_get_bn_param")
            defer { BN_free(bignum) }
            publicValue = try Data.filling(capacity: Self.length) { (out) throws(CryptoError) in
                let written = BN_bn2binpad(bignum, out.assumingMemoryBound(to: UInt8.self), Int32(Self.length))
                guard written == Int32(Self.length) else { throw CryptoError.failed("BN_bn2binpad") }
                return Self.length
            }
        } catch {
            EVP_PKEY_free(key)
            throw error
        }
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    /// The shared secret with a peer's public value: g^(xy) mod p, left-padded with zeros to 128 bytes.
    /// - Throws: `invalidKey` for a degenerate or malformed peer value.
    package func sharedSecret(withPeer peerValue: Data) throws(CryptoError) -> Data {
        guard !peerValue.isEmpty, peerValue.count <= Self.length else {
            throw CryptoError(.invalidKey, "a DH public value has 1 to \(Self.length) bytes")
        }
        let peer = try Self.makeKey(publicValue: peerValue)
        defer { EVP_PKEY_free(peer) }
        let context = try PKeyContext(key: key)
        try ossl(EVP_PKEY_derive_init(context.raw), "EVP_PKEY_derive_init")
        // Without padding OpenSSL 3 strips leading zero bytes and about one exchange in 256 would disagree.
        try ossl(EVP_PKEY_CTX_set_dh_pad(context.raw, 1), "EVP_PKEY_CTX_set_dh_pad")
        try ossl(EVP_PKEY_derive_set_peer(context.raw, peer), .invalidKey, "DH public value rejected")
        return try Data.filling(capacity: Self.length) { (out) throws(CryptoError) in
            var written = Self.length
            try ossl(EVP_PKEY_derive(context.raw, out.assumingMemoryBound(to: UInt8.self), &written), "EVP_PKEY_derive")
            guard written == Self.length else { throw CryptoError.failed("EVP_PKEY_derive length") }
            return written
        }
    }

    /// The group's domain parameters as a key, with `publicValue` as its public key when given (checked to lie in
    /// [2, p−2]).
    private static func makeKey(publicValue: Data?) throws(CryptoError) -> OpaquePointer {
        let prime = try ossl(BN_get_rfc2409_prime_1024(nil), "BN_get_rfc2409_prime_1024")
        defer { BN_free(prime) }
        let generator = try ossl(BN_new(), "BN_new")
        defer { BN_free(generator) }
        try ossl(BN_set_word(generator, 2), "BN_set_word")
        var peer: OpaquePointer?
        defer { BN_free(peer) }
        if let publicValue {
            peer = try publicValue.withCryptoBytes { (bytes, count) throws(CryptoError) in
                try ossl(BN_bin2bn(bytes.assumingMemoryBound(to: UInt8.self), Int32(count), nil), "BN_bin2bn")
            }
            let limit = try ossl(BN_dup(prime), "BN_dup")
            defer { BN_free(limit) }
            try ossl(BN_sub_word(limit, 1), "BN_sub_word")
            // Refuse 0, 1, p−1 and anything ≥ p: such values make the shared secret predictable.
            guard BN_cmp(peer, BN_value_one()) > 0, BN_cmp(peer, limit) < 0 else {
                throw CryptoError(.invalidKey, "degenerate DH public value")
            }
        }
        let builder = try ossl(OSSL_PARAM_BLD_new(), "OSSL_PARAM_BLD_new")
        defer { OSSL_PARAM_BLD_free(builder) }
        // The builder keeps the name pointers until OSSL_PARAM_BLD_to_param: they live in static storage.
        try ossl(OSSL_PARAM_BLD_push_BN(builder, ParameterName.prime, prime), "OSSL_PARAM_BLD_push_BN")
        try ossl(OSSL_PARAM_BLD_push_BN(builder, ParameterName.generator, generator), "OSSL_PARAM_BLD_push_BN")
        if let peer {
            try ossl(OSSL_PARAM_BLD_push_BN(builder, ParameterName.publicKey, peer), "OSSL_PARAM_BLD_push_BN")
        }
        let parameters = try ossl(OSSL_PARAM_BLD_to_param(builder), "OSSL_PARAM_BLD_to_param")
        defer { OSSL_PARAM_free(parameters) }
        let context = try PKeyContext(algorithmName: "DH")
        try ossl(EVP_PKEY_fromdata_init(context.raw), "EVP_PKEY_fromdata_init")
        var key: OpaquePointer?
        try ossl(
            EVP_PKEY_fromdata(context.raw, &key, publicValue == nil ? selectParameters : selectPublicKey, parameters),
            .invalidKey, "EVP_PKEY_fromdata")
        return try ossl(key, "EVP_PKEY_fromdata")
    }
}

/// NUL-terminated OSSL_PARAM names that outlive every builder (process lifetime, never freed).
private enum ParameterName {
    nonisolated(unsafe) static let prime = make("p")
    nonisolated(unsafe) static let generator = make("g")
    nonisolated(unsafe) static let publicKey = make("pub")

    private static func make(_ name: String) -> UnsafePointer<CChar> {
        let bytes = Array(name.utf8CString)
        let storage = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        storage.initialize(from: bytes, count: bytes.count)
        return UnsafePointer(storage)
    }
}

extension KDF {
    /// HKDF (RFC 5869) with HMAC-`digest`: extract with `salt` (empty = a string of zeros, as the RFC says), expand
    /// with `info` to `keyLength` bytes (OpenSSL's HKDF).
    package static func hkdf(
        secret: Data, salt: Data = Data(), info: Data = Data(), keyLength: Int, digest: DigestAlgorithm
    ) throws(CryptoError) -> Data {
        guard keyLength >= 1, keyLength <= 255 * digest.outputSize else {
            throw CryptoError(.invalidParameter, "HKDF output length must be 1 to 255 hash lengths")
        }
        guard !secret.isEmpty, secret.count <= Int(Int32.max), salt.count <= Int(Int32.max),
            info.count <= 1024
        else { throw CryptoError(.invalidParameter, "HKDF input of a wrong length") }
        let context = try PKeyContext(algorithmName: "HKDF")
        try ossl(EVP_PKEY_derive_init(context.raw), "EVP_PKEY_derive_init")
        try ossl(EVP_PKEY_CTX_set_hkdf_md(context.raw, try digest.fetched()), "EVP_PKEY_CTX_set_hkdf_md")
        try secret.withCryptoBytes { (bytes, count) throws(CryptoError) in
            try ossl(
                EVP_PKEY_CTX_set1_hkdf_key(context.raw, bytes.assumingMemoryBound(to: UInt8.self), Int32(count)),
                "EVP_PKEY_CTX_set1_hkdf_key")
        }
        if !salt.isEmpty {
            try salt.withCryptoBytes { (bytes, count) throws(CryptoError) in
                try ossl(
                    EVP_PKEY_CTX_set1_hkdf_salt(context.raw, bytes.assumingMemoryBound(to: UInt8.self), Int32(count)),
                    "EVP_PKEY_CTX_set1_hkdf_salt")
            }
        }
        if !info.isEmpty {
            try info.withCryptoBytes { (bytes, count) throws(CryptoError) in
                try ossl(
                    EVP_PKEY_CTX_add1_hkdf_info(context.raw, bytes.assumingMemoryBound(to: UInt8.self), Int32(count)),
                    "EVP_PKEY_CTX_add1_hkdf_info")
            }
        }
        return try Data.filling(capacity: keyLength) { (out) throws(CryptoError) in
            var written = keyLength
            try ossl(EVP_PKEY_derive(context.raw, out.assumingMemoryBound(to: UInt8.self), &written), "HKDF")
            return written
        }
    }
}
