// CommonCryptor.h: the CCCryptor functions, over OpenSSL's EVP ciphers (OSecCrypto's IncrementalCipher).
//
// Behaviour follows Apple's current CommonCrypto: the same checks in the same order, the same status codes,
// the same buffering and output lengths, and the buffer-too-small protocol (`kCCBufferTooSmall` with the
// needed size in `*dataOutMoved`). The caller's data buffers go straight to OpenSSL: nothing is copied.
import Foundation
import OSecCrypto
import OSecSystem

/// A cryptor: one cipher, mode, direction and key, fed with `CCCryptorUpdate` and ended with
/// `CCCryptorFinal`. Callers never see it: they hold its ``CCCryptorRef`` handle.
///
/// `CCCryptorRelease` frees the OpenSSL context and forgets the handle, so any later use of the handle returns
/// `kCCParamError` instead of touching freed memory. A cryptor may be used from one thread at a time in
/// Apple's; here calls are serialised, so concurrent use is safe (but the order of concurrent updates is not
/// defined).
final class Cryptor: @unchecked Sendable {  // sendable: all state is read and written under `lock`
    private let lock = NSLock()
    private var cipher: IncrementalCipher?
    /// The AES-GCM stream of a `kCCModeGCM` cryptor (driven by the `CCCryptorGCM…` functions; `cipher` is nil).
    private var gcm: AESGCMStream?
    /// The output of a `CCCryptorFinal` that found too little room, handed out by the next `CCCryptorFinal`.
    private var pendingFinal: Data?
    /// The mode, for `CCCryptorReset` (only CBC and CTR reset); nil for GCM.
    fileprivate let mode: IncrementalCipher.Mode?
    /// The algorithm's block size: the IV length `CCCryptorReset` reads.
    fileprivate let ivLength: Int

    fileprivate init(cipher: IncrementalCipher, mode: IncrementalCipher.Mode, ivLength: Int) {
        self.cipher = cipher
        self.mode = mode
        self.ivLength = ivLength
    }

    /// A `kCCModeGCM` cryptor.
    init(gcm: AESGCMStream) {
        self.gcm = gcm
        mode = nil
        ivLength = 0
    }

    /// The live cryptors by handle. A released, forged or garbage handle is not found here.
    static let handles = OpaqueHandleTable<Cryptor>(tag: 0xCC)

    /// The cryptor behind `handle`, or nil for nil, a released or an unknown handle.
    static func lookUp(_ handle: CCCryptorRef?) -> Cryptor? { handles.object(for: handle) }

    /// Runs `body` on the live GCM stream under the lock; nil after `CCCryptorRelease` or for another mode.
    func withGCM<R>(_ body: (AESGCMStream) -> R) -> R? {
        lock.lock()
        defer { lock.unlock() }
        guard let gcm else { return nil }
        return body(gcm)
    }

    /// Runs `body` on the live cipher under the lock, or returns nil after `CCCryptorRelease`.
    fileprivate func withCipher<R>(_ body: (IncrementalCipher, inout Data?) -> R) -> R? {
        lock.lock()
        defer { lock.unlock() }
        guard let cipher else { return nil }
        return body(cipher, &pendingFinal)
    }

    /// Frees the OpenSSL context (CCCryptorRelease).
    fileprivate func release() {
        lock.lock()
        defer { lock.unlock() }
        cipher = nil
        gcm = nil
        pendingFinal = nil
    }
}

/// An opaque reference to a cryptor: `OpaquePointer`, as Apple's Swift imports `struct _CCCryptor *`.
///
/// Code written for Apple platforms declares `var cryptor: CCCryptorRef?` (or allocates an
/// `UnsafeMutablePointer<CCCryptorRef?>` itself), passes it to `CCCryptorCreate` and the cryptor to the other
/// functions. The value is a handle, never a pointer to memory: a handle that was released, never created or
/// made up gives `kCCParamError` from every function that takes one.
public typealias CCCryptorRef = OpaquePointer

// MARK: - Creating

