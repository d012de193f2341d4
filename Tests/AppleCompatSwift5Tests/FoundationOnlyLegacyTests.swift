// No `import Security`: code written for Apple platforms often gets Security through `import Foundation` alone.
// This target is compiled with `-Xfrontend -import-module -Xfrontend Security` (Package.swift), the flag the README
// gives for such code that cannot be edited.
import Foundation
import XCTest

/// An older Swift 5 keychain helper: `…Ref` spellings, `AnyObject?` results, `status == noErr`, legacy key pair
/// generation with SecKeyGeneratePair, and the macOS delete-all branch.
final class LegacyKeychainHelper {
    let service: String

    init(service: String) { self.service = service }

    private var baseQuery: [String: AnyObject] {
        return [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service as AnyObject,
        ]
    }

    func save(_ value: String, account: String) -> OSStatus {
        var query = baseQuery
        query[kSecAttrAccount as String] = account as AnyObject
        _ = SecItemDelete(query as CFDictionaryRef)
        query[kSecValueData as String] = value.data(using: .utf8)! as NSData
        return SecItemAdd(query as CFDictionaryRef, nil)
    }

    func load(account: String) -> String? {
        var query = baseQuery
        query[kSecAttrAccount as String] = account as AnyObject
        query[kSecReturnData as String] = kCFBooleanTrue
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var dataTypeRef: AnyObject?
        let status: OSStatus = SecItemCopyMatching(query as CFDictionary, &dataTypeRef)
        guard status == noErr, let data = dataTypeRef as? NSData else { return nil }
        return String(data: data as Data, encoding: .utf8)
    }

    func accounts() -> [String] {
        var query = baseQuery
        query[kSecReturnAttributes as String] = kCFBooleanTrue
        query[kSecReturnRef as String] = kCFBooleanTrue
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &result) == noErr,
            let items = result as? NSArray
        else { return [] }
        var names: [String] = []
        for case let item as NSDictionary in items {
            if let account = item[kSecAttrAccount] as? String { names.append(account) }
        }
        return names.sorted()
    }

    func deleteAll() -> OSStatus {
        var query = baseQuery
        #if os(iOS)
        #else
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        #endif
        return SecItemDelete(query as CFDictionary)
    }
}

final class FoundationOnlyLegacyTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        Swift5Environment.isolate()
    }

    func testKeychainHelperWithoutImportingSecurity() {
        let helper = LegacyKeychainHelper(service: Swift5Environment.service("legacy"))
        XCTAssertEqual(helper.save("one", account: "a"), noErr)
        XCTAssertEqual(helper.save("two", account: "b"), errSecSuccess)
        XCTAssertEqual(helper.save("uno", account: "a"), noErr)
        XCTAssertEqual(helper.load(account: "a"), "uno")
        XCTAssertEqual(helper.accounts(), ["a", "b"])
        XCTAssertEqual(helper.deleteAll(), noErr)
        XCTAssertEqual(helper.accounts(), [])
        XCTAssertEqual(helper.deleteAll(), errSecItemNotFound)
        let message = SecCopyErrorMessageString(errSecItemNotFound, nil) as String?
        XCTAssertEqual(message, "The specified item could not be found in the keychain.")
    }

    func testLegacyKeyPairWithRefSpellings() {
        let parameters: CFDictionaryRef =
            [
                kSecAttrKeyType as String: kSecAttrKeyTypeEC,
                kSecAttrKeySizeInBits as String: 256,
                kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: false],
            ] as CFDictionary
        var publicKey: SecKeyRef?
        var privateKey: SecKeyRef?
        let status = SecKeyGeneratePair(parameters, &publicKey, &privateKey)
        XCTAssertEqual(status, noErr)
        guard let publicKey = publicKey, let privateKey = privateKey else { return XCTFail("no key pair") }
        let message: CFDataRef = "legacy".data(using: .utf8)! as CFDataRef
        var error: Unmanaged<CFErrorRef>?
        let signature = SecKeyCreateSignature(privateKey, .ecdsaSignatureMessageX962SHA256, message, &error)
        XCTAssertNotNil(signature)
        XCTAssertTrue(
            SecKeyVerifySignature(publicKey, .ecdsaSignatureMessageX962SHA256, message, signature!, &error))
        let attributes = SecKeyCopyAttributes(publicKey) as? [String: AnyObject] ?? [:]
        XCTAssertEqual(attributes[kSecAttrKeyClass as String] as? String, kSecAttrKeyClassPublic as String)
        XCTAssertEqual(CFGetTypeID(privateKey), SecKeyGetTypeID())
    }

    func testRandomBytesIntoAByteArray() {
        var bytes = [UInt8](repeating: 0, count: 16)
        let result = SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes)
        XCTAssertEqual(result, errSecSuccess)
        XCTAssertNotEqual(bytes, [UInt8](repeating: 0, count: 16))
    }
}
