import Foundation
import Security
import Testing

/// macOS's keychain item API (SecKeychainAddGenericPassword, SecKeychainItemCopyContent, …): the same items the
/// SecItem API and the `security` tool see, buffers handed out and freed as on macOS, Apple's status codes.
struct MacKeychainItemAPITests {
    let keychain: TestKeychain
    init() throws { keychain = try TestKeychain() }

    private func addGeneric(_ service: String, _ account: String, _ password: String) -> (OSStatus, SecKeychainItem?) {
        var item: SecKeychainItem?
        let status = SecKeychainAddGenericPassword(
            keychain.keychain, UInt32(service.utf8.count), service, UInt32(account.utf8.count), account,
            UInt32(password.utf8.count), password, &item)
        return (status, item)
    }

    @Test func genericPasswordRoundTripsThroughBothAPIs() throws {
        let (status, item) = addGeneric("svc.generic", "alice", "s3cret")
        #expect(status == errSecSuccess && item != nil)
        // SecItem sees the item, with macOS's label (the service name).
        var result: CFTypeRef?
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc.generic",
            kSecReturnAttributes as String: true, kSecReturnData as String: true,
        ]
        #expect(SecItemCopyMatching(keychain.q(query), &result) == errSecSuccess)
        let attributes = result as? [String: Any] ?? [:]
        #expect(attributes[kSecAttrAccount as String] as? String == "alice")
        #expect(attributes[kSecAttrLabel as String] as? String == "svc.generic")
        #expect(attributes[kSecValueData as String] as? Data == Data("s3cret".utf8))