/// Creates a cryptor for `alg` in CBC mode, or ECB with `kCCOptionECBMode` (RC4 is a stream cipher without a
/// mode), with PKCS#7 padding when `options` has `kCCOptionPKCS7Padding`. `key` is `keyLength` bytes; `iv` is
/// one block (nil: zeros; ignored by ECB and RC4). Returns `kCCSuccess` with the cryptor in `*cryptorRef`,
/// `kCCParamError` (nil key or `cryptorRef`, unknown operation or algorithm), `kCCKeySizeError` (a key
/// length the algorithm does not take) or `kCCUnimplemented`.
@discardableResult
public func CCCryptorCreate(
    _ op: CCOperation, _ alg: CCAlgorithm, _ options: CCOptions, _ key: UnsafeRawPointer!, _ keyLength: Int,
    _ iv: UnsafeRawPointer!, _ cryptorRef: UnsafeMutablePointer<CCCryptorRef?>!
) -> CCCryptorStatus {
    let (mode, padding) = legacyModeAndPadding(alg, options)
    return CCCryptorCreateWithMode(op, mode, alg, padding, iv, key, keyLength, nil, 0, 0, 0, cryptorRef)
}

/// `CCCryptorCreate` with caller-supplied memory for the context. Apple's stores a reference to its heap
/// context in 16 bytes (plus alignment to 8) of `data`; so does the contract here: with fewer than that in
/// `dataLength` (or a nil `data`) it returns `kCCBufferTooSmall` with the needed size in `*dataUsed`. The
/// cryptor itself lives on the heap (the memory at `data` is not written) and is released with
/// `CCCryptorRelease` as usual.
@discardableResult
public func CCCryptorCreateFromData(
    _ op: CCOperation, _ alg: CCAlgorithm, _ options: CCOptions, _ key: UnsafeRawPointer!, _ keyLength: Int,
    _ iv: UnsafeRawPointer!, _ data: UnsafeRawPointer!, _ dataLength: Int,
    _ cryptorRef: UnsafeMutablePointer<CCCryptorRef?>!, _ dataUsed: UnsafeMutablePointer<Int>!
) -> CCCryptorStatus {
    /// Apple's `CC_COMPAT_SIZE`: the room of a reference to the real context.
    let referenceSize = 16
    let address = UInt(bitPattern: data)
    let alignment = Int((8 - address % 8) % 8)
    let needed = alignment + referenceSize
    dataUsed?.pointee = needed
    guard data != nil, needed <= dataLength else { return CCCryptorStatus(kCCBufferTooSmall) }
    return CCCryptorCreate(op, alg, options, key, keyLength, iv, cryptorRef)
}

/// Creates a cryptor for `alg` in `mode` (`kCCModeECB`, `kCCModeCBC`, `kCCModeCFB`, `kCCModeCFB8`,
/// `kCCModeCTR` or `kCCModeOFB`; RC4 ignores the mode) with `padding` (`ccPKCS7Padding` or `ccNoPadding`; the
/// stream modes ignore it). `iv` is one block (nil: zeros; ECB and RC4 ignore it); CTR takes it as the initial
/// counter block and increments it big-endian, whatever `options` says (as Apple's current one does).
/// `tweak`, `tweakLength` and `numRounds` are ignored, as in Apple's.
///
/// Returns `kCCSuccess` with the cryptor in `*cryptorRef` (nil on failure), or `kCCParamError` (nil key or
/// `cryptorRef`, unknown operation, algorithm or mode), `kCCKeySizeError`, or `kCCUnimplemented` for a
/// combination without an implementation: XTS (Apple's needs SPI), CTR with the 64-bit block ciphers and CFB8
/// with CAST, RC2 and Blowfish (OpenSSL has none).
@discardableResult
public func CCCryptorCreateWithMode(
    _ op: CCOperation, _ mode: CCMode, _ alg: CCAlgorithm, _ padding: CCPadding, _ iv: UnsafeRawPointer!,
    _ key: UnsafeRawPointer!, _ keyLength: Int, _ tweak: UnsafeRawPointer!, _ tweakLength: Int,
    _ numRounds: Int32, _ options: CCModeOptions, _ cryptorRef: UnsafeMutablePointer<CCCryptorRef?>!
) -> CCCryptorStatus {
    guard let key, let cryptorRef else { return CCCryptorStatus(kCCParamError) }
    cryptorRef.pointee = nil
    let made =
        Int(mode) == kCCModeGCM
        ? makeGCMCryptor(op, alg, key, keyLength) : makeCryptor(op, mode, alg, padding, iv, key, keyLength)
    switch made {
    case .success(let cryptor):
        cryptorRef.pointee = Cryptor.handles.insert(cryptor)
        return CCCryptorStatus(kCCSuccess)
    case .failure(let status):
        return status.code
    }
}

