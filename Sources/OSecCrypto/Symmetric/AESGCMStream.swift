internal import COpenSSL

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// AES in Galois/Counter Mode (NIST SP 800-38D) fed piece by piece: the key when created, then the IV, the
/// additional data, the message in any number of pieces and last the tag — what CommonCrypto's incremental
/// `CCCryptorGCM…` functions run on. The pieces are caller-owned C buffers and go straight to OpenSSL (the
/// output may be the input). One EVP context serves every message: ``reset()`` keeps the key schedule, a new
/// IV starts the next message.
///
/// Order is enforced: IV (required, once) → additional data (any number of pieces, none after message bytes)
/// → message → ``finish(tag:tagCount:)``. A call out of order throws `.invalidParameter` and changes nothing.
/// Not thread-safe: the owner serialises calls.
package final class AESGCMStream {
    /// Where the stream is.
    package enum Stage: Sendable {
        /// Created or reset: the IV comes next (``appendIV(_:count:)`` may still add to a pending one).
        case needsIV
        /// IV set: additional data or message bytes may follow.
        case additionalData
        /// Message bytes went through: more message bytes or the tag.
        case message
        /// The tag was produced or checked; only ``reset()`` goes on.
        case finished
    }

    private let context: CipherContext
    private let encrypting: Bool
    package private(set) var stage = Stage.needsIV
    /// IV bytes collected by ``appendIV(_:count:)`` (Apple's deprecated `CCCryptorGCMAddIV`), applied by the
    /// first call that needs the IV.
    private var pendingIV: [UInt8] = []
    /// Message bytes so far (SP 800-38D's limit is checked on every piece).
    private var messageLength = 0
    /// For a decrypting stream: an encrypting context under the same key, fed the IV, the additional data and
    /// the plaintext when the IV came the deprecated way (``appendIV(_:count:)``). Encrypting the plaintext gives
    /// back the ciphertext, so its tag is the tag of the ciphertext, which Apple's deprecated
    /// `CCCryptorGCMFinal` hands back on decryption (``finishLegacy(tag:tagCount:)``).
    private let tagShadow: CipherContext?
    /// Whether ``tagShadow`` follows the current message.
    private var shadowing = false
    /// Where ``tagShadow`` writes the ciphertext it recomputes (discarded).
    private var shadowScratch = [UInt8]()

    /// Keys an AES-GCM context: `keyCount` 16, 24 or 32 bytes at `key`.
    /// - Throws: `.invalidParameter` for another key length.
    package init(key: UnsafeRawPointer, keyCount: Int, encrypt: Bool) throws(CryptoError) {
        let cipher = try AESGCM.cipher(forKeyLength: keyCount)
        context = try CipherContext()
        encrypting = encrypt
        try ossl(
            EVP_CipherInit_ex2(
                context.raw, cipher, key.assumingMemoryBound(to: UInt8.self), nil, encrypt ? 1 : 0, nil),
            "EVP_CipherInit_ex2")
        if encrypt {
            tagShadow = nil
        } else {
            let shadow = try CipherContext()
            try ossl(
                EVP_CipherInit_ex2(shadow.raw, cipher, key.assumingMemoryBound(to: UInt8.self), nil, 1, nil),
                "EVP_CipherInit_ex2")
            tagShadow = shadow
        }
    }

    /// Whether the stream encrypts (else it decrypts).
    package var isEncrypting: Bool { encrypting }

    /// Sets the whole IV: `count` bytes (1 to ``AESGCM/maximumNonceLength``; 12 is GCM's recommended size).
    /// - Throws: `.invalidParameter` when the IV was already set, the length is out of range or `iv` is nil.
    package func setIV(_ iv: UnsafeRawPointer?, count: Int) throws(CryptoError) {
        guard stage == .needsIV, pendingIV.isEmpty else {
            throw CryptoError(.invalidParameter, "the GCM IV is already set")
        }
        guard let iv, count > 0 else { throw CryptoError(.invalidParameter, "GCM IV missing") }
        try start(iv, count)
    }

    /// Adds `count` bytes to an IV that the next call needing it will set (the deprecated way of giving it).
    /// - Throws: `.invalidParameter` once the IV is in use, or when the IV would grow past
    ///   ``AESGCM/maximumNonceLength``.
    package func appendIV(_ iv: UnsafeRawPointer?, count: Int) throws(CryptoError) {
        guard stage == .needsIV else { throw CryptoError(.invalidParameter, "the GCM IV is already set") }
        guard count >= 0, count == 0 || iv != nil else { throw CryptoError(.invalidParameter, "GCM IV missing") }
        guard pendingIV.count + count <= AESGCM.maximumNonceLength else {
            throw CryptoError(.invalidParameter, "GCM IV longer than \(AESGCM.maximumNonceLength) bytes")
        }
        if let iv, count > 0 { pendingIV.append(contentsOf: Data(bytes: iv, count: count)) }
        shadowing = tagShadow != nil
    }

    /// Feeds `count` bytes of additional authenticated data.
    /// - Throws: `.invalidParameter` before the IV, after message bytes, or for a nil buffer with a count.
    package func addAAD(_ aad: UnsafeRawPointer?, count: Int) throws(CryptoError) {
        try applyPendingIV()
        guard stage == .additionalData else {
            throw CryptoError(.invalidParameter, "GCM additional data must come after the IV and before the message")
        }
        guard count >= 0, count == 0 || aad != nil else {
            throw CryptoError(.invalidParameter, "GCM additional data missing")
        }
        guard let aad, count > 0 else { return }
        try pieces(count) { (offset, length) throws(CryptoError) in
            var written: Int32 = 0
            try ossl(
                EVP_CipherUpdate(
                    context.raw, nil, &written, aad.advanced(by: offset).assumingMemoryBound(to: UInt8.self),
                    Int32(length)), "EVP_CipherUpdate(AAD)")
            if shadowing, let shadow = tagShadow {
                try ossl(
                    EVP_CipherUpdate(
                        shadow.raw, nil, &written, aad.advanced(by: offset).assumingMemoryBound(to: UInt8.self),
                        Int32(length)), "EVP_CipherUpdate(AAD)")
            }
        }
    }

    /// Encrypts or decrypts (as created) `count` bytes at `input` into `output`, which has room for as many
    /// (GCM keeps nothing back; `output` may be `input`).
    /// - Throws: `.invalidParameter` before the IV, after the tag, for missing buffers, or past GCM's message
    ///   limit (SP 800-38D §5.2.1.1).
    package func update(
        _ input: UnsafeRawPointer?, count: Int, into output: UnsafeMutableRawPointer?
    ) throws(CryptoError) {
        try applyPendingIV()
        guard stage == .additionalData || stage == .message else {
            throw CryptoError(.invalidParameter, "GCM message bytes need an IV and come before the tag")
        }
        guard count >= 0, count == 0 || (input != nil && output != nil) else {
            throw CryptoError(.invalidParameter, "GCM input or output buffer missing")
        }
        guard count <= AESGCM.maximumMessageLength - messageLength else {
            throw CryptoError(.invalidParameter, "GCM message longer than 2^36 - 32 bytes")
        }
        stage = .message
        guard let input, let output, count > 0 else { return }
        messageLength += count
        try pieces(count) { (offset, length) throws(CryptoError) in
            var written: Int32 = 0
            try ossl(
                EVP_CipherUpdate(
                    context.raw, output.advanced(by: offset).assumingMemoryBound(to: UInt8.self), &written,
                    input.advanced(by: offset).assumingMemoryBound(to: UInt8.self), Int32(length)),
                "EVP_CipherUpdate")
        }
        if shadowing { try shadowPlaintext(UnsafeRawPointer(output), count: count) }
    }

    /// Feeds the plaintext just produced to ``tagShadow`` in scratch-sized pieces.
    private func shadowPlaintext(_ plaintext: UnsafeRawPointer, count: Int) throws(CryptoError) {
        guard let shadow = tagShadow else { return }
        let pieceSize = 16 * 1024
        if shadowScratch.count < Swift.min(count, pieceSize) { shadowScratch = [UInt8](repeating: 0, count: pieceSize) }
        var offset = 0
        while offset < count {
            let length = Swift.min(pieceSize, count - offset)
            var written: Int32 = 0
            let ok = shadowScratch.withUnsafeMutableBufferPointer { scratch in
                EVP_CipherUpdate(
                    shadow.raw, scratch.baseAddress, &written,
                    plaintext.advanced(by: offset).assumingMemoryBound(to: UInt8.self), Int32(length))
            }
            try ossl(ok, "EVP_CipherUpdate")
            offset += length
        }
    }

    /// Apple's deprecated `CCCryptorGCMFinal`: encrypting, as ``finish(tag:tagCount:)``; decrypting a message whose
    /// IV came through ``appendIV(_:count:)``, writes the tag computed over the ciphertext to `tag` and checks
    /// nothing (the caller compares, as Apple's header tells it to). A decryption whose IV was set with
    /// ``setIV(_:count:)`` checks the tag at `tag`, as ``finish(tag:tagCount:)`` does.
    /// - Throws: what ``finish(tag:tagCount:)`` throws, except a tag mismatch on a legacy decryption.
    package func finishLegacy(tag: UnsafeMutableRawPointer?, tagCount: Int) throws(CryptoError) {
        try applyPendingIV()
        guard shadowing, let shadow = tagShadow else { return try finish(tag: tag, tagCount: tagCount) }
        guard stage == .additionalData || stage == .message else {
            throw CryptoError(.invalidParameter, "the GCM tag needs an IV and is produced once")
        }
        guard let tag, AESGCM.bufferTagLengths.contains(tagCount) else {
            throw CryptoError(.invalidParameter, "GCM tag length must be 8...16 bytes")
        }
        stage = .finished
        var scratch: UInt8 = 0
        var written: Int32 = 0
        try ossl(EVP_CipherFinal_ex(shadow.raw, &scratch, &written), "EVP_EncryptFinal_ex")
        try ossl(EVP_CIPHER_CTX_ctrl(shadow.raw, EVP_CTRL_GCM_GET_TAG, Int32(tagCount), tag), "GCM get tag")
    }

    /// Ends the message. Encrypting: writes the first `tagCount` bytes of the tag to `tag`. Decrypting: checks
    /// the `tagCount`-byte tag at `tag` (constant time, inside OpenSSL).
    /// - Throws: `.authenticationFailed` when a decryption's tag does not match; `.invalidParameter` before the
    ///   IV, a second time, or for a tag length outside ``AESGCM/bufferTagLengths``.
    package func finish(tag: UnsafeMutableRawPointer?, tagCount: Int) throws(CryptoError) {
        try applyPendingIV()
        guard stage == .additionalData || stage == .message else {
            throw CryptoError(.invalidParameter, "the GCM tag needs an IV and is produced once")
        }
        guard let tag, AESGCM.bufferTagLengths.contains(tagCount) else {
            throw CryptoError(.invalidParameter, "GCM tag length must be 8...16 bytes")
        }
        stage = .finished
        var scratch: UInt8 = 0
        var written: Int32 = 0
        if encrypting {
            try ossl(EVP_CipherFinal_ex(context.raw, &scratch, &written), "EVP_EncryptFinal_ex")
            try ossl(EVP_CIPHER_CTX_ctrl(context.raw, EVP_CTRL_GCM_GET_TAG, Int32(tagCount), tag), "GCM get tag")
        } else {
            try ossl(EVP_CIPHER_CTX_ctrl(context.raw, EVP_CTRL_GCM_SET_TAG, Int32(tagCount), tag), "GCM set tag")
            guard EVP_CipherFinal_ex(context.raw, &scratch, &written) == 1 else {
                throw CryptoError.openSSL(.authenticationFailed, "GCM authentication tag mismatch")
            }
        }
    }

    /// Back to the state after creation, keeping the key: the next message needs a new IV.
    package func reset() {
        stage = .needsIV
        pendingIV = []
        messageLength = 0
        shadowing = false
    }

    private func applyPendingIV() throws(CryptoError) {
        guard stage == .needsIV, !pendingIV.isEmpty else { return }
        let iv = pendingIV
        pendingIV = []
        try iv.withCryptoBytes { (base, count) throws(CryptoError) in try start(base, count) }
    }

    /// Sets the IV length and the IV on the keyed context.
    private func start(_ iv: UnsafeRawPointer, _ count: Int) throws(CryptoError) {
        guard count <= AESGCM.maximumNonceLength else {
            throw CryptoError(.invalidParameter, "GCM IV longer than \(AESGCM.maximumNonceLength) bytes")
        }
        try ossl(EVP_CIPHER_CTX_ctrl(context.raw, EVP_CTRL_GCM_SET_IVLEN, Int32(count), nil), "GCM set IV length")
        try ossl(
            EVP_CipherInit_ex2(context.raw, nil, nil, iv.assumingMemoryBound(to: UInt8.self), encrypting ? 1 : 0, nil),
            "EVP_CipherInit_ex2")
        if shadowing, let shadow = tagShadow {
            try ossl(EVP_CIPHER_CTX_ctrl(shadow.raw, EVP_CTRL_GCM_SET_IVLEN, Int32(count), nil), "GCM set IV length")
            try ossl(
                EVP_CipherInit_ex2(shadow.raw, nil, nil, iv.assumingMemoryBound(to: UInt8.self), 1, nil),
                "EVP_CipherInit_ex2")
        }
        stage = .additionalData
    }

    /// Runs `body` over `count` bytes in pieces EVP's `int` lengths can carry.
    private func pieces(
        _ count: Int, _ body: (_ offset: Int, _ length: Int) throws(CryptoError) -> Void
    ) throws(CryptoError) {
        let largest = 1 << 30
        var offset = 0
        while offset < count {
            let length = Swift.min(largest, count - offset)
            try body(offset, length)
            offset += length
        }
    }
}
