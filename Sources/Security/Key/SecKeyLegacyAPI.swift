import Foundation

// Apple's pre-iOS 10 SecKey functions with C buffers and SecPadding. Their signatures take raw pointers because
// Apple's do; this file only copies bytes between those buffers and `Data`, then calls the safe core. This is the
// one place above the wrapper layers that touches pointers, and only to honour Apple's signatures.

/// Which algorithm Apple's legacy padding selects for an operation (iOS semantics, see the reference §5.2).
private func legacyAlgorithm(_ key: SecKey, _ padding: SecPadding, signing: Bool, inputLength: Int) -> SecKeyAlgorithm?
{
    if key.isEC {
        guard signing else { return nil }
        if padding == .sigRaw { return .ecdsaSignatureDigestRFC4754 }
        switch inputLength {
        case 20: return .ecdsaSignatureDigestX962SHA1
        case 28: return .ecdsaSignatureDigestX962SHA224
        case 32: return .ecdsaSignatureDigestX962SHA256
        case 48: return .ecdsaSignatureDigestX962SHA384
        case 64: return .ecdsaSignatureDigestX962SHA512
        default: return .ecdsaSignatureDigestX962
        }
    }
    if signing {
        switch padding {
        case [], .sigRaw: return .rsaSignatureRaw
        case .PKCS1: return .rsaSignatureDigestPKCS1v15Raw
        case .PKCS1SHA1: return .rsaSignatureDigestPKCS1v15SHA1
        case .PKCS1SHA224: return .rsaSignatureDigestPKCS1v15SHA224
        case .PKCS1SHA256: return .rsaSignatureDigestPKCS1v15SHA256
        case .PKCS1SHA384: return .rsaSignatureDigestPKCS1v15SHA384
        case .PKCS1SHA512: return .rsaSignatureDigestPKCS1v15SHA512
        default: return nil
        }
    }
    switch padding {
    case []: return .rsaEncryptionRaw
    case .PKCS1: return .rsaEncryptionPKCS1
    case .OAEP: return .rsaEncryptionOAEPSHA1
    default: return nil
    }
}

private func copyOut(
    _ bytes: Data, _ out: UnsafeMutablePointer<UInt8>, _ outLength: UnsafeMutablePointer<Int>
) -> OSStatus {
    guard bytes.count <= outLength.pointee else { return errSecParam }
    bytes.copyBytes(to: out, count: bytes.count)
    outLength.pointee = bytes.count
    return errSecSuccess
}

/// Runs one legacy operation: the algorithm for `padding`, the input copied out of the caller's buffer, the
/// output copied into it; errors become the OSStatus.
private func legacyOperation(
    _ key: SecKey, _ padding: SecPadding, signing: Bool, _ input: UnsafePointer<UInt8>, _ inputLength: Int,
    _ output: UnsafeMutablePointer<UInt8>, _ outputLength: UnsafeMutablePointer<Int>,
    _ operation: (SecKeyAlgorithm, Data) throws -> Data
) -> OSStatus {
    guard let data = bytes(input, inputLength),
        let algorithm = legacyAlgorithm(key, padding, signing: signing, inputLength: inputLength)
    else { return errSecParam }
    do {
        return copyOut(try operation(algorithm, data), output, outputLength)
    } catch let error as SecError {
        return error.status
    } catch {
        return errSecInternal
    }
}

private func bytes(_ pointer: UnsafePointer<UInt8>, _ count: Int) -> Data? {
    guard count >= 0 else { return nil }
    return Data(bytes: pointer, count: count)
}

/// Apple's `SecKeyEncrypt` (RSA public key; padding none, PKCS1 or OAEP-SHA1).
public func SecKeyEncrypt(
    _ key: SecKey, _ padding: SecPadding, _ plainText: UnsafePointer<UInt8>, _ plainTextLen: Int,
    _ cipherText: UnsafeMutablePointer<UInt8>, _ cipherTextLen: UnsafeMutablePointer<Int>
) -> OSStatus {
    legacyOperation(key, padding, signing: false, plainText, plainTextLen, cipherText, cipherTextLen) {
        try SecKeyOperations.encrypt(key, $0, $1)
    }
}

/// Apple's `SecKeyDecrypt` (RSA private key). With no padding, leading zero bytes are stripped as Apple does.
public func SecKeyDecrypt(
    _ key: SecKey, _ padding: SecPadding, _ cipherText: UnsafePointer<UInt8>, _ cipherTextLen: Int,
    _ plainText: UnsafeMutablePointer<UInt8>, _ plainTextLen: UnsafeMutablePointer<Int>
) -> OSStatus {
    legacyOperation(key, padding, signing: false, cipherText, cipherTextLen, plainText, plainTextLen) {
        let output = try SecKeyOperations.decrypt(key, $0, $1)
        guard padding == [] else { return output }
        return Data(output.drop(while: { $0 == 0 }))
    }
}

/// Apple's `SecKeyRawSign` (iOS semantics: `.PKCS1SHAn` signs a digest, `.PKCS1` a DigestInfo, none = raw RSA).
public func SecKeyRawSign(
    _ key: SecKey, _ padding: SecPadding, _ dataToSign: UnsafePointer<UInt8>, _ dataToSignLen: Int,
    _ sig: UnsafeMutablePointer<UInt8>, _ sigLen: UnsafeMutablePointer<Int>
) -> OSStatus {
    legacyOperation(key, padding, signing: true, dataToSign, dataToSignLen, sig, sigLen) {
        try SecKeyOperations.sign(key, $0, $1)
    }
}

/// Apple's `SecKeyRawVerify`; a mismatch returns errSSLCrypto (-9809) as Apple's does.
public func SecKeyRawVerify(
    _ key: SecKey, _ padding: SecPadding, _ signedData: UnsafePointer<UInt8>, _ signedDataLen: Int,
    _ sig: UnsafePointer<UInt8>, _ sigLen: Int
) -> OSStatus {
    guard let input = bytes(signedData, signedDataLen), let signature = bytes(sig, sigLen),
        let algorithm = legacyAlgorithm(key, padding, signing: true, inputLength: signedDataLen)
    else { return errSecParam }
    do {
        try SecKeyOperations.verify(key, algorithm, input, signature)
        return errSecSuccess
    } catch let error as SecError {
        return error.status == errSecVerifyFailed ? errSSLCrypto : error.status
    } catch {
        return errSecInternal
    }
}
