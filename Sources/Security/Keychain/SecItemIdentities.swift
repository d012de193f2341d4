import Foundation
import OSecKeychain

/// The identity class (reference §3): not stored, but the join of a certificate and the private key whose
/// `klbl` equals the certificate's `pkhh`. An identity query may use attributes of both.
enum SecItemIdentities {
    /// Splits an identity query's attributes into the certificate part and the key part; engine fields
    /// (agrp, pdmn, sync) constrain both.
    static func split(
        _ attributes: [String: AttributeValue]
    ) -> (certificate: [String: AttributeValue], key: [String: AttributeValue]) {
        var certificate: [String: AttributeValue] = [:]
        var key: [String: AttributeValue] = [:]
        for (k, v) in attributes {
            if SecItemSchema.engineFields[k] != nil {
                certificate[k] = v
                key[k] = v
            } else if SecItemSchema.identityCertificateAttributes.contains(k) {
                certificate[k] = v
            } else {
                key[k] = v
            }
        }
        return (certificate, key)
    }

    /// Adds an identity as two items, its certificate and its private key, in one transaction: both or neither
    /// (a locked keychain gives errSecInteractionNotAllowed and stores nothing). An existing certificate is
    /// tolerated, and so is an existing key; both existing → errSecDuplicateItem.
    static func add(_ query: SecItemQuery) throws -> AnyObject? {
        guard let identity = query.valueRef as? SecIdentity else {
            throw SecError.param("an identity is added with kSecValueRef holding a SecIdentity")
        }
        let keychain = try SecItemStore.keychains(for: query)[0]
        let parts = split(query.attributes)
        var certQuery = query
        certQuery.itemClass = .certificate
        certQuery.attributes = parts.certificate
        certQuery.valueRef = identity.certificate
        var keyQuery = query
        keyQuery.itemClass = .key
        keyQuery.attributes = parts.key
        keyQuery.valueRef = identity.privateKey
        let certificateItem = try SecItemRefs.newItems(for: certQuery)[0]
        let keyItem = try SecItemRefs.newItems(for: keyQuery)[0]
        let stored = try SecItemStore.writing(in: keychain) {
            try $0.add(contentsOf: [certificateItem, keyItem], skippingDuplicates: true)
        }
        let storedCertificate = stored.first ?? nil
        let storedKey = stored.last ?? nil
        if storedCertificate == nil && storedKey == nil {
            throw SecError(
                errSecDuplicateItem, "the identity's certificate and private key are both already in the keychain")
        }
        guard query.returnCount > 0 else { return nil }
        // Return the identity as found (one shape for add and copyMatching).
        var find = query
        find.valueRef = nil
        find.valuePersistentRef = storedCertificate.map { SecPersistentRef.identityRef(certificate: $0.persistentRef) }
        if find.valuePersistentRef == nil {
            find.attributes = SecItemCertificates.attributes(of: identity.certificate).filter {
                ["issr", "slnr", "ctyp"].contains($0.key)
            }
        }
        find.matchLimit = .one
        return try copyMatching(find)
    }

    /// Finds identities: certificates matching the certificate part joined with private keys matching the key part.
    static func copyMatching(_ query: SecItemQuery) throws -> AnyObject? {
        var found = try find(query, limit: SecItemStore.limit(query))
        if let filter = query.certificateFilter {
            let others =
                filter.needsKeychainCertificates
                ? try SecItemCertificateFilter.certificates(in: SecItemStore.keychains(for: query)) : []
            found = try found.filter { match in
                guard let identity = try match.found.ref() as? SecIdentity else { return false }
                return filter.matches(identity.certificate, others: others)
            }
            guard !found.isEmpty else {
                throw SecError(errSecItemNotFound, "no identity passes the kSecMatch certificate filters")
            }
            if let wanted = SecItemStore.resultLimit(query) { found = Array(found.prefix(wanted)) }
        }
        return try SecItemStore.shape(found.map(\.found), query, itemClass: .identity, single: query.matchLimit == .one)
    }

    struct Match {
        let found: SecItemStore.Found
        let keychain: SecKeychain
        let certificate: KeychainItem
        let key: KeychainItem
    }

