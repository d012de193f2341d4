import Foundation

/// Apple's `CMSSignerStatus`: the verdict of `CMSDecoderCopySignerStatus` on one signer.
public enum CMSSignerStatus: UInt32, Sendable {
    /// The message is not signed.
    case unsigned = 0
    /// The signature verifies and, when trust was evaluated, the signer's certificate is trusted.
    case valid = 1
    /// The message is detached and `CMSDecoderSetDetachedContent` was not called.
    case needsDetachedContent = 2
    /// The signature (or a signed attribute: message digest, content type) does not verify.
    case invalidSignature = 3
    /// The signature verifies but the signer's certificate is not trusted (or not in the message).
    case invalidCert = 4
    /// No signer at that index.
    case invalidIndex = 5
}

/// Apple's `CMSCertificateChainMode`: which certificates a signed message carries.
public enum CMSCertificateChainMode: UInt32, Sendable {
    /// No certificates.
    case none = 0
    /// The signers' certificates only.
    case signerOnly = 1
    /// The signers' chains without the roots (the default).
    case chain = 2
    /// The signers' chains with the roots.
    case chainWithRoot = 3
    /// The signers' chains with the roots; encoding fails when a chain does not reach a root.
    case chainWithRootOrFail = 4
}

/// Apple's `CMSSignedAttributes`: optional signed attributes for `CMSEncoderAddSignedAttributes`.
public struct CMSSignedAttributes: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The S/MIME capabilities of the encoder (RFC 8551 §2.5.2).
    public static let attrSmimeCapabilities = CMSSignedAttributes(rawValue: 0x0001)
    /// The signing certificate is the preferred one for S/MIME encryption (RFC 8551 §2.5.3).
    public static let attrSmimeEncryptionKeyPrefs = CMSSignedAttributes(rawValue: 0x0002)
    /// The same with Microsoft's attribute OID.
    public static let attrSmimeMSEncryptionKeyPrefs = CMSSignedAttributes(rawValue: 0x0004)
    /// The signing time.
    public static let attrSigningTime = CMSSignedAttributes(rawValue: 0x0008)
    /// Apple's code-signing hash agility attribute (not written here: see docs/differences-from-apple.md).
    public static let attrAppleCodesigningHashAgility = CMSSignedAttributes(rawValue: 0x0010)
    /// Apple's code-signing hash agility attribute, version 2 (not written here).
    public static let attrAppleCodesigningHashAgilityV2 = CMSSignedAttributes(rawValue: 0x0020)
    /// Apple's expiration time attribute (not written here).
    public static let attrAppleExpirationTime = CMSSignedAttributes(rawValue: 0x0040)
}

/// Apple's `kCMSEncoderDigestAlgorithmSHA1` for `CMSEncoderSetSignerAlgorithm` (the default).
nonisolated(unsafe) public let kCMSEncoderDigestAlgorithmSHA1: CFString = "sha1"
/// Apple's `kCMSEncoderDigestAlgorithmSHA256` for `CMSEncoderSetSignerAlgorithm`.
nonisolated(unsafe) public let kCMSEncoderDigestAlgorithmSHA256: CFString = "sha256"

/// The type identifiers of the two CMS classes (`CFGetTypeID` compares them).
enum CMSTypeIdentifier {
    static let encoder: CFTypeID = 0x5EC0_0C01
    static let decoder: CFTypeID = 0x5EC0_0C02
}

/// Apple's `CMSEncoderGetTypeID`.
public func CMSEncoderGetTypeID() -> CFTypeID { CMSTypeIdentifier.encoder }
/// Apple's `CMSDecoderGetTypeID`.
public func CMSDecoderGetTypeID() -> CFTypeID { CMSTypeIdentifier.decoder }

/// Apple's `SecCmsMessageRef` (an NSS CMS message; an opaque handle here).
public typealias SecCmsMessageRef = OpaquePointer
/// Apple's `SecCmsDecoderRef` (an NSS CMS decoder; an opaque handle here).
public typealias SecCmsDecoderRef = OpaquePointer
/// Apple's `SecCmsEncoderRef` (an NSS CMS encoder; an opaque handle here).
public typealias SecCmsEncoderRef = OpaquePointer

/// Apple's `cssm_data` (`CSSM_DATA`): a length and a pointer to that many bytes (macOS's `SecAsn1Item`).
public struct cssm_data {
    /// The number of bytes at `Data`.
    public var Length: Int
    /// The bytes (nil for none).
    public var Data: UnsafeMutablePointer<UInt8>!

    /// No bytes.
    public init() {
        Length = 0
        Data = nil
    }

    /// `Length` bytes at `Data`.
    public init(Length: Int, Data: UnsafeMutablePointer<UInt8>!) {
        self.Length = Length
        self.Data = Data
    }
}

/// Apple's `CSSM_DATA`.
public typealias CSSM_DATA = cssm_data
/// Apple's `SecAsn1Item` (macOS: `CSSM_DATA`).
public typealias SecAsn1Item = cssm_data
/// Apple's `SecAsn1Oid`: an OID's content octets (macOS: `CSSM_DATA`).
public typealias SecAsn1Oid = cssm_data
