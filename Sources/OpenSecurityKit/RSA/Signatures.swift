import Foundation
import Security

/// The digest a ``Signatures`` signature hashes the message with.
public struct SignatureDigest: Sendable, Hashable, CustomStringConvertible {
    let rsa: SecKeyAlgorithm
    let ecdsa: SecKeyAlgorithm
    /// `SHA1`, `SHA256`, …
    public let description: String

    /// SHA-1: `SHA1withRSA` / `openssl dgst -sha1 -sign`, what the guides' servers check. Collisions are
    /// practical; use it only to talk to such servers.
    public static let sha1 = SignatureDigest(
        rsa: .rsaSignatureMessagePKCS1v15SHA1, ecdsa: .ecdsaSignatureMessageX962SHA1, description: "SHA1")
    /// SHA-256: `SHA256withRSA` / `SHA256withECDSA` / `openssl dgst -sha256 -sign`.
    public static let sha256 = SignatureDigest(
        rsa: .rsaSignatureMessagePKCS1v15SHA256, ecdsa: .ecdsaSignatureMessageX962SHA256, description: "SHA256")
    /// SHA-384.
    public static let sha384 = SignatureDigest(
        rsa: .rsaSignatureMessagePKCS1v15SHA384, ecdsa: .ecdsaSignatureMessageX962SHA384, description: "SHA384")
    /// SHA-512.
    public static let sha512 = SignatureDigest(
        rsa: .rsaSignatureMessagePKCS1v15SHA512, ecdsa: .ecdsaSignatureMessageX962SHA512, description: "SHA512")
}

/// Signatures in the formats servers verify: RSA PKCS#1 v1.5 (`SHA256withRSA`, `openssl dgst -sign`) and, for EC
/// keys, ECDSA with a DER signature (`SHA256withECDSA`).
///
/// ```swift
/// let signature = try Signatures.sign("amount=10&order=42", with: privateKey, digest: .sha1)   // base64
/// let valid = try Signatures.verify(base64: signature, of: "amount=10&order=42", with: publicKey, digest: .sha1)
/// ```
public enum Signatures {
    /// The signature of `data` with `privateKey` (RSA or EC).
    ///
    /// - Throws: errSecParam when the key cannot sign (a public key).
    public static func sign(
        _ data: Data, with privateKey: SecKey, digest: SignatureDigest = .sha256
    ) throws(SecurityKitError) -> Data {
        let algorithm = try self.algorithm(privateKey, digest, .sign)
        var error: Unmanaged<CFError>?
        guard let signature = SecKeyCreateSignature(privateKey, algorithm, data as CFData, &error) else {
            throw SecurityKitError.from(error, "signing failed")
        }
        return FoundationBytes.data(signature)
    }

    /// Whether `signature` is a valid signature of `data` by `publicKey`'s owner: false for a wrong or malformed
    /// signature.
    ///
    /// - Throws: errSecParam when the key cannot verify with `digest` (an RSA signature with an EC key, …).
    public static func verify(
        _ signature: Data, of data: Data, with publicKey: SecKey, digest: SignatureDigest = .sha256
    ) throws(SecurityKitError) -> Bool {
        let verifier = SecKeyCopyPublicKey(publicKey) ?? publicKey
        let algorithm = try self.algorithm(verifier, digest, .verify)
        var error: Unmanaged<CFError>?
        if SecKeyVerifySignature(verifier, algorithm, data as CFData, signature as CFData, &error) { return true }
        let failure = SecurityKitError.from(error, "verification failed")
        guard failure.status == errSecVerifyFailed || failure.status == errSecDecode else { throw failure }
        return false
    }

    /// `sign(_:with:digest:)` of the UTF-8 of `text`, as base64.
    public static func sign(
        _ text: String, with privateKey: SecKey, digest: SignatureDigest = .sha256
    ) throws(SecurityKitError) -> String {
        try sign(Data(text.utf8), with: privateKey, digest: digest).base64EncodedString()
    }

    /// ``verify(_:of:with:digest:)`` of a base64 signature over the UTF-8 of `text`; false for text that is not
    /// base64.
    public static func verify(
        base64 signature: String, of text: String, with publicKey: SecKey, digest: SignatureDigest = .sha256
    ) throws(SecurityKitError) -> Bool {
        guard let bytes = try? Base64Text.decode(signature) else { return false }
        return try verify(bytes, of: Data(text.utf8), with: publicKey, digest: digest)
    }

    /// The algorithm for the key's type, checked against the key (`SecKeyIsAlgorithmSupported`).
    static func algorithm(
        _ key: SecKey, _ digest: SignatureDigest, _ operation: SecKeyOperationType
    ) throws(SecurityKitError) -> SecKeyAlgorithm {
        if SecKeyIsAlgorithmSupported(key, operation, digest.rsa) { return digest.rsa }
        if SecKeyIsAlgorithmSupported(key, operation, digest.ecdsa) { return digest.ecdsa }
        let what = operation == .sign ? "sign (a private RSA or EC key is needed)" : "verify"
        throw SecurityKitError(errSecParam, reason: "the key cannot \(what) with \(digest)")
    }
}
