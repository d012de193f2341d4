import Foundation
import OSecX509

// The rest of Apple's SecCertificate.h: the iOS and macOS spellings of the deprecated accessors (both are
// overloads here, as code for either platform calls its own), the validity dates of newer SDKs, macOS's
// SecKeyUsage bits and property-list keys, and adding a certificate to a keychain.

/// Apple's deprecated iOS `SecCertificateCopySerialNumber` (renamed `SecCertificateCopySerialNumberData`).
@available(*, deprecated, renamed: "SecCertificateCopySerialNumberData(_:_:)")
public func SecCertificateCopySerialNumber(_ certificate: SecCertificate) -> CFData? {
    SecCertificateCopySerialNumberData(certificate, nil)
}

/// Apple's deprecated macOS `SecCertificateCopySerialNumber` (renamed `SecCertificateCopySerialNumberData`).
@available(*, deprecated, renamed: "SecCertificateCopySerialNumberData(_:_:)")
public func SecCertificateCopySerialNumber(
    _ certificate: SecCertificate, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    SecCertificateCopySerialNumberData(certificate, error)
}

/// Apple's deprecated macOS `SecCertificateCopyPublicKey` (renamed `SecCertificateCopyKey`): errSecUnsupportedFormat
/// when the key cannot be represented as a SecKey.
@available(*, deprecated, renamed: "SecCertificateCopyKey(_:)")
public func SecCertificateCopyPublicKey(
    _ certificate: SecCertificate, _ key: UnsafeMutablePointer<SecKey?>
) -> OSStatus {
    key.pointee = SecCertificateCopyKey(certificate)
    return key.pointee == nil ? errSecUnsupportedFormat : errSecSuccess
}

/// Apple's `SecCertificateCopyNotValidBeforeDate` (iOS 18, macOS 15): the start of the validity period.
public func SecCertificateCopyNotValidBeforeDate(_ certificate: SecCertificate) -> CFDate? {
    Date(timeIntervalSince1970: TimeInterval(certificate.certificate.notBefore.secondsSinceEpoch)) as NSDate
}

/// Apple's `SecCertificateCopyNotValidAfterDate` (iOS 18, macOS 15): the end of the validity period.
public func SecCertificateCopyNotValidAfterDate(_ certificate: SecCertificate) -> CFDate? {
    Date(timeIntervalSince1970: TimeInterval(certificate.certificate.notAfter.secondsSinceEpoch)) as NSDate
}

/// Apple's deprecated macOS `SecCertificateCopyNormalizedIssuerContent`: the normalized issuer Name's contents
/// (the DER of `SecCertificateCopyNormalizedIssuerSequence` without its outer SEQUENCE header).
@available(*, deprecated, message: "Use SecCertificateCopyNormalizedIssuerSequence instead.")
public func SecCertificateCopyNormalizedIssuerContent(
    _ certificate: SecCertificate, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    Data(certificate.certificate.issuer.normalizedContentBytes) as NSData
}

/// Apple's deprecated macOS `SecCertificateCopyNormalizedSubjectContent` (see the issuer variant).
@available(*, deprecated, message: "Use SecCertificateCopyNormalizedSubjectSequence instead.")
public func SecCertificateCopyNormalizedSubjectContent(
    _ certificate: SecCertificate, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    Data(certificate.certificate.subject.normalizedContentBytes) as NSData
}

/// Apple's macOS `SecCertificateAddToKeychain`: adds the certificate to `keychain` (nil: the default keychain);
/// errSecDuplicateItem when it is there already.
public func SecCertificateAddToKeychain(_ certificate: SecCertificate, _ keychain: SecKeychain?) -> OSStatus {
    var query: [String: Any] = [kSecClass as String: kSecClassCertificate, kSecValueRef as String: certificate]
    if let keychain { query[kSecUseKeychain as String] = keychain }
    return SecItemAdd(query as CFDictionary, nil)
}

/// Apple's macOS `SecKeyUsage`: key-usage bits (X.509 keyUsage order) used with certificate preferences.
public struct SecKeyUsage: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let digitalSignature = SecKeyUsage(rawValue: 1 << 0)
    public static let nonRepudiation = SecKeyUsage(rawValue: 1 << 1)
    public static let contentCommitment = SecKeyUsage(rawValue: 1 << 1)
    public static let keyEncipherment = SecKeyUsage(rawValue: 1 << 2)
    public static let dataEncipherment = SecKeyUsage(rawValue: 1 << 3)
    public static let keyAgreement = SecKeyUsage(rawValue: 1 << 4)
    public static let keyCertSign = SecKeyUsage(rawValue: 1 << 5)
    public static let crlSign = SecKeyUsage(rawValue: 1 << 6)
    public static let encipherOnly = SecKeyUsage(rawValue: 1 << 7)
    public static let decipherOnly = SecKeyUsage(rawValue: 1 << 8)
    public static let critical = SecKeyUsage(rawValue: 1 << 31)
    public static let all = SecKeyUsage(rawValue: 0x7FFF_FFFF)
}

// MARK: Property-list keys and types (macOS SecCertificateCopyValues, SecTrustCopyProperties)

nonisolated(unsafe) public let kSecPropertyKeyLabel: CFString = "label"
nonisolated(unsafe) public let kSecPropertyKeyLocalizedLabel: CFString = "localized label"
nonisolated(unsafe) public let kSecPropertyTypeWarning: CFString = "warning"
nonisolated(unsafe) public let kSecPropertyTypeSuccess: CFString = "success"
nonisolated(unsafe) public let kSecPropertyTypeSection: CFString = "section"
nonisolated(unsafe) public let kSecPropertyTypeData: CFString = "data"
nonisolated(unsafe) public let kSecPropertyTypeString: CFString = "string"
nonisolated(unsafe) public let kSecPropertyTypeURL: CFString = "url"
nonisolated(unsafe) public let kSecPropertyTypeDate: CFString = "date"
nonisolated(unsafe) public let kSecPropertyTypeArray: CFString = "array"
nonisolated(unsafe) public let kSecPropertyTypeNumber: CFString = "number"
nonisolated(unsafe) public let kSecPropertyTypeTitle: CFString = "title"
