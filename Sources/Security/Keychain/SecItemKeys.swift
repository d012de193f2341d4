import Foundation
import OSecKeychain

/// How keys become keychain items and back.
enum SecItemKeys {
    /// Apple's attributes for a key item, from `SecKeyCopyAttributes`, in the engine's value types.
    static func attributes(of key: SecKey) -> [String: AttributeValue] {
        var result: [String: AttributeValue] = [:]
        for (name, value) in SecKeyAttributes.dictionary(for: key) {
            guard let descriptor = ItemClass.key.descriptor(for: name),
                let normalized = AttributeValue(caller: value, kind: descriptor.kind)
            else { continue }
            result[name] = normalized
        }
        return result
    }

    /// The SecKey for key bytes given with `kSecValueData`, using the item's `type`/`kcls` when present and
    /// otherwise recognizing Apple's external formats by shape.
    static func key(fromData data: Data, attributes: [String: AttributeValue]) throws -> SecKey {
        let type = attributes["type"]?.integerValue
        let keyClass = attributes["kcls"]?.integerValue
        if keyClass == 2 || type.flatMap({ SymmetricKeyAlgorithm(keyType: String($0)) }) != nil {
            return try symmetricKey(fromData: data, attributes: attributes)
        }
        var candidates: [(String, String)] = []
        let types = type.map { [String($0)] } ?? ["73", "42"]
        let classes = keyClass.map { [String($0)] } ?? ["1", "0"]
        for t in types { for c in classes { candidates.append((t, c)) } }
        for (t, c) in candidates {
            let attrs = AttributeDictionary(values: [kSecAttrKeyType as String: t, kSecAttrKeyClass as String: c])
            if let key = try? SecKeyGeneration.create(data, attrs) { return key }
        }
        throw SecError.param(
            "kSecValueData is not a key in Apple's external format (PKCS#1 RSA or X9.63 EC) for the given "
                + "kSecAttrKeyType/kSecAttrKeyClass"
        )
    }

    /// A symmetric key item (`kSecAttrKeyClassSymmetric`): the raw key bytes, with the algorithm of `type`
    /// (AES when absent) and the uses, extractability and label of the item's attributes.
    static func symmetricKey(fromData data: Data, attributes: [String: AttributeValue]) throws -> SecKey {
        let algorithm = attributes["type"]?.integerValue.flatMap { SymmetricKeyAlgorithm(keyType: String($0)) } ?? .aes
        guard algorithm.allows(bits: data.count * 8) else {
            throw SecError(errSecUnsupportedKeySize, "\(data.count) bytes is not a \(algorithm.name) key size")
        }
        func flag(_ name: String) -> Bool? { attributes[name]?.integerValue.map { $0 != 0 } }
        var usage: SymmetricKeyUsage = []
        let uses: [(String, SymmetricKeyUsage)] = [
            ("encr", .encrypt), ("decr", .decrypt), ("wrap", .wrap), ("unwp", .unwrap), ("sign", .sign),
            ("vrfy", .verify), ("drve", .derive),
        ]
        for (name, use) in uses where flag(name) == true { usage.insert(use) }
        if uses.allSatisfy({ flag($0.0) == nil }) { usage = .sessionDefault }
        return SecKey(
            symmetric: SymmetricKeyMaterial(
                algorithm: algorithm, bytes: data, usage: usage, isExtractable: flag("extr") ?? true,
                isPermanent: flag("perm") ?? false, applicationLabel: attributes["klbl"]?.bytes))
    }

    /// Rebuilds the SecKey of a stored key item.
    static func key(from item: KeychainItem, secret: Data, reference: SecItemReference) throws -> SecKey {
        let key = try self.key(fromData: secret, attributes: item.attributes.dictionary)
        switch key.material {
        case .asymmetric(let asymmetric): return SecKey(asymmetric, keychainReference: reference)
        case .symmetric(let symmetric):
            return SecKey(symmetric: symmetric.permanent(applicationLabel: nil), keychainReference: reference)
        }
    }
}
