import Foundation
import OSecCrypto

/// Apple's `SecKey`: an RSA or elliptic-curve key, public or private, or one of macOS's symmetric keys (AES, DES,
/// 3DES, RC2, RC4, CAST: `SecKeyGenerateSymmetric`, `SecKeyCreateFromData`, `SecKeyDeriveFromPassword`).
///
/// Instances are immutable and safe to share between threads. Two keys are equal when they are the same kind
/// (public/private/symmetric) of the same key material, like `CFEqual` on Apple platforms.
public final class SecKey: NSObject, @unchecked Sendable {
    // @unchecked: every stored property is immutable after init; the crypto handle is read-only.
    /// What the key holds. The asymmetric case comes first and is the one every RSA/EC operation reads.
    let material: Material
    /// Where the key is stored, when it came from (or was added to) a keychain.
    let keychainReference: SecItemReference?

    /// An RSA/EC key (iOS's only kind), or a macOS symmetric key.
    enum Material {
        case asymmetric(AsymmetricKey)
        case symmetric(SymmetricKeyMaterial)
    }

    init(_ key: AsymmetricKey, keychainReference: SecItemReference? = nil) {
        self.material = .asymmetric(key)
        self.keychainReference = keychainReference
    }

    init(symmetric: SymmetricKeyMaterial, keychainReference: SecItemReference? = nil) {
        self.material = .symmetric(symmetric)
        self.keychainReference = keychainReference
    }

    /// The RSA or EC key. A symmetric key has none: errSecParam, Apple's answer when an asymmetric operation is
    /// asked of a macOS symmetric key ("algorithm not supported by the key").
    var key: AsymmetricKey {
        get throws(SecError) {
            switch material {
            case .asymmetric(let key): return key
            case .symmetric(let symmetric):
                throw SecError.param("operation not supported by the symmetric \(symmetric.algorithm.name) key")
            }
        }
    }

    /// The symmetric key, nil for an RSA/EC key.
    var symmetric: SymmetricKeyMaterial? {
        if case .symmetric(let symmetric) = material { return symmetric }
        return nil
    }

    /// The RSA/EC key, nil for a symmetric key.
    var asymmetric: AsymmetricKey? {
        if case .asymmetric(let key) = material { return key }
        return nil
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

    /// Apple's `kSecAttrKeyType` value for this key: "42" (RSA), "73" (EC) or the symmetric algorithm's value.
    var keyTypeAttribute: String {
        switch material {
        case .asymmetric(let key):
            switch key.algorithm {
            case .rsa: return "42"
            case .ec: return "73"
            case .ed25519: return "ed25519"  // not an Apple type; never wrapped (see `wrapping(_:)`)
            }
        case .symmetric(let symmetric): return symmetric.algorithm.keyType
        }
    }

    var isRSA: Bool {
        if case .asymmetric(let key) = material, case .rsa = key.algorithm { return true }
        return false
    }
    var isEC: Bool {
        if case .asymmetric(let key) = material, case .ec = key.algorithm { return true }
        return false
    }

    /// Apple's external representation (PKCS#1 for RSA, X9.63 for EC). A symmetric key has none on macOS
    /// either: errSecUnimplemented (its bytes leave through `SecItemExport` with `.formatRawKey` when it is
    /// extractable).
    func externalRepresentation() throws -> Data {
        let key: AsymmetricKey
        switch material {
        case .asymmetric(let asymmetric): key = asymmetric
        case .symmetric:
            throw SecError.unimplemented("a symmetric key has no external representation; use SecItemExport")
        }
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

    /// The bytes a keychain item of this key stores: the external representation, or a symmetric key's bytes.
    func keychainSecret() throws -> Data {
        if case .symmetric(let symmetric) = material { return symmetric.bytes }
        return try externalRepresentation()
    }

    /// `kSecAttrApplicationLabel`: SHA-1 of the public key's external representation (Apple's public key hash);
    /// for a symmetric key, the label it was given (nil when none, as for Apple's floating symmetric keys).
    var applicationLabel: Data? {
        switch material {
        case .asymmetric(let key):
            let publicBytes = (try? (key.isPrivate ? SecKey(key.publicKey) : self).externalRepresentation()) ?? Data()
            return Digest.hash(.sha1, publicBytes)
        case .symmetric(let symmetric): return symmetric.applicationLabel
        }
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SecKey else { return false }
        if other === self { return true }
        switch (material, other.material) {
        case (.asymmetric(let key), .asymmetric(let otherKey)):
            guard key.isPrivate == otherKey.isPrivate, key.algorithm == otherKey.algorithm else { return false }
            guard let a = try? externalRepresentation(), let b = try? other.externalRepresentation() else {
                return false
            }
            return a == b
        case (.symmetric(let key), .symmetric(let otherKey)):
            return key.algorithm == otherKey.algorithm && key.bytes == otherKey.bytes
        default:
            return false
        }
    }

    /// Consistent with `isEqual` without exporting and hashing the key on every call (sets and dictionaries
    /// of keys call this often); equal keys always share algorithm, size and kind.
    public override var hash: Int {
        switch material {
        case .asymmetric(let key): key.bitSize &* 2 &+ (key.isPrivate ? 1 : 0)
        case .symmetric(let symmetric): symmetric.bitSize &* 4 &+ 2
        }
    }

    public override var description: String {
        let key: AsymmetricKey
        switch material {
        case .asymmetric(let asymmetric): key = asymmetric
        case .symmetric(let symmetric):
            return
                "<SecKeyRef key type: \(symmetric.algorithm.name)SymmetricKey, block size: \(symmetric.bitSize) bits>"
        }
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
