import OSecLocks
import OSecSQLite
import OSecSystem
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One open keychain: a SQLite database in WAL mode plus its device-key file, and the keys this process
/// holds in memory.
///
/// ## Files and keys
/// See `docs/design/keychain-store.md`. A random 256-bit master key wraps the class keys A
/// (WhenUnlocked) and C (AfterFirstUnlock); the device key (`<path>.devkey`, mode 0600) wraps the class D
/// (Always) key. The master key itself is wrapped by an scrypt-derived key from the password, or, for a
/// keychain without password, by the device key. Secrets are sealed with AES-256-GCM under their class key,
/// bound to the item they belong to (see `SecretBinding`).
///
/// ## Files
/// Every keychain file is opened without following symbolic links and must belong to the user and be private
/// (``KeychainFiles``). A keychain that cannot be written (read-only storage) is opened read-only: finds work,
/// writes fail with `io`. Before every write transaction the store checks that its path still names the file it
/// opened (`keychainReplaced` otherwise), so a write never lands in a keychain another process deleted.
///
/// ## Concurrency
/// One instance may be used from any thread: the connection serializes statements with its lock and
/// every write is one `BEGIN IMMEDIATE` transaction. Several instances and processes may open the same
/// file; they wait for each other up to the busy timeout. Commits use `synchronous=FULL`, so an add that
/// returned survives SIGKILL and power loss.
package final class KeychainStore: @unchecked Sendable {  // sendable: Database and KeyRing are internally locked
    /// The keychain's files.
    package let files: KeychainFiles
    /// The database path.
    package var path: String { files.database }

    let db: Database
    let keyRing: KeyRing
    /// Device and inode of the database file this store opened (checked before every write).
    let openedIdentity: FileIdentity
    /// `false` when the keychain could only be opened read-only (read-only storage, no write permission).
    package let isWritable: Bool
    /// Prepared finds by shape (used under the connection's lock).
    let findStatements = KeyedStatementCache<FindShape>()
    /// Prepared INSERTs by class ordinal (used under the connection's lock).
    let insertStatements = KeyedStatementCache<Int>()
    /// Recent find results, valid while no commit has happened (used under the connection's lock).
    let findResults = FindResultCache()
    /// The sync layer's outbox hooks (see ``SyncLedger``).
    package let syncLedger = SyncLedger()
    private let cachesFindsStorage = Atomic<Bool>(true)
    /// Whether this store may answer finds from `FindResultCache` (on by default; see also
    /// ``findCachingEnabled``). Turning it off empties the cache.
    package var cachesFinds: Bool {
        get { cachesFindsStorage.load(ordering: .relaxed) && KeychainStore.findCachingEnabled.load(ordering: .relaxed) }
        set {
            cachesFindsStorage.store(newValue, ordering: .relaxed)
            if !newValue { db.withLock { findResults.removeAll() } }
        }
    }
    /// Process-wide switch for the find-result cache of every store (the benchmark turns it off to measure
    /// the SQLite path through the public API). Stores drop what they cached when they next see it off.
    package static let findCachingEnabled = Atomic<Bool>(true)
    private let deviceKey: KeyMaterial

    /// How long operations wait for other connections' write locks.
    package static let busyTimeout: Duration = .seconds(10)
    /// Page cache per connection, in KiB (SQLite's `PRAGMA cache_size = -N`).
    static let pageCacheKiB: Int64 = 32 * 1024

    private init(db: Database, files: KeychainFiles, access: KeychainFiles.DatabaseAccess) throws(KeychainStoreError) {
        self.db = db
        self.files = files
        self.openedIdentity = access.identity
        self.isWritable = access.writable
        let meta = try KeychainStore.mapErrors { try KeychainMeta.read(db) }
        let wrappedClassKeys = try KeychainStore.mapErrors { try KeychainMeta.readClassKeys(db) }
        deviceKey = try DeviceKeyFile.read(keychainID: meta.keychainID, files: files)
        keyRing = KeyRing(keychainID: meta.keychainID)
        let always = try AEADBox.open(
            wrappedClassKeys[.always] ?? Data(), key: deviceKey.bytes,
            aad: keyRing.wrapAAD("class/D"), failure: .invalidKeychain)
        keyRing.installAlwaysKey(KeyMaterial(always))
        if meta.protection == .device {
            let master = try AEADBox.open(
                meta.wrappedMaster, key: deviceKey.bytes,
                aad: keyRing.wrapAAD("master/device"), failure: .invalidKeychain)
            try installMaster(KeyMaterial(master), wrappedClassKeys: wrappedClassKeys)
        } else {
            try resealLegacySecrets()  // class D's, whose key is always there
        }
    }

    // MARK: Opening, creating, deleting

    /// The default keychain path (see ``KeychainFiles/defaultPath(environment:)``).
    package static func defaultPath(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(KeychainStoreError) -> String {
        try KeychainFiles.defaultPath(environment: environment)
    }

    /// Opens the default keychain, creating it (without password) on first use.
    package static func openDefault(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(KeychainStoreError) -> KeychainStore {
        try openOrCreate(at: try defaultPath(environment: environment))
    }

    /// Opens the keychain at `path`, creating a keychain without password if there is none.
    /// Safe against other processes doing the same at the same time. An existing keychain on read-only storage is
    /// opened read-only.
    /// - Parameters:
    ///   - path: the keychain database file.
    ///   - owner: the user id the files must belong to (default: the effective user; tests only).
    package static func openOrCreate(at path: String, owner: UInt32? = nil) throws(KeychainStoreError) -> KeychainStore
    {
        let files = KeychainFiles(database: path, owner: owner)
        try files.createParentDirectories()
        let access = try files.openDatabase(.ifMissing)
        let db = try connect(files, access)
        try prepare(
            db, files: files, access: access, initializeWith: .init(password: nil, kdf: .default), mustCreate: false)
        return try KeychainStore(db: db, files: files, access: access)
    }

    /// Creates a new keychain at `path` (directories 0700, files 0600).
    /// - Parameters:
    ///   - path: the keychain database file to create.
    ///   - password: the keychain password; `nil` creates a keychain protected only by the device key.
    ///   - kdf: scrypt work factors, stored in the keychain (use ``KDFParameters/testing`` in tests only).
    ///   - owner: the user id the files must belong to (default: the effective user; tests only).
    /// - Throws: `duplicateKeychain` when a keychain exists at `path`.
    package static func create(
        at path: String, password: Data?, kdf: KDFParameters = .default, owner: UInt32? = nil
    )
        throws(KeychainStoreError) -> KeychainStore
    {
        let files = KeychainFiles(database: path, owner: owner)
        try files.createParentDirectories()
        let access = try files.openDatabase(.exclusive)
        do {
            let setup = try InitialKeys(password: password, kdf: kdf)
            let db = try connect(files, access)
            try prepare(db, files: files, access: access, initializeWith: setup, mustCreate: true)
            let store = try KeychainStore(db: db, files: files, access: access)
            if let master = setup.master {  // the creator starts unlocked
                try store.installMaster(master, wrappedClassKeys: try mapErrors { try KeychainMeta.readClassKeys(db) })
            }
            return store
        } catch {
            // Leave nothing half-made behind: the database was created exclusively by us; its other files only
            // when they are ours (a file we refused to use, e.g. one another user planted, is not touched).
            files.removeCreatedFiles()
            throw error
        }
    }

    /// Opens an existing keychain. A password-protected keychain starts locked; one on read-only storage is
    /// opened read-only.
    /// - Parameters:
    ///   - path: the keychain database file.
    ///   - owner: the user id the files must belong to (default: the effective user; tests only).
    /// - Throws: `noSuchKeychain` when there is no file, `invalidKeychain` when it is not a keychain or one of its
    ///   files is a symbolic link, another user's, or readable or writable by the group or others.
    package static func open(at path: String, owner: UInt32? = nil) throws(KeychainStoreError) -> KeychainStore {
        let files = KeychainFiles(database: path, owner: owner)
        guard files.exists else { throw KeychainStoreError(.noSuchKeychain, "no keychain at \(path)") }
        let access = try files.openDatabase(.never)
        let db = try connect(files, access)
        try prepare(db, files: files, access: access, initializeWith: nil, mustCreate: false)
        return try KeychainStore(db: db, files: files, access: access)
    }

    /// Deletes the keychain at `path`: the database, its -wal/-shm/-journal files and the device key.
    ///
    /// The files are unlinked while this call holds the keychain's write lock, so a write of another process
    /// either commits before they go or finds them gone (its store then reports `keychainReplaced`, never a
    /// success for data that was deleted). Stores still open on the keychain keep reading the unlinked files.
    package static func delete(at path: String) throws(KeychainStoreError) {
        let files = KeychainFiles(database: path)
        guard files.exists else { throw KeychainStoreError(.noSuchKeychain, "no keychain at \(path)") }
        // Not our keychain, or not SQLite at all: then there is no lock to take, only files to remove.
        let lock = try? Database(path: path, options: [.readWrite, .noFollow], busyTimeout: busyTimeout)
        let locked = (try? lock?.execute("BEGIN IMMEDIATE")) != nil
        defer { if locked { try? lock?.execute("ROLLBACK") } }
        try files.removeAll()
    }

    // MARK: Lock state

    /// This process's view of the lock state.
    package var status: KeychainStatus {
        get throws(KeychainStoreError) {
            let meta = try KeychainStore.mapErrors { try KeychainMeta.read(db) }
            return KeychainStatus(
                isPasswordProtected: meta.protection == .password,
                isUnlocked: keyRing.isUnlocked, hasBeenUnlocked: keyRing.hasBeenUnlocked)
        }
    }

    /// Unlocks with `password`: derives the key-encryption key (scrypt, once) and keeps the master key
    /// in memory. A keychain without password is always unlocked and ignores `password`.
    /// - Throws: `authFailed` for a wrong password.
    package func unlock(password: Data) throws(KeychainStoreError) {
        let meta = try KeychainStore.mapErrors { try KeychainMeta.read(db) }
        let wrappedClassKeys = try KeychainStore.mapErrors { try KeychainMeta.readClassKeys(db) }
        let master = try unwrapMaster(meta, password: password)
        try installMaster(master, wrappedClassKeys: wrappedClassKeys)
    }

    /// Locks: wipes the master key and the WhenUnlocked class key from memory. AfterFirstUnlock and Always
    /// secrets stay readable; attributes are always readable. No effect on a keychain without password.
    package func lock() throws(KeychainStoreError) {
        let meta = try KeychainStore.mapErrors { try KeychainMeta.read(db) }
        if meta.protection == .password { keyRing.lockKeys() }
    }

    /// Changes the password by re-wrapping only the master key (items and class keys are untouched).
    /// - Parameters:
    ///   - old: the current password (ignored when the keychain has none).
    ///   - new: the new password, or `nil` to protect the master key with the device key only.
    ///   - kdf: work factors for the new password; `nil` keeps the stored ones (or the default).
    /// - Throws: `authFailed` when `old` is wrong.
    package func changePassword(from old: Data?, to new: Data?, kdf: KDFParameters? = nil) throws(KeychainStoreError) {
        let meta = try KeychainStore.mapErrors { try KeychainMeta.read(db) }
        let master = try unwrapMaster(meta, password: old)
        // Derive outside the write transaction: scrypt is slow and must not hold the write lock.
        var wrapped: Data
        var salt: Data?
        var parameters: KDFParameters?
        if let new {
            let chosen = kdf ?? meta.kdf ?? .default
            let newSalt = try PasswordKDF.randomBytes(PasswordKDF.saltLength)
            let kek = try PasswordKDF.deriveKEK(password: new, salt: newSalt, parameters: chosen)
            wrapped = try AEADBox.seal(master.bytes, key: kek.bytes, aad: keyRing.wrapAAD("master/password"))
            salt = newSalt
            parameters = chosen
        } else {
            wrapped = try AEADBox.seal(master.bytes, key: deviceKey.bytes, aad: keyRing.wrapAAD("master/device"))
        }
        let bindings: [SQLiteValue] = [
            .text(new == nil ? "device" : "password"),
            new == nil ? .null : .text("scrypt"),
            salt.map(SQLiteValue.blob) ?? .null,
            parameters.map { .integer(Int64($0.n)) } ?? .null,
            parameters.map { .integer(Int64($0.r)) } ?? .null,
            parameters.map { .integer(Int64($0.p)) } ?? .null,
            .blob(wrapped),
            .blob(meta.wrappedMaster),
        ]
        let changed = try writeTransaction("change the password") {
            try db.run(
                """
                UPDATE keychain_meta SET master_protection = ?, kdf = ?, kdf_salt = ?, kdf_n = ?, kdf_r = ?,
                    kdf_p = ?, wrapped_master = ? WHERE singleton = 1 AND wrapped_master = ?
                """, bindings)
            return db.changes
        }
        guard changed == 1 else {
            throw KeychainStoreError(.authFailed, "the password was changed concurrently by another process")
        }
        let wrappedClassKeys = try KeychainStore.mapErrors { try KeychainMeta.readClassKeys(db) }
        try installMaster(master, wrappedClassKeys: wrappedClassKeys)
    }

    // MARK: Internals

    private func unwrapMaster(_ meta: KeychainMeta, password: Data?) throws(KeychainStoreError) -> KeyMaterial {
        switch meta.protection {
        case .device:
            return KeyMaterial(
                try AEADBox.open(
                    meta.wrappedMaster, key: deviceKey.bytes,
                    aad: keyRing.wrapAAD("master/device"), failure: .invalidKeychain))
        case .password:
            guard let password, let salt = meta.kdfSalt, let kdf = meta.kdf else {
                throw KeychainStoreError(.authFailed, "the keychain needs a password")
            }
            let kek = try PasswordKDF.deriveKEK(password: password, salt: salt, parameters: kdf)
            return KeyMaterial(
                try AEADBox.open(
                    meta.wrappedMaster, key: kek.bytes,
                    aad: keyRing.wrapAAD("master/password"), failure: .authFailed))
        }
    }

    private func installMaster(
        _ master: KeyMaterial, wrappedClassKeys: [ProtectionClass: Data]
    ) throws(KeychainStoreError) {
        let a = try AEADBox.open(
            wrappedClassKeys[.whenUnlocked] ?? Data(), key: master.bytes,
            aad: keyRing.wrapAAD("class/A"), failure: .invalidKeychain)
        let c = try AEADBox.open(
            wrappedClassKeys[.afterFirstUnlock] ?? Data(), key: master.bytes,
            aad: keyRing.wrapAAD("class/C"), failure: .invalidKeychain)
        keyRing.unlock(master: master, whenUnlocked: KeyMaterial(a), afterFirstUnlock: KeyMaterial(c))
        try resealLegacySecrets()
    }

    // MARK: Writing

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction, after checking — inside it, holding the write lock — that
    /// the keychain's path still names the file this store opened. `body` may run more than once (busy retries).
    /// - Throws: `io` on a read-only keychain, `keychainReplaced` when the file was deleted or replaced.
    func writeTransaction<R>(_ operation: String, _ body: () throws -> R) throws(KeychainStoreError) -> R {
        guard isWritable else {
            throw KeychainStoreError(
                .io, "cannot \(operation): the keychain \(path) is on read-only storage or not writable by this user")
        }
        return try KeychainStore.mapErrors {
            try db.transaction(.immediate) {
                try checkStillOpenFile()
                return try body()
            }
        }
    }

    /// `keychainReplaced` unless the path still names the database file this store opened.
    func checkStillOpenFile() throws(KeychainStoreError) {
        guard let current = try files.currentIdentity() else {
            throw KeychainStoreError(
                .keychainReplaced, "the keychain \(path) was deleted after this process opened it; nothing was written")
        }
        guard current == openedIdentity else {
            throw KeychainStoreError(
                .keychainReplaced,
                "the keychain \(path) was deleted and replaced by another file after this process opened it; nothing "
                    + "was written (open the keychain again)")
        }
    }

    /// Opens a connection configured for the keychain: WAL, synchronous=FULL, secure_delete, busy timeout; on a
    /// keychain that cannot be written, a read-only connection (immutable when all its data is in the database
    /// file, since SQLite could not create the `-shm` index there).
    private static func connect(
        _ files: KeychainFiles, _ access: KeychainFiles.DatabaseAccess
    ) throws(KeychainStoreError) -> Database {
        if !access.writable && access.walHasContent && !access.sharedMemoryExists {
            throw KeychainStoreError(
                .io,
                "cannot read \(files.database) on read-only storage: its write-ahead log holds data that is not yet "
                    + "in the database, and SQLite cannot create the shared-memory index (-shm) it needs to read it")
        }
        let db = try mapErrors {
            try Database(
                path: files.database, options: access.writable ? [.readWrite, .noFollow] : [.readOnly, .noFollow],
                busyTimeout: busyTimeout, immutable: !access.writable && !access.walHasContent)
        }
        try mapOpeningErrors {
            if access.writable {
                // WAL is persistent in the file; switching needs a moment without other writers, so retry on BUSY.
                let deadline = ContinuousClock.now + busyTimeout
                while true {
                    do {
                        guard try db.setJournalMode(.wal) == .wal else {
                            throw KeychainStoreError(.io, "the database refused WAL mode")
                        }
                        break
                    } catch let error as SQLiteError where error.isBusy && ContinuousClock.now < deadline {
                        sleepThread(seconds: 0.005)
                    }
                }
                // FULL: with WAL, every commit fsyncs the WAL, so a returned add survives power loss
                // (NORMAL would only survive application crashes). Per connection, so set on every open.
                try db.setSynchronous(.full)
                // Deleted rows are overwritten with zeros, in the database and in the WAL frames that carry them.
                try db.setSecureDelete(true)
            }
            // Keep a keychain's working set in the page cache (default 2 MiB ≈ 5,000 items): a point lookup
            // that misses it re-reads pages with pread. Allocated lazily, only as pages are read.
            try db.setPragma("cache_size", .integer(-KeychainStore.pageCacheKiB))
        }
        // SQLite has opened the database itself and, in WAL mode, created -wal and -shm: check those it made and
        // that the path still names the file checked before (no swap between the check and SQLite's open).
        _ = try files.checkCompanions()
        guard try files.currentIdentity() == access.identity else {
            throw KeychainStoreError(.invalidKeychain, "\(files.database) was replaced while it was being opened")
        }
        return db
    }

    /// Material generated for a new keychain, before any transaction (scrypt is slow).
    struct InitialKeys {
        let password: Data?
        let kdf: KDFParameters
        let salt: Data?
        let kek: KeyMaterial?
        let master: KeyMaterial?

        init(password: Data?, kdf: KDFParameters) throws(KeychainStoreError) {
            self.password = password
            self.kdf = kdf
            if let password {
                let salt = try PasswordKDF.randomBytes(PasswordKDF.saltLength)
                self.salt = salt
                self.kek = try PasswordKDF.deriveKEK(password: password, salt: salt, parameters: kdf)
            } else {
                self.salt = nil
                self.kek = nil
            }
            self.master = KeyMaterial(try PasswordKDF.randomBytes(32))
        }
    }

    /// Checks the file format and migrates it; initializes an empty file when `setup` is given.
    private static func prepare(
        _ db: Database, files: KeychainFiles, access: KeychainFiles.DatabaseAccess, initializeWith setup: InitialKeys?,
        mustCreate: Bool
    ) throws(KeychainStoreError) {
        try mapOpeningErrors {
            // The schema is read now, not at the first query: a header or schema SQLite cannot read (an unknown
            // schema format, a damaged schema page) is refused here as a damaged keychain.
            _ = try db.scalar("SELECT count(*) FROM sqlite_schema")
            // Fast path, without the write lock: already ours and current.
            let appID = try db.applicationID
            let version = try db.userVersion
            if appID == KeychainSchema.applicationID && version == KeychainSchema.currentVersion && !mustCreate {
                return
            }
            if !access.writable {
                guard appID == KeychainSchema.applicationID, version > 0 else {
                    throw KeychainStoreError(.invalidKeychain, "\(files.database) is not a keychain")
                }
                guard version < KeychainSchema.currentVersion else {
                    throw KeychainStoreError(.invalidKeychain, "unsupported keychain version \(version)")
                }
                throw KeychainStoreError(
                    .io,
                    "\(files.database) has keychain format version \(version) and must be upgraded once to version "
                        + "\(KeychainSchema.currentVersion), which writes to it, but it is on read-only storage")
            }
            try db.transaction(.immediate) {
                let appID = try db.applicationID
                let version = try db.userVersion
                if appID == 0 && version == 0 {
                    let tables = try db.scalar("SELECT count(*) FROM sqlite_schema").integerValue ?? 0
                    guard tables == 0, let setup else {
                        throw KeychainStoreError(.invalidKeychain, "\(files.database) is not a keychain")
                    }
                    try initialize(db, files: files, setup: setup)
                    return
                }
                guard appID == KeychainSchema.applicationID else {
                    throw KeychainStoreError(.invalidKeychain, "\(files.database) is not a keychain")
                }
                if mustCreate { throw KeychainStoreError(.duplicateKeychain, "a keychain already exists") }
                guard version <= KeychainSchema.currentVersion, version > 0 else {
                    throw KeychainStoreError(.invalidKeychain, "unsupported keychain version \(version)")
                }
                try KeychainSchema.migrate(db, from: version)
            }
        }
    }

    /// Creates schema, keys and the device-key file. Runs inside the IMMEDIATE transaction, after the
    /// check that nobody initialized the file first, so the device key is written exactly once.
    private static func initialize(_ db: Database, files: KeychainFiles, setup: InitialKeys) throws {
        let keychainID = try PasswordKDF.randomBytes(16)
        let device = KeyMaterial(try PasswordKDF.randomBytes(32))
        let master = try setup.master ?? KeyMaterial(PasswordKDF.randomBytes(32))
        let aad = { (purpose: String) in KeyRing.wrapAAD(purpose, keychainID: keychainID) }

        try KeychainSchema.migrate(db, from: 0)
        try db.setApplicationID(KeychainSchema.applicationID)
        try DeviceKeyFile.write(device, keychainID: keychainID, files: files)

        let wrappedMaster: Data
        if let kek = setup.kek {
            wrappedMaster = try AEADBox.seal(master.bytes, key: kek.bytes, aad: aad("master/password"))
        } else {
            wrappedMaster = try AEADBox.seal(master.bytes, key: device.bytes, aad: aad("master/device"))
        }
        try db.run(
            """
            INSERT INTO keychain_meta (singleton, keychain_id, created, master_protection, kdf, kdf_salt, kdf_n, kdf_r,
                kdf_p, wrapped_master) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .blob(keychainID), .real(Date().timeIntervalSinceReferenceDate),
                .text(setup.kek == nil ? "device" : "password"),
                setup.kek == nil ? .null : .text("scrypt"),
                setup.salt.map(SQLiteValue.blob) ?? .null,
                setup.kek == nil ? .null : .integer(Int64(setup.kdf.n)),
                setup.kek == nil ? .null : .integer(Int64(setup.kdf.r)),
                setup.kek == nil ? .null : .integer(Int64(setup.kdf.p)),
                .blob(wrappedMaster),
            ])
        for (pc, wrapper, wrappingKey) in [
            (ProtectionClass.whenUnlocked, "master", master),
            (.afterFirstUnlock, "master", master), (.always, "device", device),
        ] {
            let classKey = KeyMaterial(try PasswordKDF.randomBytes(32))
            let wrapped = try AEADBox.seal(classKey.bytes, key: wrappingKey.bytes, aad: aad("class/\(pc.rawValue)"))
            try db.run(
                "INSERT INTO class_keys (protection_class, wrapped_by, wrapped_key) VALUES (?, ?, ?)",
                [.text(pc.rawValue), .text(wrapper), .blob(wrapped)])
        }
    }

    /// Runs `body`, turning SQLite and other lower-layer errors into `KeychainStoreError`.
    static func mapErrors<R>(_ body: () throws -> R) throws(KeychainStoreError) -> R {
        try KeychainStoreError.converting(body) { error in
            if let error = error as? SQLiteError { return map(error) }
            return KeychainStoreError(.internal, "unexpected error", underlying: error)
        }
    }

    /// ``mapErrors(_:)`` for the first statements on a file someone else may have written (its pragmas, format
    /// and schema checks): SQLite's generic error there — "unsupported file format" for a header naming a schema
    /// format this SQLite does not know, a schema it cannot parse — means the file is not a keychain this process
    /// can read (errSecInvalidKeychain), not a fault of the statement. Found by the keychain-file fuzzer.
    static func mapOpeningErrors<R>(_ body: () throws -> R) throws(KeychainStoreError) -> R {
        try KeychainStoreError.converting(body) { error in
            guard let error = error as? SQLiteError else {
                return KeychainStoreError(.internal, "unexpected error", underlying: error)
            }
            if error.code == .error {
                return KeychainStoreError(
                    .invalidKeychain, "the file is not a keychain this version can read", underlying: error)
            }
            return map(error)
        }
    }

    static func map(_ error: SQLiteError) -> KeychainStoreError {
        if error.isUniqueViolation {
            return KeychainStoreError(.duplicateItem, "an item with the same primary key exists", underlying: error)
        }
        switch error.code {
        case .busy, .locked:
            return KeychainStoreError(.databaseBusy, "the keychain is busy", underlying: error)
        case .notADatabase, .corrupt:
            return KeychainStoreError(.invalidKeychain, "the file is not a valid keychain", underlying: error)
        case .cantOpen:
            return KeychainStoreError(.noSuchKeychain, "cannot open the keychain", underlying: error)
        case .ioError, .full, .readOnly, .permission:
            return KeychainStoreError(.io, "keychain I/O failed", underlying: error)
        default:
            return KeychainStoreError(.internal, "keychain database error", underlying: error)
        }
    }
}
