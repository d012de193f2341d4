import Foundation
import OSecASN1
import OSecSystem

/// The trust settings of one domain as stored: Apple's trust settings property list.
///
/// ```
/// { trustVersion = 1;
///   trustList = { "<SHA-1 of the certificate, uppercase hex>" = {
///       issuerName = <issuer Name DER>; serialNumber = <serial bytes>; modDate = <date>;
///       trustSettings = ( { kSecTrustSettingsPolicy = <policy OID bytes>; kSecTrustSettingsPolicyName = sslServer;
///                           kSecTrustSettingsPolicyString = host; kSecTrustSettingsResult = 1;
///                           kSecTrustSettingsAllowedError = -2147409654; kSecTrustSettingsKeyUsage = 1; } );
///   }; };
/// }
/// ```
///
/// Files (XML property lists): user `$XDG_CONFIG_HOME/opensecurity/trust-settings/user.plist` (`~/.config/…`,
/// mode 0600), admin `/etc/opensecurity/trust-settings/admin.plist` (mode 0644, root only), overridable with
/// `OPENSECURITY_USER_TRUST_SETTINGS` / `OPENSECURITY_ADMIN_TRUST_SETTINGS`. The system domain is the system
/// anchor bundle and cannot be changed. Each record may also carry `certificate` (the DER), which lets a trusted
/// root anchor chains without being in any keychain; exports leave it out, as Apple's format has no such key.
enum SecTrustSettingsStore {
    static let userVariable = "OPENSECURITY_USER_TRUST_SETTINGS"
    static let adminVariable = "OPENSECURITY_ADMIN_TRUST_SETTINGS"
    static let adminPath = "/etc/opensecurity/trust-settings/admin.plist"
    /// `kSecTrustRecordVersionCurrent`.
    static let version = 1
    /// Largest trust settings file read (a bound on what a corrupt or hostile file can make us parse).
    static let maximumFileSize = 16 * 1024 * 1024

    /// One usage constraint as stored.
    struct Constraint: Equatable, Sendable {
        var policyOID: String?
        var policyName: String?
        var policyString: String?
        var application: Data?
        var keyUsage: UInt32?
        var allowedError: Int32?
        var result: UInt32?
    }

    /// The trust settings of one certificate.
    struct Record: Sendable {
        var issuer: Data
        var serial: Data
        var modified: Date
        var constraints: [Constraint]
        var certificate: Data?
    }

    static func path(_ domain: SecTrustSettingsDomain) -> String? {
        switch domain {
        case .user:
            return SettingsFile.userPath(overriddenBy: userVariable, "trust-settings/user.plist")
        case .admin:
            if let explicit = SystemProcess.environment(adminVariable), !explicit.isEmpty { return explicit }
            return adminPath
        case .system:
            return nil
        }
    }

    // MARK: Reading (cached per file)

    private struct Cached: Sendable {
        let path: String
        let identity: FileStatus
        let records: [String: Record]
    }

    private static let cache = LockedValue<[UInt32: Cached]>([:])

    /// The records of `domain` (empty when there is no file or it cannot be read). Re-read only when the file
    /// changes (device, inode, size or modification time).
    static func records(_ domain: SecTrustSettingsDomain) -> [String: Record] {
        guard let path = path(domain), let identity = FileStatus.of(path), identity.kind != .directory else {
            return [:]
        }
        if let cached = cache.withLock({ $0[domain.rawValue] }), cached.path == path, cached.identity == identity {
            return cached.records
        }
        guard identity.size <= maximumFileSize, let data = FileManager.default.contents(atPath: path),
            let records = try? parse(data)
        else { return [:] }
        cache.withLock { $0[domain.rawValue] = Cached(path: path, identity: identity, records: records) }
        return records
    }

    /// Replaces the records of `domain` on disk.
    static func save(_ records: [String: Record], _ domain: SecTrustSettingsDomain) throws {
        guard let path = path(domain) else {
            throw SecError(errSecDataNotModifiable, "the system trust settings cannot be changed")
        }
        let data = try externalRepresentation(records, includingCertificates: true)
        try SettingsFile.write(data, to: path, mode: domain == .user ? 0o600 : 0o644)
        cache.withLock { $0[domain.rawValue] = nil }
    }

    // MARK: Format

