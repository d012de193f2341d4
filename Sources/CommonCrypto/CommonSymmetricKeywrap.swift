// CommonSymmetricKeywrap.h: AES Key Wrap (RFC 3394), through OpenSSL's AES-WRAP ciphers.
import Foundation
import OSecCrypto

/// Selects the key wrap algorithm (`uint32_t`); only `kCCWRAPAES` exists.
public typealias CCWrappingAlgorithm = UInt32

/// AES Key Wrap (RFC 3394) under a 128-, 192- or 256-bit key-encryption key.
public let kCCWRAPAES: Int = 1

/// The default initial value of RFC 3394 (eight bytes of 0xA6), to pass as the `iv` of `CCSymmetricKeyWrap`
/// and `CCSymmetricKeyUnwrap`. Static memory, never written.
nonisolated(unsafe) public let CCrfc3394_iv: UnsafePointer<UInt8>! = AESKeyWrap.defaultIVBytes

/// The length of `CCrfc3394_iv` in bytes (8).
public let CCrfc3394_ivLen: Int = 8

/// The largest key data this implementation wraps (16 MiB); longer input gets `kCCParamError`.
private let maximumWrapLength = AESKeyWrap.maximumLength

/// The eight IV bytes at `iv`, the RFC 3394 default when `iv` is nil, or nil when `ivLen` is under 8.
private func wrapIV(_ iv: UnsafePointer<UInt8>?, _ ivLen: Int) -> Data? {
    guard let iv else { return AESKeyWrap.defaultIV }
    return ivLen >= 8 ? Data(bytes: iv, count: 8) : nil
}

/// Wraps `rawKeyLen` bytes of key at `rawKey` (a multiple of 8, at least 16) under the `kekLen`-byte (16, 24
/// or 32) key-encryption key at `kek`, with the 8-byte initial value at `iv` (nil: the RFC 3394 default).
/// On entry `*wrappedKeyLen` is the room at `wrappedKey` (at least `CCSymmetricWrappedSize`); on success it is
/// the wrapped length (`rawKeyLen + 8`). Returns `kCCSuccess` or `kCCParamError` (bad lengths, nil pointers,
/// too little room, `ivLen` under 8), then with `*wrappedKeyLen` set to 0. `algorithm` is not checked, as in
/// Apple's.
@discardableResult
public func CCSymmetricKeyWrap(
    _ algorithm: CCWrappingAlgorithm, _ iv: UnsafePointer<UInt8>!, _ ivLen: Int, _ kek: UnsafePointer<UInt8>!,
    _ kekLen: Int, _ rawKey: UnsafePointer<UInt8>!, _ rawKeyLen: Int, _ wrappedKey: UnsafeMutablePointer<UInt8>!,
    _ wrappedKeyLen: UnsafeMutablePointer<Int>!
) -> Int32 {
    guard let wrappedKeyLen else { return Int32(kCCParamError) }
    let room = wrappedKeyLen.pointee
    wrappedKeyLen.pointee = 0
    guard [16, 24, 32].contains(kekLen), let kek, let rawKey, let wrappedKey, rawKeyLen >= 0,
        rawKeyLen <= maximumWrapLength, room >= rawKeyLen + 8, let initialValue = wrapIV(iv, ivLen)
    else { return Int32(kCCParamError) }
    var kekBytes = Data(bytes: kek, count: kekLen)
    var keyBytes = Data(bytes: rawKey, count: rawKeyLen)
    defer {
        kekBytes.resetBytes(in: 0..<kekBytes.count)
        keyBytes.resetBytes(in: 0..<keyBytes.count)
    }
    guard let wrapped = try? AESKeyWrap.wrap(keyBytes, kek: kekBytes, iv: initialValue) else {
        return Int32(kCCParamError)
    }
    wrapped.copyBytes(to: wrappedKey, count: wrapped.count)
    wrappedKeyLen.pointee = wrapped.count
    return Int32(kCCSuccess)
}

/// Unwraps `wrappedKeyLen` bytes at `wrappedKey` under the `kekLen`-byte key-encryption key at `kek` and
/// checks the integrity value: first against the 8 bytes at `iv` (when given), then, as Apple's does,
/// against the RFC 3394 default. On entry `*rawKeyLen` is the room at `rawKey` (at least
/// `CCSymmetricUnwrappedSize`); on success it is the key length, on failure 0. Returns `kCCSuccess`,
/// `kCCParamError` (bad KEK length, nil pointers, too little room, `ivLen` under 8) or `kCCDecodeError` (the
/// integrity check failed: wrong KEK or IV, altered or malformed data).
@discardableResult
public func CCSymmetricKeyUnwrap(
    _ algorithm: CCWrappingAlgorithm, _ iv: UnsafePointer<UInt8>!, _ ivLen: Int, _ kek: UnsafePointer<UInt8>!,
    _ kekLen: Int, _ wrappedKey: UnsafePointer<UInt8>!, _ wrappedKeyLen: Int, _ rawKey: UnsafeMutablePointer<UInt8>!,
    _ rawKeyLen: UnsafeMutablePointer<Int>!
) -> Int32 {
    guard let rawKeyLen else { return Int32(kCCParamError) }
    let room = rawKeyLen.pointee
    rawKeyLen.pointee = 0
    guard [16, 24, 32].contains(kekLen), let kek, let wrappedKey, let rawKey, wrappedKeyLen >= 0,
        wrappedKeyLen <= maximumWrapLength + 8,
        room >= CCSymmetricUnwrappedSize(CCWrappingAlgorithm(kCCWRAPAES), wrappedKeyLen),
        let initialValue = wrapIV(iv, ivLen)
    else { return Int32(kCCParamError) }
    var kekBytes = Data(bytes: kek, count: kekLen)
    defer { kekBytes.resetBytes(in: 0..<kekBytes.count) }
    let wrapped = Data(bytes: wrappedKey, count: wrappedKeyLen)
    let candidates =
        initialValue == AESKeyWrap.defaultIV ? [initialValue] : [initialValue, AESKeyWrap.defaultIV]
    for candidate in candidates {
        guard var key = try? AESKeyWrap.unwrap(wrapped, kek: kekBytes, iv: candidate) else { continue }
        key.copyBytes(to: rawKey, count: key.count)
        rawKeyLen.pointee = key.count
        key.resetBytes(in: 0..<key.count)
        return Int32(kCCSuccess)
    }
    return Int32(kCCDecodeError)
}

/// The wrapped length of a `rawKeyLen`-byte key (`rawKeyLen + 8`).
public func CCSymmetricWrappedSize(_ algorithm: CCWrappingAlgorithm, _ rawKeyLen: Int) -> Int {
    rawKeyLen > Int.max - 8 ? Int.max : rawKeyLen + 8
}

/// The key length inside a `wrappedKeyLen`-byte wrapped key (`wrappedKeyLen - 8`, or 0 when shorter).
public func CCSymmetricUnwrappedSize(_ algorithm: CCWrappingAlgorithm, _ wrappedKeyLen: Int) -> Int {
    wrappedKeyLen >= 8 ? wrappedKeyLen - 8 : 0
}
