import Foundation
import OSecCrypto

/// The on-disk format of everything the engine seals with AES-256-GCM (wrapped keys and item secrets):
/// `version (1 byte = 1) ‖ nonce (12) ‖ ciphertext ‖ tag (16)`, with caller-supplied associated data.
enum AEADBox {
    static let version: UInt8 = 1
    static let nonceLength = 12
    static let tagLength = 16
    static let overhead = 1 + nonceLength + tagLength

    /// Seals `plaintext` under `key` (32 bytes) with a fresh random nonce.
    static func seal(_ plaintext: Data, key: Data, aad: Data) throws(KeychainStoreError) -> Data {
        do {
            let nonce = try SecureRandom.bytes(nonceLength)
            let (ciphertext, tag) = try AESGCM.seal(key: key, nonce: nonce, plaintext: plaintext, aad: aad,
                                                    tagLength: tagLength)
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

    /// Opens a box; a malformed box or a failed tag check throws `failure` (the caller decides whether that
    /// means a wrong password, a tampered row or a corrupt keychain).
    static func open(_ box: Data, key: Data, aad: Data, failure: KeychainStoreError.Code) throws(KeychainStoreError) -> Data {
        guard box.count >= overhead, box.first == version else {
            throw KeychainStoreError(failure, "sealed data is malformed")
        }
        // Slices share the box's storage: no copies on this hot path.
        let nonceStart = box.startIndex + 1
        let cipherStart = nonceStart + nonceLength
        let tagStart = box.endIndex - tagLength
        do {
            return try AESGCM.open(key: key, nonce: box[nonceStart..<cipherStart], ciphertext: box[cipherStart..<tagStart],
                                   tag: box[tagStart..<box.endIndex], aad: aad)
        } catch where error.code == .authenticationFailed {
            throw KeychainStoreError(failure, "authentication tag mismatch", underlying: error)
        } catch {
            throw KeychainStoreError(.internal, "opening sealed data failed", underlying: error)
        }
    }
}
