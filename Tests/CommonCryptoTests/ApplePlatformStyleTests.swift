import Foundation
import Testing

// Code written the way Swift libraries for Apple platforms use CommonCrypto (JWT signers, keychain wrappers,
// RNCryptor-style file encryption, SSH packet ciphers), compiled unchanged against this module in the Swift 6
// language mode. The expected values are the standard test vectors.
#if canImport(CommonCrypto)
import CommonCrypto
#endif

// MARK: Library-style helpers

extension Data {
    /// The common `sha256()` extension.
    fileprivate func sha256() -> Data {
        var hash = [UInt8](repeating: 0, count: Int(CC_SHA256_DIGEST_LENGTH))
        self.withUnsafeBytes { _ = CC_SHA256($0.baseAddress, CC_LONG(self.count), &hash) }
        return Data(hash)
    }

    fileprivate var hexString: String { map { String(format: "%02x", $0) }.joined() }
}

extension String {
    /// SHA-1 of the UTF-8 bytes, as a hex string (Gravatar-style helpers).
    fileprivate var sha1: String {
        let data = Data(self.utf8)
        var digest = [UInt8](repeating: 0, count: Int(CC_SHA1_DIGEST_LENGTH))
        data.withUnsafeBytes { _ = CC_SHA1($0.baseAddress, CC_LONG(data.count), &digest) }
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}

/// The StackOverflow HMAC enum that half of the JWT libraries carry.
private enum CryptoAlgorithm {
    case MD5, SHA1, SHA224, SHA256, SHA384, SHA512

    var HMACAlgorithm: CCHmacAlgorithm {
        var result: Int = 0
        switch self {
        case .MD5: result = kCCHmacAlgMD5
        case .SHA1: result = kCCHmacAlgSHA1
        case .SHA224: result = kCCHmacAlgSHA224
        case .SHA256: result = kCCHmacAlgSHA256
        case .SHA384: result = kCCHmacAlgSHA384
        case .SHA512: result = kCCHmacAlgSHA512
        }
        return CCHmacAlgorithm(result)
    }

    var digestLength: Int {
        var result: Int32 = 0
        switch self {
        case .MD5: result = CC_MD5_DIGEST_LENGTH
        case .SHA1: result = CC_SHA1_DIGEST_LENGTH
        case .SHA224: result = CC_SHA224_DIGEST_LENGTH
        case .SHA256: result = CC_SHA256_DIGEST_LENGTH
        case .SHA384: result = CC_SHA384_DIGEST_LENGTH
        case .SHA512: result = CC_SHA512_DIGEST_LENGTH
        }
        return Int(result)
    }
}

extension String {
    fileprivate func hmac(algorithm: CryptoAlgorithm, key: String) -> String {
        let str = self.cString(using: String.Encoding.utf8)
        let strLen = Int(self.lengthOfBytes(using: String.Encoding.utf8))
        let digestLen = algorithm.digestLength
        var result = [UInt8](repeating: 0, count: digestLen)
        let keyStr = key.cString(using: String.Encoding.utf8)
        let keyLen = Int(key.lengthOfBytes(using: String.Encoding.utf8))
        CCHmac(algorithm.HMACAlgorithm, keyStr!, keyLen, str!, strLen, &result)
        return result.map { String(format: "%02x", $0) }.joined()
    }
}

/// A JWT HS256 signer (the shape of Swift-JWT's and JWTKit's CommonCrypto back ends).
private struct HS256Signer {
    let key: Data

    func sign(_ message: Data) -> Data {
        var mac = Data(count: Int(CC_SHA256_DIGEST_LENGTH))
        mac.withUnsafeMutableBytes { macBytes in
            key.withUnsafeBytes { keyBytes in
                message.withUnsafeBytes { messageBytes in
                    CCHmac(
                        CCHmacAlgorithm(kCCHmacAlgSHA256), keyBytes.baseAddress, key.count, messageBytes.baseAddress,
                        message.count, macBytes.baseAddress)
                }
            }
        }
        return mac
    }

