import Foundation

/// The `CFTypeID` of every Core Foundation and Security type (Apple assigns them at run time; code only
/// compares them, e.g. `CFGetTypeID(item) == SecKeyGetTypeID()`).
enum CFTypeIdentifier {
    static let unknown: CFTypeID = 0
    static let null: CFTypeID = 16
    static let string: CFTypeID = 7
    static let dictionary: CFTypeID = 18
    static let array: CFTypeID = 19
    static let data: CFTypeID = 20
    static let boolean: CFTypeID = 21
    static let number: CFTypeID = 22
    static let error: CFTypeID = 30
    static let date: CFTypeID = 42
    static let certificate: CFTypeID = 0x5EC0_0001
    static let policy: CFTypeID = 0x5EC0_0002
    static let trust: CFTypeID = 0x5EC0_0003
    static let key: CFTypeID = 0x5EC0_0004
    static let identity: CFTypeID = 0x5EC0_0005
    static let accessControl: CFTypeID = 0x5EC0_0006
    static let keychain: CFTypeID = 0x5EC0_0007
    static let keychainItem: CFTypeID = 0x5EC0_0008
    static let access: CFTypeID = 0x5EC0_0009
    static let acl: CFTypeID = 0x5EC0_000A
    static let trustedApplication: CFTypeID = 0x5EC0_000B
    static let keychainSearch: CFTypeID = 0x5EC0_000C

    /// Names for `CFCopyTypeIDDescription`.
    static let names: [CFTypeID: String] = [
        null: "CFNull", string: "CFString", dictionary: "CFDictionary", array: "CFArray", data: "CFData",
        boolean: "CFBoolean", number: "CFNumber", error: "CFError", date: "CFDate", certificate: "SecCertificate",
        policy: "SecPolicy", trust: "SecTrust", key: "SecKey", identity: "SecIdentity",
        accessControl: "SecAccessControl", keychain: "SecKeychain", keychainItem: "SecKeychainItem",
        access: "SecAccess", acl: "SecACL", trustedApplication: "SecTrustedApplication",
        keychainSearch: "SecKeychainSearch",
        CMSTypeIdentifier.encoder: "CMSEncoder", CMSTypeIdentifier.decoder: "CMSDecoder",
    ]

    /// The type of `object`. Boolean `NSNumber`s are `CFBoolean`, other numbers `CFNumber`.
    static func of(_ object: AnyObject) -> CFTypeID {
        switch object {
        case is SecKey: return key
        case is SecCertificate: return certificate
        case is SecIdentity: return identity
        case is SecTrust: return trust
        case is SecPolicy: return policy
        case is SecAccessControl: return accessControl
        case is SecKeychain: return keychain
        case is SecKeychainItem: return keychainItem
        case is SecAccess: return access
        case is SecACL: return acl
        case is SecTrustedApplication: return trustedApplication
        case is SecKeychainSearch: return keychainSearch
        case is CMSEncoder: return CMSTypeIdentifier.encoder
        case is CMSDecoder: return CMSTypeIdentifier.decoder
        case is SecTask: return SecTask.typeID
        case let number as NSNumber:
            return type(of: number) == type(of: CFConstants.true) ? boolean : self.number
        case is NSString: return string
        case is NSData: return data
        case is NSDictionary: return dictionary
        case is NSArray: return array
        case is NSDate: return date
        case is NSError: return error
        case is NSNull: return null
        default: return unknown
        }
    }
}

/// Apple's `SecKeyGetTypeID`.
public func SecKeyGetTypeID() -> CFTypeID { CFTypeIdentifier.key }
/// Apple's `SecCertificateGetTypeID`.
public func SecCertificateGetTypeID() -> CFTypeID { CFTypeIdentifier.certificate }
/// Apple's `SecIdentityGetTypeID`.
public func SecIdentityGetTypeID() -> CFTypeID { CFTypeIdentifier.identity }
/// Apple's `SecKeychainGetTypeID` (macOS).
public func SecKeychainGetTypeID() -> CFTypeID { CFTypeIdentifier.keychain }
/// Apple's `SecKeychainItemGetTypeID` (macOS).
public func SecKeychainItemGetTypeID() -> CFTypeID { CFTypeIdentifier.keychainItem }

// MARK: The …Ref spellings of the Security types

/// Apple's `SecCertificateRef`.
public typealias SecCertificateRef = SecCertificate
/// Apple's `SecIdentityRef`.
public typealias SecIdentityRef = SecIdentity
/// Apple's `SecKeyRef`.
public typealias SecKeyRef = SecKey
/// Apple's `SecPolicyRef`.
public typealias SecPolicyRef = SecPolicy
/// Apple's `SecTrustRef`.
public typealias SecTrustRef = SecTrust
/// Apple's `SecAccessControlRef`.
public typealias SecAccessControlRef = SecAccessControl
/// Apple's `SecKeychainRef` (macOS).
public typealias SecKeychainRef = SecKeychain
/// Apple's `SecKeychainItemRef` (macOS).
public typealias SecKeychainItemRef = SecKeychainItem
