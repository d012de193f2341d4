// CommonCryptorSPI.h: the AES-GCM one-shots. Apple's are SPI (declared in a private header, available since
// macOS 10.13 / iOS 11), which Apple-platform code reaches by declaring them itself; they are here for that
// code, and for Swift that wants AES-GCM through an Apple-shaped API.
//
// Checks, their order and status codes follow Apple's current CommonCrypto: algorithm (`kCCParamError`), key
// length (`kCCKeySizeError`), then IV of at least 12 bytes, tag of 8 to 16 bytes and the pointers
// (`kCCParamError`). A tag that does not match is `kCCUnspecifiedError`, as in Apple's. The caller's buffers go
// straight to OpenSSL (OSecCrypto's AESGCM buffer entry points): nothing is copied.
import OSecCrypto

/// The shortest IV Apple's one-shots take (`AESGCM_MIN_IV_LEN`); 12 bytes is GCM's recommended size, and longer
/// IVs are hashed into the initial counter (SP 800-38D §7.1).
private let minimumIVLength = 12

/// Both one-shots: Apple's parameter checks, in Apple's order, then the seal or open `tag` asks for. A nil
/// `tag` is a parameter error. A parameter OpenSSL refused is `kCCParamError`; a tag mismatch and any other
/// failure `kCCUnspecifiedError` (Apple's translation of corecrypto's errors).
private func gcmOneshot(
    _ alg: CCAlgorithm, _ key: UnsafeRawPointer?, _ keyLength: Int, _ iv: UnsafeRawPointer?, _ ivLength: Int,
    _ aData: UnsafeRawPointer?, _ aDataLength: Int, _ dataIn: UnsafeRawPointer?, _ dataInLength: Int,
    _ dataOut: UnsafeMutableRawPointer?, _ tag: AESGCM.BufferTag?, _ tagLength: Int
) -> CCCryptorStatus {
    guard Int(alg) == kCCAlgorithmAES else { return CCCryptorStatus(kCCParamError) }
    guard [kCCKeySizeAES128, kCCKeySizeAES192, kCCKeySizeAES256].contains(keyLength) else {
        return CCCryptorStatus(kCCKeySizeError)
    }
    guard ivLength >= minimumIVLength, AESGCM.bufferTagLengths.contains(tagLength), let key, let iv, let tag,
        dataInLength >= 0, dataInLength == 0 || dataOut != nil,
        // Apple's reads through these without a check (and crashes on nil); here they are a parameter error.
        dataInLength == 0 || dataIn != nil, aDataLength >= 0, aDataLength == 0 || aData != nil,
        dataInLength <= AESGCM.maximumMessageLength
    else { return CCCryptorStatus(kCCParamError) }
    do throws(CryptoError) {
        try AESGCM.oneShot(
            tag, key: key, keyCount: keyLength, nonce: iv, nonceCount: ivLength, aad: aData, aadCount: aDataLength,
            input: dataIn, count: dataInLength, into: dataOut, tagCount: tagLength)
        return CCCryptorStatus(kCCSuccess)
    } catch {
        return CCCryptorStatus(error.code == .invalidParameter ? kCCParamError : kCCUnspecifiedError)
    }
}

/// Encrypts and authenticates in one call with AES in Galois/Counter Mode (NIST SP 800-38D).
///
/// `alg` must be `kCCAlgorithmAES`; `key` is `keyLength` bytes (16, 24 or 32); `iv` is `ivLength` bytes, at
/// least 12 (12 is the recommended size; the IV must never repeat under one key); `aData` is `aDataLength`
/// bytes of additional authenticated data (nil when 0). Encrypts `dataInLength` bytes at `dataIn` into
/// `cipherOut` (the same length; it may be `dataIn`) and writes a `tagLength`-byte tag (8 to 16) to `tagOut`.
///
/// Returns `kCCSuccess`, `kCCParamError` (another algorithm, a short IV, a tag length outside 8...16, a nil
/// key, IV, tag or buffer that has bytes to hold), or `kCCKeySizeError`. On an error nothing is written.
///
/// Apple's declaration is SPI (CommonCryptorSPI.h, macOS 10.13 / iOS 11); it is provided for compatibility.
@discardableResult
public func CCCryptorGCMOneshotEncrypt(
    _ alg: CCAlgorithm, _ key: UnsafeRawPointer!, _ keyLength: Int, _ iv: UnsafeRawPointer!, _ ivLength: Int,
    _ aData: UnsafeRawPointer!, _ aDataLength: Int, _ dataIn: UnsafeRawPointer!, _ dataInLength: Int,
    _ cipherOut: UnsafeMutableRawPointer!, _ tagOut: UnsafeMutableRawPointer!, _ tagLength: Int
) -> CCCryptorStatus {
    gcmOneshot(
        alg, key, keyLength, iv, ivLength, aData, aDataLength, dataIn, dataInLength, cipherOut,
        tagOut.map { .seal(into: $0) }, tagLength)
}