// MARK: - Using

/// The number of bytes the next `CCCryptorUpdate` of `inputLength` bytes writes, or with `final`, the room
/// that update and `CCCryptorFinal` together need (for a padded decryption an upper bound, since the padding
/// length is only known after decrypting). Stream modes: `inputLength`. Returns `kCCParamError` (as an `Int`)
/// for a nil or released cryptor, as Apple's does.
public func CCCryptorGetOutputLength(_ cryptorRef: CCCryptorRef!, _ inputLength: Int, _ final: Bool) -> Int {
    guard let cryptor = Cryptor.lookUp(cryptorRef) else { return kCCParamError }
    return cryptor.withCipher { cipher, _ in cipher.outputLength(forInput: inputLength, final: final) }
        ?? kCCParamError
}

/// Processes `dataInLength` bytes at `dataIn`, writing what it can to `dataOut` (room: `dataOutAvailable`) and
/// the count to `*dataOutMoved`. Block modes keep a partial block (and, when decrypting with padding, the last
/// block) for the next call or `CCCryptorFinal`. With too little room it writes nothing, sets
/// `*dataOutMoved` to the room needed and returns `kCCBufferTooSmall`. `dataIn` may equal `dataOut` (in-place)
/// when the cryptor holds no partial block. Returns `kCCParamError` for a nil or released cryptor or a nil
/// buffer.
@discardableResult
public func CCCryptorUpdate(
    _ cryptorRef: CCCryptorRef!, _ dataIn: UnsafeRawPointer!, _ dataInLength: Int,
    _ dataOut: UnsafeMutableRawPointer!, _ dataOutAvailable: Int, _ dataOutMoved: UnsafeMutablePointer<Int>!
) -> CCCryptorStatus {
    guard let cryptor = Cryptor.lookUp(cryptorRef) else { return CCCryptorStatus(kCCParamError) }
    return updateCryptor(cryptor, dataIn, dataInLength, dataOut, dataOutAvailable, dataOutMoved)
}

/// `CCCryptorUpdate` on a live cryptor.
private func updateCryptor(
    _ cryptor: Cryptor, _ dataIn: UnsafeRawPointer?, _ dataInLength: Int, _ dataOut: UnsafeMutableRawPointer?,
    _ dataOutAvailable: Int, _ dataOutMoved: UnsafeMutablePointer<Int>?
) -> CCCryptorStatus {
    let status =
        cryptor.withCipher { cipher, _ -> CCStatusCode in
            dataOutMoved?.pointee = 0
            if dataInLength == 0 { return .success }
            guard dataInLength > 0 else { return .paramError }
            let needed = cipher.outputLength(forInput: dataInLength, final: false)
            guard needed <= dataOutAvailable else {
                dataOutMoved?.pointee = needed
                return .bufferTooSmall
            }
            guard let dataIn, dataOut != nil || needed == 0 else { return .paramError }
            do throws(CryptoError) {
                let written = try cipher.update(dataIn, count: dataInLength, into: dataOut)
                dataOutMoved?.pointee = written
                return .success
            } catch {
                return CCStatusCode(error)
            }
        } ?? .paramError
    return status.code
}

/// Ends the message: writes the last bytes (the padding block when encrypting with padding; the last
/// plaintext bytes, padding removed, when decrypting with it) to `dataOut` and their count to `*dataOutMoved`.
/// Stream modes and unpadded block modes write nothing. Returns `kCCAlignmentError` when a partial block is
/// left (no padding, or a padded decryption whose input was not whole blocks), `kCCDecodeError` for bad
/// padding (or no padding block at all), and `kCCBufferTooSmall` (with `*dataOutMoved` 0, as Apple's) when
/// `dataOutAvailable` is smaller than the output, which the next call then delivers. A nil cryptor gives
/// `kCCSuccess`, as in Apple's.
@discardableResult
public func CCCryptorFinal(
    _ cryptorRef: CCCryptorRef!, _ dataOut: UnsafeMutableRawPointer!, _ dataOutAvailable: Int,
    _ dataOutMoved: UnsafeMutablePointer<Int>!
) -> CCCryptorStatus {
    guard cryptorRef != nil else { return CCCryptorStatus(kCCSuccess) }
    guard let cryptor = Cryptor.lookUp(cryptorRef) else { return CCCryptorStatus(kCCParamError) }
    return finishCryptor(cryptor, dataOut, offset: 0, dataOutAvailable, dataOutMoved)
}

