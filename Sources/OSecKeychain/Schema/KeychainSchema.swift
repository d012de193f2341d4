import OSecSQLite

/// The keychain's SQL schema and its migrations.
///
/// The version lives in `PRAGMA user_version`; `PRAGMA application_id` = 'OSKC' marks the file as ours.
///
/// ## Migrations
/// ``migrations`` is the append-only list of steps since day one. Opening a keychain whose version is older than
/// ``currentVersion`` runs the missing steps, in order, inside **one** `BEGIN IMMEDIATE` transaction that first
/// re-reads the version: concurrent processes opening the same old keychain migrate it exactly once, and a failing
/// step rolls every step back (the file stays at its old version, nothing half-done). Each step ends by setting
/// `user_version` to its own version. A keychain with a *newer* version is refused (`invalidKeychain`), as is one
/// that must be migrated on read-only storage (`io`: a migration is a write).
///
/// Rules for a new step (version N + 1):
/// * Append a ``Migration``; never change what a released one does. Its statements are plain SQL and must be idempotent
///   (`CREATE TABLE IF NOT EXISTS`, `INSERT OR IGNORE`, …) so that re-running one can never break a file.
/// * Item tables gain columns only at their end (`ALTER TABLE … ADD COLUMN`) with the attribute appended to its
///   ``ItemClass`` schema: finds read rows with `SELECT *` in table order.
/// * A migration runs before any key is available (the keychain may be locked). Work that needs keys is queued
///   by the migration in a table and done by the store once the keys are in memory, as version 2 does with
///   `reseal_queue` (see `KeychainStore.resealLegacySecrets`).
/// * Bump nothing else: ``currentVersion`` is the last step's version.
enum KeychainSchema {
    /// 'OSKC' (0x4F534B43).
    static let applicationID: Int32 = 0x4F53_4B43

    /// One schema step: the statements that take version `version - 1` to `version`.
    struct Migration {
        let version: Int32
        /// What the step does (for diagnostics and the design document).
        let summary: String
        let statements: [String]
    }

    /// Every migration since day one, in order. Append only.
    static let migrations: [Migration] = [
        Migration(
            version: 1, summary: "keychain metadata, class keys and one table per item class", statements: version1()),
        Migration(
            version: 2,
            summary: "secrets bound to their item (primary key, agrp, sync, row id): queue version-1 secrets to be "
                + "re-sealed",
            statements: version2()),
    ]

    /// The version a fully migrated keychain has.
    static var currentVersion: Int32 { migrations.last?.version ?? 0 }

    /// Applies the migrations after `version`. Must run inside a write transaction.
    static func migrate(_ db: Database, from version: Int32) throws {
        for migration in migrations where migration.version > version {
            for statement in migration.statements { try db.execute(statement) }
            try db.setUserVersion(migration.version)
        }
    }

    // MARK: Version 1

    private static func version1() -> [String] {
        var statements = [
            """
            CREATE TABLE IF NOT EXISTS keychain_meta (
                singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
                keychain_id BLOB NOT NULL,
                created REAL NOT NULL,
                master_protection TEXT NOT NULL CHECK (master_protection IN ('password', 'device')),
                kdf TEXT,
                kdf_salt BLOB,
                kdf_n INTEGER,
                kdf_r INTEGER,
                kdf_p INTEGER,
                wrapped_master BLOB NOT NULL
            )
            """,
            """
            CREATE TABLE IF NOT EXISTS class_keys (
                protection_class TEXT PRIMARY KEY CHECK (protection_class IN ('A', 'C', 'D')),
                wrapped_by TEXT NOT NULL CHECK (wrapped_by IN ('master', 'device')),
                wrapped_key BLOB NOT NULL
            )
            """,
        ]
        for itemClass in ItemClass.all {
            statements.append(createTable(itemClass))
            for key in itemClass.indexedAttributes {
                statements.append(
                    "CREATE INDEX IF NOT EXISTS \"\(itemClass.code)_\(key)\" ON \"\(itemClass.code)\" (\"\(key)\")")
            }
        }
        return statements
    }

    /// `CREATE TABLE` for an item class: engine columns, one column per attribute, and the UNIQUE
    /// constraint over the primary-key attributes plus agrp and sync (Apple's uniqueness rule).
    static func createTable(_ itemClass: ItemClass) -> String {
        var columns = [
            "id INTEGER PRIMARY KEY",
            "persistref BLOB NOT NULL UNIQUE",
            "agrp TEXT NOT NULL",
            "pdmn TEXT NOT NULL",
            "sync INTEGER NOT NULL DEFAULT 0",
            "cdat REAL NOT NULL",
            "mdat REAL NOT NULL",
            "strs INTEGER NOT NULL DEFAULT 0",
            "secret BLOB",
        ]
        for attribute in itemClass.attributes {
            columns.append(columnDefinition(attribute))
        }
        let classKey = itemClass.attributes.filter { $0.isPrimaryKey && !ItemClass.commonAttributes.contains($0) }
        let commonKey = itemClass.attributes.filter { $0.isPrimaryKey && ItemClass.commonAttributes.contains($0) }
        let unique = classKey.map { "\"\($0.key)\"" } + ["agrp", "sync"] + commonKey.map { "\"\($0.key)\"" }
        columns.append("UNIQUE (\(unique.joined(separator: ", ")))")
        return "CREATE TABLE IF NOT EXISTS \"\(itemClass.code)\" (\n    \(columns.joined(separator: ",\n    "))\n)"
    }

    private static func columnDefinition(_ attribute: AttributeDescriptor) -> String {
        let name = "\"\(attribute.key)\""
        // `bytes` → BLOB affinity (no conversion); `number` → no declared type (stored as given);
        // primary-key columns are NOT NULL with a default, because SQLite treats NULLs as distinct in UNIQUE.
        switch (attribute.kind, attribute.isPrimaryKey) {
        case (.bytes, true): return "\(name) BLOB NOT NULL DEFAULT X''"
        case (.bytes, false): return "\(name) BLOB"
        case (.number, true): return "\(name) NOT NULL DEFAULT 0"
        case (.number, false): return name
        case (.date, true): return "\(name) REAL NOT NULL DEFAULT 0"
        case (.date, false): return "\(name) REAL"
        }
    }

    // MARK: Version 2

    /// The table of secrets still sealed the version-1 way, to be re-sealed by the store when their class key is
    /// in memory (class D at once; A and C at the next unlock of a password keychain).
    static let resealQueue = "reseal_queue"

    /// Version 1 bound a secret to keychain id, class, persistent ref and protection class only; version 2 binds it
    /// to the item (see ``SecretBinding``). The re-sealing needs the class keys, which a migration does not have,
    /// so the step only records which rows hold version-1 secrets.
    private static func version2() -> [String] {
        var statements = [
            """
            CREATE TABLE IF NOT EXISTS \(resealQueue) (
                item_class TEXT NOT NULL,
                row_id INTEGER NOT NULL,
                PRIMARY KEY (item_class, row_id)
            ) WITHOUT ROWID
            """
        ]
        for itemClass in ItemClass.all {
            statements.append(
                "INSERT OR IGNORE INTO \(resealQueue) (item_class, row_id) SELECT '\(itemClass.code)', id FROM "
                    + "\"\(itemClass.code)\" WHERE secret IS NOT NULL")
        }
        return statements
    }
}
