import CommonCrypto
import Foundation
import Security

extension Envelope {
    // MARK: Sealing

    /// Seals `plaintext` for the owner of `recipient`.
    ///
    /// - Parameters:
    ///   - plaintext: the message, at most ``maximumPlaintextLength`` bytes.
    ///   - recipient: the recipient's public key (RSA, or EC for the modern profile); a private key's public half
    ///     is used.
    ///   - id: the sender's identifier, sent in clear (`id` / `merchant_id`).
    ///   - profile: ``Profile/modern`` (default) or ``Profile/legacy``.
    ///   - signer: the sender's private key (RSA or EC) to sign the envelope with (modern profile only); the
    ///     recipient checks it with ``open(with:profile:verifyingSignatureWith:)``.
    ///   - fieldNames: the JSON names the envelope is written with.
    /// - Throws: errSecDataTooLarge beyond ``maximumPlaintextLength``; errSecParam for a recipient key the profile
    ///   cannot use (legacy needs RSA), a signer with the legacy profile, or a key too small.
    public static func seal(
        _ plaintext: Data, to recipient: SecKey, id: String, profile: Profile = .modern, signedBy signer: SecKey? = nil,
        fieldNames: FieldNames = .standard
    ) throws(SecurityKitError) -> Envelope {
        try seal(.data(plaintext), to: recipient, id: id, profile: profile, signedBy: signer, fieldNames: fieldNames)
    }

    /// `seal(_:to:id:profile:signedBy:fieldNames:)` of the UTF-8 of `text`.
    public static func seal(
        _ text: String, to recipient: SecKey, id: String, profile: Profile = .modern, signedBy signer: SecKey? = nil,
        fieldNames: FieldNames = .standard
    ) throws(SecurityKitError) -> Envelope {
        try seal(
            bytes: Array(text.utf8), to: recipient, id: id, profile: profile, signedBy: signer, fieldNames: fieldNames)
    }

    /// `seal(_:to:id:profile:signedBy:fieldNames:)` signed by `identity`'s private key.
    public static func seal(
        _ plaintext: Data, to recipient: SecKey, id: String, signedBy identity: SecIdentity,
        fieldNames: FieldNames = .standard
    ) throws(SecurityKitError) -> Envelope {
        var key: SecKey?
        try SecurityKitError.check(SecIdentityCopyPrivateKey(identity, &key), "SecIdentityCopyPrivateKey failed")
        return try seal(plaintext, to: recipient, id: id, profile: .modern, signedBy: key, fieldNames: fieldNames)
    }

    /// `seal(_:to:id:profile:signedBy:fieldNames:)` for a byte array (no copy of the message
    /// on its way to the cipher).
    public static func seal(
        bytes plaintext: [UInt8], to recipient: SecKey, id: String, profile: Profile = .modern,
        signedBy signer: SecKey? = nil, fieldNames: FieldNames = .standard
    ) throws(SecurityKitError) -> Envelope {
        try seal(.bytes(plaintext), to: recipient, id: id, profile: profile, signedBy: signer, fieldNames: fieldNames)
    }

    /// A message as the caller gave it: the modern profile lends either to the cipher as it is, without a copy.
    private enum Message {
        case bytes([UInt8])
        case data(Data)

        var count: Int {
            switch self {
            case .bytes(let bytes): bytes.count
            case .data(let data): data.count
            }
        }

        var array: [UInt8] {
            switch self {
            case .bytes(let bytes): bytes
            case .data(let data): [UInt8](data)
            }
        }
    }

    private static func seal(
        _ plaintext: Message, to recipient: SecKey, id: String, profile: Profile, signedBy signer: SecKey?,
        fieldNames: FieldNames
    ) throws(SecurityKitError) -> Envelope {
        try checkLength(plaintext.count)
        guard let publicKey = SecKeyCopyPublicKey(recipient) else {
            throw SecurityKitError(errSecParam, reason: "the recipient key has no public key")
        }
        switch profile.kind {
        case .modern:
            return try sealModern(plaintext, publicKey, id, signer, fieldNames)
        case .legacy:
            guard signer == nil else {
                throw SecurityKitError(errSecParam, reason: "the legacy profile has no signature")
            }
            return try sealLegacy(plaintext.array, publicKey, id, fieldNames)
        }
    }

