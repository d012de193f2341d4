import Foundation
import OSecSystem

// macOS's identity and certificate preferences and system identities (SecIdentity.h, SecCertificate.h).
//
// Preferences are kept as macOS keeps them: a generic password item in the default keychain whose service and
// label are the name, whose type (`kSecAttrType`) is `'iprf'` (identity) or `'cprf'` (certificate) and whose
// generic attribute (`kSecAttrGeneric`) is the persistent reference of the certificate item. `security
// find-generic-password -s <name>` lists them. System identities are, as on macOS, a machine-wide property list
// mapping a domain to the public-key hash of the identity's certificate: `/etc/opensecurity/system-identities.plist`
// (`$OPENSECURITY_SYSTEM_IDENTITIES` overrides it); setting one needs write access there (errSecWrPerm otherwise).

enum PreferenceItems {
    static let identityType: FourCharCode = 0x6970_7266  // 'iprf'
    static let certificateType: FourCharCode = 0x6370_7266  // 'cprf'

    static func query(_ name: String, type: FourCharCode) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: name,
            kSecAttrType as String: NSNumber(value: type),
        ]
    }

    /// The certificate a preference names, or nil.
    static func certificate(_ name: String, type: FourCharCode) -> SecCertificate? {
        var query = query(name, type: type)
        query[kSecReturnAttributes as String] = true
        var found: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess,
            let attributes = found as? [String: Any], let reference = attributes[kSecAttrGeneric as String] as? Data
        else { return nil }
        let lookup: [String: Any] = [kSecValuePersistentRef as String: reference, kSecReturnRef as String: true]
        var certificate: CFTypeRef?
        guard SecItemCopyMatching(lookup as CFDictionary, &certificate) == errSecSuccess else { return nil }
        return certificate.map { $0 as AnyObject } as? SecCertificate
    }

    /// Sets (or, for nil, removes) the preference for `name`.
    static func set(_ certificate: SecCertificate?, _ name: String, type: FourCharCode) throws {
        let query = query(name, type: type)
        guard let certificate else {
            let status = SecItemDelete(query as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw SecError(status, "removing the preference failed")
            }
            return
        }
        let lookup: [String: Any] = [
            kSecClass as String: kSecClassCertificate, kSecValueRef as String: certificate,
            kSecReturnPersistentRef as String: true,
        ]
        var found: CFTypeRef?
        let status = SecItemCopyMatching(lookup as CFDictionary, &found)
        guard status == errSecSuccess, let reference = found as? Data else {
            throw SecError(errSecItemNotFound, "the certificate of a preference must be in a keychain")
        }
        let changes: [String: Any] = [kSecAttrGeneric as String: reference, kSecAttrLabel as String: name]
        let updated = SecItemUpdate(query as CFDictionary, changes as CFDictionary)
        if updated == errSecSuccess { return }
        guard updated == errSecItemNotFound else { throw SecError(updated, "updating the preference failed") }
        var add = query
        add.merge(changes) { _, new in new }
        add[kSecValueData as String] = Data()
        let added = SecItemAdd(add as CFDictionary, nil)
        guard added == errSecSuccess else { throw SecError(added, "storing the preference failed") }
    }

    /// Whether `certificate` was issued by one of `validIssuers` (DER names; nil: any).
    static func issued(_ certificate: SecCertificate, by validIssuers: CFArray?) -> Bool {
        guard let validIssuers = validIssuers as? [Data] else { return true }
        let issuer = Data(certificate.certificate.issuer.derBytes)
        let normalized = Data(certificate.certificate.issuer.normalizedDERBytes)
        return validIssuers.contains { $0 == issuer || $0 == normalized }
    }
}

/// Apple's `SecIdentityCopyPreferred` (macOS): the identity set with `SecIdentitySetPreferred` for `name` (nil
/// when none is set, its certificate or key is gone, or its issuer is not one of `validIssuers`).
public func SecIdentityCopyPreferred(_ name: CFString, _ keyUsage: CFArray?, _ validIssuers: CFArray?) -> SecIdentity? {
    guard let certificate = PreferenceItems.certificate(name as String, type: PreferenceItems.identityType),
        PreferenceItems.issued(certificate, by: validIssuers)
    else { return nil }
    var identity: SecIdentity?
    guard SecIdentityCreateWithCertificate(nil, certificate, &identity) == errSecSuccess else { return nil }
    return identity
}

