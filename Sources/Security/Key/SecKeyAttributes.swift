import Foundation
import OSecCrypto

/// Apple's `SecKeyCopyAttributes` dictionary for a software key.
enum SecKeyAttributes {
    static func dictionary(for key: SecKey) -> [String: Any] {
        let isPrivate = key.key.isPrivate
        let bits = key.key.bitSize
        var attributes: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecAttrKeyClass as String: isPrivate ? kSecAttrKeyClassPrivate : kSecAttrKeyClassPublic,
            kSecAttrApplicationLabel as String: key.applicationLabel,
            kSecAttrIsPermanent as String: kCFBooleanTrue,
            kSecAttrIsPrivate as String: kCFBooleanTrue,
            kSecAttrIsModifiable as String: kCFBooleanTrue,
            kSecAttrKeyType as String: NSString(string: key.keyTypeAttribute),
            kSecAttrKeySizeInBits as String: NSNumber(value: bits),
            kSecAttrEffectiveKeySize as String: NSNumber(value: bits),
            kSecAttrIsSensitive as String: kCFBooleanFalse,
            kSecAttrWasAlwaysSensitive as String: kCFBooleanFalse,
            kSecAttrIsExtractable as String: kCFBooleanTrue,
            kSecAttrWasNeverExtractable as String: kCFBooleanFalse,
            kSecAttrCanEncrypt as String: isPrivate ? kCFBooleanFalse : kCFBooleanTrue,
            // Apple's quirk: RSA public keys also report decr = true.
            kSecAttrCanDecrypt as String: (isPrivate || key.isRSA) ? kCFBooleanTrue : kCFBooleanFalse,
            kSecAttrCanDerive as String: (isPrivate && key.isEC) ? kCFBooleanTrue : kCFBooleanFalse,
            kSecAttrCanSign as String: isPrivate ? kCFBooleanTrue : kCFBooleanFalse,
            kSecAttrCanVerify as String: isPrivate ? kCFBooleanFalse : kCFBooleanTrue,
            kSecAttrCanSignRecover as String: kCFBooleanFalse,
            kSecAttrCanVerifyRecover as String: kCFBooleanFalse,
            kSecAttrCanWrap as String: isPrivate ? kCFBooleanFalse : kCFBooleanTrue,
            kSecAttrCanUnwrap as String: isPrivate ? kCFBooleanTrue : kCFBooleanFalse,
        ]
        if let data = try? key.externalRepresentation() {
            attributes[kSecValueData as String] = data
        }
        return attributes
    }
}
