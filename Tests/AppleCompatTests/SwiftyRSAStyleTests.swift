import Foundation
import Security
import Testing

// In the style of SwiftyRSA: keys imported from PEM/DER (the SubjectPublicKeyInfo header stripped to PKCS#1 by
// hand), kept in the keychain under an application tag and read back with kSecReturnRef and a CFGetTypeID check,
// chunked PKCS#1 encryption through the C-buffer API (SecKeyEncrypt/SecKeyDecrypt), signatures with SecKeyAlgorithm,
// and errors taken with `error!.takeRetainedValue() as Error`.

enum RSAStyleFixtures {
    /// One 2048-bit key pair for the whole suite (generation costs ~0.3 s).
    static let privateKey: SecKey? = {
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 2048,
        ]
        var error: Unmanaged<CFError>?
        return SecKeyCreateRandomKey(attributes as CFDictionary, &error)
    }()
}

enum RSAStyleError: Error {
    case keyCreateFailed(error: CFError?)
    case keyAddFailed(status: OSStatus)
    case keyCopyFailed(status: OSStatus)
    case invalidKey
    case chunkEncryptFailed(index: Int)
    case chunkDecryptFailed(index: Int)
    case signatureCreateFailed(status: OSStatus)
}

enum RSAKeyStore {
    /// The PKCS#1 RSAPublicKey inside a SubjectPublicKeyInfo (what SwiftyRSA's `stripKeyHeader` does).
    static func stripKeyHeader(keyData: Data) throws -> Data {
        let node = [UInt8](keyData)
        var index = 0
        func length() throws -> Int {
            guard index < node.count else { throw RSAStyleError.invalidKey }
            var count = Int(node[index])
            index += 1
            if count & 0x80 != 0 {
                let octets = count & 0x7F
                count = 0
                for _ in 0..<octets {
                    guard index < node.count else { throw RSAStyleError.invalidKey }
                    count = count << 8 | Int(node[index])
                    index += 1
                }
            }
            return count
        }
        guard node.first == 0x30 else { throw RSAStyleError.invalidKey }
        index = 1
        _ = try length()
        guard index < node.count, node[index] == 0x30 else { return keyData }  // already PKCS#1
        index += 1
        index += try length()  // the AlgorithmIdentifier
        guard index < node.count, node[index] == 0x03 else { throw RSAStyleError.invalidKey }
        index += 1
        _ = try length()
        guard index < node.count, node[index] == 0x00 else { throw RSAStyleError.invalidKey }
        return Data(node[(index + 1)...])
    }

    static func addKey(_ keyData: Data, isPublic: Bool, tag: String) throws -> SecKey {
        let keyClass = isPublic ? kSecAttrKeyClassPublic : kSecAttrKeyClassPrivate
        let keyAddDict: [CFString: Any] = [
            kSecClass: kSecClassKey,
            kSecAttrApplicationTag: tag.data(using: .utf8)!,
            kSecAttrKeyType: kSecAttrKeyTypeRSA,
            kSecValueData: keyData,
            kSecAttrKeyClass: keyClass,
            kSecReturnPersistentRef: true,
            kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked,
        ]
        var persistentKey: AnyObject?
        let addStatus = SecItemAdd(keyAddDict as CFDictionary, &persistentKey)
        guard addStatus == noErr || addStatus == errSecDuplicateItem else {
            throw RSAStyleError.keyAddFailed(status: addStatus)
        }
        let keyCopyDict: [CFString: Any] = [
            kSecClass: kSecClassKey,
            kSecAttrApplicationTag: tag.data(using: .utf8)!,
            kSecAttrKeyType: kSecAttrKeyTypeRSA,
            kSecAttrKeyClass: keyClass,
            kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked,
            kSecReturnRef: true,
        ]
        var keyRef: AnyObject?
        let copyStatus = SecItemCopyMatching(keyCopyDict as CFDictionary, &keyRef)
        guard let ref = keyRef, CFGetTypeID(ref) == SecKeyGetTypeID() else {
            throw RSAStyleError.keyCopyFailed(status: copyStatus)
        }
        return ref as! SecKey
    }

    static func removeKey(tag: String) -> OSStatus {
        let keyRemoveDict: [CFString: Any] = [
            kSecClass: kSecClassKey, kSecAttrKeyType: kSecAttrKeyTypeRSA,
            kSecAttrApplicationTag: tag.data(using: .utf8)!,
        ]
        return SecItemDelete(keyRemoveDict as CFDictionary)
    }

    static func encrypt(_ clear: Data, with key: SecKey) throws -> Data {
        let blockSize = SecKeyGetBlockSize(key)
        let maxChunkSize = blockSize - 11
        var decryptedDataAsArray = [UInt8](repeating: 0, count: clear.count)
        clear.copyBytes(to: &decryptedDataAsArray, count: clear.count)
        var encryptedDataBytes = [UInt8](repeating: 0, count: 0)
        var idx = 0
        while idx < decryptedDataAsArray.count {
            let idxEnd = min(idx + maxChunkSize, decryptedDataAsArray.count)
            let chunkData = [UInt8](decryptedDataAsArray[idx..<idxEnd])
            var encryptedDataBuffer = [UInt8](repeating: 0, count: blockSize)
            var encryptedDataLength = blockSize
            let status = SecKeyEncrypt(
                key, .PKCS1, chunkData, chunkData.count, &encryptedDataBuffer, &encryptedDataLength)
            guard status == noErr else { throw RSAStyleError.chunkEncryptFailed(index: idx) }
            encryptedDataBytes += encryptedDataBuffer
            idx += maxChunkSize
        }
        return Data(encryptedDataBytes)
    }

