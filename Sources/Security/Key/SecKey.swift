import Foundation
import OSecCrypto

/// Apple's `SecKey`: an RSA or elliptic-curve key, public or private.
///
/// Instances are immutable and safe to share between threads. Two keys are equal when they are the same kind
/// (public/private) of the same key material, like `CFEqual` on Apple platforms.
public final class SecKey: NSObject, @unchecked Sendable {
    // @unchecked: every stored property is immutable after init; the crypto handle is read-only.
    let key: AsymmetricKey
    /// Where the key is stored, when it came from (or was added to) a keychain.
    let keychainReference: SecItemReference?

    init(_ key: AsymmetricKey, keychainReference: SecItemReference? = nil) {
        self.key = key
        self.keychainReference = keychainReference
    }

    /// A SecKey for keys of Apple's SecKey types (RSA, EC), nil for others: Apple's SecKey has no Ed25519
    /// type, so certificate and PKCS#12 keys of that kind are not handed out (as Apple returns nil for
    /// public keys it does not support).
    static func wrapping(_ key: AsymmetricKey) -> SecKey? {
        switch key.algorithm {
        case .rsa, .ec: SecKey(key)
        case .ed25519: nil
        }
    }

    /// Apple's `kSecAttrKeyType` value for this key: "42" (RSA) or "73" (EC).
    var keyTypeAttribute: String {
        switch key.algorithm {
        case .rsa: return "42"
        case .ec: return "73"
        case .ed25519: return "ed25519"  // not an Apple type; never wrapped (see `wrapping(_:)`)
        }
    }

    var isRSA: Bool { if case .rsa = key.algorithm { return true } else { return false } }
    var isEC: Bool { !isRSA }

    /// Apple's external representation (PKCS#1 for RSA, X9.63 for EC).
    func externalRepresentation() throws -> Data {
        do {
            switch key.algorithm {
            case .rsa: return try key.rsaPKCS1DER
            case .ec: return try key.x963Representation
            case .ed25519: return try key.isPrivate ? key.ed25519PrivateKeyBytes : key.ed25519PublicKeyBytes
            }
        } catch {
            throw SecError(errSecInternal, "key export failed: \(error)")
        }
    }

    /// `kSecAttrApplicationLabel`: SHA-1 of the public key's external representation (Apple's public key hash).
    var applicationLabel: Data {
        let publicBytes = (try? (key.isPrivate ? SecKey(key.publicKey) : self).externalRepresentation()) ?? Data()
        return Digest.hash(.sha1, publicBytes)
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SecKey else { return false }
        if other === self { return true }
        guard key.isPrivate == other.key.isPrivate, key.algorithm == other.key.algorithm else { return false }
        guard let a = try? externalRepresentation(), let b = try? other.externalRepresentation() else { return false }
        return a == b
    }

    /// Consistent with `isEqual` without exporting and hashing the key on every call (sets and dictionaries
    /// of keys call this often); equal keys always share algorithm, size and kind.
    public override var hash: Int { key.bitSize &* 2 &+ (key.isPrivate ? 1 : 0) }

    public override var description: String {
        let kind = key.isPrivate ? "Private" : "Public"
        switch key.algorithm {
        case .rsa:
            return "<SecKeyRef algorithm id: 1, key type: RSA\(kind)Key, version: 4, block size: \(key.bitSize) bits>"
        case .ec(let curve):
            return
                "<SecKeyRef curve type: kSecECCurveSecp\(curve.bits)r1, algorithm id: 3, key type: EC\(kind)Key, "
                + "version: 4, block size: \(key.bitSize) bits>"
        case .ed25519:
            return "<SecKeyRef key type: Ed25519\(kind)Key, block size: 256 bits>"
        }
    }
}
