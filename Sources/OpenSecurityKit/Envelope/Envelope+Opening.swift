import CommonCrypto
import Foundation
import Security

extension Envelope {
    /// Opens the envelope with the recipient's private key.
    ///
    /// - Parameters:
    ///   - privateKey: the recipient's private key (the key the envelope was sealed for).
    ///   - profile: the profile it was sealed with (``Profile/modern`` by default; never guessed from the fields,
    ///     so a modern envelope cannot be passed off as a legacy one).
    ///   - sender: the sender's public key: when given, the envelope must carry the sender's valid signature
    ///     (modern profile). Without it a signature is not checked.
    /// - Returns: the plaintext, only when all of it is authentic.
    /// - Throws: errSecDecode, "the envelope does not open", for every wrong key, tampering, truncation, missing
    ///   field or bad signature — always the same error, so a server cannot be used as an oracle; errSecParam for
    ///   a `privateKey` that is not a private key of a kind the profile uses.
    public func open(
        with privateKey: SecKey, profile: Profile = .modern, verifyingSignatureWith sender: SecKey? = nil
    ) throws(SecurityKitError) -> Data {
        Data(try openBytes(with: privateKey, profile: profile, verifyingSignatureWith: sender))
    }

    /// ``open(with:profile:verifyingSignatureWith:)`` returning a byte array (no copy of the plaintext).
    public func openBytes(
        with privateKey: SecKey, profile: Profile = .modern, verifyingSignatureWith sender: SecKey? = nil
    ) throws(SecurityKitError) -> [UInt8] {
        switch profile.kind {
        case .modern:
            guard let algorithm = Envelope.keyWrapAlgorithm(privateKey, .decrypt) else {
                throw SecurityKitError(errSecParam, reason: "opening needs the recipient's RSA or EC private key")
            }
            if let sender, !hasValidSignature(from: sender) { throw Envelope.openFailure }
            return try openModern(privateKey, algorithm)
        case .legacy:
            guard SecKeyIsAlgorithmSupported(privateKey, .decrypt, .rsaEncryptionPKCS1) else {
                throw SecurityKitError(errSecParam, reason: "the legacy profile needs the recipient's RSA private key")
            }
            guard sender == nil else {
                throw SecurityKitError(errSecParam, reason: "the legacy profile has no signature")
            }
            return try openLegacy(privateKey)
        }
    }

    /// ``open(with:profile:verifyingSignatureWith:)`` as UTF-8 text.
    ///
    /// - Throws: errSecConversionError when the authentic plaintext is not UTF-8.
    public func openText(
        with privateKey: SecKey, profile: Profile = .modern, verifyingSignatureWith sender: SecKey? = nil
    ) throws(SecurityKitError) -> String {
        let bytes = try openBytes(with: privateKey, profile: profile, verifyingSignatureWith: sender)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw SecurityKitError(errSecConversionError, reason: "the message is not UTF-8 text")
        }
        return text
    }

    // MARK: Profiles

    /// Unwraps the key and opens the GCM payload. A key that does not unwrap is replaced by a random one and the
    /// payload is still checked, so every failure takes the same path and returns the same error.
    private func openModern(_ privateKey: SecKey, _ algorithm: SecKeyAlgorithm) throws(SecurityKitError) -> [UInt8] {
        let (nonce, sealed): ([UInt8], [UInt8])
        switch body {
        case .gcm(let n, let s): (nonce, sealed) = (n, s)
        case .bytes(let bytes):
            guard bytes.count >= EnvelopeCrypto.nonceLength + EnvelopeCrypto.tagLength else {
                throw Envelope.openFailure
            }
            (nonce, sealed) = (Array(bytes[..<EnvelopeCrypto.nonceLength]), Array(bytes[EnvelopeCrypto.nonceLength...]))
        }
        var key = unwrapKey(privateKey, algorithm, expectedLength: EnvelopeCrypto.keyLength)
        defer { EnvelopeCrypto.wipe(&key.bytes) }
        let plaintext = EnvelopeCrypto.gcmOpen(
            key: key.bytes, nonce: nonce, aad: Array(identifier.utf8), sealed: sealed)
        guard key.isGenuine, let plaintext else { throw Envelope.openFailure }
        return plaintext
    }

    /// Unwraps the key and decrypts; a key that does not unwrap is replaced by random digits, the decryption
    /// and the digest check still run, and every failure gives the same error.
    private func openLegacy(_ privateKey: SecKey) throws(SecurityKitError) -> [UInt8] {
        guard case .bytes(let ciphertext) = body else { throw Envelope.openFailure }
        var key = unwrapKey(privateKey, .rsaEncryptionPKCS1, expectedLength: nil)
        defer { EnvelopeCrypto.wipe(&key.bytes) }
        var aesKey = Envelope.legacyAESKey(key.bytes)
        defer { EnvelopeCrypto.wipe(&aesKey) }
        let plaintext = EnvelopeCrypto.cbc(kCCDecrypt, key: aesKey, ciphertext)
        let computed = Array(EnvelopeCrypto.md5Hex(plaintext ?? ciphertext).utf8)
        let expected = Array((digest ?? "").lowercased().utf8)
        let digestMatches = EnvelopeCrypto.constantTimeEqual(computed, expected)
        guard key.isGenuine, digestMatches, let plaintext else { throw Envelope.openFailure }
        return plaintext
    }

    /// The unwrapped message key, or random bytes of the expected shape when it does not unwrap (or has the wrong
    /// length: 32 bytes for modern, 1…32 for legacy).
    private func unwrapKey(
        _ privateKey: SecKey, _ algorithm: SecKeyAlgorithm, expectedLength: Int?
    ) -> (bytes: [UInt8], isGenuine: Bool) {
        var error: Unmanaged<CFError>?
        let unwrapped = SecKeyCreateDecryptedData(privateKey, algorithm, encryptedKey as CFData, &error)
        error?.release()
        if let unwrapped {
            let bytes = FoundationBytes.array(unwrapped)
            let fits = expectedLength.map { bytes.count == $0 } ?? (1...EnvelopeCrypto.keyLength).contains(bytes.count)
            if fits { return (bytes, true) }
        }
        let substitute =
            (expectedLength != nil
                ? try? EnvelopeCrypto.randomBytes(EnvelopeCrypto.keyLength)
                : try? EnvelopeCrypto.randomDigits(Envelope.legacyKeyLength))
            ?? [UInt8](
                repeating: 0, count: EnvelopeCrypto.keyLength)
        return (substitute, false)
    }
}
