import Foundation
import OSecKeychain
import OSecTrust
import OSecX509

/// The certificate match options of `SecItemCopyMatching` for certificates and identities (reference §2.3):
/// `kSecMatchIssuers`, `kSecMatchPolicy`, `kSecMatchValidOnDate`, `kSecMatchTrustedOnly` and
/// `kSecMatchEmailAddressIfPresent`. They filter the items the attribute query found; the policy options run a
/// trust evaluation of each candidate with the keychain's certificates as intermediates.
struct SecItemCertificateFilter {
    /// Normalized issuer Name contents (as stored in `issr`): the certificate or a certificate above it in a chain
    /// through the keychain's certificates must be issued by one of them.
    var issuers: [Data]?
    /// The policy the certificate must satisfy (`kSecMatchPolicy`).
    var policy: SecPolicy?
    /// The instant the certificate must be valid at (`kSecMatchValidOnDate`; kCFNull means now).
    var validOnDate: Date?
    /// Only certificates whose chain reaches a trusted anchor under the policy (BasicX509 when none).
    var trustedOnly = false
    /// When the certificate carries e-mail addresses, one must be this one.
    var emailAddress: String?

    /// How deep `issuers` looks above the certificate through the keychain's certificates.
    static let maximumIssuerDepth = 8

    /// Parses one of the five keys (the caller has checked the class). Wrong value types → errSecParam.
    mutating func apply(_ key: String, _ value: Any) throws {
        switch key {
        case kSecMatchIssuers:
            let list: [Any]
            if let array = value as? NSArray {
                list = array.map { $0 }
            } else if let array = value as? [Any] {
                list = array
            } else {
                throw SecError.param("kSecMatchIssuers must be an array of DER-encoded names")
            }
            issuers = try list.map { item in
                guard let der = AttributeDictionary.dataValue(item),
                    let normalized = SecCertificate.normalizedNameContents(fromDER: der)
                else {
                    throw SecError.param("kSecMatchIssuers must hold DER-encoded X.501 names")
                }
                return normalized
            }
        case kSecMatchPolicy:
            guard let policy = value as? SecPolicy else { throw SecError.param("kSecMatchPolicy must be a SecPolicy") }
            self.policy = policy
        case kSecMatchValidOnDate:
            if value is NSNull {
                validOnDate = Date()
            } else if let date = value as? Date {
                validOnDate = date
            } else if let date = value as? NSDate {
                validOnDate = date as Date
            } else {
                throw SecError.param("kSecMatchValidOnDate must be a date or kCFNull")
            }
        case kSecMatchTrustedOnly:
            guard let flag = AttributeDictionary.boolValue(value) else {
                throw SecError.param("kSecMatchTrustedOnly must be a boolean")
            }
            trustedOnly = flag
        case kSecMatchEmailAddressIfPresent:
            guard let address = AttributeDictionary.stringValue(value) else {
                throw SecError.param("kSecMatchEmailAddressIfPresent must be a string")
            }
            emailAddress = address
        default:
            throw SecError.param("unknown certificate match key \(key)")
        }
    }

    /// Every certificate stored in `keychains` (candidate issuers for chains and trust evaluations).
    static func certificates(in keychains: [SecKeychain]) throws -> [SecCertificate] {
        var result: [SecCertificate] = []
        for keychain in keychains {
            let store = try keychain.store()
            var query = ItemQuery(itemClass: .certificate, accessGroups: SecItemStore.searchedGroups)
            query.includesAttributes = false
            for item in try mapStoreError({ try store.find(query) }) {
                if let certificate = try? SecItemStore.found(item, in: keychain, itemClass: .certificate).ref()
                    as? SecCertificate
                {
                    result.append(certificate)
                }
            }
        }
        return result
    }

    /// Whether the filter needs the keychain's other certificates (issuer chains and trust evaluations do).
    var needsKeychainCertificates: Bool { issuers != nil || policy != nil || trustedOnly }

    /// Whether `certificate` passes every option; `others` are the keychain's certificates (possible issuers).
    func matches(_ certificate: SecCertificate, others: [SecCertificate]) -> Bool {
        if let date = validOnDate,
            !certificate.certificate.isValid(atSecondsSinceEpoch: Int64(date.timeIntervalSince1970.rounded(.down)))
        {
            return false
        }
        if let address = emailAddress {
            let addresses = SecCertificateSummary.emailAddresses(certificate.certificate)
            if !addresses.isEmpty, !addresses.contains(where: { HostnameMatcher.emailEqual($0, address) }) {
                return false
            }
        }
        if let issuers, !issuedBy(issuers, certificate, others: others) { return false }
        if policy != nil || trustedOnly {
            return satisfiesPolicy(certificate, others: others)
        }
        return true
    }

    /// The certificate, or one above it through `others`, is issued by a name in `issuers`.
    private func issuedBy(_ issuers: [Data], _ certificate: SecCertificate, others: [SecCertificate]) -> Bool {
        var current = certificate.certificate
        for _ in 0..<SecItemCertificateFilter.maximumIssuerDepth {
            let issuer = Data(current.issuer.normalizedContentBytes)
            if issuers.contains(issuer) { return true }
            guard current.issuer != current.subject,
                let parent = others.first(where: {
                    $0.certificate.subject == current.issuer && current.isSigned(by: $0.certificate)
                })
            else { return false }
            current = parent.certificate
        }
        return false
    }

    /// A trust evaluation under the policy (BasicX509 when none) at `validOnDate` or now. With `trustedOnly` the
    /// chain must reach a trusted anchor; without it, only the policy's own checks count (an unknown root passes).
    private func satisfiesPolicy(_ certificate: SecCertificate, others: [SecCertificate]) -> Bool {
        let trust = SecTrust(
            certificates: [certificate] + others.filter { $0 !== certificate },
            policies: [policy ?? SecPolicyCreateBasicX509()])
        if let validOnDate { trust.mutate { $0.verifyDate = validOnDate } }
        let failures = trust.evaluateIfNeeded().failures
        if trustedOnly { return failures.isEmpty }
        return failures.allSatisfy { $0.check == .anchorTrusted || $0.check == .missingIntermediate }
    }
}
