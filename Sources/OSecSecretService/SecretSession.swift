import Foundation
import OSecCrypto
import OSecDBus
import OSecSystem

/// One Secret Service session: how secrets travel between the service and one client.
///
/// `plain` sends secrets as they are (the client asked for it). `dh-ietf1024-sha256-aes128-cbc-pkcs7` agrees on a
/// key by Diffie-Hellman in RFC 2409's 1024-bit MODP group (the shared secret left-padded to 128 bytes), derives
/// 16 bytes from it with HKDF-SHA256 (empty salt, empty info) and encrypts every secret with AES-128-CBC and
/// PKCS#7 padding under a fresh random IV, which travels as the secret's `parameters`.
final class SecretSession {
    /// The session algorithms the service offers.
    enum Algorithm: String, CaseIterable {
        case plain = "plain"
        case dhAES = "dh-ietf1024-sha256-aes128-cbc-pkcs7"
    }

    /// The session's object path.
    let path: String
    /// The unique bus name of the client that opened it (only it may use the session).
    let owner: String
    let algorithm: Algorithm
    /// The AES-128 key of a DH session, in locked memory (zeroed when the session goes).
    private let key: SecureBytes?

    private init(path: String, owner: String, algorithm: Algorithm, key: SecureBytes?) {
        self.path = path
        self.owner = owner
        self.algorithm = algorithm
        self.key = key
    }

    /// Opens a session for `algorithm` with the client's `input`; returns it and the output for the client.
    static func open(
        algorithm name: String, input: DBusValue, path: String, owner: String
    ) throws(DBusCallError) -> (SecretSession, DBusValue) {
        guard let algorithm = Algorithm(rawValue: name) else {
            throw .notSupported("unsupported session algorithm \(name)")
        }
        switch algorithm {
        case .plain:
            return (SecretSession(path: path, owner: owner, algorithm: .plain, key: nil), .string(""))
        case .dhAES:
            guard let peer = input.unwrappedVariant.bytesValue else {
                throw .invalidArgs("the \(name) session takes the client's public value as ay")
            }
            var derived: Data
            let publicValue: Data
            do {
                let exchange = try ModPDiffieHellman()
                var shared = try exchange.sharedSecret(withPeer: peer)
                defer { shared.resetBytes(in: 0..<shared.count) }
                derived = try KDF.hkdf(secret: shared, keyLength: 16, digest: .sha256)
                publicValue = exchange.publicValue
            } catch {
                throw .invalidArgs("the client's Diffie-Hellman public value is not acceptable (\(error))")
            }
            defer { derived.resetBytes(in: 0..<derived.count) }
            let key: SecureBytes
            do {
                key = try SecureBytes(derived)
            } catch {
                throw .failed("no locked memory for the session key (\(error))")
            }
            return (SecretSession(path: path, owner: owner, algorithm: .dhAES, key: key), .bytes(publicValue))
        }
    }

    /// Wraps `secret` for the client: the `(oayays)` Secret structure.
    func encode(_ secret: Data, contentType: String) throws(DBusCallError) -> DBusValue {
        switch algorithm {
        case .plain:
            return .structure([.objectPath(path), .bytes(Data()), .bytes(secret), .string(contentType)])
        case .dhAES:
            guard let key else { throw .failed("the session has no key") }
            do {
                let iv = try SecureRandom.bytes(16)
                let sealed = try key.withTemporaryCopy { key in
                    try SymmetricCrypto.encrypt(.aes128CBC, key: key, iv: iv, plaintext: secret)
                }
                return .structure([.objectPath(path), .bytes(iv), .bytes(sealed), .string(contentType)])
            } catch {
                throw .failed("cannot encrypt the secret")
            }
        }
    }

    /// Unwraps a Secret structure the client sent in this session; returns the secret and its content type.
    func decode(parameters: Data, value: Data) throws(DBusCallError) -> Data {
        switch algorithm {
        case .plain:
            return value
        case .dhAES:
            guard let key else { throw .failed("the session has no key") }
            guard parameters.count == 16 else { throw .invalidArgs("the secret's parameters must be a 16-byte IV") }
            guard value.count % 16 == 0, !value.isEmpty else {
                throw .invalidArgs("the encrypted secret is not a whole number of AES blocks")
            }
            do {
                return try key.withTemporaryCopy { key in
                    try SymmetricCrypto.decrypt(.aes128CBC, key: key, iv: parameters, ciphertext: value)
                }
            } catch {
                throw .invalidArgs("the secret does not decrypt under the session key")
            }
        }
    }
}
