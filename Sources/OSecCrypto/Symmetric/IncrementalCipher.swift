internal import COpenSSL
import OSecLocks

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A block or stream cipher in one mode of operation, fed piece by piece (one EVP_CIPHER_CTX), for
/// CommonCrypto's `CCCryptor`. Input and output are the caller's C buffers, handed straight to OpenSSL: nothing
/// is copied in or out.
///
/// Buffering follows OpenSSL's EVP rules, which are also CommonCrypto's: an update outputs every complete block
/// it can, except that a padded decryption holds back the last complete block until ``finish()`` (it may hold
/// the padding). ``outputLength(forInput:final:)`` tells the exact size of the next update's output.
/// Not thread-safe: one owner at a time (CommonCrypto documents the same for a cryptor).
package final class IncrementalCipher {
    /// The cipher algorithms of CommonCrypto.
    package enum Algorithm: Sendable, Hashable {
        /// AES with a 16-, 24- or 32-byte key.
        case aes
        /// Single DES (legacy provider).
        case des
        /// Three-key triple DES (EDE).
        case tripleDES
        /// CAST-128 (CAST5) with a 5- to 16-byte key (legacy provider).
        case cast5
        /// RC4 (a stream cipher; legacy provider).
        case rc4
        /// RC2 with effective key bits = 8 × key length (legacy provider).
        case rc2
        /// Blowfish (legacy provider).
        case blowfish

        /// Block length in bytes (1 for RC4).
        package var blockSize: Int {
            switch self {
            case .aes: 16
            case .rc4: 1
            case .des, .tripleDES, .cast5, .rc2, .blowfish: 8
            }
        }

        /// True when only OpenSSL's legacy provider has the algorithm.
        var isLegacy: Bool {
            switch self {
            case .aes, .tripleDES: false
            case .des, .cast5, .rc4, .rc2, .blowfish: true
            }
        }

        /// True when the key length is a parameter of the cipher (set before the key).
        var hasVariableKeyLength: Bool {
            switch self {
            case .cast5, .rc4, .rc2, .blowfish: true
            case .aes, .des, .tripleDES: false
            }
        }
    }

    /// Modes of operation. CFB feeds back a whole block (CFB-128 for AES, CFB-64 for the others); CTR
    /// increments the whole counter block big-endian (NIST SP 800-38A). RC4 has no mode.
    package enum Mode: Sendable, Hashable {
        case ecb, cbc, cfb, cfb8, ctr, ofb
    }

    /// Largest input handed to one EVP_CipherUpdate (it takes an `int` length); longer inputs are chunked.
    private static let maximumChunk = 1 << 30

    private let context: CipherContext
    /// True when encrypting.
    package let encrypting: Bool
    /// True when PKCS#7 padding is added (encryption) or checked and removed (decryption).
    package let padding: Bool
    /// The block length OpenSSL buffers by: the cipher's block for ECB and CBC, 1 for the stream modes and RC4.
    package let blockSize: Int
    /// Bytes taken in but not yet output (a partial block, or the block a padded decryption holds back).
    package private(set) var pendingCount = 0

    /// True when OpenSSL has `algorithm` in `mode` for a key of `keyLength` bytes.
    package static func isAvailable(_ algorithm: Algorithm, _ mode: Mode, keyLength: Int) -> Bool {
        openSSLName(algorithm, mode, keyLength: keyLength) != nil
    }

    /// Sets up a cipher. `iv` is the mode's IV (the cipher's block size) or empty for zeros; ECB and RC4 take
    /// none. `padding` only matters for ECB and CBC.
    /// - Throws: `.unsupportedAlgorithm` when OpenSSL lacks the combination (or the legacy provider is missing),
    ///   `.invalidParameter` for a key or IV of the wrong size.
    package init(
        _ algorithm: Algorithm, mode: Mode, encrypt: Bool, padding: Bool, key: Data, iv: Data
    ) throws(CryptoError) {
        guard let name = Self.openSSLName(algorithm, mode, keyLength: key.count) else {
            throw CryptoError(.unsupportedAlgorithm, "OpenSSL has no \(algorithm) cipher in \(mode) mode")
        }
        let cipher = try FetchedModeCiphers.shared.cipher(named: name, legacy: algorithm.isLegacy)
        context = try CipherContext()
        encrypting = encrypt
        self.padding = padding
        let ctx = context.raw
        let enc: Int32 = encrypt ? 1 : 0
        let ivLength = Int(EVP_CIPHER_get_iv_length(cipher))
        guard iv.isEmpty || iv.count == ivLength else {
            throw CryptoError(.invalidParameter, "IV must be \(ivLength) bytes, got \(iv.count)")
        }
        let fullIV = iv.isEmpty ? Data(count: ivLength) : iv
        if algorithm.hasVariableKeyLength {
            try ossl(EVP_CipherInit_ex2(ctx, cipher, nil, nil, enc, nil), "EVP_CipherInit_ex2")
            try ossl(EVP_CIPHER_CTX_set_key_length(ctx, Int32(key.count)), .invalidParameter, "key length")
            if algorithm == .rc2 {
                try ossl(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_SET_RC2_KEY_BITS, Int32(key.count * 8), nil), "RC2 key bits")
            }
            try context.setKey(key, iv: fullIV, cipher: nil, enc: enc)
        } else {
            guard key.count == Int(EVP_CIPHER_get_key_length(cipher)) else {
                throw CryptoError(.invalidParameter, "wrong key length \(key.count) for \(name)")
            }
            try context.setKey(key, iv: fullIV, cipher: cipher, enc: enc)
        }
        try ossl(EVP_CIPHER_CTX_set_padding(ctx, padding ? 1 : 0), "EVP_CIPHER_CTX_set_padding")
        blockSize = Int(EVP_CIPHER_CTX_get_block_size(ctx))
    }

    /// The exact number of bytes the next ``update(_:count:into:)`` of `inputLength` bytes writes, or with
    /// `final`, an upper bound for that update followed by ``finish()`` (CommonCrypto's
    /// `CCCryptorGetOutputLength`).
    package func outputLength(forInput inputLength: Int, final: Bool) -> Int {
        guard inputLength >= 0 else { return 0 }
        if blockSize == 1 { return inputLength }
        let (total, overflow) = pendingCount.addingReportingOverflow(inputLength)
        guard !overflow, total <= Int.max - blockSize else { return Int.max }
        let roundDown = { (length: Int) in length / self.blockSize * self.blockSize }
        guard padding else { return roundDown(total) }
        if final { return encrypting ? roundDown(total + blockSize) : total }
        if encrypting { return roundDown(total) }
        // A padded decryption keeps the last complete block back.
        return total > 0 && total % blockSize == 0 ? roundDown(total - 1) : roundDown(total)
    }

    /// Processes `count` bytes at `input` into `output`, returning how many bytes were written (exactly
    /// ``outputLength(forInput:final:)`` without `final`). `output` may be nil only when that length is 0.
    /// In-place operation (`output == input`) works whenever nothing is pending.
    package func update(
        _ input: UnsafeRawPointer, count: Int, into output: UnsafeMutableRawPointer?
    ) throws(CryptoError) -> Int {
        guard count > 0 else { return 0 }
        let expected = outputLength(forInput: count, final: false)
        guard let output else {
            guard expected == 0 else { throw CryptoError(.invalidParameter, "no output buffer") }
            // Everything is buffered; OpenSSL writes nothing, but wants a pointer.
            return try withUnsafeTemporaryAllocation(byteCount: 64, alignment: 16) { (scratch) throws(CryptoError) in
                guard let base = scratch.baseAddress else { throw CryptoError(.internalError, "no scratch memory") }
                return try run(input, count: count, into: base)
            }
        }
        return try run(input, count: count, into: output)
    }

    /// Ends the message: adds the padding block when encrypting with padding; checks and removes the padding
    /// when decrypting with it. Returns the last bytes (at most one block).
    /// - Throws: `.invalidParameter` when a partial block is left over (no padding, or a decryption whose input
    ///   was not a whole number of blocks), `.decryptionFailed` for bad or missing padding.
    package func finish() throws(CryptoError) -> Data {
        guard blockSize > 1 else { return Data() }
        guard padding else {
            guard pendingCount == 0 else {
                throw CryptoError(.invalidParameter, "input is not a multiple of the block size")
            }
            return Data()
        }
        if !encrypting {
            guard pendingCount > 0 else { throw CryptoError(.decryptionFailed, "no padding block to remove") }
            guard pendingCount == blockSize else {
                throw CryptoError(.invalidParameter, "input is not a multiple of the block size")
            }
        }
        let ctx = context.raw
        let encrypting = self.encrypting
        let last = try Data.filling(capacity: 2 * blockSize) { (out) throws(CryptoError) in
            var written: Int32 = 0
            guard EVP_CipherFinal_ex(ctx, out.assumingMemoryBound(to: UInt8.self), &written) == 1 else {
                throw encrypting
                    ? CryptoError.failed("EVP_CipherFinal_ex")
                    : CryptoError.openSSL(.decryptionFailed, "bad padding or wrong key")
            }
            return Int(written)
        }
        pendingCount = 0
        return last
    }

    /// Discards anything pending and restarts with a new IV (empty for zeros), keeping the key schedule
    /// (CommonCrypto's `CCCryptorReset`).
    package func reset(iv: Data) throws(CryptoError) {
        let ctx = context.raw
        let ivLength = Int(EVP_CIPHER_CTX_get_iv_length(ctx))
        guard iv.isEmpty || iv.count == ivLength else {
            throw CryptoError(.invalidParameter, "IV must be \(ivLength) bytes, got \(iv.count)")
        }
        let fullIV = iv.isEmpty ? Data(count: ivLength) : iv
        try fullIV.withBytes { (ivBytes, _) throws(CryptoError) in
            try ossl(
                EVP_CipherInit_ex2(ctx, nil, nil, ivBytes.assumingMemoryBound(to: UInt8.self), -1, nil),
                "EVP_CipherInit_ex2 (reset)")
        }
        pendingCount = 0
    }

    // MARK: Internals

    private func run(
        _ input: UnsafeRawPointer, count: Int, into output: UnsafeMutableRawPointer
    ) throws(CryptoError) -> Int {
        let ctx = context.raw
        var consumed = 0
        var written = 0
        while consumed < count {
            let chunk = Swift.min(count - consumed, Self.maximumChunk)
            var outLength: Int32 = 0
            try ossl(
                EVP_CipherUpdate(
                    ctx, output.advanced(by: written).assumingMemoryBound(to: UInt8.self), &outLength,
                    input.advanced(by: consumed).assumingMemoryBound(to: UInt8.self), Int32(chunk)),
                "EVP_CipherUpdate")
            consumed += chunk
            written += Int(outLength)
        }
        pendingCount += count - written
        return written
    }

    /// OpenSSL's name for the combination, or nil when OpenSSL has none (CTR for the 64-bit block ciphers,
    /// CFB8 for CAST5, RC2 and Blowfish, AES with a key that is not 16, 24 or 32 bytes).
    private static func openSSLName(_ algorithm: Algorithm, _ mode: Mode, keyLength: Int) -> String? {
        let suffix: String? =
            switch mode {
            case .ecb: "ECB"
            case .cbc: "CBC"
            case .cfb: "CFB"
            case .ofb: "OFB"
            case .cfb8: [.aes, .des, .tripleDES].contains(algorithm) ? "CFB8" : nil
            case .ctr: algorithm == .aes ? "CTR" : nil
            }
        switch algorithm {
        case .rc4:
            return "RC4"
        case .aes:
            guard [16, 24, 32].contains(keyLength), let suffix else { return nil }
            return "AES-\(keyLength * 8)-\(suffix)"
        case .des: return suffix.map { "DES-\($0)" }
        case .tripleDES: return suffix.map { "DES-EDE3-\($0)" }
        case .cast5: return suffix.map { "CAST5-\($0)" }
        case .rc2: return suffix.map { "RC2-\($0)" }
        case .blowfish: return suffix.map { "BF-\($0)" }
        }
    }
}

/// The EVP_CIPHER objects of ``IncrementalCipher``, each fetched once per process on first use.
/// `@unchecked Sendable`: the dictionary is only read and written under `lock`; the fetched objects are
/// immutable and shareable between threads.
private final class FetchedModeCiphers: @unchecked Sendable {
    static let shared = FetchedModeCiphers()

    private let lock = PosixMutex()
    private var fetched: [String: FetchedAlgorithm] = [:]

    func cipher(named name: String, legacy: Bool) throws(CryptoError) -> OpaquePointer {
        if legacy { _ = try LegacyLibraryContext.shared.get() }  // names the missing legacy provider
        lock.lock()
        defer { lock.unlock() }
        if let known = fetched[name] { return try known.get() }
        let fresh =
            legacy
            ? LegacyLibraryContext.shared.fetchCipher(name)
            : FetchedAlgorithm(name: name, raw: EVP_CIPHER_fetch(nil, name, nil))
        fetched[name] = fresh
        return try fresh.get()
    }
}
