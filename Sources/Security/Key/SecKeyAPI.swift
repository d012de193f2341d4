import Foundation
import OSecCrypto
import OSecCryptoFoundation

// Apple's SecKey functions (Security/SecKey.h), with Apple's signatures. Failures come back as nil/false plus a
// CFError in NSOSStatusErrorDomain whose code is the OSStatus Apple returns in the same situation.

/// Apple's `SecKeyCopyPublicKey`: the public half of a key (the key itself when it is public); nil for a
/// symmetric key.
public func SecKeyCopyPublicKey(_ key: SecKey) -> SecKey? {
    switch key.material {
    case .asymmetric(let asymmetric): asymmetric.isPrivate ? SecKey(asymmetric.publicKey) : key
    case .symmetric: nil
    }
}

/// Apple's `SecKeyGetBlockSize`: RSA modulus bytes; EC field bytes (32/48/66); the cipher block of a symmetric
/// key (AES 16, DES/3DES 8, others 16).
public func SecKeyGetBlockSize(_ key: SecKey) -> Int {
    switch key.material {
    case .asymmetric(let asymmetric): asymmetric.blockSize
    case .symmetric(let symmetric): symmetric.algorithm.blockSize
    }
}

/// Apple's `SecKeyCopyExternalRepresentation`: PKCS#1 for RSA keys, X9.63 (`04‖X‖Y[‖K]`) for EC keys.
public func SecKeyCopyExternalRepresentation(
    _ key: SecKey, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    withCFError(error) { try key.externalRepresentation() as NSData }
}

/// Apple's `SecKeyCopyAttributes`.
public func SecKeyCopyAttributes(_ key: SecKey) -> CFDictionary? {
    SecKeyAttributes.dictionary(for: key) as NSDictionary
}

/// Apple's `SecKeyIsAlgorithmSupported`.
public func SecKeyIsAlgorithmSupported(
    _ key: SecKey, _ operation: SecKeyOperationType, _ algorithm: SecKeyAlgorithm
) -> Bool {
    SecKeyOperations.isSupported(key, operation, algorithm)
}

/// Apple's `SecKeyCreateSignature`.
public func SecKeyCreateSignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ dataToSign: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    withCFError(error) { try SecKeyOperations.sign(key, algorithm, dataToSign, as: .nsData) }
}

/// Apple's `SecKeyVerifySignature`; a mismatch gives false and errSecVerifyFailed.
public func SecKeyVerifySignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ signedData: CFData, _ signature: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> Bool {
    withCFError(error) {
        try SecKeyOperations.verify(key, algorithm, signedData, signature)
        return true
    } ?? false
}

/// Apple's `SecKeyCreateEncryptedData`.
public func SecKeyCreateEncryptedData(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ plaintext: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    withCFError(error) { try SecKeyOperations.encrypt(key, algorithm, plaintext, as: .nsData) }
}

/// Apple's `SecKeyCreateDecryptedData`.
public func SecKeyCreateDecryptedData(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ ciphertext: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    withCFError(error) { try SecKeyOperations.decrypt(key, algorithm, ciphertext, as: .nsData) }
}

/// Apple's `SecKeyCopyKeyExchangeResult`: ECDH, raw or through the X9.63 KDF
/// (`kSecKeyKeyExchangeParameterRequestedSize` required for the KDF variants; `…SharedInfo` optional).
public func SecKeyCopyKeyExchangeResult(
    _ privateKey: SecKey, _ algorithm: SecKeyAlgorithm, _ publicKey: SecKey,
    _ parameters: CFDictionary,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    withCFError(error) {
        let params = AttributeDictionary(parameters)
        let size = try params.int(kSecKeyKeyExchangeParameterRequestedSize)
        let info = try params.data(kSecKeyKeyExchangeParameterSharedInfo)
        return try SecKeyOperations.keyExchange(privateKey, algorithm, publicKey, requestedSize: size, sharedInfo: info)
            as NSData
    }
}

/// Apple's `SecKeyCreateRandomKey`: generates an RSA (512…8192 bits) or EC (P-256/384/521) private key.
///
/// `kSecAttrIsPermanent` = true also stores the pair in the default keychain once the keychain is available.
public func SecKeyCreateRandomKey(
    _ parameters: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecKey? {
    withCFError(error) { try SecKeyGeneration.generate(AttributeDictionary(parameters)) }
}

/// Apple's deprecated `SecKeyGeneratePair`: `SecKeyCreateRandomKey` plus `SecKeyCopyPublicKey`, as an OSStatus.
public func SecKeyGeneratePair(
    _ parameters: CFDictionary, _ publicKey: UnsafeMutablePointer<SecKey?>?,
    _ privateKey: UnsafeMutablePointer<SecKey?>?
) -> OSStatus {
    withOSStatus {
        let key = try SecKeyGeneration.generate(AttributeDictionary(parameters))
        publicKey?.pointee = SecKeyCopyPublicKey(key)
        privateKey?.pointee = key
    }
}

/// Apple's `SecKeyCreateWithData`: RSA PKCS#1 (public keys also as SubjectPublicKeyInfo) or EC X9.63 bytes;
/// `kSecAttrKeyType` and `kSecAttrKeyClass` are required.
public func SecKeyCreateWithData(
    _ keyData: CFData, _ attributes: CFDictionary,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecKey? {
    withCFError(error) { try SecKeyGeneration.create(keyData.swiftData, AttributeDictionary(attributes)) }
}
