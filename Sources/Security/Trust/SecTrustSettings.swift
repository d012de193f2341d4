import Foundation
import OSecTrust

// Apple's Trust Settings API (Security/SecTrustSettings.h, macOS): per-certificate trust decisions of the user, the
// administrator and the system, honoured by SecTrust (see SecTrustSettingsEvaluation).

/// Apple's `SecTrustSettingsDomain`.
public enum SecTrustSettingsDomain: UInt32, Sendable, CaseIterable {
    /// The user's settings (`security add-trusted-cert`).
    case user = 0
    /// The administrator's, for every user of the machine (`security add-trusted-cert -d`).
    case admin = 1
    /// The system's: the system anchors (read-only).
    case system = 2
}

/// Apple's `SecTrustSettingsResult`.
public enum SecTrustSettingsResult: UInt32, Sendable {
    /// Never valid in a trust setting.
    case invalid = 0
    /// Trust this root (self-signed) certificate as an anchor.
    case trustRoot = 1
    /// Trust this non-root certificate as if it were an anchor.
    case trustAsRoot = 2
    /// Never trust this certificate, even when a system anchor vouches for it.
    case deny = 3
    /// No decision (the setting may still allow errors).
    case unspecified = 4
}

/// Apple's `SecTrustSettingsKeyUsage`.
public struct SecTrustSettingsKeyUsage: OptionSet, Sendable, Hashable {
    /// The bit mask.
    public let rawValue: UInt32
    /// The usages of bit mask `rawValue`.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Signing data.
    public static let useSignature = SecTrustSettingsKeyUsage(rawValue: 0x1)
    /// Encrypting and decrypting data.
    public static let useEnDecryptData = SecTrustSettingsKeyUsage(rawValue: 0x2)
    /// Wrapping and unwrapping keys.
    public static let useEnDecryptKey = SecTrustSettingsKeyUsage(rawValue: 0x4)
    /// Signing certificates.
    public static let useSignCert = SecTrustSettingsKeyUsage(rawValue: 0x8)
    /// Signing CRLs and OCSP responses.
    public static let useSignRevocation = SecTrustSettingsKeyUsage(rawValue: 0x10)
    /// Key exchange.
    public static let useKeyExchange = SecTrustSettingsKeyUsage(rawValue: 0x20)
    /// Any use.
    public static let useAny = SecTrustSettingsKeyUsage(rawValue: 0xFFFF_FFFF)
}

// Usage-constraint keys of a trust settings dictionary (Apple's values). Apple's header defines them as `CFSTR`
// macros, which Swift imports as `String` properties: `[kSecTrustSettingsResult: …]` is a `[String: Any]`.

/// The `SecPolicy` a usage constraint applies to (absent: every policy).
public var kSecTrustSettingsPolicy: String { "kSecTrustSettingsPolicy" }
/// The application a usage constraint applies to (not supported on Linux).
public var kSecTrustSettingsApplication: String { "kSecTrustSettingsApplication" }
/// Policy-specific data, e.g. the SSL hostname or S/MIME address the constraint applies to.
public var kSecTrustSettingsPolicyString: String { "kSecTrustSettingsPolicyString" }
/// The policy's name (`sslServer`, `basicX509`, …) as Apple's trust settings files record it (Apple: private).
public var kSecTrustSettingsPolicyName: String { "kSecTrustSettingsPolicyName" }
/// A `SecTrustSettingsKeyUsage` bit mask: the key uses the constraint applies to.
public var kSecTrustSettingsKeyUsage: String { "kSecTrustSettingsKeyUsage" }
/// An error (a CSSM or OSStatus code) ignored for this certificate.
public var kSecTrustSettingsAllowedError: String { "kSecTrustSettingsAllowedError" }
/// The constraint's `SecTrustSettingsResult` (absent: `.trustRoot`).
public var kSecTrustSettingsResult: String { "kSecTrustSettingsResult" }

/// The uppercase hex SHA-1 of a certificate: its key in a trust settings file.
func trustSettingsKey(_ certificate: SecCertificate) -> String {
    certificate.certificate.sha1Fingerprint.map { String(format: "%02X", $0) }.joined()
}

