import Foundation

// macOS's remaining SecKey declarations (Security/SecKey.h): key sizes, credential types, asynchronous pair
// generation, and the CSSM symmetric-key functions.

/// Apple's `SecKeySizes` (macOS): common key sizes in bits.
public enum SecKeySizes: UInt32, @unchecked Sendable {
    case secDefaultKeySize = 0
    case sec3DES192 = 192
    case secAES128 = 128
    case secAES256 = 256
    case secp384r1 = 384
    case secp521r1 = 521
    case secRSAMin = 1024
    case secRSAMax = 4096

    /// 192-bit AES (the same value as `sec3DES192`).
    public static var secAES192: SecKeySizes { .sec3DES192 }
    /// P-192 (the same value as `sec3DES192`).
    public static var secp192r1: SecKeySizes { .sec3DES192 }
    /// P-256 (the same value as `secAES256`).
    public static var secp256r1: SecKeySizes { .secAES256 }
}

/// Apple's `SecCredentialType` (macOS): whether a key operation may show UI to obtain credentials.
public enum SecCredentialType: UInt32, @unchecked Sendable {
    case `default` = 0
    case withUI = 1
    case noUI = 2
}

/// Apple's `SecKeyGeneratePairBlock`.
public typealias SecKeyGeneratePairBlock = (SecKey?, SecKey?, CFError?) -> Void

/// Wraps the caller's block for the hop to its queue (it is called exactly once, there).
private struct PairBlock: @unchecked Sendable {
    let block: SecKeyGeneratePairBlock
    let parameters: NSDictionary
}

/// Apple's `SecKeyGeneratePairAsync` (macOS): generates the key pair `parameters` describe (as
/// `SecKeyCreateRandomKey` does) on `deliveryQueue` and hands the public key, the private key or the error to
/// `result` there.
public func SecKeyGeneratePairAsync(
    _ parameters: CFDictionary, _ deliveryQueue: DispatchQueue, _ result: @escaping SecKeyGeneratePairBlock
) {
    let call = PairBlock(block: result, parameters: (parameters as NSDictionary).copy() as? NSDictionary ?? [:])
    deliveryQueue.async {
        var error: Unmanaged<CFError>?
        guard let privateKey = SecKeyCreateRandomKey(call.parameters, &error) else {
            call.block(nil, nil, error?.takeRetainedValue())
            return
        }
        call.block(SecKeyCopyPublicKey(privateKey), privateKey, nil)
    }
}

/// Apple's failure for macOS's CSSM symmetric SecKeys: nil, with `status` in the error.
private func symmetricUnavailable(
    _ status: OSStatus, _ message: String, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) {
    error?.pointee = Unmanaged.passRetained(SecError(status, message).nsError as CFError)
}

/// Apple's `SecKeyGenerateSymmetric` (macOS): a random symmetric key. `kSecAttrKeyType` AES (default), DES, 3DES,
/// RC2, RC4 or CAST; `kSecAttrKeySizeInBits` (128 by default; DES 64, 3DES 192) must be one of the algorithm's
/// sizes (errSecInvalidAttributeKeyLength); `kSecAttrCanEncrypt`/`Decrypt`/`Wrap`/`Unwrap`, `kSecAttrIsExtractable`;
/// with `kSecAttrIsPermanent` true the key is added to `kSecUseKeychain` (or the default keychain) with
/// `kSecAttrLabel`, `kSecAttrApplicationLabel` and `kSecAttrApplicationTag` (strings; another type is errSecParam).
public func SecKeyGenerateSymmetric(
    _ parameters: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecKey? {
    withCFError(error) { try SecKeySymmetric.generate(AttributeDictionary(parameters)) }
}

/// Apple's `SecKeyCreateFromData` (macOS): a symmetric key of `kSecAttrKeyType` (AES by default) whose bytes are
/// `keyData` (its length must be a size of the algorithm: errSecUnsupportedKeySize, also for empty data), or with
/// an RSA/EC `kSecAttrKeyType` that key imported from Apple's external format (private unless `kSecAttrKeyClass`
/// says public).
public func SecKeyCreateFromData(
    _ parameters: CFDictionary, _ keyData: CFData, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecKey? {
    withCFError(error) { try SecKeySymmetric.create(AttributeDictionary(parameters), (keyData as NSData).swiftData) }
}

/// Apple's `SecKeyDeriveFromPassword` (macOS): a symmetric key whose bytes are PBKDF2 of the password (UTF-8)
/// with `kSecAttrSalt` (required), `kSecAttrRounds` (33,333 when absent), `kSecAttrPRF` (HMAC-SHA256 when absent)
/// and `kSecAttrKeySizeInBits` (128 when absent), then made as `SecKeyCreateFromData` makes it.
public func SecKeyDeriveFromPassword(
    _ password: CFString, _ parameters: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecKey? {
    withCFError(error) { try SecKeySymmetric.derive(password as String, AttributeDictionary(parameters)) }
}

/// Apple's `SecKeyWrapSymmetric` (macOS): Apple never implemented it; nil with errSecUnimplemented, as on macOS.
public func SecKeyWrapSymmetric(
    _ keyToWrap: SecKey, _ wrappingKey: SecKey, _ parameters: CFDictionary,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    symmetricUnavailable(errSecUnimplemented, "SecKeyWrapSymmetric is not implemented (as on macOS)", error)
    return nil
}

/// Apple's `SecKeyUnwrapSymmetric` (macOS): Apple never implemented it; nil with errSecUnimplemented, as on macOS.
public func SecKeyUnwrapSymmetric(
    _ keyToUnwrap: UnsafeMutablePointer<Unmanaged<CFData>?>, _ unwrappingKey: SecKey, _ parameters: CFDictionary,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecKey? {
    symmetricUnavailable(errSecUnimplemented, "SecKeyUnwrapSymmetric is not implemented (as on macOS)", error)
    return nil
}
