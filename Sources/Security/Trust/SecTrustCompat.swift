import Foundation
import OSecTrust

// The rest of Apple's SecTrust.h: the network-fetch getter (with Darwin's DarwinBoolean), signed certificate
// timestamps, and macOS's trust options, keychains and system anchor list.

/// Apple's `kSecTrustCertificateTransparencyWhiteList` (deprecated; never set in results here).
nonisolated(unsafe) public let kSecTrustCertificateTransparencyWhiteList: CFString =
    "TrustCertificateTransparencyWhiteList"

/// Apple's `kSecTrustQCStatements` (result key): the qualified-certificate statements (ETSI EN 319 412-5) of a
/// QWAC leaf. Never set in `SecTrustCopyResult` here: EU qualified-website validation needs the EU trusted lists,
/// which this trust store does not carry.
nonisolated(unsafe) public let kSecTrustQCStatements: CFString = "QCStatements"
/// Apple's `kSecTrustQWACValidation` (result key): whether the leaf validated as a QWAC. Never set here (see
/// ``kSecTrustQCStatements``).
nonisolated(unsafe) public let kSecTrustQWACValidation: CFString = "QWACValidation"

/// Apple's `SecTrustGetNetworkFetchAllowed`.
public func SecTrustGetNetworkFetchAllowed(
    _ trust: SecTrust, _ allowFetch: UnsafeMutablePointer<DarwinBoolean>
) -> OSStatus {
    allowFetch.pointee = DarwinBoolean(trust.state.withLock { $0.networkFetchAllowed })
    return errSecSuccess
}

/// Apple's `SecTrustSetSignedCertificateTimestamps`: accepted; Certificate Transparency is not evaluated on Linux
/// (as no CT policy applies to non-Apple trust stores), so the timestamps do not change the result.
public func SecTrustSetSignedCertificateTimestamps(_ trust: SecTrust, _ sctArray: CFArray?) -> OSStatus {
    errSecSuccess
}

/// Apple's macOS `SecTrustOptionFlags`.
public struct SecTrustOptionFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let allowExpired = SecTrustOptionFlags(rawValue: 0x0000_0001)
    public static let leafIsCA = SecTrustOptionFlags(rawValue: 0x0000_0002)
    public static let fetchIssuerFromNet = SecTrustOptionFlags(rawValue: 0x0000_0004)
    public static let allowExpiredRoot = SecTrustOptionFlags(rawValue: 0x0000_0008)
    public static let requireRevPerCert = SecTrustOptionFlags(rawValue: 0x0000_0010)
    public static let useTrustSettings = SecTrustOptionFlags(rawValue: 0x0000_0020)
    public static let implicitAnchors = SecTrustOptionFlags(rawValue: 0x0000_0040)
}

/// Apple's macOS `SecTrustSetOptions`. Trust settings and the system anchors are always used here, and
/// `fetchIssuerFromNet` is `SecTrustSetNetworkFetchAllowed`; the options that relax or tighten the evaluation
/// (allowExpired, allowExpiredRoot, leafIsCA, requireRevPerCert) are not supported: errSecUnimplemented, with
/// nothing changed, rather than an evaluation that silently ignores them.
public func SecTrustSetOptions(_ trustRef: SecTrust, _ options: SecTrustOptionFlags) -> OSStatus {
    let supported: SecTrustOptionFlags = [.fetchIssuerFromNet, .useTrustSettings, .implicitAnchors]
    guard options.isSubset(of: supported) else { return errSecUnimplemented }
    return SecTrustSetNetworkFetchAllowed(trustRef, options.contains(.fetchIssuerFromNet))
}

/// Apple's deprecated macOS `SecTrustSetKeychains`: accepted; intermediates come from the certificates given to
/// the trust (no keychain is searched for them).
@available(*, deprecated)
public func SecTrustSetKeychains(_ trust: SecTrust, _ keychainOrArray: CFTypeRef?) -> OSStatus {
    errSecSuccess
}

/// Apple's macOS `SecTrustCopyAnchorCertificates`: the system's anchor certificates (the distribution's CA bundle).
public func SecTrustCopyAnchorCertificates(_ anchors: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    anchors.pointee = AnchorStore.system.anchors.map { SecCertificate($0.certificate) } as NSArray
    return errSecSuccess
}