/// A usage constraint from the caller's dictionary.
private func constraint(_ dictionary: [String: Any]) throws -> SecTrustSettingsStore.Constraint {
    var constraint = SecTrustSettingsStore.Constraint()
    if let value = dictionary[kSecTrustSettingsPolicy as String] {
        guard let policy = value as? SecPolicy else {
            throw SecError.param("kSecTrustSettingsPolicy must be a SecPolicy")
        }
        constraint.policyOID = policy.oid
        constraint.policyName = SecTrustSettingsEvaluation.name(of: policy)
        if case .ssl(_, let hostname?) = policy.kind { constraint.policyString = hostname }
    }
    if let value = dictionary[kSecTrustSettingsPolicyString as String] {
        guard let string = value as? String else {
            throw SecError.param("kSecTrustSettingsPolicyString must be a string")
        }
        constraint.policyString = string
    }
    if let value = dictionary[kSecTrustSettingsApplication as String] {
        guard let data = value as? Data else { throw SecError.param("kSecTrustSettingsApplication is not supported") }
        constraint.application = data
    }
    func number(_ key: String) throws -> NSNumber? {
        guard let value = dictionary[key] else { return nil }
        guard let number = value as? NSNumber else { throw SecError.param("\(key) must be a number") }
        return number
    }
    if let usage = try number(kSecTrustSettingsKeyUsage) {
        constraint.keyUsage = UInt32(truncatingIfNeeded: usage.int64Value)
    }
    if let error = try number(kSecTrustSettingsAllowedError) {
        constraint.allowedError = Int32(truncatingIfNeeded: error.int64Value)
    }
    if let result = try number(kSecTrustSettingsResult) {
        guard let value = SecTrustSettingsResult(rawValue: result.uint32Value), value != .invalid else {
            throw SecError.param("kSecTrustSettingsResult \(result) is not a SecTrustSettingsResult")
        }
        constraint.result = value.rawValue
    }
    return constraint
}

/// A stored constraint as Apple's API returns it (the policy as a SecPolicy).
private func dictionary(_ constraint: SecTrustSettingsStore.Constraint) -> [String: Any] {
    var result: [String: Any] = [:]
    if let oid = constraint.policyOID {
        if let policy = SecTrustSettingsEvaluation.policy(oid: oid, name: constraint.policyName) {
            result[kSecTrustSettingsPolicy as String] = policy
        }
        result[kSecTrustSettingsPolicyName as String] = constraint.policyName ?? oid
    }
    if let string = constraint.policyString { result[kSecTrustSettingsPolicyString as String] = string }
    if let application = constraint.application { result[kSecTrustSettingsApplication as String] = application }
    if let usage = constraint.keyUsage { result[kSecTrustSettingsKeyUsage as String] = NSNumber(value: usage) }
    if let error = constraint.allowedError { result[kSecTrustSettingsAllowedError as String] = NSNumber(value: error) }
    if let value = constraint.result { result[kSecTrustSettingsResult as String] = NSNumber(value: value) }
    return result
}

/// Apple's `SecTrustSettingsCopyTrustSettings`: the certificate's usage constraints in `domain` (an empty array
/// means "trusted as a root for everything"). errSecItemNotFound when it has none there. In the system domain a
/// system anchor has an empty array.
public func SecTrustSettingsCopyTrustSettings(
    _ certRef: SecCertificate, _ domain: SecTrustSettingsDomain, _ trustSettings: UnsafeMutablePointer<CFArray?>
) -> OSStatus {
    withOSStatus {
        trustSettings.pointee = nil
        if domain == .system {
            guard AnchorStore.system.certificates.contains(certRef.certificate) else {
                throw SecError(errSecItemNotFound, "the certificate is not a system anchor")
            }
            trustSettings.pointee = [] as NSArray
            return
        }
        guard let record = SecTrustSettingsStore.records(domain)[trustSettingsKey(certRef)] else {
            throw SecError(errSecItemNotFound, "the certificate has no trust settings in the \(domain) domain")
        }
        trustSettings.pointee = record.constraints.map(dictionary) as NSArray
    }
}

/// Apple's `SecTrustSettingsSetTrustSettings`: replaces the certificate's trust settings in `domain` with a
/// dictionary, an array of dictionaries, or nil (= trust as a root for every policy). `TrustRoot` needs a
/// self-signed certificate and `TrustAsRoot` one that is not (errSecParam otherwise). The system domain cannot be
/// changed (errSecDataNotModifiable); the admin domain needs root (errSecWrPerm).
public func SecTrustSettingsSetTrustSettings(
    _ certRef: SecCertificate, _ domain: SecTrustSettingsDomain, _ trustSettingsDictOrArray: CFTypeRef?
) -> OSStatus {
    withOSStatus {
        guard domain != .system else {
            throw SecError(errSecDataNotModifiable, "the system trust settings cannot be changed")
        }
        var constraints: [SecTrustSettingsStore.Constraint] = []
        if let value = trustSettingsDictOrArray {
            if let single = value as? [String: Any] {
                constraints = [try constraint(single)]
            } else if let array = value as? [Any] {
                constraints = try array.map { element in
                    guard let dictionary = element as? [String: Any] else {
                        throw SecError.param("trust settings must be dictionaries")
                    }
                    return try constraint(dictionary)
                }
            } else {
                throw SecError.param("trust settings must be a dictionary or an array of dictionaries")
            }
        }
        let selfSigned = certRef.certificate.isSelfIssued
        for item in constraints {
            if item.result == SecTrustSettingsResult.trustRoot.rawValue && !selfSigned {
                throw SecError.param("kSecTrustSettingsResultTrustRoot is only for self-signed certificates")
            }
            if item.result == SecTrustSettingsResult.trustAsRoot.rawValue && selfSigned {
                throw SecError.param("kSecTrustSettingsResultTrustAsRoot is only for certificates that are not roots")
            }
        }
        var records = SecTrustSettingsStore.records(domain)
        records[trustSettingsKey(certRef)] = SecTrustSettingsStore.Record(
            issuer: Data(certRef.certificate.issuer.derBytes), serial: Data(certRef.certificate.serialNumber),
            modified: Date(), constraints: constraints, certificate: Data(certRef.certificate.derBytes))
        try SecTrustSettingsStore.save(records, domain)
    }
}