    /// Apple's external representation (XML property list) of `records`.
    static func externalRepresentation(_ records: [String: Record], includingCertificates: Bool) throws -> Data {
        var list: [String: Any] = [:]
        for (hash, record) in records {
            var entry: [String: Any] = [
                "issuerName": record.issuer, "serialNumber": record.serial, "modDate": record.modified,
                "trustSettings": record.constraints.map(plist),
            ]
            if includingCertificates, let certificate = record.certificate { entry["certificate"] = certificate }
            list[hash] = entry
        }
        let root: [String: Any] = ["trustVersion": version, "trustList": list]
        do {
            return try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
        } catch {
            throw SecError(errSecInternal, "cannot encode the trust settings: \(error)")
        }
    }

    /// Parses Apple's trust settings property list (XML or binary).
    /// - Throws: errSecInvalidTrustSettings when it is not one.
    static func parse(_ data: Data) throws -> [String: Record] {
        let invalid = SecError(errSecInvalidTrustSettings, "the trust settings are malformed")
        guard data.count <= maximumFileSize,
            let root = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                as? [String: Any],
            let list = root["trustList"] as? [String: Any]
        else { throw invalid }
        if let version = (root["trustVersion"] as? NSNumber)?.intValue, version > Self.version { throw invalid }
        var records: [String: Record] = [:]
        for (hash, value) in list {
            guard let entry = value as? [String: Any], isHash(hash) else { throw invalid }
            let constraints = try (entry["trustSettings"] as? [Any] ?? []).map { item -> Constraint in
                guard let dictionary = item as? [String: Any] else { throw invalid }
                return try constraint(dictionary)
            }
            records[hash.uppercased()] = Record(
                issuer: entry["issuerName"] as? Data ?? Data(), serial: entry["serialNumber"] as? Data ?? Data(),
                modified: entry["modDate"] as? Date ?? Date(timeIntervalSince1970: 0), constraints: constraints,
                certificate: entry["certificate"] as? Data)
        }
        return records
    }

    private static func isHash(_ key: String) -> Bool {
        key.utf8.count == 40 && key.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 102) }
    }

    private static func plist(_ constraint: Constraint) -> [String: Any] {
        var dictionary: [String: Any] = [:]
        if let oid = constraint.policyOID, let bytes = try? ASN1ObjectIdentifier(dotted: oid).contentBytes {
            dictionary[kSecTrustSettingsPolicy as String] = Data(bytes)
        }
        if let name = constraint.policyName { dictionary[kSecTrustSettingsPolicyName as String] = name }
        if let string = constraint.policyString { dictionary[kSecTrustSettingsPolicyString as String] = string }
        if let application = constraint.application {
            dictionary[kSecTrustSettingsApplication as String] = application
        }
        if let usage = constraint.keyUsage {
            dictionary[kSecTrustSettingsKeyUsage as String] = NSNumber(value: Int64(Int32(bitPattern: usage)))
        }
        if let error = constraint.allowedError {
            dictionary[kSecTrustSettingsAllowedError as String] = NSNumber(value: error)
        }
        if let result = constraint.result { dictionary[kSecTrustSettingsResult as String] = NSNumber(value: result) }
        return dictionary
    }

    private static func constraint(_ dictionary: [String: Any]) throws -> Constraint {
        var constraint = Constraint()
        if let oid = dictionary[kSecTrustSettingsPolicy as String] as? Data {
            guard let parsed = try? ASN1ObjectIdentifier(contentBytes: ArraySlice(oid)) else {
                throw SecError(errSecInvalidTrustSettings, "a trust setting names a malformed policy OID")
            }
            constraint.policyOID = parsed.dotted
        }
        constraint.policyName = dictionary[kSecTrustSettingsPolicyName as String] as? String
        constraint.policyString = dictionary[kSecTrustSettingsPolicyString as String] as? String
        constraint.application = dictionary[kSecTrustSettingsApplication as String] as? Data
        if let usage = dictionary[kSecTrustSettingsKeyUsage as String] as? NSNumber {
            constraint.keyUsage = UInt32(truncatingIfNeeded: usage.int64Value)
        }
        if let error = dictionary[kSecTrustSettingsAllowedError as String] as? NSNumber {
            constraint.allowedError = Int32(truncatingIfNeeded: error.int64Value)
        }
        if let result = dictionary[kSecTrustSettingsResult as String] as? NSNumber {
            constraint.result = UInt32(truncatingIfNeeded: result.int64Value)
        }
        return constraint
    }
}