        // Found back with the password in a buffer the caller frees once.
        var length: UInt32 = 0
        var data: UnsafeMutableRawPointer?
        var found: SecKeychainItem?
        let service = "svc.generic"
        #expect(
            SecKeychainFindGenericPassword(
                keychain.keychain, UInt32(service.utf8.count), service, 0, nil, &length, &data, &found)
                == errSecSuccess)
        #expect(length == 6 && found == item)
        let password = data.map { Data(bytes: $0, count: Int(length)) }
        #expect(password == Data("s3cret".utf8))
        #expect(SecKeychainItemFreeContent(nil, data) == errSecSuccess)
        #expect(SecKeychainItemFreeContent(nil, data) == errSecParam)
    }

    @Test func itemsAddedBySecItemAreFoundAndStatusesAreApples() throws {
        let add: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc.secitem",
            kSecAttrAccount as String: "bob", kSecValueData as String: Data("pw".utf8),
        ]
        #expect(SecItemAdd(keychain.q(add), nil) == errSecSuccess)
        var length: UInt32 = 0
        var data: UnsafeMutableRawPointer?
        #expect(
            SecKeychainFindGenericPassword(keychain.keychain, 11, "svc.secitem", 3, "bob", &length, &data, nil)
                == errSecSuccess)
        #expect(data.map { Data(bytes: $0, count: Int(length)) } == Data("pw".utf8))
        #expect(SecKeychainItemFreeContent(nil, data) == errSecSuccess)
        #expect(addGeneric("svc.secitem", "bob", "again").0 == errSecDuplicateItem)
        #expect(
            SecKeychainFindGenericPassword(keychain.keychain, 7, "missing", 0, nil, nil, nil, nil)
                == errSecItemNotFound)
        // A keychain array is a search list.
        var item: SecKeychainItem?
        #expect(
            SecKeychainFindGenericPassword([keychain.keychain] as CFArray, 11, "svc.secitem", 0, nil, nil, nil, &item)
                == errSecSuccess)
        #expect(item != nil)
    }

    @Test func internetPasswordKeepsProtocolAndAuthenticationTypeAsSecItemConstants() throws {
        var item: SecKeychainItem?
        let server = "example.com"
        #expect(
            SecKeychainAddInternetPassword(
                keychain.keychain, UInt32(server.utf8.count), server, 0, nil, 5, "carol", 6, "/login", 8443,
                .HTTPS, .htmlForm, 4, "pass", &item) == errSecSuccess)
        var result: CFTypeRef?
        let query: [String: Any] = [
            kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: server,
            kSecReturnAttributes as String: true,
        ]
        #expect(SecItemCopyMatching(keychain.q(query), &result) == errSecSuccess)
        let attributes = result as? [String: Any] ?? [:]
        #expect(attributes[kSecAttrProtocol as String] as? String == kSecAttrProtocolHTTPS as String)
        #expect(
            attributes[kSecAttrAuthenticationType as String] as? String
                == kSecAttrAuthenticationTypeHTMLForm as String)
        #expect((attributes[kSecAttrPort as String] as? NSNumber)?.intValue == 8443)
        #expect(attributes[kSecAttrPath as String] as? String == "/login")

        var length: UInt32 = 0
        var data: UnsafeMutableRawPointer?
        #expect(
            SecKeychainFindInternetPassword(
                keychain.keychain, UInt32(server.utf8.count), server, 0, nil, 0, nil, 0, nil, 0, .any, .any, &length,
                &data, nil) == errSecSuccess)
        #expect(data.map { Data(bytes: $0, count: Int(length)) } == Data("pass".utf8))
        #expect(SecKeychainItemFreeContent(nil, data) == errSecSuccess)
        #expect(
            SecKeychainFindInternetPassword(
                keychain.keychain, UInt32(server.utf8.count), server, 0, nil, 0, nil, 0, nil, 0, .FTP, .any, nil, nil,
                nil) == errSecItemNotFound)
        #expect(SecProtocolType.HTTPS.rawValue == 0x6874_7073 && SecAuthenticationType.default.rawValue == 0x6466_6C74)
    }

    @Test func modifyAndCopyContentThroughAttributeLists() throws {
        let (_, added) = addGeneric("svc.modify", "dave", "old")
        let item = try #require(added)
        let changes = CallerAttributeList([
            (.accountItemAttr, Array("erin".utf8)), (.creatorItemAttr, uint32Bytes(0x6162_6364)),
        ])
        #expect(SecKeychainItemModifyAttributesAndData(item, changes.list, 3, "new") == errSecSuccess)

        // SecItem sees the change.
        var result: CFTypeRef?
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc.modify",
            kSecReturnAttributes as String: true, kSecReturnData as String: true,
        ]
        #expect(SecItemCopyMatching(keychain.q(query), &result) == errSecSuccess)
        let attributes = result as? [String: Any] ?? [:]
        #expect(attributes[kSecAttrAccount as String] as? String == "erin")
        #expect((attributes[kSecAttrCreator as String] as? NSNumber)?.uint32Value == 0x6162_6364)
        #expect(attributes[kSecValueData as String] as? Data == Data("new".utf8))

        // SecKeychainItemCopyContent fills the caller's list.
        let wanted = CallerAttributeList([
            (.accountItemAttr, nil), (.serviceItemAttr, nil), (.commentItemAttr, nil), (.creationDateItemAttr, nil),
        ])
        var itemClass = SecItemClass.internetPasswordItemClass
        var length: UInt32 = 0
        var data: UnsafeMutableRawPointer?
        #expect(SecKeychainItemCopyContent(item, &itemClass, wanted.list, &length, &data) == errSecSuccess)
        #expect(itemClass == .genericPasswordItemClass)
        #expect(wanted.value(0) == Data("erin".utf8) && wanted.value(1) == Data("svc.modify".utf8))
        #expect(wanted.value(2) == nil && wanted.length(2) == 0)
        let date = wanted.value(3).map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(date.count == 16 && date.hasSuffix("Z\0"))
        #expect(data.map { Data(bytes: $0, count: Int(length)) } == Data("new".utf8))
        #expect(SecKeychainItemFreeContent(wanted.list, data) == errSecSuccess)
        #expect(wanted.value(0) == nil)

        // A tag generic passwords lack.
        let server = CallerAttributeList([(.serverItemAttr, nil)])
        #expect(SecKeychainItemCopyContent(item, nil, server.list, nil, nil) == errSecNoSuchAttr)
    }

    @Test func copyAttributesAndDataAllocatesTheListAndFreesIt() throws {
        let (_, added) = addGeneric("svc.attrs", "frank", "pw")
        let item = try #require(added)
        let tags = UnsafeMutablePointer<UInt32>.allocate(capacity: 2)
        tags.initialize(from: [SecItemAttr.accountItemAttr.rawValue, SecItemAttr.labelItemAttr.rawValue], count: 2)
        defer { tags.deallocate() }
        var info = SecKeychainAttributeInfo(count: 2, tag: tags, format: nil)
        var list: UnsafeMutablePointer<SecKeychainAttributeList>?
        var length: UInt32 = 0
        var data: UnsafeMutableRawPointer?
        #expect(SecKeychainItemCopyAttributesAndData(item, &info, nil, &list, &length, &data) == errSecSuccess)
        let copied = try #require(list)
        #expect(copied.pointee.count == 2)
        let first = try #require(copied.pointee.attr?[0])
        #expect(first.data.map { Data(bytes: $0, count: Int(first.length)) } == Data("frank".utf8))
        #expect(SecKeychainItemFreeAttributesAndData(copied, data) == errSecSuccess)

        // Every attribute of the class when no info is given, and the class's attribute info.
        var all: UnsafeMutablePointer<SecKeychainAttributeList>?
        #expect(SecKeychainItemCopyAttributesAndData(item, nil, nil, &all, nil, nil) == errSecSuccess)
        #expect((all?.pointee.count ?? 0) > 10)
        #expect(SecKeychainItemFreeAttributesAndData(all, nil) == errSecSuccess)
        var classInfo: UnsafeMutablePointer<SecKeychainAttributeInfo>?
        #expect(
            SecKeychainAttributeInfoForItemID(
                keychain.keychain, SecItemClass.internetPasswordItemClass.rawValue, &classInfo) == errSecSuccess)
        let described = try #require(classInfo)
        let count = Int(described.pointee.count)
        let describedTags = (0..<count).map { described.pointee.tag[$0] }
        #expect(describedTags.contains(SecItemAttr.protocolItemAttr.rawValue))
        #expect(SecKeychainFreeAttributeInfo(described) == errSecSuccess)
    }

    @Test func deleteSearchAndCopyKeychain() throws {
        let (_, first) = addGeneric("svc.search", "one", "1")
        _ = addGeneric("svc.search", "two", "2")
        _ = addGeneric("svc.other", "three", "3")
        let list = CallerAttributeList([(.serviceItemAttr, Array("svc.search".utf8))])
        var search: SecKeychainSearch?
        #expect(
            SecKeychainSearchCreateFromAttributes(keychain.keychain, .genericPasswordItemClass, list.list, &search)
                == errSecSuccess)
        let running = try #require(search)
        var found = 0
        var item: SecKeychainItem?
        while SecKeychainSearchCopyNext(running, &item) == errSecSuccess { found += 1 }
        #expect(found == 2 && item == nil)
        #expect(CFGetTypeID(running) == SecKeychainSearchGetTypeID())

        let target = try #require(first)
        var owner: SecKeychain?
        #expect(SecKeychainItemCopyKeychain(target, &owner) == errSecSuccess && owner == keychain.keychain)
        #expect(SecKeychainItemDelete(target) == errSecSuccess)
        #expect(SecKeychainItemDelete(target) == errSecInvalidItemRef)
        #expect(
            SecKeychainFindGenericPassword(keychain.keychain, 10, "svc.search", 3, "one", nil, nil, nil)
                == errSecItemNotFound)
    }

    @Test func keySearchesFindKeysOfTheirKind() throws {
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
        ]
        let key = try #require(SecKeyCreateRandomKey(attributes as CFDictionary, nil))
        let add: [String: Any] = [
            kSecClass as String: kSecClassKey, kSecValueRef as String: key, kSecAttrLabel as String: "search key",
        ]
        #expect(SecItemAdd(keychain.q(add), nil) == errSecSuccess)
        var search: SecKeychainSearch?
        #expect(SecKeychainSearchCreateFromAttributes(keychain.keychain, .privateKeyItemClass, nil, &search) == noErr)
        var item: SecKeychainItem?
        #expect(SecKeychainSearchCopyNext(try #require(search), &item) == errSecSuccess)
        var itemClass = SecItemClass.genericPasswordItemClass
        let label = CallerAttributeList([(.labelItemAttr, nil)])
        label.entries[0].tag = UInt32(kSecKeyPrintName)
        #expect(SecKeychainItemCopyContent(try #require(item), &itemClass, label.list, nil, nil) == errSecSuccess)
        #expect(itemClass == .privateKeyItemClass && label.value(0) == Data("search key".utf8))
        #expect(SecKeychainItemFreeContent(label.list, nil) == errSecSuccess)
        #expect(SecKeychainSearchCreateFromAttributes(keychain.keychain, .publicKeyItemClass, nil, &search) == noErr)
        #expect(SecKeychainSearchCopyNext(try #require(search), &item) == errSecItemNotFound)
    }

    @Test func accessObjectsAreKeptAndReturned() throws {
        let (_, added) = addGeneric("svc.access", "gina", "pw")
        let item = try #require(added)
        var access: SecAccess?
        #expect(SecKeychainItemCopyAccess(item, &access) == errSecSuccess)
        var acls: CFArray?
        #expect(SecAccessCopyACLList(try #require(access), &acls) == errSecSuccess)
        #expect((acls as? [SecACL])?.count == 1)

        var custom: SecAccess?
        #expect(SecAccessCreate("Custom" as CFString, [] as CFArray, &custom) == errSecSuccess)
        let made = try #require(custom)
        var acl: SecACL?
        #expect(
            SecACLCreateWithSimpleContents(made, nil, "Extra" as CFString, [.requirePassphase], &acl)
                == errSecSuccess)
        #expect(SecACLUpdateAuthorizations(try #require(acl), [kSecACLAuthorizationDecrypt] as CFArray) == noErr)
        #expect(SecACLCopyAuthorizations(try #require(acl)) as? [String] == [kSecACLAuthorizationDecrypt as String])
        #expect(SecKeychainItemSetAccess(item, made) == errSecSuccess)
        var back: SecAccess?
        #expect(SecKeychainItemCopyAccess(item, &back) == errSecSuccess && back === made)
        #expect(SecAccessCopyMatchingACLList(made, kSecACLAuthorizationDecrypt)?.count == 2)
        var applications: CFArray?
        var description: CFString?
        var selector = SecKeychainPromptSelector()
        #expect(SecACLCopyContents(try #require(acl), &applications, &description, &selector) == noErr)
        #expect(applications == nil && description as String? == "Extra" && selector == .requirePassphase)
        #expect(SecACLRemove(try #require(acl)) == errSecSuccess)
        #expect(SecAccessCopyMatchingACLList(made, kSecACLAuthorizationDecrypt)?.count == 1)

        var application: SecTrustedApplication?
        #expect(SecTrustedApplicationCreateFromPath("/bin/sh", &application) == errSecSuccess)
        var appData: CFData?
        #expect(SecTrustedApplicationCopyData(try #require(application), &appData) == errSecSuccess)
        #expect(appData as Data? == Data("/bin/sh".utf8))
        #expect(SecTrustedApplicationCreateFromPath("/no/such/app", &application) == errSecIO)

        // Apple never implemented the keychain-wide access functions.
        var keychainAccess: SecAccess?
        #expect(SecKeychainCopyAccess(keychain.keychain, &keychainAccess) == errSecUnimplemented)
        #expect(SecKeychainSetAccess(keychain.keychain, made) == errSecUnimplemented)
    }

    @Test func versionAndUserInteraction() {
        var version: UInt32 = 0
        #expect(SecKeychainGetVersion(&version) == errSecSuccess && version == 1)
        var allowed = DarwinBoolean(false)
        #expect(SecKeychainGetUserInteractionAllowed(&allowed) == errSecSuccess)
        #expect(SecKeychainSetUserInteractionAllowed(false) == errSecSuccess)
        #expect(SecKeychainGetUserInteractionAllowed(&allowed) == errSecSuccess && !allowed.boolValue)
        #expect(SecKeychainSetUserInteractionAllowed(true) == errSecSuccess)
    }

    @Test func createFromContentCopyAndPersistentReference() throws {
        let list = CallerAttributeList([
            (.accountItemAttr, Array("hank".utf8)), (.serviceItemAttr, Array("svc.content".utf8)),
        ])
        var item: SecKeychainItem?
        #expect(
            SecKeychainItemCreateFromContent(
                .genericPasswordItemClass, list.list, 2, "pw", keychain.keychain, nil, &item)
                == errSecSuccess)
        let created = try #require(item)
        var reference: CFData?
        #expect(SecKeychainItemCreatePersistentReference(created, &reference) == errSecSuccess)

        let other = try TestKeychain()
        var copy: SecKeychainItem?
        #expect(SecKeychainItemCreateCopy(created, other.keychain, nil, &copy) == errSecSuccess)
        var length: UInt32 = 0
        var data: UnsafeMutableRawPointer?
        #expect(
            SecKeychainFindGenericPassword(other.keychain, 11, "svc.content", 4, "hank", &length, &data, nil)
                == errSecSuccess)
        #expect(data.map { Data(bytes: $0, count: Int(length)) } == Data("pw".utf8))
        #expect(SecKeychainItemFreeContent(nil, data) == errSecSuccess)
    }
}

