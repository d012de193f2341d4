/// How ``AsymmetricKey/sign(_:scheme:)`` and ``AsymmetricKey/verify(_:for:scheme:)`` interpret their input.
package enum SignatureScheme: Sendable, Hashable {
    /// Raw RSA: the input is exactly one block (modulus length) and numerically below the modulus; no padding.
    case rsaRaw
    /// PKCS#1 v1.5 type 1 padding around the input as given (normally a DigestInfo); input ≤ k − 11 bytes.
    case rsaPKCS1v15Raw
    /// PKCS#1 v1.5 with a DigestInfo for `digest`; the input is the message, or its digest if `inputIsDigest`.
    case rsaPKCS1v15(digest: DigestAlgorithm, inputIsDigest: Bool)
    /// RSASSA-PSS with MGF1(`digest`) and an explicit salt length in bytes (OpenSSL's special values −1 =
    /// digest length and −2 = maximum/auto are passed through).
    case rsaPSS(digest: DigestAlgorithm, saltLength: Int, inputIsDigest: Bool)
    /// ECDSA with an X9.62 DER signature. `digest` nil with `inputIsDigest` signs a digest of any length
    /// (OpenSSL truncates to the order size); with a digest and `inputIsDigest` the length must match.
    case ecdsaDER(digest: DigestAlgorithm?, inputIsDigest: Bool)
    /// ECDSA with a raw r‖s signature, each half padded to the field size (RFC 4754 / IEEE P1363).
    case ecdsaRaw(digest: DigestAlgorithm?, inputIsDigest: Bool)
    /// PureEdDSA over Ed25519 (RFC 8032): the input is the whole message; 64-byte signatures.
    case ed25519
}

/// RSA encryption paddings.
package enum RSAEncryptionPadding: Sendable, Hashable {
    /// Raw RSA. Encrypt: input ≤ k bytes (left-padded with zeros to k), numerically below the modulus.
    /// Decrypt: returns the full k-byte block.
    case none
    /// PKCS#1 v1.5 type 2; plaintext ≤ k − 11 bytes.
    case pkcs1
    /// OAEP with MGF1 using the same digest (label empty unless given to the `label:` overloads);
    /// plaintext ≤ k − 2·hLen − 2 bytes.
    case oaep(DigestAlgorithm)
}