    private static func checkLength(_ count: Int) throws(SecurityKitError) {
        guard count <= maximumPlaintextLength else {
            throw SecurityKitError(
                errSecDataTooLarge, reason: "\(count) bytes exceed the envelope limit of \(maximumPlaintextLength)")
        }
    }

    /// RSA-OAEP-SHA256 for RSA recipients, Apple's ECIES for EC ones.
    static func keyWrapAlgorithm(_ key: SecKey, _ operation: SecKeyOperationType) -> SecKeyAlgorithm? {
        if SecKeyIsAlgorithmSupported(key, operation, .rsaEncryptionOAEPSHA256) { return .rsaEncryptionOAEPSHA256 }
        let ecies = SecKeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA256AESGCM
        if SecKeyIsAlgorithmSupported(key, operation, ecies) { return ecies }
        return nil
    }

    private static func sealModern(
        _ plaintext: Message, _ recipient: SecKey, _ id: String, _ signer: SecKey?, _ names: FieldNames
    ) throws(SecurityKitError) -> Envelope {
        guard let algorithm = keyWrapAlgorithm(recipient, .encrypt) else {
            throw SecurityKitError(errSecParam, reason: "the recipient key is neither an RSA nor an EC public key")
        }
        var key = try EnvelopeCrypto.randomBytes(EnvelopeCrypto.keyLength)
        defer { EnvelopeCrypto.wipe(&key) }
        var error: Unmanaged<CFError>?
        guard let wrapped = SecKeyCreateEncryptedData(recipient, algorithm, Data(key) as CFData, &error) else {
            throw SecurityKitError.from(error, "encrypting the message key for the recipient failed")
        }
        let nonce = try EnvelopeCrypto.nonce()
        let aad = Array(id.utf8)
        let sealed =
            switch plaintext {
            case .bytes(let bytes): try EnvelopeCrypto.gcmSeal(key: key, nonce: nonce, aad: aad, plaintext: bytes)
            case .data(let data): try EnvelopeCrypto.gcmSeal(key: key, nonce: nonce, aad: aad, plaintext: data)
            }
        var envelope = Envelope(
            encryptedKey: FoundationBytes.data(wrapped), identifier: id, fieldNames: names,
            body: .gcm(nonce: nonce, sealed: sealed))
        if let signer { envelope.signature = try envelope.sign(with: signer) }
        return envelope
    }

    private static func sealLegacy(
        _ plaintext: [UInt8], _ recipient: SecKey, _ id: String, _ names: FieldNames
    ) throws(SecurityKitError) -> Envelope {
        guard SecKeyIsAlgorithmSupported(recipient, .encrypt, .rsaEncryptionPKCS1) else {
            throw SecurityKitError(errSecParam, reason: "the legacy profile needs an RSA public key")
        }
        var digits = try EnvelopeCrypto.randomDigits(legacyKeyLength)
        defer { EnvelopeCrypto.wipe(&digits) }
        var error: Unmanaged<CFError>?
        guard let wrapped = SecKeyCreateEncryptedData(recipient, .rsaEncryptionPKCS1, Data(digits) as CFData, &error)
        else { throw SecurityKitError.from(error, "encrypting the message key for the recipient failed") }
        var aesKey = legacyAESKey(digits)
        defer { EnvelopeCrypto.wipe(&aesKey) }
        guard let ciphertext = EnvelopeCrypto.cbc(kCCEncrypt, key: aesKey, plaintext) else {
            throw SecurityKitError(errSecInternal, reason: "AES-CBC encryption failed")
        }
        return Envelope(
            encryptedKey: FoundationBytes.data(wrapped), identifier: id, digest: EnvelopeCrypto.md5Hex(plaintext),
            fieldNames: names, body: .bytes(ciphertext))
    }