    static func decrypt(_ encrypted: Data, with key: SecKey) throws -> Data {
        let blockSize = SecKeyGetBlockSize(key)
        var encryptedDataAsArray = [UInt8](repeating: 0, count: encrypted.count)
        encrypted.copyBytes(to: &encryptedDataAsArray, count: encrypted.count)
        var decryptedDataBytes = [UInt8](repeating: 0, count: 0)
        var idx = 0
        while idx < encryptedDataAsArray.count {
            let idxEnd = min(idx + blockSize, encryptedDataAsArray.count)
            let chunkData = [UInt8](encryptedDataAsArray[idx..<idxEnd])
            var decryptedDataBuffer = [UInt8](repeating: 0, count: blockSize)
            var decryptedDataLength = blockSize
            let status = SecKeyDecrypt(
                key, .PKCS1, chunkData, idxEnd - idx, &decryptedDataBuffer, &decryptedDataLength)
            guard status == noErr else { throw RSAStyleError.chunkDecryptFailed(index: idx) }
            decryptedDataBytes += [UInt8](decryptedDataBuffer[0..<decryptedDataLength])
            idx += blockSize
        }
        return Data(decryptedDataBytes)
    }
}

@Suite struct SwiftyRSAStyleTests {
    init() { CompatEnvironment.isolated }

    @Test func keysImportedFromDERRoundTripThroughTheKeychainByTag() throws {
        let privateKey = try #require(RSAStyleFixtures.privateKey)
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        var error: Unmanaged<CFError>?
        let pkcs1 = try #require(SecKeyCopyExternalRepresentation(publicKey, &error) as Data?)
        // A SubjectPublicKeyInfo around it, as a PEM file carries it.
        let algorithm: [UInt8] = [
            0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00,
        ]
        let bitString = [0x03] + derLength(pkcs1.count + 1) + [0x00] + [UInt8](pkcs1)
        let spki = Data([0x30] + derLength(algorithm.count + bitString.count) + algorithm + bitString)
        #expect(try RSAKeyStore.stripKeyHeader(keyData: spki) == pkcs1)

        let tag = CompatEnvironment.service("rsa.public")
        let stored = try RSAKeyStore.addKey(try RSAKeyStore.stripKeyHeader(keyData: spki), isPublic: true, tag: tag)
        #expect(SecKeyCopyExternalRepresentation(stored, nil) as Data? == pkcs1)
        #expect(try RSAKeyStore.addKey(pkcs1, isPublic: true, tag: tag) == stored, "a duplicate add finds the key")
        #expect(RSAKeyStore.removeKey(tag: tag) == errSecSuccess)
        #expect(RSAKeyStore.removeKey(tag: tag) == errSecItemNotFound)
    }

    @Test func chunkedPKCS1EncryptionThroughTheBufferAPI() throws {
        let privateKey = try #require(RSAStyleFixtures.privateKey)
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        let clear = Data((0..<600).map { UInt8($0 % 251) })
        let encrypted = try RSAKeyStore.encrypt(clear, with: publicKey)
        #expect(encrypted.count == 3 * 256, "three 256-byte blocks")
        #expect(try RSAKeyStore.decrypt(encrypted, with: privateKey) == clear)
        // The same ciphertext through the SecKeyAlgorithm API.
        let firstBlock = encrypted.prefix(256)
        var error: Unmanaged<CFError>?
        let decrypted = SecKeyCreateDecryptedData(privateKey, .rsaEncryptionPKCS1, firstBlock as CFData, &error)
        #expect(decrypted as Data? == clear.prefix(245))
    }

    @Test func signaturesVerifyAndTamperingIsReported() throws {
        let privateKey = try #require(RSAStyleFixtures.privateKey)
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        let message = Data("SwiftyRSA".utf8)
        let algorithm: SecKeyAlgorithm = .rsaSignatureMessagePKCS1v15SHA256
        #expect(SecKeyIsAlgorithmSupported(privateKey, .sign, algorithm))
        var error: Unmanaged<CFError>?
        guard let signature = SecKeyCreateSignature(privateKey, algorithm, message as CFData, &error) as Data? else {
            throw error!.takeRetainedValue() as Error
        }
        #expect(SecKeyVerifySignature(publicKey, algorithm, message as CFData, signature as CFData, &error))
        var tampered = signature
        tampered[0] ^= 0xFF
        #expect(!SecKeyVerifySignature(publicKey, algorithm, message as CFData, tampered as CFData, &error))
        let thrown = error!.takeRetainedValue() as Error
        #expect((thrown as NSError).code == Int(errSecVerifyFailed))
    }
}

/// A DER length field.
func derLength(_ count: Int) -> [UInt8] {
    if count < 0x80 { return [UInt8(count)] }
    var bytes: [UInt8] = []
    var value = count
    while value > 0 {
        bytes.insert(UInt8(value & 0xFF), at: 0)
        value >>= 8
    }
    return [0x80 | UInt8(bytes.count)] + bytes
}