    static func find(_ query: SecItemQuery, limit: Int?) throws -> [Match] {
        var parts = split(query.attributes)
        SecItemCertificates.normalizeNameAttributes(&parts.certificate)
        parts.key["kcls"] = .integer(1)
        var certificatesWithoutKey: [Data] = []
        var matches: [Match] = []
        for keychain in try SecItemStore.keychains(for: query) {
            let store = try keychain.store()
            var certQuery = query
            certQuery.itemClass = .certificate
            if let ref = query.valueRef as? SecIdentity { certQuery.valueRef = ref.certificate }
            var certificateQuery = try SecItemStore.storeQuery(
                certQuery, itemClass: .certificate, attributes: parts.certificate)
            certificateQuery.includesAttributes = true
            let certificates = try mapStoreError { try store.find(certificateQuery) }
            for certificate in certificates {
                guard case .data(let hash)? = certificate.attributes["pkhh"] else { continue }
                var keyAttributes = parts.key
                keyAttributes["klbl"] = .data(hash)
                var keyQueryParsed = query
                keyQueryParsed.valuePersistentRef = nil
                keyQueryParsed.valueRef = nil
                keyQueryParsed.matchItemList = nil
                var keyQuery = try SecItemStore.storeQuery(keyQueryParsed, itemClass: .key, attributes: keyAttributes)
                keyQuery.limit = 1
                guard let key = try mapStoreError({ try store.find(keyQuery) }).first else {
                    certificatesWithoutKey.append(hash)
                    continue
                }
                matches.append(
                    Match(
                        found: joined(certificate: certificate, key: key, keychain: keychain), keychain: keychain,
                        certificate: certificate, key: key))
                if let limit, matches.count >= limit { return matches }
            }
        }
        guard !matches.isEmpty else {
            if let hash = certificatesWithoutKey.first {
                let hex = hash.map { String(format: "%02X", $0) }.joined()
                throw SecError(
                    errSecItemNotFound,
                    "a matching certificate exists, but there is no private key with its public key hash \(hex) "
                        + "(kSecAttrApplicationLabel) in the keychain"
                )
            }
            throw SecError(errSecItemNotFound, "no certificate matches the identity query")
        }
        return matches
    }

    /// The joined result: the key's attributes with the certificate's shadowing them, the certificate's
    /// data, an identity ref, and an `idnt` persistent reference to the certificate row.
    static func joined(certificate: KeychainItem, key: KeychainItem, keychain: SecKeychain) -> SecItemStore.Found {
        let cert = SecItemStore.found(certificate, in: keychain, itemClass: .certificate)
        let privateKey = SecItemStore.found(key, in: keychain, itemClass: .key)
        var attributes = privateKey.attributes
        for k in ["labl", "issr", "slnr", "skid"] { if let v = cert.attributes[k] { attributes[k] = v } }
        let persistentRef = SecPersistentRef.identityRef(certificate: certificate.persistentRef)
        return SecItemStore.Found(
            attributes: attributes,
            data: cert.data,
            ref: {
                guard let c = try cert.ref() as? SecCertificate, let k = try privateKey.ref() as? SecKey else {
                    throw SecError(errSecInternal, "identity parts did not decode")
                }
                return try SecIdentity(certificate: c, privateKey: k)
            },
            persistentRef: persistentRef)
    }

    /// Identity update: the same update on the certificate, then on the key.
    static func update(_ query: SecItemQuery, _ changes: ItemChanges) throws {
        let matches = try find(query, limit: nil)
        let certificateKeys = SecItemSchema.identityCertificateAttributes
        var certificateChanges = changes
        certificateChanges.attributes = changes.attributes.filter { certificateKeys.contains($0.key) }
        certificateChanges.secret = nil
        var keyChanges = changes
        keyChanges.attributes = changes.attributes.filter { !certificateKeys.contains($0.key) }
        for match in matches {
            let store = try match.keychain.store()
            try mapStoreError {
                _ = try store.update(
                    ItemQuery(persistentRef: match.certificate.persistentRef), with: certificateChanges)
                _ = try store.update(ItemQuery(persistentRef: match.key.persistentRef), with: keyChanges)
            }
        }
    }

    /// Identity delete: the certificate, then its private key unless another certificate for the same key remains.
    static func delete(_ query: SecItemQuery) throws {
        let matches = try find(query, limit: nil)
        for match in matches {
            let store = try match.keychain.store()
            try mapStoreError {
                _ = try store.delete(ItemQuery(persistentRef: match.certificate.persistentRef))
                var others = ItemQuery(
                    itemClass: .certificate, attributes: ["pkhh": match.certificate.attributes["pkhh"] ?? .data(Data())]
                )
                others.limit = 1
                others.isSynchronizable = nil
                if try store.find(others).isEmpty {
                    _ = try store.delete(ItemQuery(persistentRef: match.key.persistentRef))
                }
            }
        }
    }
}

/// Apple's `SecIdentityCreateWithCertificate` (macOS): the identity of `certificate` and the private key for
/// its public key found in the given keychain(s) (a SecKeychain, an array of them, or nil for the default).
public func SecIdentityCreateWithCertificate(
    _ keychainOrArray: CFTypeRef?, _ certificateRef: SecCertificate,
    _ identityRef: UnsafeMutablePointer<SecIdentity?>
) -> OSStatus {
    SecItemDiagnostics.run {
        var query: [String: Any] = [
            kSecClass as String: kSecClassKey, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
            kSecAttrApplicationLabel as String: certificateRef.publicKeyHashAttribute, kSecReturnRef as String: true,
            kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
        ]
        if let keychain = keychainOrArray as? SecKeychain {
            query[kSecUseKeychain as String] = keychain
        } else if let list = keychainOrArray as? NSArray {
            query[kSecMatchSearchList as String] = list
        }
        let parsed = try SecItemQuery(query as NSDictionary, for: .copyMatching)
        guard let key = try? SecItemOperations.copyMatching(parsed) as? SecKey else {
            throw SecError(errSecItemNotFound, "no private key for the certificate's public key is in the keychain")
        }
        identityRef.pointee = try SecIdentity(certificate: certificateRef, privateKey: key)
    }
}
