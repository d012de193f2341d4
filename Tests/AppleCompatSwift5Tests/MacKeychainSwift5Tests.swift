import Foundation
import Testing

// Swift 5 mode, Security from the implicit import (as `import Foundation` gives it on macOS): the macOS keychain
// item API the way Objective-C-era Swift code calls it, and SecItemImport/SecItemExport for a certificate.

struct MacKeychainSwift5Tests {
    init() { Swift5Environment.isolate() }

    @Test func findGenericPasswordWithCopyContentAttributes() throws {
        let service = Swift5Environment.service("mac5")
        var item: SecKeychainItem? = nil
        #expect(
            SecKeychainAddGenericPassword(
                nil, UInt32(service.utf8.count), service, 4, "user", 3, "abc", &item) == noErr)
        let found = try #require(item)
        var itemClass: SecItemClass = .internetPasswordItemClass
        var length: UInt32 = 0
        var data: UnsafeMutableRawPointer? = nil
        #expect(SecKeychainItemCopyContent(found, &itemClass, nil, &length, &data) == noErr)
        #expect(itemClass == .genericPasswordItemClass)
        #expect(String(data: Data(bytes: data!, count: Int(length)), encoding: .utf8) == "abc")
        #expect(SecKeychainItemFreeContent(nil, data) == noErr)
        var keychain: SecKeychain? = nil
        #expect(SecKeychainItemCopyKeychain(found, &keychain) == noErr && keychain != nil)
        #expect(SecKeychainItemDelete(found) == noErr)
    }

    @Test func secItemExportAndImportOfAKey() throws {
        var error: Unmanaged<CFError>? = nil
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 2048,
        ]
        let key = try #require(SecKeyCreateRandomKey(attributes as CFDictionary, &error))
        let publicKey = try #require(SecKeyCopyPublicKey(key))
        var exported: CFData? = nil
        #expect(SecItemExport(publicKey, .formatOpenSSL, .pemArmour, nil, &exported) == noErr)
        var format = SecExternalFormat.formatUnknown
        var type = SecExternalItemType.itemTypeUnknown
        var items: CFArray? = nil
        #expect(SecItemImport(exported!, "key.pem" as CFString, &format, &type, [], nil, nil, &items) == noErr)
        #expect(type == .itemTypePublicKey && format == .formatOpenSSL)
        #expect((items as? [SecKey])?.count == 1)
    }
}
