import Foundation
import Testing

// Swift 5 macOS command-line style, with Security coming in through Foundation: a password-derived AES key and a
// stored random key (SecKeyDeriveFromPassword, SecKeyGenerateSymmetric with kSecAttrIsPermanent), the stored keys
// listed with kSecMatchLimitAll and walked with CFArrayGetCount/CFArrayGetValueAtIndex + unsafeBitCast, and the
// raw bytes exported with SecItemExport.

@Suite struct MacSymmetricKeySwift5Tests {
    init() { Swift5Environment.isolate() }

    @Test func derivedAndStoredKeysThroughCoreFoundationAccessors() throws {
        let salt = Data("pepper".utf8)
        let parameters = NSMutableDictionary()
        parameters[kSecAttrSalt] = salt
        parameters[kSecAttrRounds] = NSNumber(value: 1000)
        parameters[kSecAttrKeySizeInBits] = NSNumber(value: 256)
        var error: Unmanaged<CFError>?
        guard let derived = SecKeyDeriveFromPassword("correct horse" as CFString, parameters, &error) else {
            Issue.record("derive failed: \(String(describing: error?.takeRetainedValue()))")
            return
        }
        var exported: CFData?
        #expect(SecItemExport(derived, .formatRawKey, [], nil, &exported) == errSecSuccess)
        #expect(CFDataGetLength(exported) == 32)

        let tag = "compat5.symmetric.\(UUID().uuidString)"
        let generate: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeAES, kSecAttrKeySizeInBits as String: 128,
            kSecAttrIsPermanent as String: kCFBooleanTrue!, kSecAttrLabel as String: tag,
        ]
        let stored = SecKeyGenerateSymmetric(generate as CFDictionary, &error)
        #expect(stored != nil)

        var result: CFTypeRef?
        let query: [String: Any] = [
            kSecClass as String: kSecClassKey, kSecAttrKeyClass as String: kSecAttrKeyClassSymmetric,
            kSecAttrLabel as String: tag, kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnRef as String: true,
        ]
        #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
        let keys: CFArray = try #require(result as? NSArray)
        #expect(CFArrayGetCount(keys) == 1)
        let first = unsafeBitCast(CFArrayGetValueAtIndex(keys, 0), to: SecKey.self)
        #expect(CFGetTypeID(first) == SecKeyGetTypeID())
        #expect(SecKeyGetBlockSize(first) == 16)
        #expect(CFEqual(first, stored))
        #expect(SecItemDelete([kSecClass: kSecClassKey, kSecAttrLabel: tag] as CFDictionary) == errSecSuccess)
    }
}
