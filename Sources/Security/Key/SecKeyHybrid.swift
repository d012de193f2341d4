import Foundation
import OSecCrypto

/// Apple's hybrid encryption algorithms, following the formats documented in Apple's `SecKey.h`:
///
/// - ECIES (`eciesEncryption…X963SHAnAESGCM`): an ephemeral key pair on the recipient's curve; ECDH with the
///   recipient's public key; X9.63 KDF with SHA-n over the shared secret with the ephemeral public key (X9.63
///   bytes) as shared info; AES-GCM with a 128-bit key for curves up to 256 bits, else 256-bit; a 16-byte
///   all-zero IV (or, for the VariableIV variants, a 16-byte IV taken from the KDF output after the key);
///   no AAD; output = ephemeral public key ‖ ciphertext ‖ 16-byte tag.
/// - RSA (`rsaEncryptionOAEPSHAnAESGCM`): a random AES session key (256-bit when the RSA key is 4096 bits
///   or larger, else 128-bit) wrapped with RSA-OAEP-SHA-n; AES-GCM with a 16-byte all-zero IV and the raw
///   public key data (PKCS#1) as AAD; output = wrapped key ‖ ciphertext ‖ 16-byte tag.
enum SecKeyHybrid {
    static let tagLength = 16
    static let ivLength = 16

    private static func eciesKeyLength(_ key: SecKey) throws -> Int { try key.key.bitSize > 256 ? 32 : 16 }

    static func eciesEncrypt(
        _ recipient: SecKey, _ plaintext: Data, kdf: DigestAlgorithm, variableIV: Bool
    ) throws -> Data {
        guard case .ec(let curve) = try recipient.key.algorithm else { throw SecError.param("ECIES needs an EC key") }
        do {
            let ephemeral = try AsymmetricKey.generateEC(curve)
            let ephemeralPublic = try ephemeral.publicKey.x963Representation
            let secret = try ephemeral.deriveSharedSecret(with: recipient.key)
            let (key, iv) = try eciesKeyAndIV(
                secret: secret, sharedInfo: ephemeralPublic, keyLength: try eciesKeyLength(recipient), kdf: kdf,
                variableIV: variableIV)
            let sealed = try AESGCM.seal(key: key, nonce: iv, plaintext: plaintext)
            return ephemeralPublic + sealed.ciphertext + sealed.tag
        } catch let error as SecError {
            throw error
        } catch {
            throw SecError.param("ECIES encryption failed: \(error)")
        }
    }

    static func eciesDecrypt(
        _ recipient: SecKey, _ message: Data, kdf: DigestAlgorithm, variableIV: Bool
    ) throws -> Data {
        guard case .ec(let curve) = try recipient.key.algorithm else { throw SecError.param("ECIES needs an EC key") }
        let pointLength = 1 + 2 * curve.fieldSize
        guard message.count >= pointLength + tagLength else { throw SecError.param("ECIES ciphertext is too short") }
        let bytes = Data(message)
        let ephemeralPublic = bytes.prefix(pointLength)
        let body = bytes.dropFirst(pointLength)
        let ciphertext = body.dropLast(tagLength)
        let tag = body.suffix(tagLength)
        do {
            let ephemeral = try AsymmetricKey(ecPublicKeyX963: Data(ephemeralPublic), curve: curve)
            let secret = try recipient.key.deriveSharedSecret(with: ephemeral)
            let (key, iv) = try eciesKeyAndIV(
                secret: secret, sharedInfo: Data(ephemeralPublic), keyLength: try eciesKeyLength(recipient), kdf: kdf,
                variableIV: variableIV)
            return try AESGCM.open(key: key, nonce: iv, ciphertext: Data(ciphertext), tag: Data(tag))
        } catch {
            throw SecError.param("ECIES decryption failed")
        }
    }

    private static func eciesKeyAndIV(
        secret: Data, sharedInfo: Data, keyLength: Int, kdf: DigestAlgorithm, variableIV: Bool
    ) throws -> (Data, Data) {
        if variableIV {
            let material = try KDF.x963(
                sharedSecret: secret, sharedInfo: sharedInfo, keyLength: keyLength + ivLength, digest: kdf)
            return (Data(material.prefix(keyLength)), Data(material.suffix(ivLength)))
        }
        let key = try KDF.x963(sharedSecret: secret, sharedInfo: sharedInfo, keyLength: keyLength, digest: kdf)
        return (key, Data(count: ivLength))
    }

    private static func rsaSessionKeyLength(_ key: SecKey) throws -> Int { try key.key.bitSize >= 4096 ? 32 : 16 }

    static func rsaEncrypt(_ recipient: SecKey, _ plaintext: Data, oaep: DigestAlgorithm) throws -> Data {
        do {
            let sessionKey = try SecureRandom.bytes(rsaSessionKeyLength(recipient))
            let wrapped = try recipient.key.encrypt(sessionKey, padding: .oaep(oaep))
            let aad = try recipient.key.rsaPKCS1DER
            let sealed = try AESGCM.seal(key: sessionKey, nonce: Data(count: ivLength), plaintext: plaintext, aad: aad)
            return wrapped + sealed.ciphertext + sealed.tag
        } catch {
            throw SecError.param("RSA-AES-GCM encryption failed: \(error)")
        }
    }

    static func rsaDecrypt(_ key: SecKey, _ message: Data, oaep: DigestAlgorithm) throws -> Data {
        let k = try key.key.blockSize
        guard message.count >= k + tagLength else { throw SecError.param("RSA-AES-GCM ciphertext is too short") }
        let bytes = Data(message)
        let body = bytes.dropFirst(k)
        do {
            let sessionKey = try key.key.decrypt(Data(bytes.prefix(k)), padding: .oaep(oaep))
            guard try sessionKey.count == rsaSessionKeyLength(key) else { throw SecError.param("bad session key") }
            let aad = try key.key.publicKey.rsaPKCS1DER
            return try AESGCM.open(
                key: sessionKey, nonce: Data(count: ivLength), ciphertext: Data(body.dropLast(tagLength)),
                tag: Data(body.suffix(tagLength)), aad: aad)
        } catch {
            throw SecError.param("RSA-AES-GCM decryption failed")
        }
    }
}
