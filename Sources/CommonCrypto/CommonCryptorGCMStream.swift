// CommonCryptorSPI.h: AES-GCM on a cryptor, piece by piece — `CCCryptorCreateWithMode(…, kCCModeGCM, …)`, then
// `CCCryptorGCMSetIV`, `CCCryptorGCMAddAAD`, `CCCryptorGCMEncrypt`/`Decrypt` any number of times, and
// `CCCryptorGCMFinalize`; `CCCryptorGCMReset` starts the next message under the same key. Apple declares these
// in a private header (macOS 10.13 / iOS 11); code that streams large messages through AES-GCM declares them
// itself (aws-c-cal, for one), and it finds them here.
//
// Order is enforced, as in Apple's: IV first (once), additional data before any message byte, the tag last;
// a call out of order is `kCCParamError` and changes nothing. A tag that does not match is
// `kCCUnspecifiedError`, as in the one-shot. The caller's buffers go straight to OpenSSL (OSecCrypto's
// AESGCMStream): nothing is copied, and the output may be the input.
import OSecCrypto

/// GCM mode for `CCCryptorCreateWithMode` (Apple's `kCCModeGCM`, SPI): AES only.
public let kCCModeGCM: Int = 11
/// CCM mode (Apple's `kCCModeCCM`, SPI); not implemented here (`kCCUnimplemented`).
public let kCCModeCCM: Int = 12

/// Sets the IV of a GCM cryptor: `ivLen` bytes at `iv`, at least 12 (12 is GCM's recommended size, longer IVs
/// are hashed into the counter, up to 128 bytes here). Must come first, once per message.
///
/// Returns `kCCSuccess`, or `kCCParamError` for a nil, released or non-GCM cryptor, a nil or short IV, or an IV
/// already set.
@discardableResult
public func CCCryptorGCMSetIV(_ cryptorRef: CCCryptorRef!, _ iv: UnsafeRawPointer!, _ ivLen: Int) -> CCCryptorStatus {
    guard ivLen >= 12 else { return CCCryptorStatus(kCCParamError) }
    return gcmCall(cryptorRef) { (stream) throws(CryptoError) in try stream.setIV(iv, count: ivLen) }
}

/// Apple's deprecated way of giving the IV: each call adds `ivLen` bytes to it; the IV is set by the first
/// call that needs it (additional data, message or tag). Prefer ``CCCryptorGCMSetIV(_:_:_:)``.
///
/// Returns `kCCSuccess`, or `kCCParamError` for a nil, released or non-GCM cryptor, a nil IV with a length, or
/// an IV already in use.
@available(*, deprecated, renamed: "CCCryptorGCMSetIV")
@discardableResult
public func CCCryptorGCMAddIV(_ cryptorRef: CCCryptorRef!, _ iv: UnsafeRawPointer!, _ ivLen: Int) -> CCCryptorStatus {
    gcmCall(cryptorRef) { (stream) throws(CryptoError) in try stream.appendIV(iv, count: ivLen) }
}

/// Feeds `aDataLen` bytes of additional authenticated data (any number of calls, after the IV and before any
/// message byte).
///
/// Returns `kCCSuccess`, or `kCCParamError` for a nil, released or non-GCM cryptor, a call out of order, or a
/// nil buffer with a length.
@discardableResult
public func CCCryptorGCMAddAAD(
    _ cryptorRef: CCCryptorRef!, _ aData: UnsafeRawPointer!, _ aDataLen: Int
) -> CCCryptorStatus {
    gcmCall(cryptorRef) { (stream) throws(CryptoError) in try stream.addAAD(aData, count: aDataLen) }
}

/// Encrypts `dataInLength` bytes at `dataIn` into `dataOut` (as many bytes; it may be `dataIn`) with an
/// encrypting GCM cryptor.
///
/// Returns `kCCSuccess`, or `kCCParamError` for a nil, released, non-GCM or decrypting cryptor, a call before
/// the IV or after the tag, nil buffers with a length, or a message past GCM's limit of 2^36 − 32 bytes.
@discardableResult
public func CCCryptorGCMEncrypt(
    _ cryptorRef: CCCryptorRef!, _ dataIn: UnsafeRawPointer!, _ dataInLength: Int, _ dataOut: UnsafeMutableRawPointer!
) -> CCCryptorStatus {
    gcmUpdate(cryptorRef, encrypting: true, dataIn, dataInLength, dataOut)
}