    func incrementalSign(_ parts: [Data]) -> Data {
        var context = CCHmacContext()
        key.withUnsafeBytes { CCHmacInit(&context, CCHmacAlgorithm(kCCHmacAlgSHA256), $0.baseAddress, key.count) }
        for part in parts {
            part.withUnsafeBytes { CCHmacUpdate(&context, $0.baseAddress, part.count) }
        }
        var mac = [UInt8](repeating: 0, count: Int(CC_SHA256_DIGEST_LENGTH))
        CCHmacFinal(&context, &mac)
        return Data(mac)
    }
}

private enum AESError: Error {
    case keyGeneration(status: Int)
    case cryptoFailed(status: CCCryptorStatus)
    case badKeyLength
}

/// The classic AES-256-CBC helper.
private struct AES256 {
    private let key: Data
    private let ivSize: Int = kCCBlockSizeAES128
    private let options: CCOptions = CCOptions(kCCOptionPKCS7Padding)

    init(key: Data) throws {
        guard key.count == kCCKeySizeAES256 else { throw AESError.badKeyLength }
        self.key = key
    }

    static func randomIV() throws -> Data {
        var iv = Data(count: kCCBlockSizeAES128)
        let result = iv.withUnsafeMutableBytes { CCRandomGenerateBytes($0.baseAddress, kCCBlockSizeAES128) }
        guard result == kCCSuccess else { throw AESError.keyGeneration(status: Int(result)) }
        return iv
    }

    func encrypt(_ data: Data, iv: Data) throws -> Data {
        try crypt(input: data, iv: iv, operation: CCOperation(kCCEncrypt))
    }

    func decrypt(_ data: Data, iv: Data) throws -> Data {
        try crypt(input: data, iv: iv, operation: CCOperation(kCCDecrypt))
    }

    private func crypt(input: Data, iv: Data, operation: CCOperation) throws -> Data {
        var outLength = Int(0)
        var outBytes = [UInt8](repeating: 0, count: input.count + kCCBlockSizeAES128)
        var status: CCCryptorStatus = CCCryptorStatus(kCCSuccess)
        input.withUnsafeBytes { rawBufferPointer in
            let encryptedBytes = rawBufferPointer.baseAddress!
            iv.withUnsafeBytes { rawBufferPointer in
                let ivBytes = rawBufferPointer.baseAddress!
                key.withUnsafeBytes { rawBufferPointer in
                    let keyBytes = rawBufferPointer.baseAddress!
                    status = CCCrypt(
                        operation, CCAlgorithm(kCCAlgorithmAES128), options, keyBytes, key.count, ivBytes,
                        encryptedBytes, input.count, &outBytes, outBytes.count, &outLength)
                }
            }
        }
        guard status == kCCSuccess else { throw AESError.cryptoFailed(status: status) }
        return Data(bytes: &outBytes, count: outLength)
    }
}

/// PBKDF2 the RNCryptor way.
private func keyForPassword(_ password: String, salt: Data, rounds: UInt32) -> Data {
    var derivedKey = [UInt8](repeating: 0, count: kCCKeySizeAES256)
    let passwordData = password.data(using: .utf8)!
    let status = salt.withUnsafeBytes { saltBytes in
        CCKeyDerivationPBKDF(
            CCPBKDFAlgorithm(kCCPBKDF2), password, passwordData.count,
            saltBytes.bindMemory(to: UInt8.self).baseAddress, salt.count, CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA1),
            rounds, &derivedKey, derivedKey.count)
    }
    guard status == CCCryptorStatus(kCCSuccess) else { return Data() }
    return Data(derivedKey)
}

/// An incremental encryptor over CCCryptor (file and stream encryption libraries).
private final class StreamCryptor {
    private var cryptor: CCCryptorRef?

    init(operation: Int, key: Data, iv: Data) throws {
        let status = key.withUnsafeBytes { keyBytes in
            iv.withUnsafeBytes { ivBytes in
                CCCryptorCreate(
                    CCOperation(operation), CCAlgorithm(kCCAlgorithmAES128), CCOptions(kCCOptionPKCS7Padding),
                    keyBytes.baseAddress, key.count, ivBytes.baseAddress, &cryptor)
            }
        }
        guard status == kCCSuccess, cryptor != nil else { throw AESError.cryptoFailed(status: status) }
    }

