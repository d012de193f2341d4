import Foundation

// macOS's password functions of Security/SecKeychain.h, with Apple's Swift signatures. The items are SecItem's
// `kSecClassGenericPassword` / `kSecClassInternetPassword` items: the label is the service (generic) or server
// (Internet) name, as macOS sets it.

/// Apple's `SecKeychainAddGenericPassword`: adds a generic password to `keychain` (nil: the default keychain).
/// errSecDuplicateItem when the keychain has one for the same service and account.
public func SecKeychainAddGenericPassword(
    _ keychain: SecKeychain?, _ serviceNameLength: UInt32, _ serviceName: UnsafePointer<CChar>?,
    _ accountNameLength: UInt32, _ accountName: UnsafePointer<CChar>?, _ passwordLength: UInt32,
    _ passwordData: UnsafeRawPointer, _ itemRef: UnsafeMutablePointer<SecKeychainItem?>?
) -> OSStatus {
    itemRef?.pointee = nil
    return SecItemDiagnostics.run {
        let service = KeychainItemBridge.string(serviceNameLength, serviceName) ?? ""
        let account = KeychainItemBridge.string(accountNameLength, accountName) ?? ""
        let attributes: [String: Any] = [
            kSecAttrService as String: service, kSecAttrAccount as String: account, kSecAttrLabel as String: service,
            kSecValueData as String: Data(bytes: passwordData, count: Int(passwordLength)),
        ]
        let item = try KeychainItemBridge.add(attributes, kind: .genericPassword, keychain: keychain)
        itemRef?.pointee = item
        KeychainEvents.post(.addEvent, item: item)
    }
}

/// Apple's `SecKeychainFindGenericPassword`: the first generic password for the service and account (a NULL name
/// matches any) in `keychainOrArray` (a keychain, an array of keychains, or nil). The password comes back in a
/// buffer the caller frees with `SecKeychainItemFreeContent(nil, passwordData)`. errSecItemNotFound when none
/// matches.
public func SecKeychainFindGenericPassword(
    _ keychainOrArray: CFTypeRef?, _ serviceNameLength: UInt32, _ serviceName: UnsafePointer<CChar>?,
    _ accountNameLength: UInt32, _ accountName: UnsafePointer<CChar>?,
    _ passwordLength: UnsafeMutablePointer<UInt32>?, _ passwordData: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ itemRef: UnsafeMutablePointer<SecKeychainItem?>?
) -> OSStatus {
    passwordData?.pointee = nil
    itemRef?.pointee = nil
    return SecItemDiagnostics.run {
        var attributes: [String: Any] = [:]
        if let service = KeychainItemBridge.string(serviceNameLength, serviceName) {
            attributes[kSecAttrService as String] = service
        }
        if let account = KeychainItemBridge.string(accountNameLength, accountName) {
            attributes[kSecAttrAccount as String] = account
        }
        let found = try KeychainItemBridge.find(
            attributes, kind: .genericPassword, in: keychainOrArray, data: passwordData != nil)
        KeychainItemBridge.copyOut(found.secret, length: passwordLength, data: passwordData)
        itemRef?.pointee = found.item
    }
}

/// The SecItem attributes of an Internet password's identifying fields (nil / 0 / `.any`: not given).
private func internetAttributes(
    server: String?, securityDomain: String?, account: String?, path: String?, port: UInt16,
    protocol protocolType: SecProtocolType, authenticationType: SecAuthenticationType
) -> [String: Any] {
    var attributes: [String: Any] = [:]
    if let server { attributes[kSecAttrServer as String] = server }
    if let securityDomain { attributes[kSecAttrSecurityDomain as String] = securityDomain }
    if let account { attributes[kSecAttrAccount as String] = account }
    if let path { attributes[kSecAttrPath as String] = path }
    if port != 0 { attributes[kSecAttrPort as String] = NSNumber(value: port) }
    if protocolType != .any { attributes[kSecAttrProtocol as String] = fourCharString(protocolType.rawValue) }
    if authenticationType != .any {
        attributes[kSecAttrAuthenticationType as String] = fourCharString(authenticationType.rawValue)
    }
    return attributes
}

/// Apple's `SecKeychainAddInternetPassword`: adds an Internet password (server, security domain, account, path,
/// port, protocol and authentication type identify it). errSecDuplicateItem when the keychain has that one.
public func SecKeychainAddInternetPassword(
    _ keychain: SecKeychain?, _ serverNameLength: UInt32, _ serverName: UnsafePointer<CChar>?,
    _ securityDomainLength: UInt32, _ securityDomain: UnsafePointer<CChar>?, _ accountNameLength: UInt32,
    _ accountName: UnsafePointer<CChar>?, _ pathLength: UInt32, _ path: UnsafePointer<CChar>?, _ port: UInt16,
    _ protocol: SecProtocolType, _ authenticationType: SecAuthenticationType, _ passwordLength: UInt32,
    _ passwordData: UnsafeRawPointer, _ itemRef: UnsafeMutablePointer<SecKeychainItem?>?
) -> OSStatus {
    itemRef?.pointee = nil
    return SecItemDiagnostics.run {
        let server = KeychainItemBridge.string(serverNameLength, serverName) ?? ""
        var attributes = internetAttributes(
            server: server, securityDomain: KeychainItemBridge.string(securityDomainLength, securityDomain),
            account: KeychainItemBridge.string(accountNameLength, accountName) ?? "",
            path: KeychainItemBridge.string(pathLength, path), port: port, protocol: `protocol`,
            authenticationType: authenticationType)
        attributes[kSecAttrLabel as String] = server
        attributes[kSecValueData as String] = Data(bytes: passwordData, count: Int(passwordLength))
        let item = try KeychainItemBridge.add(attributes, kind: .internetPassword, keychain: keychain)
        itemRef?.pointee = item
        KeychainEvents.post(.addEvent, item: item)
    }
}

/// Apple's `SecKeychainFindInternetPassword`: the first Internet password matching the given fields (NULL names,
/// port 0, `.any` protocol and authentication type match any). The password buffer is freed with
/// `SecKeychainItemFreeContent`. errSecItemNotFound when none matches.
public func SecKeychainFindInternetPassword(
    _ keychainOrArray: CFTypeRef?, _ serverNameLength: UInt32, _ serverName: UnsafePointer<CChar>?,
    _ securityDomainLength: UInt32, _ securityDomain: UnsafePointer<CChar>?, _ accountNameLength: UInt32,
    _ accountName: UnsafePointer<CChar>?, _ pathLength: UInt32, _ path: UnsafePointer<CChar>?, _ port: UInt16,
    _ protocol: SecProtocolType, _ authenticationType: SecAuthenticationType,
    _ passwordLength: UnsafeMutablePointer<UInt32>?, _ passwordData: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ itemRef: UnsafeMutablePointer<SecKeychainItem?>?
) -> OSStatus {
    passwordData?.pointee = nil
    itemRef?.pointee = nil
    return SecItemDiagnostics.run {
        let attributes = internetAttributes(
            server: KeychainItemBridge.string(serverNameLength, serverName),
            securityDomain: KeychainItemBridge.string(securityDomainLength, securityDomain),
            account: KeychainItemBridge.string(accountNameLength, accountName),
            path: KeychainItemBridge.string(pathLength, path), port: port, protocol: `protocol`,
            authenticationType: authenticationType)
        let found = try KeychainItemBridge.find(
            attributes, kind: .internetPassword, in: keychainOrArray, data: passwordData != nil)
        KeychainItemBridge.copyOut(found.secret, length: passwordLength, data: passwordData)
        itemRef?.pointee = found.item
    }
}
