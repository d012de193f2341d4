import Foundation
import Security

/// RSA encryption padding for ``RSAEncryptor``, with the room it leaves in one RSA block.
public struct RSAPadding: Sendable, Hashable, CustomStringConvertible {
    /// The `SecKeyAlgorithm` each block is encrypted with.
    public let algorithm: SecKeyAlgorithm
    /// Bytes of a block the padding takes: 11 for PKCS#1 v1.5, 2·hLen + 2 for OAEP.
    public let overhead: Int

    /// PKCS#1 v1.5 (`rsaEncryptionPKCS1`, `SecKeyEncrypt` with `.PKCS1`): k − 11 bytes per block. What the guides
    /// and most servers use; open to padding-oracle attacks when a server reports decryption errors.
    public static let pkcs1 = RSAPadding(algorithm: .rsaEncryptionPKCS1, overhead: 11)
    /// OAEP with SHA-1 (`rsaEncryptionOAEPSHA1`, Java's `RSA/ECB/OAEPWithSHA-1AndMGF1Padding`): k − 42 bytes.
    public static let oaepSHA1 = RSAPadding(algorithm: .rsaEncryptionOAEPSHA1, overhead: 2 * 20 + 2)
    /// OAEP with SHA-256 for hash and MGF1 (`rsaEncryptionOAEPSHA256`): k − 66 bytes.
    public static let oaepSHA256 = RSAPadding(algorithm: .rsaEncryptionOAEPSHA256, overhead: 2 * 32 + 2)
    /// OAEP with SHA-384: k − 98 bytes.
    public static let oaepSHA384 = RSAPadding(algorithm: .rsaEncryptionOAEPSHA384, overhead: 2 * 48 + 2)
    /// OAEP with SHA-512: k − 130 bytes.
    public static let oaepSHA512 = RSAPadding(algorithm: .rsaEncryptionOAEPSHA512, overhead: 2 * 64 + 2)

    /// Plaintext bytes per block for `key` (k − overhead, k = `SecKeyGetBlockSize`); 0 when the key is too small.
    public func maximumBlockLength(for key: SecKey) -> Int { max(SecKeyGetBlockSize(key) - overhead, 0) }

    /// The algorithm's name.
    public var description: String { algorithm.rawValue as String }
}

/// RSA encryption of data of any length, in key-sized blocks, as the guides' `RSAEncryptor` does it — for short
/// texts sent to servers that expect it. Block-wise RSA has no integrity (blocks can be dropped or reordered
/// unnoticed) and is slow (one RSA operation per block): for anything else use ``Envelope``.
///
/// The plaintext is cut into blocks of ``RSAPadding/maximumBlockLength(for:)`` bytes (the last one shorter), each
/// block is encrypted on its own (`SecKeyCreateEncryptedData`) into k bytes, and the blocks are concatenated.
/// An empty plaintext is one empty block.
///
/// ```swift
/// let base64 = try RSAEncryptor.encrypt("card=4111…", with: serverKey)          // PKCS#1 v1.5 blocks
/// let text = try RSAEncryptor.decrypt(base64: base64, with: privateKey)
/// ```
public enum RSAEncryptor {
    /// Largest plaintext or ciphertext handled (each block costs an RSA operation; a private-key operation takes
    /// about half a millisecond, so this bounds a decryption to a few seconds).
    public static let maximumLength = 1 << 20

    /// Encrypts `data` for `key`'s owner (a public key; a private key's public half is used).
    ///
    /// - Throws: errSecParam for a key that is not RSA or too small for the padding, errSecDataTooLarge beyond
    ///   ``maximumLength``.
    public static func encrypt(
        _ data: Data, with key: SecKey, padding: RSAPadding = .pkcs1
    ) throws(SecurityKitError) -> Data {
        let publicKey = try rsaPublicKey(key)
        let room = padding.maximumBlockLength(for: publicKey)
        guard room > 0 else {
            throw SecurityKitError(
                errSecParam, reason: "a \(SecKeyGetBlockSize(publicKey) * 8)-bit key leaves no room for \(padding)")
        }
        guard data.count <= maximumLength else {
            throw SecurityKitError(
                errSecDataTooLarge, reason: "\(data.count) bytes exceed RSAEncryptor's limit of \(maximumLength)")
        }
        var output = Data(capacity: (data.count / room + 1) * SecKeyGetBlockSize(publicKey))
        var offset = data.startIndex
        repeat {
            let end = data.index(offset, offsetBy: room, limitedBy: data.endIndex) ?? data.endIndex
            var error: Unmanaged<CFError>?
            guard
                let block = SecKeyCreateEncryptedData(
                    publicKey, padding.algorithm, data[offset..<end] as CFData, &error)
            else { throw SecurityKitError.from(error, "RSA encryption of a block failed") }
            output.append(FoundationBytes.data(block))
            offset = end
        } while offset < data.endIndex
        return output
    }

