import Foundation
import OSecKeychain

/// Conversions between Apple's ref objects (SecKey, SecCertificate, SecIdentity) and stored items.
enum SecItemRefs {
    /// Where a ref object is stored, if it came from a keychain.
    static func reference(of object: AnyObject) -> SecItemReference? {
        if let key = object as? SecKey { return key.keychainReference }
        if let certificate = object as? SecCertificate { return certificate.keychainReference }
        if let identity = object as? SecIdentity { return identity.keychainReference }
        if let item = object as? SecKeychainItem { return item.reference }
        return nil
    }

    /// The attributes that identify a ref object's item (used when the ref has no keychain reference).
    static func identifyingAttributes(of object: AnyObject) throws -> [String: AttributeValue] {
        if let key = object as? SecKey {
            let all = SecItemKeys.attributes(of: key)
            return all.filter { ["kcls", "klbl", "type", "bsiz"].contains($0.key) }
        }
        if let certificate = object as? SecCertificate {
            return SecItemCertificates.attributes(of: certificate).filter { ["ctyp", "issr", "slnr"].contains($0.key) }
        }
        if let identity = object as? SecIdentity {
            return SecItemCertificates.attributes(of: identity.certificate).filter {
                ["issr", "slnr"].contains($0.key)
            }
        }
        throw SecError.param("kSecValueRef must be a SecKey, SecCertificate or SecIdentity")
    }

    /// The ref object for a found item.
    static func ref(
        for item: KeychainItem, itemClass: SecItemKind, data: () throws -> Data, reference: SecItemReference
    ) throws -> AnyObject {
        switch itemClass {
        case .key:
            return try SecItemKeys.key(from: item, secret: try data(), reference: reference)
        case .genericPassword, .internetPassword:
            // macOS's file keychain returns a SecKeychainItem; iOS has none and leaves the ref out.
            return SecKeychainItem(reference: reference, itemClass: itemClass)
        case .certificate:
            return try SecItemCertificates.certificate(fromStored: try data(), reference: reference)
        case .identity:
            throw SecError(errSecInternal, "identity refs are built by the identity join")
        }
    }

    /// The stored items an add creates: one for passwords, keys and certificates; two for an identity.
    static func newItems(for query: SecItemQuery) throws -> [NewItem] {
        guard let storeClass = query.itemClass.storeClass else {
            throw SecError(errSecInternal, "identities are added as a certificate and a key")
        }
        var attributes = query.attributes
        var secret = query.valueData
        switch query.itemClass {
        case .genericPassword, .internetPassword:
            if query.valueRef != nil {
                throw SecError.param("password items cannot be added with kSecValueRef; use kSecValueData")
            }
        case .key:
            let key: SecKey
            if let ref = query.valueRef {
                guard let k = ref as? SecKey else {
                    throw SecError.param("kSecValueRef for kSecClassKey must be a SecKey")
                }
                key = k
            } else if let data = query.valueData {
                key = try SecItemKeys.key(fromData: data, attributes: attributes)
            } else {
                throw SecError.param(
                    "a key item needs kSecValueRef (a SecKey) or kSecValueData (the key's external representation)")
            }
            // Attributes derived from the key go under the caller's (the caller wins).
            for (k, v) in SecItemKeys.attributes(of: key) where attributes[k] == nil { attributes[k] = v }
            secret = try key.keychainSecret()
        case .certificate:
            let certificate = try SecItemCertificates.certificate(for: query)
            for (k, v) in SecItemCertificates.attributes(of: certificate) where attributes[k] == nil {
                attributes[k] = v
            }
            secret = Data(certificate.certificate.derBytes)
        case .identity:
            throw SecError(errSecInternal, "identities are added as a certificate and a key")
        }
        let item = NewItem(
            itemClass: storeClass, attributes: attributes,
            accessGroup: try SecItemStore.accessGroup(for: query.engineFields[.accessGroup]),
            accessibility: try SecItemStore.accessibility(
                for: query.engineFields[.accessibility], itemClass: storeClass),
            isSynchronizable: (query.engineFields[.synchronizable]?.integerValue ?? 0) != 0,
            secret: secret)
        return [item]
    }
}
