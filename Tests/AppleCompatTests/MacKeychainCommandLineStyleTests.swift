import Foundation
import Security
import Testing

// In the style of macOS command-line tools and older keychain wrappers (the gist-era `Keychain.set/get` helpers):
// SecKeychainFindGenericPassword with String arguments passed as C strings and UTF-8 lengths, the password buffer
// read with Data(bytes:count:) and freed with SecKeychainItemFreeContent, SecKeychainItemModifyContent to
// change it, SecKeychainItemDelete to remove it.

enum MacCLIKeychain {
    static func set(_ service: String, account: String, password: String) -> OSStatus {
        var item: SecKeychainItem? = nil
        var status = SecKeychainFindGenericPassword(
            nil, UInt32(service.utf8.count), service, UInt32(account.utf8.count), account, nil, nil, &item)
        if status != noErr && status != errSecItemNotFound { return status }
        if let item {
            status = SecKeychainItemModifyContent(item, nil, UInt32(password.utf8.count), password)
        } else {
            status = SecKeychainAddGenericPassword(
                nil, UInt32(service.utf8.count), service, UInt32(account.utf8.count), account,
                UInt32(password.utf8.count), password, nil)
        }
        return status
    }

    static func get(_ service: String, account: String) -> String? {
        var length: UInt32 = 0
        var data: UnsafeMutableRawPointer? = nil
        let status = SecKeychainFindGenericPassword(
            nil, UInt32(service.utf8.count), service, UInt32(account.utf8.count), account, &length, &data, nil)
        guard status == noErr, let data else { return nil }
        defer { _ = SecKeychainItemFreeContent(nil, data) }
        return String(data: Data(bytes: data, count: Int(length)), encoding: .utf8)
    }

    static func delete(_ service: String, account: String) -> OSStatus {
        var item: SecKeychainItem?
        let status = SecKeychainFindGenericPassword(
            nil, UInt32(service.utf8.count), service, UInt32(account.utf8.count), account, nil, nil, &item)
        guard status == noErr, let item else { return status }
        return SecKeychainItemDelete(item)
    }
}

struct MacKeychainCommandLineStyleTests {
    init() { CompatEnvironment.isolated }

    @Test func setGetUpdateDeleteThroughTheMacOSKeychainAPI() {
        let service = CompatEnvironment.service("maccli")
        #expect(MacCLIKeychain.set(service, account: "me", password: "first") == noErr)
        #expect(MacCLIKeychain.get(service, account: "me") == "first")
        #expect(MacCLIKeychain.set(service, account: "me", password: "second") == noErr)
        #expect(MacCLIKeychain.get(service, account: "me") == "second")
        // The same item through SecItem, as code mixing both APIs sees it.
        var result: CFTypeRef?
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecReturnData as String: kCFBooleanTrue!,
        ]
        #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
        #expect((result as? Data).flatMap { String(data: $0, encoding: .utf8) } == "second")
        #expect(MacCLIKeychain.delete(service, account: "me") == noErr)
        #expect(MacCLIKeychain.get(service, account: "me") == nil)
        #expect(MacCLIKeychain.delete(service, account: "me") == errSecItemNotFound)
    }

    @Test func internetPasswordsWithProtocolAndMessage() {
        let server = CompatEnvironment.service("server") + ".example"
        let user = "deploy"
        var status = SecKeychainAddInternetPassword(
            nil, UInt32(server.utf8.count), server, 0, nil, UInt32(user.utf8.count), user, 0, nil, 443, .HTTPS,
            .default, 6, "hunter", nil)
        #expect(status == errSecSuccess)
        status = SecKeychainAddInternetPassword(
            nil, UInt32(server.utf8.count), server, 0, nil, UInt32(user.utf8.count), user, 0, nil, 443, .HTTPS,
            .default, 6, "hunter", nil)
        #expect(status == errSecDuplicateItem)
        #expect(SecCopyErrorMessageString(status, nil) as String? != nil)
        var length: UInt32 = 0
        var data: UnsafeMutableRawPointer?
        status = SecKeychainFindInternetPassword(
            nil, UInt32(server.utf8.count), server, 0, nil, UInt32(user.utf8.count), user, 0, nil, 443, .HTTPS,
            .default, &length, &data, nil)
        #expect(status == errSecSuccess && length == 6)
        #expect(SecKeychainItemFreeContent(nil, data) == errSecSuccess)
    }
}
