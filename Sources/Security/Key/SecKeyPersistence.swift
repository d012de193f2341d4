import Foundation

/// Storage of generated keys requested with `kSecAttrIsPermanent` (reference §5.1): the private key (and the
/// public key, when it is permanent too) is added to the keychain with the attributes given at top level,
/// overridden by `kSecPrivateKeyAttrs` / `kSecPublicKeyAttrs`. A failing add fails the generation.
enum SecKeyPersistence {
    /// Attributes that describe the key itself; they come from the key, not from the parameters.
    private static let derived: Set<String> = ["type", "bsiz", "esiz", "perm", "kcls", "klbl"]

    /// Stores the pair as requested; returns the private key (carrying its keychain reference when stored).
    static func storeIfPermanent(_ privateKey: SecKey, parameters: AttributeDictionary) throws -> SecKey {
        let privateAttrs = try parameters.dictionary(kSecPrivateKeyAttrs)
        let publicAttrs = try parameters.dictionary(kSecPublicKeyAttrs)
        let topLevel = try parameters.bool(kSecAttrIsPermanent)
        let privatePermanent = try privateAttrs?.bool(kSecAttrIsPermanent) ?? topLevel ?? false
        let publicPermanent = try publicAttrs?.bool(kSecAttrIsPermanent) ?? topLevel ?? false
        var stored = privateKey
        if privatePermanent {
            stored = try add(privateKey, parameters: parameters, overrides: privateAttrs)
        }
        if publicPermanent, let publicKey = SecKeyCopyPublicKey(privateKey) {
            _ = try add(publicKey, parameters: parameters, overrides: publicAttrs)
        }
        return stored
    }

    private static func add(
        _ key: SecKey, parameters: AttributeDictionary, overrides: AttributeDictionary?
    ) throws -> SecKey {
        var query: [String: Any] = [:]
        for source in [parameters.values, overrides?.values ?? [:]] {
            for (k, v) in source where k.utf8.count == 4 && !derived.contains(k) { query[k] = v }
        }
        if let keychain = parameters[kSecUseKeychain] { query[kSecUseKeychain as String] = keychain }
        query[kSecClass as String] = kSecClassKey
        query[kSecValueRef as String] = key
        query[kSecReturnRef as String] = true
        let parsed = try SecItemQuery(query as NSDictionary, for: .add)
        guard let storedKey = try SecItemOperations.add(parsed) as? SecKey else {
            throw SecError(errSecInternal, "the stored key could not be read back")
        }
        return storedKey
    }
}