/// Decrypts `dataInLength` bytes at `dataIn` into `dataOut` with a decrypting GCM cryptor. The plaintext is not
/// authenticated until ``CCCryptorGCMFinalize(_:_:_:)`` accepts the tag: do not use it before.
///
/// Returns what ``CCCryptorGCMEncrypt(_:_:_:_:)`` returns, for a decrypting cryptor.
@discardableResult
public func CCCryptorGCMDecrypt(
    _ cryptorRef: CCCryptorRef!, _ dataIn: UnsafeRawPointer!, _ dataInLength: Int, _ dataOut: UnsafeMutableRawPointer!
) -> CCCryptorStatus {
    gcmUpdate(cryptorRef, encrypting: false, dataIn, dataInLength, dataOut)
}

/// Ends the message. Encrypting: writes a `tagLength`-byte tag (8 to 16) to `tag`. Decrypting: checks the
/// `tagLength`-byte tag at `tag` in constant time.
///
/// Returns `kCCSuccess`; `kCCUnspecifiedError` when a decryption's tag does not match; `kCCParamError` for a nil,
/// released or non-GCM cryptor, a call before the IV or a second time, or a tag length outside 8...16.
@discardableResult
public func CCCryptorGCMFinalize(
    _ cryptorRef: CCCryptorRef!, _ tag: UnsafeMutableRawPointer!, _ tagLength: Int
) -> CCCryptorStatus {
    gcmCall(cryptorRef) { (stream) throws(CryptoError) in try stream.finish(tag: tag, tagCount: tagLength) }
}

/// Apple's deprecated way of ending the message, with the tag length behind a pointer (read, and left as it is).
/// Encrypting, it writes the tag, as ``CCCryptorGCMFinalize(_:_:_:)`` does. Decrypting a message whose IV came
/// through the deprecated ``CCCryptorGCMAddIV(_:_:_:)`` (the legacy sequence), it writes the tag computed over the
/// ciphertext to `tagOut` and returns `kCCSuccess` whatever `tagOut` held, as Apple's does: **the caller must
/// compare** that tag with the one it received (in constant time) before using the plaintext. A decryption whose
/// IV was set with ``CCCryptorGCMSetIV(_:_:_:)`` checks the tag at `tagOut` as ``CCCryptorGCMFinalize(_:_:_:)``
/// does.
@available(*, deprecated, renamed: "CCCryptorGCMFinalize")
@discardableResult
public func CCCryptorGCMFinal(
    _ cryptorRef: CCCryptorRef!, _ tagOut: UnsafeMutableRawPointer!, _ tagLength: UnsafeMutablePointer<Int>!
) -> CCCryptorStatus {
    guard let tagLength else { return CCCryptorStatus(kCCParamError) }
    let length = tagLength.pointee
    return gcmCall(cryptorRef) { (stream) throws(CryptoError) in try stream.finishLegacy(tag: tagOut, tagCount: length)
    }
}

/// Readies a GCM cryptor for the next message under the same key (a new IV must follow).
///
/// Returns `kCCSuccess`, or `kCCParamError` for a nil, released or non-GCM cryptor.
@discardableResult
public func CCCryptorGCMReset(_ cryptorRef: CCCryptorRef!) -> CCCryptorStatus {
    gcmCall(cryptorRef) { (stream) throws(CryptoError) in stream.reset() }
}

/// Encrypt or Decrypt: the message bytes through a cryptor of that direction.
private func gcmUpdate(
    _ cryptorRef: CCCryptorRef?, encrypting: Bool, _ dataIn: UnsafeRawPointer?, _ dataInLength: Int,
    _ dataOut: UnsafeMutableRawPointer?
) -> CCCryptorStatus {
    gcmCall(cryptorRef, encrypting: encrypting) { (stream) throws(CryptoError) in
        try stream.update(dataIn, count: dataInLength, into: dataOut)
    }
}

/// Runs `body` on the cryptor's GCM stream (when `encrypting` is given, only in that direction) and turns what
/// it throws into Apple's status: a tag mismatch `kCCUnspecifiedError`, anything else `kCCParamError`.
private func gcmCall(
    _ cryptorRef: CCCryptorRef?, encrypting: Bool? = nil, _ body: (AESGCMStream) throws(CryptoError) -> Void
) -> CCCryptorStatus {
    guard let cryptor = Cryptor.lookUp(cryptorRef) else { return CCCryptorStatus(kCCParamError) }
    let status = cryptor.withGCM { (stream) -> Int in
        if let encrypting, stream.isEncrypting != encrypting { return kCCParamError }
        do throws(CryptoError) {
            try body(stream)
            return kCCSuccess
        } catch {
            return error.code == .authenticationFailed ? kCCUnspecifiedError : kCCParamError
        }
    }
    return CCCryptorStatus(status ?? kCCParamError)
}