/// `CCCryptorFinal`, writing at `dataOut + offset` (`CCCrypt` continues the buffer its update filled).
private func finishCryptor(
    _ cryptor: Cryptor, _ dataOut: UnsafeMutableRawPointer?, offset: Int, _ dataOutAvailable: Int,
    _ dataOutMoved: UnsafeMutablePointer<Int>?
) -> CCCryptorStatus {
    let status =
        cryptor.withCipher { cipher, pending -> CCStatusCode in
            dataOutMoved?.pointee = 0
            let last: Data
            if let saved = pending {
                last = saved
            } else {
                do throws(CryptoError) {
                    last = try cipher.finish()
                } catch {
                    return CCStatusCode(finalError: error)
                }
            }
            guard last.count <= dataOutAvailable else {
                pending = last
                return .bufferTooSmall
            }
            pending = nil
            // Apple's writes nothing (and succeeds) when dataOut is nil.
            if let dataOut, !last.isEmpty {
                RawBytes.store(last, at: dataOut, offset: offset)
                dataOutMoved?.pointee = last.count
            }
            return .success
        } ?? .paramError
    return status.code
}

/// Restarts a CBC or CTR cryptor with a new IV (nil: zeros), discarding any buffered input; the key stays.
/// Returns `kCCUnimplemented` for the other modes and RC4, as Apple's current one does (it resets only CBC and
/// CTR), and `kCCParamError` for a nil or released cryptor.
@discardableResult
public func CCCryptorReset(_ cryptorRef: CCCryptorRef!, _ iv: UnsafeRawPointer!) -> CCCryptorStatus {
    guard let cryptor = Cryptor.lookUp(cryptorRef) else { return CCCryptorStatus(kCCParamError) }
    guard cryptor.mode == .cbc || cryptor.mode == .ctr else { return CCCryptorStatus(kCCUnimplemented) }
    let newIV = iv.map { Data(bytes: $0, count: cryptor.ivLength) } ?? Data()
    let status =
        cryptor.withCipher { cipher, pending -> CCStatusCode in
            pending = nil
            do {
                try cipher.reset(iv: newIV)
                return .success
            } catch {
                return .memoryFailure  // Apple's answer when setting the IV fails
            }
        } ?? .paramError
    return status.code
}

/// Releases the cryptor's OpenSSL context (cleansing the key schedule) and forgets the handle: any later use
/// of it returns `kCCParamError`. Returns `kCCSuccess` always, as Apple's does: for a nil cryptor, and for a
/// handle that was already released or never created, which is left alone (where Apple's would free memory
/// twice).
@discardableResult
public func CCCryptorRelease(_ cryptorRef: CCCryptorRef!) -> CCCryptorStatus {
    Cryptor.handles.remove(cryptorRef)?.release()
    return CCCryptorStatus(kCCSuccess)
}

// MARK: - One shot

/// Encrypts or decrypts `dataInLength` bytes at `dataIn` in one call (`CCCryptorCreate`, `CCCryptorUpdate`,
/// `CCCryptorFinal`, `CCCryptorRelease`), writing to `dataOut` and the count to `*dataOutMoved`. When
/// `dataOutAvailable` is less than `CCCryptorGetOutputLength(…, true)` (input + one block when encrypting with
/// padding; input when decrypting) it writes nothing, sets `*dataOutMoved` to that size and returns
/// `kCCBufferTooSmall`. Other results: those of the functions it calls.
@discardableResult
public func CCCrypt(
    _ op: CCOperation, _ alg: CCAlgorithm, _ options: CCOptions, _ key: UnsafeRawPointer!, _ keyLength: Int,
    _ iv: UnsafeRawPointer!, _ dataIn: UnsafeRawPointer!, _ dataInLength: Int, _ dataOut: UnsafeMutableRawPointer!,
    _ dataOutAvailable: Int, _ dataOutMoved: UnsafeMutablePointer<Int>!
) -> CCCryptorStatus {
    guard let key else { return CCCryptorStatus(kCCParamError) }
    let (mode, padding) = legacyModeAndPadding(alg, options)
    let cryptor: Cryptor
    switch makeCryptor(op, mode, alg, padding, iv, key, keyLength) {
    case .success(let made): cryptor = made
    case .failure(let status): return status.code
    }
    defer { cryptor.release() }
    let needed =
        cryptor.withCipher { cipher, _ in cipher.outputLength(forInput: dataInLength, final: true) } ?? kCCParamError
    dataOutMoved?.pointee = needed
    guard needed <= dataOutAvailable else { return CCCryptorStatus(kCCBufferTooSmall) }
    var updateLength = 0
    let updated = updateCryptor(cryptor, dataIn, dataInLength, dataOut, dataOutAvailable, &updateLength)
    guard updated == CCCryptorStatus(kCCSuccess) else { return updated }
    var finalLength = 0
    let finished = finishCryptor(cryptor, dataOut, offset: updateLength, dataOutAvailable - updateLength, &finalLength)
    dataOutMoved?.pointee = updateLength + finalLength
    return finished
}

