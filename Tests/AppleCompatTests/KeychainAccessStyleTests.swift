import Foundation
import Security
import Testing

// A password store written the way KeychainAccess-style wrappers are: string constants made from the kSec
// constants, option structs turned into query dictionaries, `#if os(…)` branches for macOS, every item read with
// data, attributes, ref and persistent ref at once, and listings read as `[[String: Any]]`.

private let Class = String(kSecClass)
private let AttributeAccount = String(kSecAttrAccount)
private let AttributeService = String(kSecAttrService)
private let AttributeLabel = String(kSecAttrLabel)
private let AttributeComment = String(kSecAttrComment)
private let AttributeAccessible = String(kSecAttrAccessible)
private let AttributeAccessControl = String(kSecAttrAccessControl)
private let AttributeSynchronizable = String(kSecAttrSynchronizable)
private let AttributeModificationDate = String(kSecAttrModificationDate)
private let MatchLimit = String(kSecMatchLimit)
private let MatchLimitOne = String(kSecMatchLimitOne)
private let MatchLimitAll = String(kSecMatchLimitAll)
private let ReturnData = String(kSecReturnData)
private let ReturnAttributes = String(kSecReturnAttributes)
private let ReturnRef = String(kSecReturnRef)
private let ReturnPersistentRef = String(kSecReturnPersistentRef)
private let ValueData = String(kSecValueData)
private let ValueRef = String(kSecValueRef)
private let ValuePersistentRef = String(kSecValuePersistentRef)
private let UseDataProtectionKeychain = String(kSecUseDataProtectionKeychain)

enum KeychainStyleError: Error, Equatable, CustomStringConvertible {
    case unexpectedStatus(OSStatus)
    case conversion

    init(status: OSStatus) { self = .unexpectedStatus(status) }

    var status: OSStatus {
        if case .unexpectedStatus(let status) = self { return status }
        return errSecParam
    }

    var description: String {
        switch self {
        case .unexpectedStatus(let status):
            return SecCopyErrorMessageString(status, nil) as String? ?? "OSStatus \(status)"
        case .conversion: return "conversion error"
        }
    }
}

struct Attributes {
    let account: String?
    let label: String?
    let comment: String?
    let data: Data?
    let ref: AnyObject?
    let persistentRef: Data?
    let accessControl: SecAccessControl?

    init(_ attributes: [String: Any]) {
        account = attributes[AttributeAccount] as? String
        label = attributes[AttributeLabel] as? String
        comment = attributes[AttributeComment] as? String
        data = attributes[ValueData] as? Data
        ref = attributes[ValueRef] as AnyObject?
        persistentRef = attributes[ValuePersistentRef] as? Data
        accessControl = attributes[AttributeAccessControl] as? SecAccessControl
    }
}

struct PasswordKeychain {
    enum Accessibility {
        case whenUnlocked, afterFirstUnlock, whenPasscodeSetThisDeviceOnly

        var rawValue: String {
            switch self {
            case .whenUnlocked: return String(kSecAttrAccessibleWhenUnlocked)
            case .afterFirstUnlock: return String(kSecAttrAccessibleAfterFirstUnlock)
            case .whenPasscodeSetThisDeviceOnly: return String(kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly)
            }
        }
    }

    let service: String
    var accessibility = Accessibility.afterFirstUnlock
    var authenticationPolicy: SecAccessControlCreateFlags?
    var label: String?

    func query() -> [String: Any] {
        var query: [String: Any] = [Class: String(kSecClassGenericPassword), AttributeService: service]
        #if os(macOS)
        query[UseDataProtectionKeychain] = kCFBooleanTrue!
        #endif
        return query
    }