    /// The legacy key: 16 characters.
    static let legacyKeyLength = 16

    /// The `AES256EncryptWithKey` key: the key text's UTF-8 in a zeroed 32-byte buffer.
    static func legacyAESKey(_ text: [UInt8]) -> [UInt8] {
        var key = [UInt8](repeating: 0, count: EnvelopeCrypto.keyLength)
        key.replaceSubrange(0..<min(text.count, key.count), with: text.prefix(key.count))
        return key
    }

    // MARK: Signatures

    /// The bytes the modern profile's signature covers: a version label, then `id`, the encrypted key and the
    /// payload, each preceded by its length (big-endian), so no field can be shifted into another:
    ///
    ///     "OpenSecurityKit envelope v1\n" ‖ u32(len id) ‖ id (UTF-8) ‖ u32(len key) ‖ key ‖ u64(len data) ‖ data
    ///
    /// where data is nonce ‖ ciphertext ‖ tag. The signature is over SHA-256 of these bytes: RSA PKCS#1 v1.5
    /// (`openssl dgst -sha256 -verify`), or ECDSA with a DER signature for EC keys.
    static let signatureLabel = Array("OpenSecurityKit envelope v1\n".utf8)

    /// SHA-256 of the signed bytes.
    func signedDigest() -> [UInt8] {
        var hash = SHA256Stream()
        hash.update(Envelope.signatureLabel)
        let id = Array(identifier.utf8)
        hash.update(Envelope.bigEndian(UInt64(id.count), bytes: 4))
        hash.update(id)
        hash.update(Envelope.bigEndian(UInt64(encryptedKey.count), bytes: 4))
        hash.update([UInt8](encryptedKey))
        switch body {
        case .gcm(let nonce, let sealed):
            hash.update(Envelope.bigEndian(UInt64(nonce.count + sealed.count), bytes: 8))
            hash.update(nonce)
            hash.update(sealed)
        case .bytes(let bytes):
            hash.update(Envelope.bigEndian(UInt64(bytes.count), bytes: 8))
            hash.update(bytes)
        }
        return hash.finish()
    }

    static func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    private func sign(with signer: SecKey) throws(SecurityKitError) -> Data {
        let algorithm: SecKeyAlgorithm
        if SecKeyIsAlgorithmSupported(signer, .sign, .rsaSignatureDigestPKCS1v15SHA256) {
            algorithm = .rsaSignatureDigestPKCS1v15SHA256
        } else if SecKeyIsAlgorithmSupported(signer, .sign, .ecdsaSignatureDigestX962SHA256) {
            algorithm = .ecdsaSignatureDigestX962SHA256
        } else {
            throw SecurityKitError(errSecParam, reason: "the signer is not an RSA or EC private key")
        }
        var error: Unmanaged<CFError>?
        guard let signature = SecKeyCreateSignature(signer, algorithm, Data(signedDigest()) as CFData, &error) else {
            throw SecurityKitError.from(error, "signing the envelope failed")
        }
        return FoundationBytes.data(signature)
    }

    /// Whether the signature verifies under `sender` (RSA or EC public key).
    func hasValidSignature(from sender: SecKey) -> Bool {
        guard let signature, let publicKey = SecKeyCopyPublicKey(sender) else { return false }
        let digest = Data(signedDigest()) as CFData
        for algorithm in [SecKeyAlgorithm.rsaSignatureDigestPKCS1v15SHA256, .ecdsaSignatureDigestX962SHA256]
        where SecKeyIsAlgorithmSupported(publicKey, .verify, algorithm) {
            return SecKeyVerifySignature(publicKey, algorithm, digest, signature as CFData, nil)
        }
        return false
    }
}
