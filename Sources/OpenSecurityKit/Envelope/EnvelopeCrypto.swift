import CommonCrypto
import Foundation
internal import OSecASN1
internal import OSecCrypto
import Security

/// The symmetric pieces of the envelope, through Apple's C APIs (`SecRandomCopyBytes`, CommonCrypto): byte arrays
/// passed as the C buffers, so bulk data is never copied on its way in or out. The AES-GCM seal is the one
/// exception: OSecCrypto's, so that a `Data` message is not copied either (see `gcmSeal(key:nonce:aad:plaintext:)`).
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

    /// A fresh AES-GCM nonce. It is sent in clear and must only never repeat, so it comes from OSecCrypto's pool of
    /// public random bytes (one `RAND_bytes` call per 4 KiB) rather than a `RAND_bytes` call of its own; the
    /// message key never does.
    static func nonce() throws(SecurityKitError) -> [UInt8] {
        do throws(CryptoError) {
            return [UInt8](try SecureRandom.publicBytes(nonceLength))
        } catch {
            throw SecurityKitError(errSecInternal, reason: "no random bytes for the nonce (\(error.reason))")
        }
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

    /// AES-256-GCM with a 16-byte tag of a byte array or a `Data`: returns ciphertext ‖ tag. OSecCrypto's
    /// `AESGCM.sealCombined` lends the message to OpenSSL as it is and lets the cipher write straight into the
    /// result's uninitialised storage, which safe Swift cannot do here (it may not lend `Data`'s bytes to a C call,
    /// nor hand one an array's uninitialised storage): through CommonCrypto a `Data` message cost a copy of the
    /// message and one of the ciphertext, and an array message a zero fill of the output — a tenth of a 1 MiB seal.
    static func gcmSeal(
        key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext message: some CryptoInput
    ) throws(SecurityKitError) -> [UInt8] {
        do throws(CryptoError) {
            return try AESGCM.sealCombined(key: key, nonce: nonce, plaintext: message, aad: aad, tagLength: tagLength)
        } catch {
            throw SecurityKitError(errSecInternal, reason: "AES-GCM encryption failed (\(error.reason))")
        }
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
        HexEncoding.lowercase((LegacyDigest() as any LegacyDigestCalls).md5(bytes))
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
