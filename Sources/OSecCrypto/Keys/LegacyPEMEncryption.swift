import OSecASN1

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// OpenSSL's traditional PEM encryption (`Proc-Type: 4,ENCRYPTED`, `DEK-Info: CIPHER,IVHEX`), as written
/// by `openssl genrsa -des3 -traditional` or `openssl rsa -aes256 -traditional`.
enum LegacyPEMEncryption {
    /// Decrypts the body. Wrong passphrases show up as bad padding → `.authenticationFailed`.
    static func decrypt(_ body: Data, dekInfo: String?, passphrase: Data) throws(CryptoError) -> Data {
        guard let dekInfo else { throw CryptoError(.invalidKey, "encrypted PEM without DEK-Info") }
        let parts = dekInfo.split(separator: ",").map { String($0.trimmingSpaces()) }
        guard parts.count == 2 else { throw CryptoError(.invalidKey, "malformed DEK-Info") }
        let cipher: BlockCipher
        switch parts[0].uppercased() {
        case "DES-EDE3-CBC": cipher = .desEDE3CBC
        case "DES-EDE-CBC": cipher = .desEDECBC
        case "DES-CBC": cipher = .desCBC
        case "AES-128-CBC": cipher = .aes128CBC
        case "AES-192-CBC": cipher = .aes192CBC
        case "AES-256-CBC": cipher = .aes256CBC
        default: throw CryptoError(.unsupportedAlgorithm, "unsupported PEM cipher \(parts[0])")
        }
        guard let iv = hexDecode(parts[1]), iv.count == cipher.ivSize else {
            throw CryptoError(.invalidKey, "malformed DEK-Info IV")
        }
        var key = deriveKey(passphrase: passphrase, salt: iv.prefix(8), length: cipher.keySize)
        defer { key.zeroize() }
        do {
            return try SymmetricCrypto.decrypt(cipher, key: key, iv: iv, ciphertext: body)
        } catch  where error.code == .decryptionFailed || error.code == .invalidParameter {
            throw CryptoError(.authenticationFailed, "wrong passphrase for encrypted PEM key")
        }
    }

    /// EVP_BytesToKey with MD5 and one iteration: D_i = MD5(D_{i−1} ‖ passphrase ‖ salt).
    static func deriveKey(passphrase: Data, salt: Data, length: Int) -> Data {
        var key = Data()
        var previous = Data()
        while key.count < length {
            previous = Digest.hash(.md5, previous + passphrase + salt)
            guard !previous.isEmpty else { break }
            key.append(previous)
        }
        return key.prefix(length)
    }

    static func hexDecode(_ text: String) -> Data? { HexDecoding.data(text) }
}
