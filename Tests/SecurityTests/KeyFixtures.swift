import Foundation
import Security

/// Keys shared by the SecKey tests (RSA generation is slow; generate once per test process).
enum KeyFixtures {
    static let rsa2048: SecKey = generate(kSecAttrKeyTypeRSA, 2048)
    static let rsa1024: SecKey = generate(kSecAttrKeyTypeRSA, 1024)
    static let p256: SecKey = generate(kSecAttrKeyTypeECSECPrimeRandom, 256)
    static let p384: SecKey = generate(kSecAttrKeyTypeECSECPrimeRandom, 384)
    static let p521: SecKey = generate(kSecAttrKeyTypeECSECPrimeRandom, 521)

    static func generate(_ type: CFString, _ bits: Int) -> SecKey {
        let attributes: [String: Any] = [kSecAttrKeyType as String: type, kSecAttrKeySizeInBits as String: bits]
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else {
            preconditionFailure("fixture key generation failed: \(String(describing: error?.takeRetainedValue()))")
        }
        return key
    }

    static func publicKey(_ key: SecKey) -> SecKey {
        guard let pub = SecKeyCopyPublicKey(key) else { preconditionFailure("no public key") }
        return pub
    }
}

/// The OSStatus carried by an Apple-style CFError out-parameter (0 when none was set).
func status(_ error: Unmanaged<CFError>?) -> Int {
    error?.takeRetainedValue().code ?? 0
}