    func attributes(key: String, value: Data) throws -> [String: Any] {
        var attributes = query()
        attributes[AttributeAccount] = key
        attributes[ValueData] = value
        if let label { attributes[AttributeLabel] = label }
        if let policy = authenticationPolicy {
            var error: Unmanaged<CFError>?
            guard
                let accessControl = SecAccessControlCreateWithFlags(
                    kCFAllocatorDefault, accessibility.rawValue as CFTypeRef, policy, &error)
            else {
                if let error = error?.takeUnretainedValue() {
                    throw KeychainStyleError(status: OSStatus(CFErrorGetCode(error)))
                }
                throw KeychainStyleError.unexpectedStatus(errSecParam)
            }
            attributes[AttributeAccessControl] = accessControl
        } else {
            attributes[AttributeAccessible] = accessibility.rawValue
        }
        return attributes
    }

    func set(_ value: String, key: String) throws {
        guard let data = value.data(using: .utf8, allowLossyConversion: false) else {
            throw KeychainStyleError.conversion
        }
        var query = self.query()
        query[AttributeAccount] = key
        var status = SecItemCopyMatching(query as CFDictionary, nil)
        switch status {
        case errSecSuccess, errSecInteractionNotAllowed:
            var update: [String: Any] = [ValueData: data]
            if let label { update[AttributeLabel] = label }
            status = SecItemUpdate(query as CFDictionary, update as CFDictionary)
            if status != errSecSuccess { throw KeychainStyleError(status: status) }
        case errSecItemNotFound:
            status = SecItemAdd(try attributes(key: key, value: data) as CFDictionary, nil)
            if status != errSecSuccess { throw KeychainStyleError(status: status) }
        default:
            throw KeychainStyleError(status: status)
        }
    }

    func get(_ key: String) throws -> String? {
        var query = self.query()
        query[MatchLimit] = MatchLimitOne
        query[ReturnData] = kCFBooleanTrue
        query[AttributeAccount] = key
        var result: AnyObject?
        let status = withUnsafeMutablePointer(to: &result) { SecItemCopyMatching(query as CFDictionary, $0) }
        switch status {
        case errSecSuccess:
            guard let data = result as? Data else { throw KeychainStyleError.conversion }
            return String(data: data, encoding: .utf8)
        case errSecItemNotFound:
            return nil
        default:
            throw KeychainStyleError(status: status)
        }
    }

    /// Everything about one item: the wrapper asks for data, attributes, ref and persistent ref together.
    func attributes(of key: String) throws -> Attributes? {
        var query = self.query()
        query[MatchLimit] = MatchLimitOne
        query[ReturnData] = kCFBooleanTrue
        query[ReturnAttributes] = kCFBooleanTrue
        query[ReturnRef] = kCFBooleanTrue
        query[ReturnPersistentRef] = kCFBooleanTrue
        query[AttributeAccount] = key
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess:
            guard let attributes = result as? [String: Any] else { throw KeychainStyleError.conversion }
            return Attributes(attributes)
        case errSecItemNotFound:
            return nil
        default:
            throw KeychainStyleError(status: status)
        }
    }

    func allKeys() throws -> [String] {
        var query = self.query()
        query[ReturnAttributes] = kCFBooleanTrue
        query[MatchLimit] = MatchLimitAll
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess:
            guard let items = result as? [[String: Any]] else { return [] }
            return items.compactMap { $0[AttributeAccount] as? String }.sorted()
        case errSecItemNotFound:
            return []
        default:
            throw KeychainStyleError(status: status)
        }
    }

    func remove(_ key: String) throws {
        var query = self.query()
        query[AttributeAccount] = key
        let status = SecItemDelete(query as CFDictionary)
        if status != errSecSuccess && status != errSecItemNotFound { throw KeychainStyleError(status: status) }
    }

    func removeAll() throws {
        var query = self.query()
        #if !os(iOS) && !os(watchOS) && !os(tvOS) && !os(visionOS)
        // The macOS keychain deletes only the first match without a limit.
        query[MatchLimit] = MatchLimitAll
        #endif
        let status = SecItemDelete(query as CFDictionary)
        if status != errSecSuccess && status != errSecItemNotFound { throw KeychainStyleError(status: status) }
    }
}

@Suite struct KeychainAccessStyleTests {
    init() { CompatEnvironment.isolated }