    deinit {
        CCCryptorRelease(cryptor)
    }

    func update(_ data: Data) throws -> Data {
        let outputLength = CCCryptorGetOutputLength(cryptor, data.count, false)
        var output = Data(count: outputLength)
        var moved = 0
        let status = output.withUnsafeMutableBytes { outBytes in
            data.withUnsafeBytes { inBytes in
                CCCryptorUpdate(cryptor, inBytes.baseAddress, data.count, outBytes.baseAddress, outputLength, &moved)
            }
        }
        guard Int(status) == kCCSuccess else { throw AESError.cryptoFailed(status: status) }
        output.count = moved
        return output
    }

    func finish() throws -> Data {
        let outputLength = CCCryptorGetOutputLength(cryptor, 0, true)
        var output = Data(count: outputLength)
        var moved: size_t = 0
        let status = output.withUnsafeMutableBytes { CCCryptorFinal(cryptor, $0.baseAddress, outputLength, &moved) }
        switch Int(status) {
        case kCCSuccess:
            output.count = moved
            return output
        case kCCDecodeError, kCCAlignmentError, kCCBufferTooSmall, kCCParamError:
            throw AESError.cryptoFailed(status: status)
        default:
            throw AESError.cryptoFailed(status: status)
        }
    }
}

/// AES-128-CTR keystream for an SSH-like packet cipher.
private func aesCTR(key: Data, iv: Data, data: Data) -> Data {
    var cryptor: CCCryptorRef?
    let createStatus = key.withUnsafeBytes { keyBytes in
        iv.withUnsafeBytes { ivBytes in
            CCCryptorCreateWithMode(
                CCOperation(kCCEncrypt), CCMode(kCCModeCTR), CCAlgorithm(kCCAlgorithmAES128), CCPadding(ccNoPadding),
                ivBytes.baseAddress, keyBytes.baseAddress, key.count, nil, 0, 0, CCModeOptions(kCCModeOptionCTR_BE),
                &cryptor)
        }
    }
    guard createStatus == kCCSuccess, let cryptor else { return data }
    defer { CCCryptorRelease(cryptor) }
    var outLength = 0
    var outData = Data(count: data.count)
    let updateStatus = outData.withUnsafeMutableBytes { outBytes in
        data.withUnsafeBytes { inBytes in
            CCCryptorUpdate(cryptor, inBytes.baseAddress, data.count, outBytes.baseAddress, data.count, &outLength)
        }
    }
    guard updateStatus == kCCSuccess else { return data }
    return outData.prefix(outLength)
}

/// AES-GCM through CommonCrypto's SPI one-shots, the way Swift libraries that avoid CryptoKit write it (on Apple
/// platforms with the two functions declared in a bridging header): CryptoKit's combined layout
/// `nonce (12) ‖ ciphertext ‖ tag (16)`.
private enum GCMBox {
    enum Failure: Error {
        case status(CCCryptorStatus)
        case malformed
    }

    static func seal(_ plaintext: Data, key: Data, nonce: Data? = nil, authenticating aad: Data = Data()) throws -> Data
    {
        var nonceBytes = [UInt8](repeating: 0, count: 12)
        if let nonce {
            nonceBytes = [UInt8](nonce)
        } else {
            guard CCRandomGenerateBytes(&nonceBytes, nonceBytes.count) == kCCSuccess else { throw Failure.malformed }
        }
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        var tag = [UInt8](repeating: 0, count: 16)
        let status = key.withUnsafeBytes { keyBytes in
            aad.withUnsafeBytes { aadBytes in
                plaintext.withUnsafeBytes { inBytes in
                    CCCryptorGCMOneshotEncrypt(
                        CCAlgorithm(kCCAlgorithmAES), keyBytes.baseAddress, key.count, nonceBytes, nonceBytes.count,
                        aadBytes.baseAddress, aad.count, inBytes.baseAddress, plaintext.count, &ciphertext, &tag,
                        tag.count)
                }
            }
        }
        guard status == kCCSuccess else { throw Failure.status(status) }
        return Data(nonceBytes + ciphertext + tag)
    }