/// Apple's `SecTrustSettingsRemoveTrustSettings`: errSecItemNotFound when the certificate has none in `domain`.
public func SecTrustSettingsRemoveTrustSettings(_ certRef: SecCertificate, _ domain: SecTrustSettingsDomain) -> OSStatus
{
    withOSStatus {
        guard domain != .system else {
            throw SecError(errSecDataNotModifiable, "the system trust settings cannot be changed")
        }
        var records = SecTrustSettingsStore.records(domain)
        guard records.removeValue(forKey: trustSettingsKey(certRef)) != nil else {
            throw SecError(errSecItemNotFound, "the certificate has no trust settings in the \(domain) domain")
        }
        try SecTrustSettingsStore.save(records, domain)
    }
}

/// Apple's `SecTrustSettingsCopyCertificates`: the certificates that have trust settings in `domain` (the system
/// anchors for `.system`); errSecNoTrustSettings when there are none. Records imported without their certificate
/// (Apple's format does not carry it) are not listed.
public func SecTrustSettingsCopyCertificates(
    _ domain: SecTrustSettingsDomain, _ certArray: UnsafeMutablePointer<CFArray?>?
) -> OSStatus {
    withOSStatus {
        certArray?.pointee = nil
        let certificates: [SecCertificate]
        if domain == .system {
            certificates = AnchorStore.system.certificates.map { SecCertificate($0) }
        } else {
            certificates = SecTrustSettingsStore.records(domain).sorted { $0.key < $1.key }.compactMap { entry in
                entry.value.certificate.flatMap { SecCertificateCreateWithData(nil, $0 as NSData) }
            }
        }
        guard !certificates.isEmpty else {
            throw SecError(errSecNoTrustSettings, "no trust settings in the \(domain) domain")
        }
        certArray?.pointee = certificates as NSArray
    }
}

/// Apple's `SecTrustSettingsCopyModificationDate`.
public func SecTrustSettingsCopyModificationDate(
    _ certRef: SecCertificate, _ domain: SecTrustSettingsDomain, _ modificationDate: UnsafeMutablePointer<CFDate?>
) -> OSStatus {
    withOSStatus {
        modificationDate.pointee = nil
        guard let record = SecTrustSettingsStore.records(domain)[trustSettingsKey(certRef)] else {
            throw SecError(errSecItemNotFound, "the certificate has no trust settings in the \(domain) domain")
        }
        modificationDate.pointee = record.modified as NSDate
    }
}

/// Apple's `SecTrustSettingsCreateExternalRepresentation`: the domain's settings in Apple's property-list format
/// (what `security trust-settings-export` writes). errSecNoTrustSettings when the domain has none.
public func SecTrustSettingsCreateExternalRepresentation(
    _ domain: SecTrustSettingsDomain, _ trustSettings: UnsafeMutablePointer<CFData?>
) -> OSStatus {
    withOSStatus {
        trustSettings.pointee = nil
        var records = SecTrustSettingsStore.records(domain)
        if domain == .system {
            for anchor in AnchorStore.system.certificates {
                records[SecTrustSettingsEvaluation.key(anchor)] = SecTrustSettingsStore.Record(
                    issuer: Data(anchor.issuer.derBytes), serial: Data(anchor.serialNumber),
                    modified: Date(timeIntervalSince1970: 0), constraints: [], certificate: nil)
            }
        }
        guard !records.isEmpty else {
            throw SecError(errSecNoTrustSettings, "no trust settings in the \(domain) domain")
        }
        trustSettings.pointee =
            try SecTrustSettingsStore.externalRepresentation(records, includingCertificates: false)
            as NSData
    }
}

/// Apple's `SecTrustSettingsImportExternalRepresentation`: replaces the domain's settings with those of an
/// external representation (errSecInvalidTrustSettings when it is not one). Certificates already known for a
/// record are kept.
public func SecTrustSettingsImportExternalRepresentation(
    _ domain: SecTrustSettingsDomain, _ trustSettings: CFData
)
    -> OSStatus
{
    withOSStatus {
        guard domain != .system else {
            throw SecError(errSecDataNotModifiable, "the system trust settings cannot be changed")
        }
        var imported = try SecTrustSettingsStore.parse(trustSettings as Data)
        let existing = SecTrustSettingsStore.records(domain)
        for (hash, record) in imported where record.certificate == nil {
            imported[hash]?.certificate = existing[hash]?.certificate
        }
        try SecTrustSettingsStore.save(imported, domain)
    }
}