    @Test func setGetUpdateRemoveRoundTrip() throws {
        let keychain = PasswordKeychain(service: CompatEnvironment.service("kca"))
        #expect(try keychain.get("username") == nil)
        try keychain.set("kishikawa_katsumi", key: "username")
        #expect(try keychain.get("username") == "kishikawa_katsumi")
        try keychain.set("katsumi", key: "username")
        #expect(try keychain.get("username") == "katsumi", "an existing item is updated, not duplicated")
        try keychain.remove("username")
        #expect(try keychain.get("username") == nil)
    }

    @Test func listingReturnsEveryAccount() throws {
        let keychain = PasswordKeychain(service: CompatEnvironment.service("kca-list"))
        for key in ["c", "a", "b"] { try keychain.set("value-\(key)", key: key) }
        #expect(try keychain.allKeys() == ["a", "b", "c"])
        try keychain.removeAll()
        #expect(try keychain.allKeys().isEmpty, "kSecMatchLimitAll deletes every match")
    }

    @Test func dataAttributesRefAndPersistentRefTogether() throws {
        var keychain = PasswordKeychain(service: CompatEnvironment.service("kca-all"))
        keychain.label = "KeychainAccess"
        try keychain.set("secret", key: "token")
        let attributes = try #require(try keychain.attributes(of: "token"))
        #expect(attributes.account == "token")
        #expect(attributes.label == "KeychainAccess")
        #expect(attributes.data == Data("secret".utf8))
        #expect(attributes.persistentRef?.count == 20)
        // macOS returns a SecKeychainItem for password items; it is accepted back as kSecValueRef.
        let ref = try #require(attributes.ref)
        #expect(CFGetTypeID(ref) == SecKeychainItemGetTypeID())
        var byRef: [String: Any] = [ValueRef: ref, ReturnData: true]
        byRef[Class] = String(kSecClassGenericPassword)
        var result: CFTypeRef?
        #expect(SecItemCopyMatching(byRef as CFDictionary, &result) == errSecSuccess)
        #expect(result as? Data == Data("secret".utf8))
        let byPersistentRef: [String: Any] = [ValuePersistentRef: attributes.persistentRef as Any, ReturnData: true]
        #expect(SecItemCopyMatching(byPersistentRef as CFDictionary, &result) == errSecSuccess)
        #expect(result as? Data == Data("secret".utf8))
        #expect(attributes.accessControl.map { CFGetTypeID($0) } == SecAccessControlGetTypeID())
    }

    @Test func accessControlRoundTripsThroughTheKeychain() throws {
        var keychain = PasswordKeychain(service: CompatEnvironment.service("kca-acl"))
        keychain.accessibility = .whenPasscodeSetThisDeviceOnly
        keychain.authenticationPolicy = [.userPresence]
        try keychain.set("guarded", key: "pin")
        let attributes = try #require(try keychain.attributes(of: "pin"))
        #expect(attributes.data == Data("guarded".utf8))
        let expected = try #require(
            SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .userPresence, nil))
        #expect(attributes.accessControl == expected)
        var query = keychain.query()
        query[AttributeAccount] = "pin"
        query[ReturnAttributes] = true
        var result: AnyObject?
        #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
        let item = try #require(result as? [String: Any])
        #expect(item[AttributeAccessible] as? String == String(kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly))
    }

    @Test func invalidAccessControlFlagsAreRefusedWithApplesCode() {
        var keychain = PasswordKeychain(service: CompatEnvironment.service("kca-badacl"))
        keychain.authenticationPolicy = [.userPresence, .devicePasscode]
        #expect(throws: KeychainStyleError.unexpectedStatus(errSecParam)) { try keychain.set("x", key: "k") }
        keychain.authenticationPolicy = [.or, .and, .devicePasscode]
        #expect(throws: KeychainStyleError.unexpectedStatus(errSecParam)) { try keychain.set("x", key: "k") }
    }

    @Test func errorsCarryApplesMessages() {
        let error = KeychainStyleError(status: errSecItemNotFound)
        #expect(error.description == "The specified item could not be found in the keychain.")
        #expect(KeychainStyleError(status: errSecInvalidEncoding).description == "The encoding was not valid.")
    }
}
