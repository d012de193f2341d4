import Foundation
import OSecCrypto

/// Apple's `SecKeyCopyAttributes` dictionary for a software key.
enum SecKeyAttributes {
    static func dictionary(for key: SecKey) -> [String: Any] {
        let asymmetric: AsymmetricKey
        switch key.material {
        case .asymmetric(let value): asymmetric = value
        case .symmetric(let symmetric): return SecKeySymmetric.attributes(of: symmetric)
        }
        let isPrivate = asymmetric.isPrivate
        let bits = asymmetric.bitSize
        var attributes: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecAttrKeyClass as String: isPrivate ? kSecAttrKeyClassPrivate : kSecAttrKeyClassPublic,
            kSecAttrApplicationLabel as String: key.applicationLabel ?? Data(),
            kSecAttrIsPermanent as String: CFConstants.true,
            kSecAttrIsPrivate as String: CFConstants.true,
            kSecAttrIsModifiable as String: CFConstants.true,
            kSecAttrKeyType as String: NSString(string: key.keyTypeAttribute),
            kSecAttrKeySizeInBits as String: NSNumber(value: bits),
            kSecAttrEffectiveKeySize as String: NSNumber(value: bits),
            kSecAttrIsSensitive as String: CFConstants.false,
            kSecAttrWasAlwaysSensitive as String: CFConstants.false,
            kSecAttrIsExtractable as String: CFConstants.true,
            kSecAttrWasNeverExtractable as String: CFConstants.false,
            kSecAttrCanEncrypt as String: isPrivate ? CFConstants.false : CFConstants.true,
            // Apple's quirk: RSA public keys also report decr = true.
            kSecAttrCanDecrypt as String: (isPrivate || key.isRSA) ? CFConstants.true : CFConstants.false,
            kSecAttrCanDerive as String: (isPrivate && key.isEC) ? CFConstants.true : CFConstants.false,
            kSecAttrCanSign as String: isPrivate ? CFConstants.true : CFConstants.false,
            kSecAttrCanVerify as String: isPrivate ? CFConstants.false : CFConstants.true,
            kSecAttrCanSignRecover as String: CFConstants.false,
            kSecAttrCanVerifyRecover as String: CFConstants.false,
            kSecAttrCanWrap as String: isPrivate ? CFConstants.false : CFConstants.true,
            kSecAttrCanUnwrap as String: isPrivate ? CFConstants.true : CFConstants.false,
        ]
        if let data = try? key.externalRepresentation() {
            attributes[kSecValueData as String] = data
        }
        return attributes
    }
}