// MARK: - Internals

/// The status codes, for the functions above.
private enum CCStatusCode: Error {
    case success, paramError, bufferTooSmall, memoryFailure, alignmentError, decodeError, unimplemented
    case unspecifiedError, keySizeError

    var code: CCCryptorStatus {
        let value =
            switch self {
            case .success: kCCSuccess
            case .paramError: kCCParamError
            case .bufferTooSmall: kCCBufferTooSmall
            case .memoryFailure: kCCMemoryFailure
            case .alignmentError: kCCAlignmentError
            case .decodeError: kCCDecodeError
            case .unimplemented: kCCUnimplemented
            case .unspecifiedError: kCCUnspecifiedError
            case .keySizeError: kCCKeySizeError
            }
        return CCCryptorStatus(value)
    }

    /// The status of a failed update or set-up.
    init(_ error: CryptoError) {
        switch error.code {
        case .unsupportedAlgorithm: self = .unimplemented
        case .invalidParameter, .resourceLimit: self = .paramError
        case .decryptionFailed, .authenticationFailed: self = .decodeError
        default: self = .unspecifiedError
        }
    }

    /// The status of a failed `finish()`: a partial block is an alignment error, bad padding a decode error.
    init(finalError error: CryptoError) {
        switch error.code {
        case .invalidParameter: self = .alignmentError
        case .decryptionFailed, .authenticationFailed: self = .decodeError
        default: self = .unspecifiedError
        }
    }
}

/// `CCCryptorCreate`'s mapping of options to a mode and padding (RC4 has its own stream "mode").
private func legacyModeAndPadding(_ alg: CCAlgorithm, _ options: CCOptions) -> (CCMode, CCPadding) {
    let mode =
        Int(alg) == kCCAlgorithmRC4 ? kCCModeRC4 : (Int(options) & kCCOptionECBMode != 0 ? kCCModeECB : kCCModeCBC)
    let padding = Int(options) & kCCOptionPKCS7Padding != 0 ? ccPKCS7Padding : ccNoPadding
    return (CCMode(mode), CCPadding(padding))
}

/// The algorithm of a selector, or nil for a value CommonCrypto does not define.
private func cipherAlgorithm(_ alg: CCAlgorithm) -> IncrementalCipher.Algorithm? {
    switch Int(alg) {
    case kCCAlgorithmAES: .aes
    case kCCAlgorithmDES: .des
    case kCCAlgorithm3DES: .tripleDES
    case kCCAlgorithmCAST: .cast5
    case kCCAlgorithmRC4: .rc4
    case kCCAlgorithmRC2: .rc2
    case kCCAlgorithmBlowfish: .blowfish
    default: nil
    }
}

/// True when `keyLength` is a key length Apple's CommonCrypto takes for `algorithm`.
private func isValidKeyLength(_ keyLength: Int, for algorithm: IncrementalCipher.Algorithm) -> Bool {
    switch algorithm {
    case .aes: [kCCKeySizeAES128, kCCKeySizeAES192, kCCKeySizeAES256].contains(keyLength)
    case .des: keyLength == kCCKeySizeDES
    case .tripleDES: keyLength == kCCKeySize3DES
    case .cast5: (kCCKeySizeMinCAST...kCCKeySizeMaxCAST).contains(keyLength)
    case .rc4: (kCCKeySizeMinRC4...kCCKeySizeMaxRC4).contains(keyLength)
    case .rc2: (kCCKeySizeMinRC2...kCCKeySizeMaxRC2).contains(keyLength)
    case .blowfish: (kCCKeySizeMinBlowfish...kCCKeySizeMaxBlowfish).contains(keyLength)
    }
}

