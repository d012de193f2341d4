import Foundation
import OSecCrypto

/// Key generation and import behind `SecKeyCreateRandomKey`, `SecKeyGeneratePair` and `SecKeyCreateWithData`.
enum SecKeyGeneration {
    /// RSA sizes Apple accepts for generation.
    static let rsaBitRange = 512...8192

    enum KeyType { case rsa, ec }

    static func keyType(_ attributes: AttributeDictionary) throws -> KeyType {
        guard let type = try attributes.string(kSecAttrKeyType) else {
            throw SecError.param("kSecAttrKeyType is missing")
        }
        if type == kSecAttrKeyTypeRSA as String { return .rsa }
        if type == kSecAttrKeyTypeECSECPrimeRandom as String { return .ec }
        throw SecError.param("Unsupported key type: \(type)")
    }

    static func generate(_ parameters: AttributeDictionary) throws -> SecKey {
        try refuseTokenKeys(parameters)
        let type = try keyType(parameters)
        guard let bits = try parameters.int(kSecAttrKeySizeInBits) else {
            throw SecError.param("kSecAttrKeySizeInBits is missing")
        }
        let key: AsymmetricKey
        do {
            switch type {
            case .rsa:
                guard rsaBitRange.contains(bits) else {
                    throw SecError.param(
                        "Unsupported RSA key size: \(bits) bits (\(rsaBitRange.lowerBound)…\(rsaBitRange.upperBound))")
                }
                key = try AsymmetricKey.generateRSA(bits: bits)
            case .ec:
                guard let curve = ECCurve.allCases.first(where: { $0.bits == bits }) else {
                    throw SecError.param("Unsupported EC key size: \(bits) bits (192, 224, 256, 384 or 521)")
                }
                key = try AsymmetricKey.generateEC(curve)
            }
        } catch let error as SecError {
            throw error
        } catch {
            throw SecError(errSecInternal, "key generation failed: \(error)")
        }
        return try SecKeyPersistence.storeIfPermanent(SecKey(key), parameters: parameters)
    }

    /// Keys inside a token (`kSecAttrTokenID`, top level or in `kSecPrivateKeyAttrs`): this machine has no Secure
    /// Enclave and no CryptoTokenKit token, so generation fails as on an Apple device without one (the iOS simulator,
    /// a Mac without a T2/Apple chip): errSecUnimplemented, nothing generated or stored. Code that then falls back to
    /// a keychain key (as wrapper libraries do on that code) keeps working.
    static func refuseTokenKeys(_ parameters: AttributeDictionary) throws {
        var token = try parameters.string(kSecAttrTokenID)
        if token == nil, let privateAttributes = try parameters.dictionary(kSecPrivateKeyAttrs) {
            token = try privateAttributes.string(kSecAttrTokenID)
        }
        if let token {
            throw SecError(errSecUnimplemented, "Key generation failed: the token \(token) is not available")
        }
    }

    static func create(_ data: Data, _ attributes: AttributeDictionary) throws -> SecKey {
        let type = try keyType(attributes)
        guard let keyClass = try attributes.string(kSecAttrKeyClass) else {
            throw SecError.param("kSecAttrKeyClass is missing")
        }
        let isPrivate: Bool
        if keyClass == kSecAttrKeyClassPrivate as String {
            isPrivate = true
        } else if keyClass == kSecAttrKeyClassPublic as String {
            isPrivate = false
        } else {
            throw SecError.param("Unsupported key class: \(keyClass)")
        }
        do {
            switch (type, isPrivate) {
            case (.rsa, true):
                return SecKey(try AsymmetricKey(rsaPrivateKeyPKCS1: data))
            case (.rsa, false):
                if let key = try? AsymmetricKey(rsaPublicKeyPKCS1: data) { return SecKey(key) }
                let key = try AsymmetricKey(subjectPublicKeyInfo: data)
                guard case .rsa = key.algorithm else {
                    throw SecError.param("RSA public key creation from data failed")
                }
                return SecKey(key)
            case (.ec, true):
                return SecKey(try AsymmetricKey(ecPrivateKeyX963: data))
            case (.ec, false):
                return SecKey(try AsymmetricKey(ecPublicKeyX963: data))
            }
        } catch let error as SecError {
            throw error
        } catch {
            let kind = type == .rsa ? "RSA" : "EC"
            throw SecError.param("\(kind) \(isPrivate ? "private" : "public") key creation from data failed")
        }
    }
}