    static func open(_ combined: Data, key: Data, authenticating aad: Data = Data()) throws -> Data {
        guard combined.count >= 28 else { throw Failure.malformed }
        let bytes = [UInt8](combined)
        let nonce = Array(bytes[0..<12])
        let ciphertext = Array(bytes[12..<(bytes.count - 16)])
        let tag = Array(bytes[(bytes.count - 16)...])
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
        let status = key.withUnsafeBytes { keyBytes in
            aad.withUnsafeBytes { aadBytes in
                CCCryptorGCMOneshotDecrypt(
                    CCAlgorithm(kCCAlgorithmAES), keyBytes.baseAddress, key.count, nonce, nonce.count,
                    aadBytes.baseAddress, aad.count, ciphertext, ciphertext.count, &plaintext, tag, tag.count)
            }
        }
        guard status == CCCryptorStatus(kCCSuccess) else { throw Failure.status(status) }
        return Data(plaintext)
    }
}

// MARK: Tests

@Suite struct ApplePlatformStyleTests {
    @Test func hashingHelpers() {
        #expect(
            Data("abc".utf8).sha256().hexString == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect("abc".sha1 == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }

    @Test func hmacStringHelper() {
        let mac = "what do ya want for nothing?".hmac(algorithm: .SHA256, key: "Jefe")
        #expect(mac == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect("what do ya want for nothing?".hmac(algorithm: .MD5, key: "Jefe") == "750c783e6ab0b503eaa86e310a5db738")
    }

    @Test func jwtSigner() {
        let signer = HS256Signer(key: Data("Jefe".utf8))
        let message = Data("what do ya want for nothing?".utf8)
        #expect(signer.sign(message).hexString == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        let parts = [Data("what do ya ".utf8), Data("want for ".utf8), Data("nothing?".utf8)]
        #expect(signer.incrementalSign(parts) == signer.sign(message))
    }

    @Test func aesHelperRoundTrips() throws {
        let aes = try AES256(key: Data(repeating: 7, count: 32))
        let iv = try AES256.randomIV()
        let plaintext = Data("The quick brown fox jumps over the lazy dog".utf8)
        let ciphertext = try aes.encrypt(plaintext, iv: iv)
        #expect(ciphertext.count == 48)
        #expect(try aes.decrypt(ciphertext, iv: iv) == plaintext)
        #expect(throws: AESError.self) { try AES256(key: Data(count: 16)) }
        var tampered = ciphertext
        tampered[tampered.count - 1] ^= 0x55
        do {
            let garbage = try aes.decrypt(tampered, iv: iv)
            #expect(garbage != plaintext)
        } catch AESError.cryptoFailed(let status) {
            #expect(Int(status) == kCCDecodeError)
        }
    }

    @Test func passwordDerivation() {
        let key = keyForPassword("password", salt: Data("salt".utf8), rounds: 4096)
        #expect(key.prefix(20).hexString == "4b007901b765489abead49d926f721d065a429c1")
    }

    @Test func streamEncryption() throws {
        let key = Data(repeating: 1, count: 16)
        let iv = Data(repeating: 2, count: 16)
        let message = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0) })
        let encryptor = try StreamCryptor(operation: kCCEncrypt, key: key, iv: iv)
        var ciphertext = Data()
        for start in stride(from: 0, to: message.count, by: 333) {
            ciphertext += try encryptor.update(message[start..<min(start + 333, message.count)])
        }
        ciphertext += try encryptor.finish()
        #expect(ciphertext.count == 1008)
        let decryptor = try StreamCryptor(operation: kCCDecrypt, key: key, iv: iv)
        let decrypted = try decryptor.update(ciphertext) + decryptor.finish()
        #expect(decrypted == message)
    }

    @Test func counterModePacketCipher() {
        let key = Data([0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c])
        let counter = Data((0xf0...0xff).map { UInt8($0) })
        let block = Data([
            0x6b, 0xc1, 0xbe, 0xe2, 0x2e, 0x40, 0x9f, 0x96, 0xe9, 0x3d, 0x7e, 0x11, 0x73, 0x93, 0x17, 0x2a,
        ])
        #expect(aesCTR(key: key, iv: counter, data: block).hexString == "874d6191b620e3261bef6864990db6ce")
    }

    @Test func statusSwitches() {
        func describe(_ status: CCCryptorStatus) -> String {
            switch Int(status) {
            case kCCSuccess: "success"
            case kCCParamError: "param"
            case kCCBufferTooSmall: "buffer"
            case kCCMemoryFailure: "memory"
            case kCCAlignmentError: "alignment"
            case kCCDecodeError: "decode"
            case kCCUnimplemented: "unimplemented"
            case kCCOverflow: "overflow"
            case kCCRNGFailure: "rng"
            case kCCUnspecifiedError: "unspecified"
            case kCCCallSequenceError: "sequence"
            case kCCKeySizeError: "keysize"
            case kCCInvalidKey: "invalid key"
            default: "unknown"
            }
        }
        var moved = 0
        var out = [UInt8](repeating: 0, count: 32)
        let status = CCCrypt(
            CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding), "short", 5, nil,
            "data", 4, &out, 32, &moved)
        #expect(describe(status) == "keysize")
        #expect(describe(CCCryptorStatus(kCCSuccess)) == "success")
    }

    @Test func gcmBoxInCryptoKitsCombinedLayout() throws {
        // GCM specification test case 3 through the helper, then a random-nonce round trip with a header.
        let key = Data([0xfe, 0xff, 0xe9, 0x92, 0x86, 0x65, 0x73, 0x1c, 0x6d, 0x6a, 0x8f, 0x94, 0x67, 0x30, 0x83, 0x08])
        let nonce = Data([0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce, 0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88])
        let sealed = try GCMBox.seal(Data(count: 0), key: key, nonce: nonce)
        #expect(sealed.count == 28)
        #expect(try GCMBox.open(sealed, key: key).isEmpty)
        let header = Data("v1".utf8)
        let message = Data("attack at dawn".utf8)
        let box = try GCMBox.seal(message, key: key, authenticating: header)
        #expect(try GCMBox.open(box, key: key, authenticating: header) == message)
        #expect(throws: GCMBox.Failure.self) { try GCMBox.open(box, key: key) }
        do {
            _ = try GCMBox.open(box, key: key, authenticating: Data("v2".utf8))
            Issue.record("a changed header opened")
        } catch GCMBox.Failure.status(let status) {
            #expect(Int(status) == kCCUnspecifiedError)
        }
    }

    @Test func keyWrapAsKeychainLibrariesUseIt() {
        let kek = [UInt8](repeating: 0x42, count: 32)
        let key = [UInt8](repeating: 0x24, count: 32)
        var wrapped = [UInt8](repeating: 0, count: CCSymmetricWrappedSize(CCWrappingAlgorithm(kCCWRAPAES), key.count))
        var wrappedLength = wrapped.count
        let status = CCSymmetricKeyWrap(
            CCWrappingAlgorithm(kCCWRAPAES), CCrfc3394_iv, CCrfc3394_ivLen, kek, kek.count, key, key.count, &wrapped,
            &wrappedLength)
        #expect(status == kCCSuccess && wrappedLength == 40)
        var unwrapped = [UInt8](repeating: 0, count: CCSymmetricUnwrappedSize(CCWrappingAlgorithm(kCCWRAPAES), 40))
        var unwrappedLength = unwrapped.count
        let back = CCSymmetricKeyUnwrap(
            CCWrappingAlgorithm(kCCWRAPAES), CCrfc3394_iv, CCrfc3394_ivLen, kek, kek.count, wrapped, wrappedLength,
            &unwrapped, &unwrappedLength)
        #expect(back == kCCSuccess && unwrapped == key)
    }
}
