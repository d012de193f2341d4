import OSecSQLite

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `keychain_meta` row: keychain id and how the master key is protected.
struct KeychainMeta {
    enum MasterProtection: String {
        case password, device
    }

    let keychainID: Data
    let protection: MasterProtection
    let kdfSalt: Data?
    let kdf: KDFParameters?
    let wrappedMaster: Data

    static func read(_ db: Database) throws -> KeychainMeta {
        let rows = try db.query(
            """
            SELECT keychain_id, master_protection, kdf_salt, kdf_n, kdf_r, kdf_p, wrapped_master
            FROM keychain_meta WHERE singleton = 1
            """
        ) { row throws(KeychainStoreError) -> KeychainMeta in
            guard let id = row.data(at: 0), id.count == 16,
                let protection = row.string(at: 1).flatMap(MasterProtection.init(rawValue:)),
                let wrapped = row.data(at: 6)
            else {
                throw KeychainStoreError(.invalidKeychain, "malformed keychain_meta row")
            }
            var kdf: KDFParameters?
            if protection == .password {
                guard row.data(at: 2) != nil, !row.isNull(at: 3), !row.isNull(at: 4), !row.isNull(at: 5),
                    let n = UInt64(exactly: row.int64(at: 3)), let r = UInt32(exactly: row.int64(at: 4)),
                    let p = UInt32(exactly: row.int64(at: 5))
                else {
                    throw KeychainStoreError(.invalidKeychain, "missing KDF parameters")
                }
                kdf = try KDFParameters(n: n, r: r, p: p)
            }
            return KeychainMeta(
                keychainID: id, protection: protection, kdfSalt: row.data(at: 2), kdf: kdf,
                wrappedMaster: wrapped)
        }
        guard let meta = rows.first else { throw KeychainStoreError(.invalidKeychain, "keychain_meta is empty") }
        return meta
    }

    /// Reads the wrapped class keys.
    static func readClassKeys(_ db: Database) throws -> [ProtectionClass: Data] {
        var keys: [ProtectionClass: Data] = [:]
        for (name, blob) in try db.query(
            "SELECT protection_class, wrapped_key FROM class_keys", [],
            { row in
                (row.string(at: 0) ?? "", row.data(at: 1) ?? Data())
            })
        {
            if let pc = ProtectionClass(rawValue: name) { keys[pc] = blob }
        }
        guard ProtectionClass.allCases.allSatisfy({ keys[$0] != nil }) else {
            throw KeychainStoreError(.invalidKeychain, "class keys are missing")
        }
        return keys
    }
}
