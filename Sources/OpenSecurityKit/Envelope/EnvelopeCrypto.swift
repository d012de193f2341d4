import CommonCrypto
import Foundation
import Security

/// The symmetric pieces of the envelope, through Apple's C APIs (`SecRandomCopyBytes`, CommonCrypto): byte arrays
/// passed as the C buffers, so bulk data is never copied on its way in or out.
enum EnvelopeCrypto {
    static let keyLength = kCCKeySizeAES256
    static let nonceLength = 12
    static let tagLength = 16

    /// `count` bytes from the system's secure random generator.
    static func randomBytes(_ count: Int) throws(SecurityKitError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        try SecurityKitError.check(
            SecRandomCopyBytes(kSecRandomDefault, count, &bytes), "SecRandomCopyBytes failed")
        return bytes
    }

    /// `count` decimal digits (ASCII), each uniformly distributed: random bytes below 250 taken modulo 10, the
    /// others discarded (the guides' `arc4random() % 9` never gives a 9).
    static func randomDigits(_ count: Int) throws(SecurityKitError) -> [UInt8] {
        var digits: [UInt8] = []
        digits.reserveCapacity(count)
        while digits.count < count {
            for byte in try randomBytes(count) where byte < 250 && digits.count < count {
                digits.append(UInt8(ascii: "0") + byte % 10)
            }
        }
        return digits
    }

    /// AES-256-GCM with a 16-byte tag: returns ciphertext ‖ tag.
    static func gcmSeal(
        key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: [UInt8]
    ) throws(SecurityKitError) -> [UInt8] {
        var sealed = [UInt8](repeating: 0, count: plaintext.count + tagLength)
        var tag = [UInt8](repeating: 0, count: tagLength)
        let status = CCCryptorGCMOneshotEncrypt(
            CCAlgorithm(kCCAlgorithmAES), key, key.count, nonce, nonce.count, aad, aad.count, plaintext,
            plaintext.count, &sealed, &tag, tagLength)
        guard status == CCCryptorStatus(kCCSuccess) else {
            throw SecurityKitError(errSecInternal, reason: "AES-GCM encryption failed (CCCryptorStatus \(status))")
        }
        sealed.replaceSubrange(plaintext.count..., with: tag)
        return sealed
    }

    /// The piece a `Data` message is streamed in: small enough to stay in the processor's cache.
    static let pieceLength = 32 * 1024

    /// AES-256-GCM of a `Data` message with a 16-byte tag: returns ciphertext ‖ tag, the same bytes as
    /// ``gcmSeal(key:nonce:aad:plaintext:)-([UInt8])``. Safe Swift cannot lend `Data`'s bytes to a C API, so a
    /// message longer than ``pieceLength`` goes through a GCM cryptor piece by piece, each piece copied into a
    /// buffer that stays in cache: the message is never copied whole, and the output is written once (no
    /// zero-filled buffer first). At 1 MiB the whole copy and the zero fill cost a fifth of the seal.
    static func gcmSeal(
        key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: Data
    ) throws(SecurityKitError) -> [UInt8] {
        guard plaintext.count > pieceLength else {
            return try gcmSeal(key: key, nonce: nonce, aad: aad, plaintext: [UInt8](plaintext))
        }
        var cryptor: CCCryptorRef?
        var status = CCCryptorCreateWithMode(
            CCOperation(kCCEncrypt), CCMode(kCCModeGCM), CCAlgorithm(kCCAlgorithmAES), CCPadding(ccNoPadding), nil,
            key, key.count, nil, 0, 0, 0, &cryptor)
        defer { CCCryptorRelease(cryptor) }
        if status == kCCSuccess { status = CCCryptorGCMSetIV(cryptor, nonce, nonce.count) }
        if status == kCCSuccess { status = CCCryptorGCMAddAAD(cryptor, aad, aad.count) }
        var sealed: [UInt8] = []
        sealed.reserveCapacity(plaintext.count + tagLength)
        var piece = [UInt8](repeating: 0, count: pieceLength)
        var output = [UInt8](repeating: 0, count: pieceLength)
        defer { wipe(&piece) }
        var start = plaintext.startIndex
        while status == kCCSuccess, start < plaintext.endIndex {
            let end = plaintext.index(start, offsetBy: pieceLength, limitedBy: plaintext.endIndex) ?? plaintext.endIndex
            let count = plaintext.distance(from: start, to: end)
            plaintext.copyBytes(to: &piece, from: start..<end)
            status = CCCryptorGCMEncrypt(cryptor, piece, count, &output)
            sealed.append(contentsOf: output[..<count])
            start = end
        }
        var tag = [UInt8](repeating: 0, count: tagLength)
        if status == kCCSuccess { status = CCCryptorGCMFinalize(cryptor, &tag, tagLength) }
        guard status == CCCryptorStatus(kCCSuccess) else {
            throw SecurityKitError(errSecInternal, reason: "AES-GCM encryption failed (CCCryptorStatus \(status))")
        }
        sealed.append(contentsOf: tag)
        return sealed
    }