/// Checks the tag and decrypts in one call with AES in Galois/Counter Mode (NIST SP 800-38D).
///
/// The parameters are those of ``CCCryptorGCMOneshotEncrypt(_:_:_:_:_:_:_:_:_:_:_:_:)``, with the ciphertext
/// at `dataIn`, the plaintext written to `dataOut` (it may be `dataIn`) and the expected `tagLength`-byte tag
/// (8 to 16) at `tagIn`. The tag is compared in constant time.
///
/// Returns `kCCSuccess`; `kCCUnspecifiedError` when the tag does not match (wrong key, IV, additional data,
/// ciphertext or tag; Apple's code for it), with the `dataInLength` bytes at `dataOut` zeroed; or, before any
/// byte is written, `kCCParamError` or `kCCKeySizeError` as the encryption does.
///
/// Apple's declaration is SPI (CommonCryptorSPI.h, macOS 10.13 / iOS 11); it is provided for compatibility.
@discardableResult
public func CCCryptorGCMOneshotDecrypt(
    _ alg: CCAlgorithm, _ key: UnsafeRawPointer!, _ keyLength: Int, _ iv: UnsafeRawPointer!, _ ivLength: Int,
    _ aData: UnsafeRawPointer!, _ aDataLength: Int, _ dataIn: UnsafeRawPointer!, _ dataInLength: Int,
    _ dataOut: UnsafeMutableRawPointer!, _ tagIn: UnsafeRawPointer!, _ tagLength: Int
) -> CCCryptorStatus {
    gcmOneshot(
        alg, key, keyLength, iv, ivLength, aData, aDataLength, dataIn, dataInLength, dataOut,
        tagIn.map { .open(expected: $0) }, tagLength)
}

/// Apple's deprecated AES-GCM one-shot (SPI, replaced by ``CCCryptorGCMOneshotEncrypt(_:_:_:_:_:_:_:_:_:_:_:_:)``
/// and ``CCCryptorGCMOneshotDecrypt(_:_:_:_:_:_:_:_:_:_:_:_:)``), with Apple's semantics.
///
/// `op` is `kCCEncrypt` or `kCCDecrypt`; `alg` must be `kCCAlgorithmAES`; `key` is `keyLength` bytes (16, 24 or
/// 32); `iv` is `ivLen` bytes (any length from 1; 12 is GCM's recommended size); `aData` is `aDataLen` bytes of
/// additional authenticated data. `dataInLength` bytes at `dataIn` go to `dataOut` (it may be `dataIn`).
/// `*tagLength` (1 to 16) bytes of tag are written to `tagOut` in both directions: encrypting, the tag of the
/// new ciphertext; decrypting, the tag computed over the ciphertext. **Decryption does not check any tag**, as
/// in Apple's: the caller must compare the tag written here with the one it received, in constant time, and
/// must not use the plaintext when they differ. New code should use the one-shots, which check it.
///
/// Returns `kCCSuccess`, `kCCParamError` (another operation or algorithm, a nil or empty IV, a nil tag or tag
/// length, a tag length outside 1...16, a nil buffer with bytes to hold) or `kCCKeySizeError`; on an error
/// nothing is written.
@available(*, deprecated, message: "Use CCCryptorGCMOneshotEncrypt or CCCryptorGCMOneshotDecrypt")
@discardableResult
public func CCCryptorGCM(
    _ op: CCOperation, _ alg: CCAlgorithm, _ key: UnsafeRawPointer!, _ keyLength: Int, _ iv: UnsafeRawPointer!,
    _ ivLen: Int, _ aData: UnsafeRawPointer!, _ aDataLen: Int, _ dataIn: UnsafeRawPointer!, _ dataInLength: Int,
    _ dataOut: UnsafeMutableRawPointer!, _ tagOut: UnsafeMutableRawPointer!, _ tagLength: UnsafeMutablePointer<Int>!
) -> CCCryptorStatus {
    guard Int(op) == kCCEncrypt || Int(op) == kCCDecrypt, Int(alg) == kCCAlgorithmAES, let key else {
        return CCCryptorStatus(kCCParamError)
    }
    guard [kCCKeySizeAES128, kCCKeySizeAES192, kCCKeySizeAES256].contains(keyLength) else {
        return CCCryptorStatus(kCCKeySizeError)
    }
    guard let iv, ivLen > 0, let tagOut, let tagLength, (1...16).contains(tagLength.pointee),
        aDataLen >= 0, aDataLen == 0 || aData != nil, dataInLength >= 0,
        dataInLength == 0 || (dataIn != nil && dataOut != nil), dataInLength <= AESGCM.maximumMessageLength
    else { return CCCryptorStatus(kCCParamError) }
    do throws(CryptoError) {
        try AESGCM.legacyOneShot(
            encrypt: Int(op) == kCCEncrypt, key: key, keyCount: keyLength, iv: iv, ivCount: ivLen, aad: aData,
            aadCount: aDataLen, input: dataIn, count: dataInLength, output: dataOut, tag: tagOut,
            tagCount: tagLength.pointee)
        return CCCryptorStatus(kCCSuccess)
    } catch {
        return CCCryptorStatus(error.code == .invalidParameter ? kCCParamError : kCCUnspecifiedError)
    }
}
