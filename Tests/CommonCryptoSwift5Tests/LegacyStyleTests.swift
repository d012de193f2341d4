// CommonCrypto code in the style of older (Swift 4/5 era) Apple-platform libraries — NSData/NSMutableData
// buffers, global state, non-Sendable captures — compiled in the Swift 5 language mode against this module.
import CommonCrypto
import Foundation
import XCTest

/// A shared cryptor, the way some singletons keep one (Swift 5 mode allows the global mutable state).
var sharedCryptor: CCCryptorRef? = nil

private func hexString(_ bytes: [UInt8]) -> String {
    return bytes.map { String(format: "%02x", $0) }.joined()
}

/// NSData-based SHA-256, as in many 2016–2019 libraries. (On Linux `data as NSData` makes a new object, so it
/// is kept alive across the call; on Apple platforms the bridged object happens to outlive it.)
private func sha256(_ data: Data) -> String {
    var digest = [UInt8](repeating: 0, count: Int(CC_SHA256_DIGEST_LENGTH))
    let nsData = data as NSData
    _ = withExtendedLifetime(nsData) {
        CC_SHA256(nsData.bytes, CC_LONG(nsData.length), &digest)
    }
    return hexString(digest)
}

/// The NSMutableData CCCrypt helper of the Swift 3 era.
private func aesCrypt(_ operation: Int, data: Data, keyData: Data, ivData: Data) -> Data? {
    let cryptData = NSMutableData(length: Int(data.count) + kCCBlockSizeAES128)!
    let keyLength = size_t(kCCKeySizeAES128)
    let operation = CCOperation(UInt32(operation))
    let algoritm = CCAlgorithm(UInt32(kCCAlgorithmAES128))
    let options = CCOptions(UInt32(kCCOptionPKCS7Padding))
    var numBytesEncrypted: size_t = 0
    let key = keyData as NSData
    let iv = ivData as NSData
    let input = data as NSData
    let cryptStatus = withExtendedLifetime((key, iv, input)) {
        CCCrypt(
            operation, algoritm, options, key.bytes, keyLength, iv.bytes, input.bytes, input.length,
            cryptData.mutableBytes, cryptData.length, &numBytesEncrypted)
    }
    if cryptStatus == CCCryptorStatus(kCCSuccess) {
        cryptData.length = Int(numBytesEncrypted)
        return cryptData as Data
    }
    return nil
}

/// A CCHmac wrapper returning NSData.
private func hmacSHA1(key: String, message: String) -> NSData {
    let cKey = key.cString(using: .utf8)!
    let cData = message.cString(using: .utf8)!
    var result = [CUnsignedChar](repeating: 0, count: Int(CC_SHA1_DIGEST_LENGTH))
    CCHmac(CCHmacAlgorithm(kCCHmacAlgSHA1), cKey, Int(strlen(cKey)), cData, Int(strlen(cData)), &result)
    return NSData(bytes: result, length: Int(CC_SHA1_DIGEST_LENGTH))
}

/// Objective-C-era AES-GCM with a 16-byte IV over NSMutableData (the SPI one-shots, as wrappers declare them).
private func gcmEncrypt(_ data: Data, key: Data, iv: Data) -> (NSData, NSData)? {
    let cipher = NSMutableData(length: data.count)!
    let tag = NSMutableData(length: 16)!
    let input = data as NSData
    let keyData = key as NSData
    let ivData = iv as NSData
    let status = withExtendedLifetime((input, keyData, ivData)) {
        CCCryptorGCMOneshotEncrypt(
            CCAlgorithm(kCCAlgorithmAES), keyData.bytes, keyData.length, ivData.bytes, ivData.length, nil, 0,
            input.bytes, input.length, cipher.mutableBytes, tag.mutableBytes, tag.length)
    }
    return status == kCCSuccess ? (cipher, tag) : nil
}