    /// Decrypts what `encrypt(_:with:padding:)` produced, with the private key.
    ///
    /// - Throws: errSecDecode when the ciphertext is not a whole number of blocks or a block does not decrypt
    ///   (wrong key, wrong padding, tampering); errSecParam for a key that is not an RSA private key.
    public static func decrypt(
        _ data: Data, with privateKey: SecKey, padding: RSAPadding = .pkcs1
    ) throws(SecurityKitError) -> Data {
        _ = try rsaPublicKey(privateKey)
        let k = SecKeyGetBlockSize(privateKey)
        guard data.count <= maximumLength else {
            throw SecurityKitError(
                errSecDataTooLarge, reason: "\(data.count) bytes exceed RSAEncryptor's limit of \(maximumLength)")
        }
        guard !data.isEmpty, data.count % k == 0 else {
            throw SecurityKitError(
                errSecDecode, reason: "\(data.count) bytes are not a whole number of \(k)-byte RSA blocks")
        }
        var output = Data()
        var offset = data.startIndex
        var index = 0
        while offset < data.endIndex {
            let end = data.index(offset, offsetBy: k)
            var error: Unmanaged<CFError>?
            guard
                let block = SecKeyCreateDecryptedData(
                    privateKey, padding.algorithm, data[offset..<end] as CFData, &error)
            else {
                let underlying = SecurityKitError.from(error, "")
                if underlying.status == errSecParam && !isPrivate(privateKey) {
                    throw SecurityKitError(errSecParam, reason: "decryption needs the private key")
                }
                throw SecurityKitError(errSecDecode, reason: "RSA block \(index) does not decrypt with this key")
            }
            output.append(FoundationBytes.data(block))
            offset = end
            index += 1
        }
        return output
    }

    /// Encrypts the UTF-8 of `text` and returns the blocks as base64.
    public static func encrypt(
        _ text: String, with key: SecKey, padding: RSAPadding = .pkcs1
    ) throws(SecurityKitError) -> String {
        try encrypt(Data(text.utf8), with: key, padding: padding).base64EncodedString()
    }

    /// Decrypts base64 blocks (whitespace and line breaks are ignored) into UTF-8 text.
    ///
    /// - Throws: errSecDecode for text that is not base64 or blocks that do not decrypt; errSecConversionError
    ///   when the plaintext is not UTF-8.
    public static func decrypt(
        base64 text: String, with privateKey: SecKey, padding: RSAPadding = .pkcs1
    ) throws(SecurityKitError) -> String {
        let plaintext = try decrypt(try Base64Text.decode(text), with: privateKey, padding: padding)
        guard let string = String(data: plaintext, encoding: .utf8) else {
            throw SecurityKitError(errSecConversionError, reason: "the decrypted bytes are not UTF-8 text")
        }
        return string
    }

    /// An RSA public key for `key` (its public half when it is private); errSecParam for an EC key.
    static func rsaPublicKey(_ key: SecKey) throws(SecurityKitError) -> SecKey {
        guard KeyKind(key).isRSA else { throw SecurityKitError(errSecParam, reason: "the key is not an RSA key") }
        guard let publicKey = SecKeyCopyPublicKey(key) else {
            throw SecurityKitError(errSecParam, reason: "the key has no public key")
        }
        return publicKey
    }

    static func isPrivate(_ key: SecKey) -> Bool { KeyKind(key).isPrivate }
}

/// What `SecKeyCopyAttributes` says a key is.
struct KeyKind {
    let isRSA: Bool
    let isPrivate: Bool

    init(_ key: SecKey) {
        let attributes = SecKeyCopyAttributes(key) as? [String: Any] ?? [:]
        isRSA = (attributes[kSecAttrKeyType as String] as? String) == (kSecAttrKeyTypeRSA as String)
        isPrivate = (attributes[kSecAttrKeyClass as String] as? String) == (kSecAttrKeyClassPrivate as String)
    }
}

/// Base64 as the guides' servers send it: standard alphabet with padding; ASCII whitespace (the line breaks of
/// MIME encoders such as Java's) is ignored, anything else makes the text invalid.
enum Base64Text {
    static func decode(_ text: String) throws(SecurityKitError) -> Data {
        let invalid = SecurityKitError(errSecDecode, reason: "the text is not base64")
        if let data = Data(base64Encoded: text) { return data }
        let compact = String(text.unicodeScalars.filter { !" \t\r\n".unicodeScalars.contains($0) })
        guard let data = Data(base64Encoded: compact) else { throw invalid }
        return data
    }
}
