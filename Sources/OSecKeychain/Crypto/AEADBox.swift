import OSecCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The on-disk format of everything the engine seals with AES-256-GCM (wrapped keys and item secrets):
/// `version (1 byte = 1) ‖ nonce (12) ‖ ciphertext ‖ tag (16)`, with caller-supplied associated data.
enum AEADBox {
    static let version: UInt8 = 1
    static let nonceLength = 12
    static let tagLength = 16
    static let overhead = 1 + nonceLength + tagLength

    /// Seals `plaintext` under `key` (32 bytes) with a fresh random nonce.
    static func seal(_ plaintext: Data, key: Data, aad: Data) throws(KeychainStoreError) -> Data {
        try sealed { (nonce) throws(CryptoError) in
            try AESGCM.seal(key: key, nonce: nonce, plaintext: plaintext, aad: aad, tagLength: tagLength)
        }
    }

    /// Seals `plaintext` under a prepared key (item secrets: the class key's schedule is expanded once).
    static func seal(_ plaintext: Data, cipher: AESGCMKey, aad: Data) throws(KeychainStoreError) -> Data {
        try sealed { (nonce) throws(CryptoError) in
            try cipher.seal(nonce: nonce, plaintext: plaintext, aad: aad, tagLength: tagLength)
        }
    }

    /// Opens a box; a malformed box or a failed tag check throws `failure` (the caller decides whether that
    /// means a wrong password, a tampered row or a corrupt keychain).
    static func open(
        _ box: Data, key: Data, aad: Data, failure: KeychainStoreError.Code
    ) throws(KeychainStoreError) -> Data {
        try opened(box, failure: failure) { (nonce, ciphertext, tag) throws(CryptoError) in
            try AESGCM.open(key: key, nonce: nonce, ciphertext: ciphertext, tag: tag, aad: aad)
        }
    }

    /// Opens a box with a prepared key; errors as ``open(_:key:aad:failure:)``.
    static func open(
        _ box: Data, cipher: AESGCMKey, aad: Data, failure: KeychainStoreError.Code
    ) throws(KeychainStoreError) -> Data {
        guard box.count >= overhead, box.first == version else {
            throw KeychainStoreError(failure, "sealed data is malformed")
        }
        do {
            return try cipher.open(combined: box, from: 1, tagLength: tagLength, aad: aad)
        } catch  where error.code == .authenticationFailed {
            throw KeychainStoreError(failure, "authentication tag mismatch", underlying: error)
        } catch {
            throw KeychainStoreError(.internal, "opening sealed data failed", underlying: error)
        }
    }

    private static func sealed(
        _ body: (Data) throws(CryptoError) -> (ciphertext: Data, tag: Data)
    ) throws(KeychainStoreError) -> Data {
        do {
            let nonce = try SecureRandom.publicBytes(nonceLength)
            let (ciphertext, tag) = try body(nonce)
            var box = Data(capacity: overhead + ciphertext.count)
            box.append(version)
            box.append(nonce)
            box.append(ciphertext)
            box.append(tag)
            return box
        } catch {
            throw KeychainStoreError(.internal, "sealing failed", underlying: error)
        }
    }

    private static func opened(
        _ box: Data, failure: KeychainStoreError.Code,
        _ body: (Data, Data, Data) throws(CryptoError) -> Data
    ) throws(KeychainStoreError) -> Data {
        guard box.count >= overhead, box.first == version else {
            throw KeychainStoreError(failure, "sealed data is malformed")
        }
        // Slices share the box's storage: no copies on this hot path.
        let nonceStart = box.startIndex + 1
        let cipherStart = nonceStart + nonceLength
        let tagStart = box.endIndex - tagLength
        do {
            return try body(box[nonceStart..<cipherStart], box[cipherStart..<tagStart], box[tagStart..<box.endIndex])
        } catch  where error.code == .authenticationFailed {
            throw KeychainStoreError(failure, "authentication tag mismatch", underlying: error)
        } catch {
            throw KeychainStoreError(.internal, "opening sealed data failed", underlying: error)
        }
    }
}
