import Foundation

/// AES-GCM sealed into one new byte array, `ciphertext ‖ tag`: the layout envelopes and stores keep. OpenSSL reads
/// the message where it lies (a `Data` or an array is lent, never copied) and writes straight into the array's
/// uninitialised storage: no zero fill, no staging buffer, no second copy for the tag. For callers above the
/// wrapper layer that hold the message as `Data` and may not lend its bytes themselves (OpenSecurityKit's
/// `Envelope`): at 1 MiB the copies this saves cost a tenth of the seal.
extension AESGCM {
    /// Encrypts and authenticates `plaintext` under `key` and `nonce`, with `aad` authenticated too; returns the
    /// ciphertext followed by the `tagLength`-byte tag (the same bytes as ``seal(key:nonce:plaintext:aad:tagLength:)``
    /// joined). Key 16, 24 or 32 bytes; nonce 1 to ``maximumLongNonceLength`` bytes (12 recommended); tag
    /// ``tagLengths``.
    /// - Throws: `.invalidParameter` for a bad key, nonce or tag length or a message beyond GCM's limit
    ///   (``maximumMessageLength``); `.internalError` when OpenSSL fails. Nothing is returned on failure.
    package static func sealCombined(
        key: some CryptoInput, nonce: some CryptoInput, plaintext: some CryptoInput, aad: some CryptoInput,
        tagLength: Int = 16
    ) throws(CryptoError) -> [UInt8] {
        guard tagLengths.contains(tagLength) else {
            throw CryptoError(.invalidParameter, "GCM tag length must be 12...16 bytes")
        }
        guard nonce.cryptoByteCount <= maximumLongNonceLength else {
            throw CryptoError(.invalidParameter, "GCM nonce longer than \(maximumLongNonceLength) bytes")
        }
        let count = plaintext.cryptoByteCount
        guard count <= maximumMessageLength else {
            throw CryptoError(.invalidParameter, "GCM message longer than 2^36 - 32 bytes")
        }
        var outcome: Result<Void, CryptoError> = .success(())
        let sealed = [UInt8](unsafeUninitializedCapacity: count + tagLength) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else {
                outcome = .failure(CryptoError(.internalError, "no output buffer"))
                return
            }
            outcome = Result { () throws(CryptoError) in
                try key.withCryptoBytes { (keyBytes, keyCount) throws(CryptoError) in
                    try nonce.withCryptoBytes { (nonceBytes, nonceCount) throws(CryptoError) in
                        try aad.withCryptoBytes { (aadBytes, aadCount) throws(CryptoError) in
                            try plaintext.withCryptoBytes { (input, inputCount) throws(CryptoError) in
                                try oneShot(
                                    .seal(into: UnsafeMutableRawPointer(base + inputCount)), key: keyBytes,
                                    keyCount: keyCount, nonce: nonceBytes, nonceCount: nonceCount, aad: aadBytes,
                                    aadCount: aadCount, input: input, count: inputCount,
                                    into: UnsafeMutableRawPointer(base), tagCount: tagLength)
                            }
                        }
                    }
                }
            }
            // Every byte was written: `count` by the cipher (the shim checks each piece), the tag after them.
            if case .success = outcome { initialized = count + tagLength }
        }
        try outcome.get()
        return sealed
    }
}
