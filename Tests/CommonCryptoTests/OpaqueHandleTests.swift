import CommonCrypto
import Foundation
import Testing

// `CCCryptorRef` is `OpaquePointer`, as Apple's Swift imports it. Code written for Apple platforms allocates the
// out-parameter itself and stores what `CCCryptorCreate` writes there; these tests do what such wrappers do
// (a caller-allocated `UnsafeMutablePointer<CCCryptorRef?>`, a `CCCryptorRef?` property, create / update / final
// / release, and uses after release) and check that a released or forged handle is a `kCCParamError` (release
// answers `kCCSuccess`, as Apple's always does), never a crash.

/// The AES-128-CBC key, IV and plaintext of NIST SP 800-38A F.2.1 (first block) and its ciphertext.
private let key = Data(hex: "2b7e151628aed2a6abf7158809cf4f3c")
private let iv = Data(hex: "000102030405060708090a0b0c0d0e0f")
private let plaintext = Data(hex: "6bc1bee22e409f96e93d7e117393172a")
private let ciphertext = Data(hex: "7649abac8119b246cee98e9b12e9197d")

/// A stream cipher object in the style of wrapper libraries: the cryptor handle kept in an optional property.
private final class StreamCipher {
    private var cryptor: CCCryptorRef?

    init?(operation: Int) {
        let status = key.withUnsafeBytes { keyBytes in
            iv.withUnsafeBytes { ivBytes in
                CCCryptorCreate(
                    CCOperation(operation), CCAlgorithm(kCCAlgorithmAES), 0, keyBytes.baseAddress, key.count,
                    ivBytes.baseAddress, &cryptor)
            }
        }
        guard status == kCCSuccess else { return nil }
    }

    func update(_ input: Data) -> (status: CCCryptorStatus, output: Data) {
        let room = CCCryptorGetOutputLength(cryptor, input.count, false)
        var output = Data(count: max(room, 1))
        var moved = 0
        let status = input.withUnsafeBytes { inBytes in
            output.withUnsafeMutableBytes { outBytes in
                CCCryptorUpdate(cryptor, inBytes.baseAddress, input.count, outBytes.baseAddress, room, &moved)
            }
        }
        return (status, output.prefix(moved))
    }

    func release() -> CCCryptorStatus { CCCryptorRelease(cryptor) }

    /// The handle, for tests that use it after release.
    var handle: CCCryptorRef? { cryptor }
}

@Suite("CCCryptorRef is an opaque handle")
struct OpaqueHandleTests {
    @Test("CCCryptorRef is OpaquePointer, as Apple's Swift imports it")
    func importedType() {
        #expect(CCCryptorRef.self == OpaquePointer.self)
    }

