import OSecSQLite

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension KeychainStore {
    /// Re-seals the secrets that schema version 1 sealed (listed in `reseal_queue` by the migration to version 2)
    /// whose protection-class key this store holds: each is opened with version 1's associated data and sealed
    /// again bound to its item (``SecretBinding``), in one write transaction.
    ///
    /// Runs when a store opens (class D, and every class of a keychain without password) and whenever the master
    /// key is installed (unlock, password change: classes A and C). Until then such a secret cannot be opened anyway
    /// (its class key is not in memory), so no version-1 secret is ever *read* as one. A queued blob that does not
    /// open with version 1's binding is left as it is: tampered rows then fail with `integrityCheckFailed` when read.
    /// A read-only keychain is left alone (its version-1 secrets of classes whose key is present then fail to open
    /// with `integrityCheckFailed`; see the design document).
    func resealLegacySecrets() throws(KeychainStoreError) {
        guard isWritable else { return }
        let pending = try KeychainStore.mapErrors {
            try db.scalar("SELECT EXISTS (SELECT 1 FROM \(KeychainSchema.resealQueue))").integerValue ?? 0
        }
        guard pending != 0 else { return }
        let available = ProtectionClass.allCases.filter(keyRing.hasKey)
        guard !available.isEmpty else { return }
        let keyRing = self.keyRing
        try writeTransaction("re-seal secrets migrated from keychain format version 1") {
            for itemClass in ItemClass.all {
                let code = itemClass.code
                let primaryKeyColumns = itemClass.primaryKeyIndices.map { "t.\"\(itemClass.attributes[$0].key)\"" }
                let sql = """
                    SELECT q.row_id, t.id, t.persistref, t.pdmn, t.agrp, t.sync, t.secret, \
                    \(primaryKeyColumns.joined(separator: ", ")) FROM \(KeychainSchema.resealQueue) q \
                    LEFT JOIN "\(code)" t ON t.id = q.row_id WHERE q.item_class = ?
                    """
                let rows = try db.query(sql, [.text(code)]) { row in
                    (
                        queued: row.int64(at: 0), exists: !row.isNull(at: 1), uuid: row.data(at: 2) ?? Data(),
                        pdmn: row.string(at: 3) ?? "", agrp: row.string(at: 4) ?? "", sync: row.int64(at: 5) != 0,
                        secret: row.data(at: 6),
                        primaryKey: BindingEncoding.primaryKey(itemClass) { position, _ in
                            row.value(at: 7 + Int32(position))
                        }
                    )
                }
                for row in rows {
                    let protectionClass = Accessibility(rawValue: row.pdmn)?.protectionClass
                    if row.exists, let blob = row.secret, let protectionClass {
                        guard available.contains(protectionClass) else { continue }  // stays queued
                        let binding = SecretBinding(
                            itemClass: itemClass, rowID: row.queued, uuid: row.uuid, protectionClass: protectionClass,
                            accessGroup: row.agrp, isSynchronizable: row.sync, primaryKey: row.primaryKey)
                        if var plain = try? keyRing.openLegacySecret(blob, binding: binding) {
                            defer { plain.resetBytes(in: 0..<plain.count) }
                            try db.run(
                                "UPDATE \"\(code)\" SET secret = ? WHERE id = ?",
                                [.blob(try keyRing.sealSecret(plain, binding: binding)), .integer(row.queued)])
                        }
                    }
                    try db.run(
                        "DELETE FROM \(KeychainSchema.resealQueue) WHERE item_class = ? AND row_id = ?",
                        [.text(code), .integer(row.queued)])
                }
            }
        }
    }
}
