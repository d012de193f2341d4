import Foundation

/// Storage of generated keys requested with `kSecAttrIsPermanent`.
///
/// Until the keychain is wired into the facade, permanent keys are still returned to the caller (the issue's
/// interim rule); the keychain layer replaces this hook.
enum SecKeyPersistence {
    static func storeIfPermanent(_ privateKey: SecKey, parameters: AttributeDictionary) throws {
        _ = try isPermanent(parameters)
    }

    /// `kSecAttrIsPermanent` at top level, overridden by the private-key sub-dictionary.
    static func isPermanent(_ parameters: AttributeDictionary) throws -> Bool {
        if let sub = try parameters.dictionary(kSecPrivateKeyAttrs), let value = try sub.bool(kSecAttrIsPermanent) {
            return value
        }
        return try parameters.bool(kSecAttrIsPermanent) ?? false
    }
}