private func gcmDecrypt(_ cipher: NSData, tag: NSData, key: Data, iv: Data) -> Data? {
    let plain = NSMutableData(length: cipher.length)!
    let keyData = key as NSData
    let ivData = iv as NSData
    let status = withExtendedLifetime((keyData, ivData)) {
        CCCryptorGCMOneshotDecrypt(
            CCAlgorithm(kCCAlgorithmAES), keyData.bytes, keyData.length, ivData.bytes, ivData.length, nil, 0,
            cipher.bytes, cipher.length, plain.mutableBytes, tag.bytes, tag.length)
    }
    return status == kCCSuccess ? plain as Data : nil
}

/// A reference the queue writes into (no Sendable checking in this language mode).
final class OutputBox {
    var bytes = [UInt8](repeating: 0, count: 5)
}

final class LegacyStyleTests: XCTestCase {
    func testNSDataDigest() {
        XCTAssertEqual(sha256(Data("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    func testNSMutableDataCrypt() {
        let key = Data(repeating: 0x11, count: 16)
        let iv = Data(repeating: 0x22, count: 16)
        let message = Data("Swift 5 mode".utf8)
        let encrypted = aesCrypt(kCCEncrypt, data: message, keyData: key, ivData: iv)
        XCTAssertEqual(encrypted?.count, 16)
        XCTAssertEqual(encrypted.flatMap { aesCrypt(kCCDecrypt, data: $0, keyData: key, ivData: iv) }, message)
    }

    func testHMACWrapper() {
        let mac = hmacSHA1(key: "Jefe", message: "what do ya want for nothing?")
        XCTAssertEqual(hexString([UInt8](mac as Data)), "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
    }

    func testGlobalCryptorAcrossAQueue() {
        let key: [UInt8] = Array(repeating: 3, count: 32)
        let status = CCCryptorCreateWithMode(
            CCOperation(kCCEncrypt), CCMode(kCCModeCTR), CCAlgorithm(kCCAlgorithmAES), CCPadding(ccNoPadding), nil, key,
            key.count, nil, 0, 0, CCModeOptions(kCCModeOptionCTR_BE), &sharedCryptor)
        XCTAssertEqual(Int(status), kCCSuccess)
        let done = expectation(description: "queue")
        let output = OutputBox()
        DispatchQueue.global().async {
            var moved = 0
            _ = CCCryptorUpdate(sharedCryptor, "hello", 5, &output.bytes, 5, &moved)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertNotEqual(output.bytes, [UInt8](repeating: 0, count: 5))
        CCCryptorRelease(sharedCryptor)
        sharedCryptor = nil
    }

    func testGCMWithASixteenByteIV() {
        let key = Data(repeating: 0x5a, count: 32)
        let iv = Data("zenpie..studio..".utf8)
        let message = Data("sixteen-byte IVs are hashed into the counter".utf8)
        guard let (cipher, tag) = gcmEncrypt(message, key: key, iv: iv) else { return XCTFail("encrypt failed") }
        XCTAssertEqual(cipher.length, message.count)
        XCTAssertEqual(gcmDecrypt(cipher, tag: tag, key: key, iv: iv), message)
        var forgedBytes = [UInt8](tag as Data)
        forgedBytes[0] ^= 1
        XCTAssertNil(gcmDecrypt(cipher, tag: NSData(bytes: forgedBytes, length: 16), key: key, iv: iv))
    }

    func testRandomAndDerivation() {
        var salt = [UInt8](repeating: 0, count: 16)
        XCTAssertEqual(Int(CCRandomGenerateBytes(&salt, salt.count)), kCCSuccess)
        var derived = [UInt8](repeating: 0, count: 20)
        let result = CCKeyDerivationPBKDF(
            CCPBKDFAlgorithm(kCCPBKDF2), "password", 8, "salt", 4, CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA1), 2,
            &derived, derived.count)
        XCTAssertEqual(result, 0)
        XCTAssertEqual(hexString(derived), "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957")
    }
}
