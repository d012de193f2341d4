// INTERIM — written by the PKCS#12 engineer; delete at merge when the trust engineer's SecPolicy/SecTrust land.
//
// SecPolicy and SecTrust did not exist in /work/main/Sources/Security when SecPKCS12Import was written.
// These minimal stand-ins (no evaluation) let it build and return a kSecImportItemTrust. The PKCS#12 code
// uses only the Apple API names below (SecPolicyCreateBasicX509, SecTrustCreateWithCertificates), so the
// real implementation replaces this file without other changes.
import Foundation

/// INTERIM Apple `SecPolicy`: only records its OID.
public final class SecPolicy: NSObject, @unchecked Sendable {  // @unchecked: immutable after init
    let oid: String
    init(oid: String) { self.oid = oid }
}

/// INTERIM Apple `SecTrust`: holds the certificates (leaf first) and policies; never evaluated.
public final class SecTrust: NSObject, @unchecked Sendable {  // @unchecked: immutable after init
    let certificates: [SecCertificate]
    let policies: [SecPolicy]
    init(certificates: [SecCertificate], policies: [SecPolicy]) {
        self.certificates = certificates
        self.policies = policies
    }
}

/// INTERIM Apple `SecPolicyCreateBasicX509` (OID 1.2.840.113635.100.1.2).
public func SecPolicyCreateBasicX509() -> SecPolicy { SecPolicy(oid: "1.2.840.113635.100.1.2") }

/// INTERIM Apple `SecTrustCreateWithCertificates`: a certificate or non-empty array (leaf first); a policy,
/// a non-empty array, or nil (→ basic X.509). Wrong types → errSecParam.
public func SecTrustCreateWithCertificates(
    _ certificates: CFTypeRef, _ policies: CFTypeRef?, _ trust: UnsafeMutablePointer<SecTrust?>
) -> OSStatus {
    let certs: [SecCertificate]
    if let one = certificates as? SecCertificate {
        certs = [one]
    } else if let many = certificates as? [SecCertificate], !many.isEmpty {
        certs = many
    } else {
        return errSecParam
    }
    let policyList: [SecPolicy]
    if policies == nil {
        policyList = [SecPolicyCreateBasicX509()]
    } else if let one = policies as? SecPolicy {
        policyList = [one]
    } else if let many = policies as? [SecPolicy], !many.isEmpty {
        policyList = many
    } else {
        return errSecParam
    }
    trust.pointee = SecTrust(certificates: certs, policies: policyList)
    return errSecSuccess
}

/// INTERIM Apple `SecTrustGetCertificateCount`.
public func SecTrustGetCertificateCount(_ trust: SecTrust) -> CFIndex { trust.certificates.count }

/// INTERIM Apple `SecTrustCopyCertificateChain` (macOS 12 / iOS 15): here the certificates given at creation.
public func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray? { trust.certificates as NSArray }