/// Apple's `SecIdentitySetPreferred` (macOS): prefers `identity` for `name` (nil removes the preference). The
/// identity's certificate must be in a keychain (errSecItemNotFound otherwise).
public func SecIdentitySetPreferred(_ identity: SecIdentity?, _ name: CFString, _ keyUsage: CFArray?) -> OSStatus {
    SecItemDiagnostics.run {
        try PreferenceItems.set(identity?.certificate, name as String, type: PreferenceItems.identityType)
    }
}

/// Apple's `SecCertificateCopyPreferred` (macOS): the certificate set with `SecCertificateSetPreferred` for
/// `name`, or nil.
public func SecCertificateCopyPreferred(_ name: CFString, _ keyUsage: CFArray?) -> SecCertificate? {
    PreferenceItems.certificate(name as String, type: PreferenceItems.certificateType)
}

/// Apple's `SecCertificateSetPreferred` (macOS): prefers `certificate` (in a keychain) for `name`; nil removes the
/// preference.
public func SecCertificateSetPreferred(
    _ certificate: SecCertificate?, _ name: CFString, _ keyUsage: CFArray?
) -> OSStatus {
    SecItemDiagnostics.run {
        try PreferenceItems.set(certificate, name as String, type: PreferenceItems.certificateType)
    }
}

/// The machine's system identities: domain → public-key hash of the certificate.
enum SystemIdentities {
    static let variable = "OPENSECURITY_SYSTEM_IDENTITIES"
    static let defaultPath = "/etc/opensecurity/system-identities.plist"

    static var path: String {
        if let explicit = SystemProcess.environment(variable), !explicit.isEmpty { return explicit }
        return defaultPath
    }

    static func read() -> [String: Data] {
        guard let data = FileManager.default.contents(atPath: path),
            let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                as? [String: Data]
        else { return [:] }
        return plist
    }

    static func write(_ change: (inout [String: Data]) -> Void) throws {
        var plist = read()
        change(&plist)
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        try SettingsFile.write(data, to: path, mode: 0o644)
    }
}

/// Apple's `SecIdentityCopySystemIdentity` (macOS): the identity set for `domain`, else the one for
/// `kSecIdentityDomainDefault` (`actualDomain` says which). errSecItemNotFound when neither is set or the
/// identity's certificate and key are not in the keychains searched.
public func SecIdentityCopySystemIdentity(
    _ domain: CFString, _ idRef: UnsafeMutablePointer<SecIdentity?>, _ actualDomain: UnsafeMutablePointer<CFString?>?
) -> OSStatus {
    idRef.pointee = nil
    actualDomain?.pointee = nil
    return SecItemDiagnostics.run {
        let identities = SystemIdentities.read()
        let requested = domain as String
        let fallback = kSecIdentityDomainDefault as String
        guard
            let (chosen, hash) = identities[requested].map({ (requested, $0) })
                ?? identities[fallback].map({ (fallback, $0) })
        else { throw SecError(errSecItemNotFound, "no system identity is set for \(requested)") }
        let query: [String: Any] = [
            kSecClass as String: kSecClassCertificate, kSecAttrPublicKeyHash as String: hash,
            kSecReturnRef as String: true,
        ]
        var found: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &found)
        guard status == errSecSuccess, let certificate = found.map({ $0 as AnyObject }) as? SecCertificate else {
            throw SecError(errSecItemNotFound, "the system identity's certificate is not in the keychain")
        }
        var identity: SecIdentity?
        let paired = SecIdentityCreateWithCertificate(nil, certificate, &identity)
        guard paired == errSecSuccess, let identity else { throw SecError(paired, "the system identity has no key") }
        idRef.pointee = identity
        actualDomain?.pointee = chosen as CFString
    }
}

/// Apple's `SecIdentitySetSystemIdentity` (macOS): sets (nil: removes) the identity of `domain` for the machine.
/// Needs write access to the system file (errSecWrPerm otherwise, as a non-administrator gets on macOS).
public func SecIdentitySetSystemIdentity(_ domain: CFString, _ idRef: SecIdentity?) -> OSStatus {
    SecItemDiagnostics.run {
        let hash = idRef.map { $0.certificate.certificate.publicKeyInfo.publicKeyHash }
        try SystemIdentities.write { $0[domain as String] = hash }
    }
}
