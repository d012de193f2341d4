import OSecSQLite

/// The keychain's SQL schema and its migrations.
///
/// The version lives in `PRAGMA user_version`; `PRAGMA application_id` = 'OSKC' marks the file as ours.
/// Migrations run in order inside one `BEGIN IMMEDIATE` transaction, so concurrent processes opening an
/// old keychain migrate it exactly once. A keychain with a *newer* version is refused (`invalidKeychain`).
enum KeychainSchema {
    /// 'OSKC' (0x4F534B43).
    static let applicationID: Int32 = 0x4F53_4B43

    /// One schema step: the statements that take version `version - 1` to `version`.
    struct Migration {
        let version: Int32
        let statements: [String]
    }

    /// Every migration since day one, in order. Append only.
    static let migrations: [Migration] = [
        Migration(version: 1, statements: version1()),
        // The sync ledger: item ids, outbox, state and conflicts of synchronizable items (OSecSync).
        Migration(version: 2, statements: SyncLedger.schema),
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
            CREATE TABLE keychain_meta (
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
            CREATE TABLE class_keys (
                protection_class TEXT PRIMARY KEY CHECK (protection_class IN ('A', 'C', 'D')),
                wrapped_by TEXT NOT NULL CHECK (wrapped_by IN ('master', 'device')),
                wrapped_key BLOB NOT NULL
            )
            """,
        ]
        for itemClass in ItemClass.all {
            statements.append(createTable(itemClass))
            for key in itemClass.indexedAttributes {
                statements.append("CREATE INDEX \"\(itemClass.code)_\(key)\" ON \"\(itemClass.code)\" (\"\(key)\")")
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
        return "CREATE TABLE \"\(itemClass.code)\" (\n    \(columns.joined(separator: ",\n    "))\n)"
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
}
