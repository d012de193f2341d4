// Cryptor handles the way Swift 5-era wrappers (CryptoSwift bridges, RNCryptor ports, SSH libraries) hold them:
// a caller-allocated `UnsafeMutablePointer<CCCryptorRef?>`, a global optional, a class property released in
// `deinit`, and a handle used after its release. Compiled in the Swift 5 language mode.
import CommonCrypto
import Foundation
import XCTest

/// NIST SP 800-38A F.2.1: AES-128-CBC, first block.
private let keyBytes: [UInt8] = [
    0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c,
]
private let ivBytes: [UInt8] = Array(0..<16)
private let plainBlock: [UInt8] = [
    0x6b, 0xc1, 0xbe, 0xe2, 0x2e, 0x40, 0x9f, 0x96, 0xe9, 0x3d, 0x7e, 0x11, 0x73, 0x93, 0x17, 0x2a,
]
private let cipherBlock: [UInt8] = [
    0x76, 0x49, 0xab, 0xac, 0x81, 0x19, 0xb2, 0x46, 0xce, 0xe9, 0x8e, 0x9b, 0x12, 0xe9, 0x19, 0x7d,
]

/// A cryptor owner that releases in deinit, as many Swift 5 wrappers do.
private final class Cryptor {
    var ref: CCCryptorRef? = nil

    init?(_ operation: Int) {
        let status = CCCryptorCreate(
            CCOperation(operation), CCAlgorithm(kCCAlgorithmAES128), CCOptions(0), keyBytes, keyBytes.count,
            ivBytes, &ref)
        if status != CCCryptorStatus(kCCSuccess) { return nil }
    }

    func process(_ input: [UInt8]) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: input.count + kCCBlockSizeAES128)
        var moved = 0
        let status = CCCryptorUpdate(ref, input, input.count, &out, out.count, &moved)
        if status != CCCryptorStatus(kCCSuccess) { return nil }
        return Array(out[0..<moved])
    }

    deinit {
        CCCryptorRelease(ref)
    }
}

final class OpaqueHandleStyleTests: XCTestCase {
    func testHandleIsOpaquePointer() {
        let handle: CCCryptorRef? = nil
        let asPointer: OpaquePointer? = handle
        XCTAssertNil(asPointer)
    }

    func testCallerAllocatedPointer() {
        let cryptorPointer = UnsafeMutablePointer<CCCryptorRef?>.allocate(capacity: 1)
        defer { cryptorPointer.deallocate() }
        let status = CCCryptorCreate(
            CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(0), keyBytes, keyBytes.count, ivBytes,
            cryptorPointer)
        XCTAssertEqual(status, CCCryptorStatus(kCCSuccess))
        var out = [UInt8](repeating: 0, count: 32)
        var moved = 0
        XCTAssertEqual(
            CCCryptorUpdate(cryptorPointer.pointee, plainBlock, 16, &out, out.count, &moved),
            CCCryptorStatus(kCCSuccess))
        XCTAssertEqual(Array(out[0..<moved]), cipherBlock)
        XCTAssertEqual(CCCryptorFinal(cryptorPointer.pointee, &out, out.count, &moved), CCCryptorStatus(kCCSuccess))
        XCTAssertEqual(CCCryptorRelease(cryptorPointer.pointee), CCCryptorStatus(kCCSuccess))
    }

    func testGlobalHandleReusedAfterRelease() {
        XCTAssertEqual(
            CCCryptorCreate(
                CCOperation(kCCDecrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(0), keyBytes, keyBytes.count,
                ivBytes, &sharedCryptor),
            CCCryptorStatus(kCCSuccess))
        var out = [UInt8](repeating: 0, count: 32)
        var moved = 0
        XCTAssertEqual(
            CCCryptorUpdate(sharedCryptor, cipherBlock, 16, &out, out.count, &moved), CCCryptorStatus(kCCSuccess))
        XCTAssertEqual(Array(out[0..<moved]), plainBlock)
        XCTAssertEqual(CCCryptorRelease(sharedCryptor), CCCryptorStatus(kCCSuccess))
        // The stale handle: a parameter error every time, never a crash.
        XCTAssertEqual(
            CCCryptorUpdate(sharedCryptor, cipherBlock, 16, &out, out.count, &moved), CCCryptorStatus(kCCParamError))
        XCTAssertEqual(CCCryptorRelease(sharedCryptor), CCCryptorStatus(kCCSuccess))  // Apple's answer
        sharedCryptor = nil
        XCTAssertEqual(CCCryptorRelease(sharedCryptor), CCCryptorStatus(kCCSuccess))
    }

    func testOwnerReleasesInDeinit() {
        var encryptor: Cryptor? = Cryptor(kCCEncrypt)
        XCTAssertEqual(encryptor?.process(plainBlock), cipherBlock)
        let stale = encryptor?.ref
        encryptor = nil
        var out = [UInt8](repeating: 0, count: 32)
        var moved = 0
        XCTAssertEqual(CCCryptorUpdate(stale, plainBlock, 16, &out, out.count, &moved), CCCryptorStatus(kCCParamError))
    }

    func testGarbageHandle() {
        let garbage = OpaquePointer(bitPattern: 0x4141_4141_4141)
        var out = [UInt8](repeating: 0, count: 32)
        var moved = 0
        XCTAssertEqual(
            CCCryptorUpdate(garbage, plainBlock, 16, &out, out.count, &moved), CCCryptorStatus(kCCParamError))
        XCTAssertEqual(CCCryptorGetOutputLength(garbage, 16, true), kCCParamError)
        XCTAssertEqual(CCCryptorRelease(garbage), CCCryptorStatus(kCCSuccess))
        XCTAssertEqual(CCCryptorReset(garbage, nil), CCCryptorStatus(kCCParamError))
    }

    /// The IDZSwiftCommonCrypto-style digest engine: the context allocated (uninitialised) by the caller.
    func testCallerAllocatedDigestAndHMACContexts() {
        let context = UnsafeMutablePointer<CC_SHA1_CTX>.allocate(capacity: 1)
        defer { context.deallocate() }
        CC_SHA1_Init(context)
        let abc: [UInt8] = Array("abc".utf8)
        CC_SHA1_Update(context, abc, CC_LONG(abc.count))
        var digest = [UInt8](repeating: 0, count: Int(CC_SHA1_DIGEST_LENGTH))
        CC_SHA1_Final(&digest, context)
        XCTAssertEqual(digest.map { String(format: "%02x", $0) }.joined(), "a9993e364706816aba3e25717850c26c9cd0d89d")

        let hmac = UnsafeMutablePointer<CCHmacContext>.allocate(capacity: 1)
        defer { hmac.deallocate() }
        let key: [UInt8] = Array("key".utf8)
        let data: [UInt8] = Array("The quick brown fox jumps over the lazy dog".utf8)
        CCHmacInit(hmac, CCHmacAlgorithm(kCCHmacAlgSHA256), key, key.count)
        CCHmacUpdate(hmac, data, data.count)
        var mac = [UInt8](repeating: 0, count: Int(CC_SHA256_DIGEST_LENGTH))
        CCHmacFinal(hmac, &mac)
        XCTAssertEqual(
            mac.map { String(format: "%02x", $0) }.joined(),
            "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8")
    }
}