/// Attribute lists built the way macOS C callers build them: caller-owned buffers, freed when done.
final class CallerAttributeList {
    private var buffers: [UnsafeMutableRawPointer] = []
    let entries: UnsafeMutablePointer<SecKeychainAttribute>
    let list: UnsafeMutablePointer<SecKeychainAttributeList>
    let count: Int

    /// Attributes with values (bytes) or, for nil, empty slots to be filled.
    init(_ attributes: [(SecItemAttr, [UInt8]?)]) {
        count = attributes.count
        entries = UnsafeMutablePointer<SecKeychainAttribute>.allocate(capacity: max(1, count))
        for (index, (tag, bytes)) in attributes.enumerated() {
            var data: UnsafeMutableRawPointer?
            if let bytes {
                let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(1, bytes.count), alignment: 8)
                buffer.copyMemory(from: bytes, byteCount: bytes.count)
                buffers.append(buffer)
                data = buffer
            }
            entries.advanced(by: index).initialize(
                to: SecKeychainAttribute(tag: tag.rawValue, length: UInt32(bytes?.count ?? 0), data: data))
        }
        list = UnsafeMutablePointer<SecKeychainAttributeList>.allocate(capacity: 1)
        list.initialize(to: SecKeychainAttributeList(count: UInt32(count), attr: entries))
    }

    /// The value of slot `index` as filled by the keychain.
    func value(_ index: Int) -> Data? {
        let entry = entries[index]
        return entry.data.map { Data(bytes: $0, count: Int(entry.length)) }
    }

    func length(_ index: Int) -> UInt32 { entries[index].length }

    deinit {
        for buffer in buffers { buffer.deallocate() }
        entries.deallocate()
        list.deallocate()
    }
}

func uint32Bytes(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }

/// The `security` tool reads what the API wrote.
@Suite(.enabled(if: SecurityTool.executable != nil, "needs the security executable (swift build)"))
struct MacKeychainItemToolInteropTests {
    @Test func securityFindGenericPasswordReadsAnItemAddedByTheAPI() throws {
        let keychain = try TestKeychain()
        let sandbox = try SecurityToolSandbox("osec-mackeychain")
        #expect(
            SecKeychainAddGenericPassword(keychain.keychain, 8, "svc.tool", 4, "ivan", 7, "tool-pw", nil)
                == errSecSuccess)
        let found = try sandbox.check(["find-generic-password", "-s", "svc.tool", "-a", "ivan", "-w", keychain.path])
        #expect(found.stdout == "tool-pw\n")
    }
}