    @Test("A caller-allocated handle pointer: create, update, final, release")
    func callerAllocatedPointer() throws {
        let handlePointer = UnsafeMutablePointer<CCCryptorRef?>.allocate(capacity: 1)
        defer { handlePointer.deallocate() }
        // Uninitialised memory, as `allocate` gives it: the create function must only write to it.
        let created = key.withUnsafeBytes { keyBytes in
            iv.withUnsafeBytes { ivBytes in
                CCCryptorCreate(
                    CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), 0, keyBytes.baseAddress, key.count,
                    ivBytes.baseAddress, handlePointer)
            }
        }
        #expect(created == kCCSuccess)
        let cryptor = try #require(handlePointer.pointee)
        var output = [UInt8](repeating: 0, count: 16)
        var moved = 0
        let updated = plaintext.withUnsafeBytes {
            CCCryptorUpdate(cryptor, $0.baseAddress, plaintext.count, &output, output.count, &moved)
        }
        #expect(updated == kCCSuccess)
        #expect(Data(output.prefix(moved)) == ciphertext)
        var finalMoved = -1
        #expect(CCCryptorFinal(cryptor, &output, output.count, &finalMoved) == kCCSuccess)
        #expect(finalMoved == 0)
        #expect(CCCryptorRelease(cryptor) == kCCSuccess)
    }

    @Test("A failed create writes nil to the caller's pointer")
    func failedCreateWritesNil() {
        let handlePointer = UnsafeMutablePointer<CCCryptorRef?>.allocate(capacity: 1)
        defer { handlePointer.deallocate() }
        handlePointer.initialize(to: OpaquePointer(bitPattern: 0x1234_5670))
        let shortKey = [UInt8](repeating: 1, count: 5)
        let status = CCCryptorCreate(
            CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), 0, shortKey, shortKey.count, nil, handlePointer)
        #expect(status == kCCKeySizeError)
        #expect(handlePointer.pointee == nil)
    }

    @Test("A wrapper object with a CCCryptorRef? property, and its use after release")
    func wrapperObject() throws {
        let encryptor = try #require(StreamCipher(operation: kCCEncrypt))
        let first = encryptor.update(plaintext)
        #expect(first.status == kCCSuccess)
        #expect(first.output == ciphertext)
        let handle = encryptor.handle
        #expect(encryptor.release() == kCCSuccess)
        // Every function given the released handle answers kCCParamError and touches nothing.
        #expect(encryptor.update(plaintext).status == kCCParamError)
        #expect(encryptor.release() == kCCSuccess)  // Apple's answer; the stale handle is left alone
        #expect(CCCryptorGetOutputLength(handle, 16, true) == kCCParamError)
        #expect(CCCryptorReset(handle, nil) == kCCParamError)
        var output = [UInt8](repeating: 0, count: 32)
        var moved = 0
        #expect(CCCryptorFinal(handle, &output, output.count, &moved) == kCCParamError)
        #expect(CCCryptorGCMSetIV(handle, output, 12) == kCCParamError)
    }

    @Test("Forged handles give kCCParamError")
    func forgedHandles() throws {
        let forged = try #require(OpaquePointer(bitPattern: 0xdead_beef_0))
        var word: UInt64 = 0
        let onTheStack = withUnsafeMutablePointer(to: &word) { OpaquePointer($0) }
        for handle in [forged, onTheStack] {
            var output = [UInt8](repeating: 0, count: 32)
            var moved = 0
            #expect(CCCryptorUpdate(handle, output, 16, &output, output.count, &moved) == kCCParamError)
            #expect(CCCryptorFinal(handle, &output, output.count, &moved) == kCCParamError)
            #expect(CCCryptorGetOutputLength(handle, 16, false) == kCCParamError)
            #expect(CCCryptorReset(handle, nil) == kCCParamError)
            #expect(CCCryptorRelease(handle) == kCCSuccess)  // Apple's answer, touching nothing
            #expect(CCCryptorGCMAddAAD(handle, output, 4) == kCCParamError)
        }
        // nil is Apple's no-op for release and final.
        #expect(CCCryptorRelease(nil) == kCCSuccess)
        var moved = 0
        #expect(CCCryptorFinal(nil, nil, 0, &moved) == kCCSuccess)
    }

    @Test("Handles of live cryptors are distinct, and one's release leaves the other working")
    func independentHandles() throws {
        var first: CCCryptorRef?
        var second: CCCryptorRef?
        #expect(
            CCCryptorCreate(
                CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), 0, [UInt8](key), key.count, [UInt8](iv), &first)
                == kCCSuccess)
        #expect(
            CCCryptorCreate(
                CCOperation(kCCDecrypt), CCAlgorithm(kCCAlgorithmAES), 0, [UInt8](key), key.count, [UInt8](iv), &second)
                == kCCSuccess)
        #expect(first != nil && second != nil && first != second)
        #expect(CCCryptorRelease(first) == kCCSuccess)
        var output = [UInt8](repeating: 0, count: 16)
        var moved = 0
        #expect(CCCryptorUpdate(second, [UInt8](ciphertext), 16, &output, 16, &moved) == kCCSuccess)
        #expect(Data(output.prefix(moved)) == plaintext)
        #expect(CCCryptorRelease(second) == kCCSuccess)
    }

    @Test("Handles cross tasks: a cryptor created in one task is used and released in another")
    func acrossTasks() async throws {
        var made: CCCryptorRef?
        #expect(
            CCCryptorCreate(
                CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), 0, [UInt8](key), key.count, [UInt8](iv), &made)
                == kCCSuccess)
        let unwrapped: CCCryptorRef = try #require(made)
        let bits = UInt(bitPattern: unwrapped)
        let result = await Task.detached { () -> Data in
            let cryptor = OpaquePointer(bitPattern: bits)
            var output = [UInt8](repeating: 0, count: 16)
            var moved = 0
            _ = CCCryptorUpdate(cryptor, [UInt8](plaintext), 16, &output, 16, &moved)
            _ = CCCryptorRelease(cryptor)
            return Data(output.prefix(moved))
        }.value
        #expect(result == ciphertext)
        var output = [UInt8](repeating: 0, count: 16)
        var moved = 0
        #expect(
            CCCryptorUpdate(OpaquePointer(bitPattern: bits), [UInt8](plaintext), 16, &output, 16, &moved)
                == kCCParamError)
    }

    @Test("CCRandomRef is OpaquePointer; CCRandomCopyBytes takes Apple's two generators and refuses others")
    func randomHandles() throws {
        #expect(CCRandomRef.self == OpaquePointer.self)
        var first = [UInt8](repeating: 0, count: 32)
        var second = [UInt8](repeating: 0, count: 32)
        #expect(CCRandomCopyBytes(kCCRandomDefault, &first, first.count) == 0)
        #expect(CCRandomCopyBytes(kCCRandomDevRandom, &second, second.count) == 0)
        #expect(first != second && first != [UInt8](repeating: 0, count: 32))
        #expect(kCCRandomDefault != kCCRandomDevRandom)
        let forged = try #require(OpaquePointer(bitPattern: 0x1000))
        var untouched = [UInt8](repeating: 7, count: 8)
        #expect(CCRandomCopyBytes(forged, &untouched, untouched.count) == -1)
        #expect(CCRandomCopyBytes(nil, &untouched, untouched.count) == -1)
        #expect(untouched == [UInt8](repeating: 7, count: 8))
        #expect(CCRandomCopyBytes(kCCRandomDefault, nil, 4) == -1)
    }
}