/// The mode of a selector: `.success(nil)` for RC4 (no mode), `.failure` with Apple's status for a mode that
/// does not exist (`kCCParamError`) or that has no implementation here (`kCCUnimplemented`).
private func cipherMode(_ mode: CCMode) -> Result<IncrementalCipher.Mode, CCStatusCode> {
    switch Int(mode) {
    case kCCModeECB: .success(.ecb)
    case kCCModeCBC: .success(.cbc)
    case kCCModeCFB: .success(.cfb)
    case kCCModeCFB8: .success(.cfb8)
    case kCCModeCTR: .success(.ctr)
    case kCCModeOFB: .success(.ofb)
    case kCCModeXTS: .failure(.unimplemented)
    // Apple's SPI modes GCM (11) and CCM (12) have no public API to finish with; not available here.
    case 11, 12: .failure(.unimplemented)
    default: .failure(.paramError)
    }
}

/// Apple's CCCryptorCreateWithMode after its pointer checks: the same checks in the same order, then the
/// OpenSSL cipher.
/// A `kCCModeGCM` cryptor: AES only (`kCCParamError` otherwise), a 16-, 24- or 32-byte key (`kCCKeySizeError`);
/// the IV comes through `CCCryptorGCMSetIV`, padding and `iv` are ignored.
private func makeGCMCryptor(
    _ op: CCOperation, _ alg: CCAlgorithm, _ key: UnsafeRawPointer, _ keyLength: Int
) -> Result<Cryptor, CCStatusCode> {
    guard Int(op) == kCCEncrypt || Int(op) == kCCDecrypt, Int(alg) == kCCAlgorithmAES else {
        return .failure(.paramError)
    }
    guard [kCCKeySizeAES128, kCCKeySizeAES192, kCCKeySizeAES256].contains(keyLength) else {
        return .failure(.keySizeError)
    }
    do throws(CryptoError) {
        return .success(
            Cryptor(gcm: try AESGCMStream(key: key, keyCount: keyLength, encrypt: Int(op) == kCCEncrypt)))
    } catch {
        return .failure(CCStatusCode(error))
    }
}

private func makeCryptor(
    _ op: CCOperation, _ mode: CCMode, _ alg: CCAlgorithm, _ padding: CCPadding, _ iv: UnsafeRawPointer?,
    _ key: UnsafeRawPointer, _ keyLength: Int
) -> Result<Cryptor, CCStatusCode> {
    guard Int(op) == kCCEncrypt || Int(op) == kCCDecrypt, let algorithm = cipherAlgorithm(alg) else {
        return .failure(.paramError)
    }
    // RC4 is a stream cipher: Apple's runs it whatever the mode says.
    let chosenMode: IncrementalCipher.Mode
    switch algorithm == .rc4 ? .success(.ofb) : cipherMode(mode) {
    case .success(let chosen): chosenMode = chosen
    case .failure(let status): return .failure(status)
    }
    // Apple's cipher-text stealing (SPI padding 12) is not available; any other value means no padding.
    if padding == 12 { return .failure(.unimplemented) }
    guard isValidKeyLength(keyLength, for: algorithm) else { return .failure(.keySizeError) }
    guard algorithm == .rc4 || IncrementalCipher.isAvailable(algorithm, chosenMode, keyLength: keyLength) else {
        return .failure(.unimplemented)
    }
    let ivLength = algorithm.blockSize
    let needsIV = algorithm != .rc4 && chosenMode != .ecb
    let ivBytes = needsIV ? (iv.map { Data(bytes: $0, count: ivLength) } ?? Data(count: ivLength)) : Data()
    var keyBytes = Data(bytes: key, count: keyLength)
    defer { keyBytes.resetBytes(in: 0..<keyBytes.count) }
    do throws(CryptoError) {
        let cipher = try IncrementalCipher(
            algorithm, mode: chosenMode, encrypt: Int(op) == kCCEncrypt, padding: Int(padding) == ccPKCS7Padding,
            key: keyBytes, iv: ivBytes)
        return .success(Cryptor(cipher: cipher, mode: chosenMode, ivLength: ivLength))
    } catch {
        return .failure(CCStatusCode(error))
    }
}
