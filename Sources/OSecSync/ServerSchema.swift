import OSecPostgres

/// The server's tables, created and upgraded by the clients themselves: versioned (`osec_sync_meta`), each step
/// applied once under a transaction-scoped advisory lock, so any number of members may start at once.
///
/// ```sql
/// osec_circles (circle_id bytea PK, lookup bytea UNIQUE, salt bytea, kdf_n, kdf_r, kdf_p, key_check bytea,
///               next_seq bigint, created timestamptz)
/// osec_members (circle_id, member_id bytea, info bytea (sealed), last_seen timestamptz)
/// osec_items   (circle_id, item_id bytea, version bigint, seq bigint, tombstone bool, blob bytea)
/// ```
/// `lookup` = SHA-256("OSecSync.circle.v1" ‖ circle name): the name itself never reaches the server.
///
/// Version 2 drops the foreign key from `osec_items` to `osec_circles`: its per-row check was half of the push
/// statement's time on the server, and it guarded nothing the push does not guard itself (a push for a circle
/// without a row stores nothing: its rows are joined with the circle row it locks). Deleting a circle by hand now
/// means deleting its items too.
enum ServerSchema {
    /// The version this code writes and reads.
    static let currentVersion: Int64 = 2
    /// Advisory lock key for schema changes ('OSSY').
    static let lockKey: Int64 = 0x4F53_5359

    static let steps: [(version: Int64, statements: [String])] = [
        (
            1,
            [
                """
                CREATE TABLE IF NOT EXISTS osec_circles (
                    circle_id bytea PRIMARY KEY,
                    lookup bytea NOT NULL UNIQUE,
                    salt bytea NOT NULL,
                    kdf_n bigint NOT NULL, kdf_r integer NOT NULL, kdf_p integer NOT NULL,
                    key_check bytea NOT NULL,
                    next_seq bigint NOT NULL DEFAULT 0,
                    created timestamptz NOT NULL DEFAULT now())
                """,
                """
                CREATE TABLE IF NOT EXISTS osec_members (
                    circle_id bytea NOT NULL REFERENCES osec_circles ON DELETE CASCADE,
                    member_id bytea NOT NULL,
                    info bytea NOT NULL,
                    last_seen timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (circle_id, member_id))
                """,
                """
                CREATE TABLE IF NOT EXISTS osec_items (
                    circle_id bytea NOT NULL REFERENCES osec_circles ON DELETE CASCADE,
                    item_id bytea NOT NULL,
                    version bigint NOT NULL CHECK (version > 0),
                    seq bigint NOT NULL,
                    tombstone boolean NOT NULL,
                    blob bytea NOT NULL,
                    PRIMARY KEY (circle_id, item_id))
                """,
                "CREATE INDEX IF NOT EXISTS osec_items_seq ON osec_items (circle_id, seq)",
            ]
        ),
        (
            2,
            [
                """
                DO $$
                DECLARE constraint_name name;
                BEGIN
                    FOR constraint_name IN
                        SELECT conname FROM pg_constraint
                        WHERE conrelid = 'osec_items'::regclass AND contype = 'f'
                    LOOP
                        EXECUTE format('ALTER TABLE osec_items DROP CONSTRAINT %I', constraint_name);
                    END LOOP;
                END
                $$
                """
            ]
        ),
    ]

    /// Brings the server's schema to ``currentVersion`` (idempotent).
    /// - Throws: `serverIncompatible` when the server has a newer schema than this code knows.
    static func prepare(_ connection: PGConnection) throws {
        if try version(connection) == currentVersion { return }
        try connection.transaction {
            try connection.execute("SELECT pg_advisory_xact_lock($1)", [.integer(lockKey)])
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS osec_sync_meta (
                    singleton integer PRIMARY KEY CHECK (singleton = 1), schema_version bigint NOT NULL)
                """)
            let found = try connection.execute("SELECT schema_version FROM osec_sync_meta").scalar().integerValue ?? 0
            guard found <= currentVersion else {
                throw SyncError(
                    .serverIncompatible, "the server's sync schema is version \(found), newer than this OpenSecurity")
            }
            for step in steps where step.version > found {
                for statement in step.statements { try connection.execute(statement) }
            }
            try connection.execute(
                """
                INSERT INTO osec_sync_meta (singleton, schema_version) VALUES (1, $1)
                ON CONFLICT (singleton) DO UPDATE SET schema_version = excluded.schema_version
                """, [.integer(currentVersion)])
        }
    }

    private static func version(_ connection: PGConnection) throws -> Int64 {
        let exists = try connection.execute("SELECT to_regclass('osec_sync_meta') IS NOT NULL").scalar().boolValue
        guard exists == true else { return 0 }
        return try connection.execute("SELECT schema_version FROM osec_sync_meta").scalar().integerValue ?? 0
    }
}
