import OSecCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Derives the key-encryption key that wraps the master key from the keychain password (scrypt).
enum PasswordKDF {
    static let saltLength = 16
    static let keyLength = 32

    static func deriveKEK(
        password: Data, salt: Data, parameters: KDFParameters
    ) throws(KeychainStoreError) -> KeyMaterial {
        do {
            return KeyMaterial(
                try KDF.scrypt(
                    password: password, salt: salt, n: parameters.n, r: parameters.r,
                    p: parameters.p, keyLength: keyLength))
        } catch  where error.code == .resourceLimit || error.code == .invalidParameter {
            throw KeychainStoreError(.param, "scrypt parameters rejected", underlying: error)
        } catch {
            throw KeychainStoreError(.internal, "scrypt failed", underlying: error)
        }
    }

    static func randomBytes(_ count: Int) throws(KeychainStoreError) -> Data {
        try random { () throws(CryptoError) in try SecureRandom.bytes(count) }
    }

    /// Random bytes for a value that is not secret (a persistent ref's UUID): ``SecureRandom/publicBytes(_:)``.
    static func randomID(_ count: Int) throws(KeychainStoreError) -> Data {
        try random { () throws(CryptoError) in try SecureRandom.publicBytes(count) }
    }

    private static func random(_ draw: () throws(CryptoError) -> Data) throws(KeychainStoreError) -> Data {
        do { return try draw() } catch {
            throw KeychainStoreError(.internal, "random generator failed", underlying: error)
        }
    }
}
