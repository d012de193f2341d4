import Foundation

// The CSSM attribute tags of certificate and key items (SecCertificate.h, SecKey.h on macOS), for
// SecKeychainItemCopyContent / CopyAttributesAndData / ModifyAttributesAndData on certificate and key items. Each
// names the SecItem attribute given in its comment.

public var kSecSubjectItemAttr: Int { 0x7375_626A }  // 'subj': kSecAttrSubject
public var kSecIssuerItemAttr: Int { 0x6973_7375 }  // 'issu': kSecAttrIssuer
public var kSecSerialNumberItemAttr: Int { 0x736E_6272 }  // 'snbr': kSecAttrSerialNumber
public var kSecPublicKeyHashItemAttr: Int { 0x6870_6B79 }  // 'hpky': kSecAttrPublicKeyHash
public var kSecSubjectKeyIdentifierItemAttr: Int { 0x736B_6964 }  // 'skid': kSecAttrSubjectKeyID
public var kSecCertTypeItemAttr: Int { 0x6374_7970 }  // 'ctyp': kSecAttrCertificateType
public var kSecCertEncodingItemAttr: Int { 0x6365_6E63 }  // 'cenc': kSecAttrCertificateEncoding

public var kSecKeyKeyClass: Int32 { 0 }  // kSecAttrKeyClass
public var kSecKeyPrintName: Int32 { 1 }  // kSecAttrLabel
public var kSecKeyAlias: Int32 { 2 }  // 'alis'
public var kSecKeyPermanent: Int32 { 3 }  // kSecAttrIsPermanent
public var kSecKeyPrivate: Int32 { 4 }  // kSecAttrIsPrivate
public var kSecKeyModifiable: Int32 { 5 }  // kSecAttrIsModifiable
public var kSecKeyLabel: Int32 { 6 }  // kSecAttrApplicationLabel
public var kSecKeyApplicationTag: Int32 { 7 }  // kSecAttrApplicationTag
public var kSecKeyKeyCreator: Int32 { 8 }  // kSecAttrKeyCreator
public var kSecKeyKeyType: Int32 { 9 }  // kSecAttrKeyType
public var kSecKeyKeySizeInBits: Int32 { 10 }  // kSecAttrKeySizeInBits
public var kSecKeyEffectiveKeySize: Int32 { 11 }  // kSecAttrEffectiveKeySize
public var kSecKeyStartDate: Int32 { 12 }  // kSecAttrStartDate
public var kSecKeyEndDate: Int32 { 13 }  // kSecAttrEndDate
public var kSecKeySensitive: Int32 { 14 }  // kSecAttrIsSensitive
public var kSecKeyAlwaysSensitive: Int32 { 15 }  // kSecAttrWasAlwaysSensitive
public var kSecKeyExtractable: Int32 { 16 }  // kSecAttrIsExtractable
public var kSecKeyNeverExtractable: Int32 { 17 }  // kSecAttrWasNeverExtractable
public var kSecKeyEncrypt: Int32 { 18 }  // kSecAttrCanEncrypt
public var kSecKeyDecrypt: Int32 { 19 }  // kSecAttrCanDecrypt
public var kSecKeyDerive: Int32 { 20 }  // kSecAttrCanDerive
public var kSecKeySign: Int32 { 21 }  // kSecAttrCanSign
public var kSecKeyVerify: Int32 { 22 }  // kSecAttrCanVerify
public var kSecKeySignRecover: Int32 { 23 }  // kSecAttrCanSignRecover
public var kSecKeyVerifyRecover: Int32 { 24 }  // kSecAttrCanVerifyRecover
public var kSecKeyWrap: Int32 { 25 }  // kSecAttrCanWrap
public var kSecKeyUnwrap: Int32 { 26 }  // kSecAttrCanUnwrap

extension KeychainItemBridge {
    /// The SecItem attributes of the key tags 0…26 (kSecKeyKeyClass…kSecKeyUnwrap), in tag order.
    static let keyTagKeys = [
        "kcls", "labl", "alis", "perm", "priv", "modi", "klbl", "atag", "crtr", "type", "bsiz", "esiz", "sdat",
        "edat", "sens", "asen", "extr", "next", "encr", "decr", "drve", "sign", "vrfy", "snrc", "vyrc", "wrap", "unwp",
    ]
    /// CSSM certificate tags whose SecItem attribute has another name.
    static let certificateTagKeys = ["issu": "issr", "snbr": "slnr", "hpky": "pkhh"]

    /// The SecItem attribute key of a CSSM tag for items of `kind`.
    static func key(for tag: SecKeychainAttrType, kind: SecItemKind) -> String {
        if kind == .key, tag < UInt32(keyTagKeys.count) { return keyTagKeys[Int(tag)] }
        let text = fourCharString(tag)
        if kind == .certificate, let renamed = certificateTagKeys[text] { return renamed }
        return text
    }
}
