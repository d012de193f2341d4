import Foundation
import Security
import Testing

// Core Foundation's pointer-returning getters as Security-using code calls them on Security's results:
// `unsafeBitCast(CFArrayGetValueAtIndex(chain, 0), to: SecCertificate.self)`, `CFDictionaryGetValue(item,
// Unmanaged.passUnretained(kSecImportItemIdentity).toOpaque())`, `CFDataGetBytePtr(data)`.

@Suite struct CoreFoundationPointerAccessTests {
    init() { CompatEnvironment.isolated }

    @Test func arrayElementsComeBackAsTheSameObjects() throws {
        let chain = try #require(PinningChain.shared)
        let certificates = [chain.leaf, chain.root] as CFArray
        #expect(CFArrayGetCount(certificates) == 2)
        let first = unsafeBitCast(CFArrayGetValueAtIndex(certificates, 0), to: SecCertificate.self)
        #expect(first === chain.leaf)
        let second = Unmanaged<SecCertificate>.fromOpaque(try #require(CFArrayGetValueAtIndex(certificates, 1)))
            .takeUnretainedValue()
        #expect(CFEqual(second, chain.root))
        #expect(CFArrayGetValueAtIndex(certificates, 2) == nil)
        #expect(CFArrayGetValueAtIndex(certificates, -1) == nil)
    }

    @Test func bridgedElementsStayValidWhileTheArrayLives() {
        let names = ["alpha", "beta"] as CFArray
        let pointer = CFArrayGetValueAtIndex(names, 1)
        // The same slot answers the same object every time, and it outlives the getter.
        #expect(CFArrayGetValueAtIndex(names, 1) == pointer)
        let value = unsafeBitCast(pointer, to: CFString.self)
        #expect(value as String == "beta")
        #expect(CFStringGetLength(value) == 4)
    }

    @Test func dictionaryValuesByKeyObjectAddress() throws {
        let chain = try #require(PinningChain.shared)
        let trust = try #require(chain.serverTrust())
        let item: CFDictionary =
            [kSecImportItemTrust as String: trust, kSecImportItemLabel as String: "leaf"] as CFDictionary
        let trustPointer = try #require(
            CFDictionaryGetValue(item, Unmanaged.passUnretained(kSecImportItemTrust).toOpaque()))
        #expect(Unmanaged<SecTrust>.fromOpaque(trustPointer).takeUnretainedValue() === trust)
        let label = unsafeBitCast(
            CFDictionaryGetValue(item, unsafeBitCast(kSecImportItemLabel, to: UnsafeRawPointer.self)),
            to: CFString.self)
        #expect(label as String == "leaf")
        #expect(CFDictionaryContainsKey(item, Unmanaged.passUnretained(kSecImportItemLabel).toOpaque()))
        #expect(!CFDictionaryContainsKey(item, Unmanaged.passUnretained(kSecImportItemIdentity).toOpaque()))
        #expect(CFDictionaryGetValue(item, Unmanaged.passUnretained(kSecImportItemIdentity).toOpaque()) == nil)
        var value: UnsafeRawPointer?
        #expect(CFDictionaryGetValueIfPresent(item, Unmanaged.passUnretained(kSecImportItemTrust).toOpaque(), &value))
        #expect(value == trustPointer)
        #expect(CFDictionaryGetCount(item) == 2)
    }

    @Test func dataBytesThroughTheirPointer() throws {
        let chain = try #require(PinningChain.shared)
        let der = SecCertificateCopyData(chain.leaf)
        let length = CFDataGetLength(der)
        let bytes = try #require(CFDataGetBytePtr(der))
        let copied = Data(bytes: bytes, count: length)
        #expect(copied == chain.leafDER)
        #expect(bytes[0] == 0x30)
        let empty = Data() as CFData
        #expect(CFDataGetLength(empty) == 0)
    }
}