    /// Checks the tag at the end of `sealed` and decrypts the rest; nil when the tag does not match.
    static func gcmOpen(key: [UInt8], nonce: [UInt8], aad: [UInt8], sealed: [UInt8]) -> [UInt8]? {
        guard sealed.count >= tagLength else { return nil }
        let length = sealed.count - tagLength
        let tag = Array(sealed[length...])
        var plaintext = [UInt8](repeating: 0, count: length)
        let status = CCCryptorGCMOneshotDecrypt(
            CCAlgorithm(kCCAlgorithmAES), key, key.count, nonce, nonce.count, aad, aad.count, sealed, length,
            &plaintext, tag, tagLength)
        return status == CCCryptorStatus(kCCSuccess) ? plaintext : nil
    }

    /// AES-256-CBC with PKCS#7 padding (`CCCrypt`, `kCCOptionPKCS7Padding`, IV nil = all zeros).
    static func cbc(_ operation: Int, key: [UInt8], _ input: [UInt8]) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: input.count + kCCBlockSizeAES128)
        var moved = 0
        let status = CCCrypt(
            CCOperation(operation), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding), key, key.count,
            nil, input, input.count, &output, output.count, &moved)
        guard status == CCCryptorStatus(kCCSuccess) else { return nil }
        output.removeLast(output.count - moved)
        return output
    }

    /// MD5 of `bytes` as lowercase hex (the legacy profile's digest).
    static func md5Hex(_ bytes: [UInt8]) -> String {
        hex((LegacyDigest() as any LegacyDigestCalls).md5(bytes))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Byte strings compared in time that depends only on their lengths.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// Overwrites a secret's bytes (best effort: copies made by other APIs are theirs to clear).
    static func wipe(_ bytes: inout [UInt8]) {
        for index in bytes.indices { bytes[index] = 0 }
    }
}

/// SHA-256 over several byte strings without joining them (`CC_SHA256_Init`/`Update`/`Final`).
struct SHA256Stream {
    private var context = CC_SHA256_CTX()

    init() { CC_SHA256_Init(&context) }

    /// Adds `bytes` (at most ``Envelope/maximumJSONLength``, far below CC_LONG's 4 GiB).
    mutating func update(_ bytes: [UInt8]) {
        CC_SHA256_Update(&context, bytes, CC_LONG(bytes.count))
    }

    mutating func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(CC_SHA256_DIGEST_LENGTH))
        CC_SHA256_Final(&digest, &context)
        return digest
    }
}

/// MD5 is deprecated in CommonCrypto (as on Apple platforms); the legacy profile needs it by definition. The call
/// goes through a protocol so the deprecation is acknowledged in one place.
private protocol LegacyDigestCalls {
    func md5(_ bytes: [UInt8]) -> [UInt8]
}

private struct LegacyDigest: LegacyDigestCalls {
    @available(*, deprecated, message: "MD5 only for the legacy envelope profile")
    func md5(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(CC_MD5_DIGEST_LENGTH))
        CC_MD5(bytes, CC_LONG(bytes.count), &digest)
        return digest
    }
}
