import Foundation

// macOS's CSSM handle accessors (SecKeychain.h, SecKeychainItem.h, SecKey.h, SecCertificate.h, SecPolicy.h,
// SecTrust.h), deprecated since macOS 10.7. There is no CSSM here (as on macOS since unified SecTrust, where these
// calls answer errSecServiceNotAvailable): every one answers errSecServiceNotAvailable and writes nothing.

/// Apple's `CSSM_INTPTR`.
public typealias CSSM_INTPTR = Int
/// Apple's `CSSM_HANDLE`.
public typealias CSSM_HANDLE = CSSM_INTPTR
/// Apple's `CSSM_MODULE_HANDLE`.
public typealias CSSM_MODULE_HANDLE = CSSM_HANDLE
/// Apple's `CSSM_CSP_HANDLE`: a cryptographic service provider.
public typealias CSSM_CSP_HANDLE = CSSM_MODULE_HANDLE
/// Apple's `CSSM_CL_HANDLE`: a certificate library.
public typealias CSSM_CL_HANDLE = CSSM_MODULE_HANDLE
/// Apple's `CSSM_TP_HANDLE`: a trust policy module.
public typealias CSSM_TP_HANDLE = CSSM_MODULE_HANDLE
/// Apple's `CSSM_DL_HANDLE`: a data storage library.
public typealias CSSM_DL_HANDLE = CSSM_MODULE_HANDLE
/// Apple's `CSSM_DB_HANDLE`: an open database.
public typealias CSSM_DB_HANDLE = CSSM_MODULE_HANDLE

/// Apple's `cssm_dl_db_handle` (`CSSM_DL_DB_HANDLE`): a data storage library and one of its databases.
public struct cssm_dl_db_handle {
    public var DLHandle: CSSM_DL_HANDLE
    public var DBHandle: CSSM_DB_HANDLE

    /// Both handles zero.
    public init() {
        DLHandle = 0
        DBHandle = 0
    }

    public init(DLHandle: CSSM_DL_HANDLE, DBHandle: CSSM_DB_HANDLE) {
        self.DLHandle = DLHandle
        self.DBHandle = DBHandle
    }
}

/// Apple's `CSSM_DL_DB_HANDLE`.
public typealias CSSM_DL_DB_HANDLE = cssm_dl_db_handle

/// Apple's `SecKeychainGetCSPHandle`: no CSSM here; errSecServiceNotAvailable.
public func SecKeychainGetCSPHandle(
    _ keychain: SecKeychain, _ cspHandle: UnsafeMutablePointer<CSSM_CSP_HANDLE>
) -> OSStatus { errSecServiceNotAvailable }

/// Apple's `SecKeychainGetDLDBHandle`: no CSSM here; errSecServiceNotAvailable.
public func SecKeychainGetDLDBHandle(
    _ keychain: SecKeychain, _ dldbHandle: UnsafeMutablePointer<CSSM_DL_DB_HANDLE>
) -> OSStatus { errSecServiceNotAvailable }

/// Apple's `SecKeychainItemGetDLDBHandle`: no CSSM here; errSecServiceNotAvailable.
public func SecKeychainItemGetDLDBHandle(
    _ keyItemRef: SecKeychainItem, _ dldbHandle: UnsafeMutablePointer<CSSM_DL_DB_HANDLE>
) -> OSStatus { errSecServiceNotAvailable }

/// Apple's `SecKeyGetCSPHandle`: no CSSM here; errSecServiceNotAvailable.
public func SecKeyGetCSPHandle(_ keyRef: SecKey, _ cspHandle: UnsafeMutablePointer<CSSM_CSP_HANDLE>) -> OSStatus {
    errSecServiceNotAvailable
}

/// Apple's `SecCertificateGetCLHandle`: no CSSM here; errSecServiceNotAvailable.
public func SecCertificateGetCLHandle(
    _ certificate: SecCertificate, _ clHandle: UnsafeMutablePointer<CSSM_CL_HANDLE>
) -> OSStatus { errSecServiceNotAvailable }

/// Apple's `SecPolicyGetTPHandle`: errSecServiceNotAvailable, as on macOS since unified SecTrust.
public func SecPolicyGetTPHandle(_ policyRef: SecPolicy, _ tpHandle: UnsafeMutablePointer<CSSM_TP_HANDLE>) -> OSStatus {
    errSecServiceNotAvailable
}

/// Apple's `SecTrustGetTPHandle`: errSecServiceNotAvailable, as on macOS since unified SecTrust.
public func SecTrustGetTPHandle(_ trust: SecTrust, _ handle: UnsafeMutablePointer<CSSM_TP_HANDLE>) -> OSStatus {
    errSecServiceNotAvailable
}

/// Apple's `SecTrustGetCssmResultCode`: errSecServiceNotAvailable, as on macOS since unified SecTrust.
public func SecTrustGetCssmResultCode(_ trust: SecTrust, _ resultCode: UnsafeMutablePointer<OSStatus>) -> OSStatus {
    errSecServiceNotAvailable
}
