import OSecKeychainPaths
import OSecSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The files that make up one keychain, and the file-system chores around them.
///
/// `<path>` (SQLite database), `<path>-wal`, `<path>-shm` (SQLite WAL mode), `<path>-journal` (only if
/// SQLite ever falls back to a rollback journal) and `<path>.devkey` (the device key). Files are mode
/// 0600, directories the engine creates are mode 0700.
///
/// ## What is checked
/// Every file is opened without following symbolic links (`O_NOFOLLOW`; SQLite with `SQLITE_OPEN_NOFOLLOW`) and
/// checked on the opened descriptor (`fstat`): it must be a regular file owned by ``owner`` with no permission bit
/// for the group or other users. Anything else is refused with `invalidKeychain` and a message naming the file and
/// the problem, before a byte is read from or written to it: a keychain whose files another user planted, can read
/// or can replace is never used. The directories the engine creates are checked the same way.
package struct KeychainFiles: Sendable {
    /// The database path.
    package let database: String
    /// The user every keychain file must belong to: the effective user, unless a caller (a test) says otherwise.
    package let owner: UInt32

    package init(database: String, owner: UInt32? = nil) {
        self.database = database
        self.owner = owner ?? POSIXFiles.effectiveUserID
    }

    package var wal: String { database + "-wal" }
    package var sharedMemory: String { database + "-shm" }
    package var journal: String { database + "-journal" }
    package var deviceKey: String { database + ".devkey" }
    /// Every file that may belong to the keychain.
    package var all: [String] { [database, wal, sharedMemory, journal, deviceKey] }
    /// The directory holding the files.
    var directory: String { POSIXFiles.parentDirectory(of: database) }

    /// `$OPENSECURITY_KEYCHAIN`, else `$XDG_DATA_HOME/opensecurity/keychains/login.keychain-db`, else
    /// `$HOME/.local/share/opensecurity/keychains/login.keychain-db` (`KeychainLocations.defaultPath(environment:)`).
    package static func defaultPath(environment: [String: String]) throws(KeychainStoreError) -> String {
        guard let path = KeychainLocations.defaultPath(environment: environment) else {
            throw KeychainStoreError(.noSuchKeychain, KeychainLocations.noHomeMessage)
        }
        return path
    }

    /// Whether something (a file, or a link, even a dangling one) has the database's name.
    package var exists: Bool { (try? POSIXFiles.linkStatus(database)) != nil }

    /// Creates missing parent directories with mode 0700 (existing ones are left alone) and checks each one it
    /// creates: a directory that another process put there in the meantime must also be ours and private.
    func createParentDirectories() throws(KeychainStoreError) {
        let parent = directory
        guard !parent.isEmpty else { return }
        var missing: [String] = []
        var current = parent
        while !current.isEmpty, current != "/", (try? POSIXFiles.linkStatus(current)) == nil {
            missing.append(current)
            current = POSIXFiles.parentDirectory(of: current)
        }
        for directory in missing.reversed() {
            let made = try Self.mapping(directory, "directory") { () throws(SystemError) in
                try POSIXFiles.makeDirectory(directory, mode: 0o700)
            }
            try check(made.status, directory, "directory", kind: .directory)
            if made.created { POSIXFiles.syncDirectory(of: directory) }  // the new entry must survive power loss too
        }
    }

    // MARK: Checking

    /// How SQLite may open the database, as found by ``openDatabase(_:)``.
    struct DatabaseAccess {
        /// Device and inode of the database file that was checked.
        let identity: FileIdentity
        /// `false` on read-only storage, or when this user may not write the file or create `-wal`/`-shm`.
        let writable: Bool
        /// The `-wal` file exists and is not empty (committed data may be in it, not yet in the database).
        let walHasContent: Bool
        /// The `-shm` file exists.
        let sharedMemoryExists: Bool
        /// This call created the (empty) database file.
        let created: Bool
    }

    /// What ``openDatabase(_:)`` may do about a missing file.
    enum Creation {
        /// Open an existing file only (`noSuchKeychain` otherwise).
        case never
        /// Create the file (mode 0600) when missing; another process creating it first is fine.
        case ifMissing
        /// Create the file, `duplicateKeychain` when it exists.
        case exclusive
    }

    /// Checks the database file (creating it as `creation` allows) and every other keychain file that exists, and
    /// decides whether the keychain can be written.
    ///
    /// Existing files are checked by name (`lstat`, which reports a symbolic link as one), never opened: SQLite's
    /// locks are POSIX record locks, and a process loses all of them on a file when it closes *any* descriptor for
    /// that file. Opening and closing the database or its `-shm` index here, while another connection of this
    /// process has the keychain open, would drop that connection's locks; another process would then take itself
    /// for the index's only user and reset it (SIGBUS on the mapping, or a corrupt database). After SQLite has
    /// opened the database (with `SQLITE_OPEN_NOFOLLOW`), the caller compares the path's identity with the one
    /// checked here, so a file swapped in between is refused.
    func openDatabase(_ creation: Creation) throws(KeychainStoreError) -> DatabaseAccess {
        let created = try createDatabaseFile(creation)
        let what = "keychain database"
        let found: FileStatus?
        do {
            found = try POSIXFiles.linkStatus(database)
        } catch {
            throw Self.failure(error, database, what)
        }
        guard let status = found else { throw KeychainStoreError(.noSuchKeychain, "no keychain at \(database)") }
        try check(status, database, what)
        guard POSIXFiles.isAccessibleFile(database, write: false) else {
            throw KeychainStoreError(.io, "cannot read \(database): permission denied")
        }
        var writable = POSIXFiles.isAccessibleFile(database, write: true)
        let companions = try checkCompanions()
        if writable && !(companions.wal != nil && companions.sharedMemory != nil)
            && !POSIXFiles.isWritableDirectory(directory)
        {
            writable = false  // SQLite could not create -wal/-shm: read, never write
        }
        return DatabaseAccess(
            identity: status.identity, writable: writable, walHasContent: (companions.wal?.size ?? 0) > 0,
            sharedMemoryExists: companions.sharedMemory != nil, created: created)
    }

    /// Creates the database file (mode 0600, no links followed) when `creation` asks for it; true when this call
    /// created it. Closing the new file's descriptor is safe: nobody else has the new file open yet.
    private func createDatabaseFile(_ creation: Creation) throws(KeychainStoreError) -> Bool {
        let what = "keychain database"
        switch creation {
        case .never:
            return false
        case .ifMissing:
            let existing: FileStatus?
            do {
                existing = try POSIXFiles.linkStatus(database)
            } catch {
                throw Self.failure(error, database, what)
            }
            guard existing == nil else { return false }
        case .exclusive:
            break
        }
        let file: FileDescriptor
        do {
            file = try POSIXFiles.openNoFollow(database, access: .readWrite, create: 0o600, exclusive: true)
        } catch  where error.isAlreadyExisting {
            // Another process created it meanwhile: an existing keychain, opened as such.
            guard creation == .exclusive else { return false }
            throw KeychainStoreError(.duplicateKeychain, "a keychain already exists at \(database)")
        } catch {
            throw Self.failure(error, database, what)
        }
        try Self.mapping(database, what) { () throws(SystemError) in try file.setPermissions(0o600) }
        POSIXFiles.syncDirectory(of: database)  // SQLite syncs the WAL's directory entry, not the database's
        return true
    }

    /// Checks `-wal`, `-shm`, `-journal` and the device-key file, those that exist.
    func checkCompanions() throws(KeychainStoreError) -> (wal: FileStatus?, sharedMemory: FileStatus?) {
        let wal = try checkIfPresent(wal, "write-ahead log")
        let sharedMemory = try checkIfPresent(sharedMemory, "shared-memory index")
        _ = try checkIfPresent(journal, "rollback journal")
        _ = try checkIfPresent(deviceKey, "device-key file")
        return (wal, sharedMemory)
    }

    /// Checks `path` by name (`lstat`, no descriptor opened: see ``openDatabase(_:)``); `nil` when it does not
    /// exist.
    func checkIfPresent(_ path: String, _ what: String) throws(KeychainStoreError) -> FileStatus? {
        let found: FileStatus?
        do {
            found = try POSIXFiles.linkStatus(path)
        } catch {
            throw Self.failure(error, path, what)
        }
        guard let status = found else { return nil }
        try check(status, path, what)
        return status
    }

    /// Opens the existing file `path` (no links followed), checks it and returns the descriptor.
    func openChecked(_ path: String, _ what: String) throws(KeychainStoreError) -> FileDescriptor {
        do {
            let file = try POSIXFiles.openNoFollow(path, access: .readOnly)
            try check(try file.status(), path, what)
            return file
        } catch let error as SystemError {
            throw Self.failure(error, path, what)
        } catch let error as KeychainStoreError {
            throw error
        } catch {
            throw KeychainStoreError(.internal, "checking \(path) failed", underlying: error)
        }
    }

    /// The rule for every keychain file and created directory: the right kind, owned by ``owner``, nothing for the
    /// group or others.
    func check(
        _ status: FileStatus, _ path: String, _ what: String, kind expected: FileStatus.Kind = .regular
    ) throws(KeychainStoreError) {
        guard status.kind != .symbolicLink else {
            throw KeychainStoreError(.invalidKeychain, "the \(what) \(path) is a symbolic link; refusing to use it")
        }
        guard status.kind == expected else {
            throw KeychainStoreError(
                .invalidKeychain,
                "the \(what) \(path) is not a \(expected == .directory ? "directory" : "regular file")")
        }
        guard status.owner == owner else {
            throw KeychainStoreError(
                .invalidKeychain,
                "the \(what) \(path) belongs to user id \(status.owner), not to this user (\(owner)): another user "
                    + "could read or replace what the keychain writes; refusing to use it")
        }
        guard status.groupOrOtherPermissions == 0 else {
            let octal = String(status.permissions, radix: 8)
            throw KeychainStoreError(
                .invalidKeychain,
                "the \(what) \(path) has mode 0\(octal): the group or other users may access it; refusing to use it "
                    + "(it must be 0\(expected == .directory ? "700" : "600"))")
        }
    }

    /// The current identity of the database path (`lstat`), `nil` when nothing has that name any more.
    func currentIdentity() throws(KeychainStoreError) -> FileIdentity? {
        do {
            return try POSIXFiles.linkStatus(database)?.identity
        } catch {
            throw KeychainStoreError(.io, error.description, underlying: error)
        }
    }

    // MARK: Removing and writing

    /// Removes every keychain file; `noSuchKeychain` when the database does not exist.
    func removeAll() throws(KeychainStoreError) {
        guard exists else { throw KeychainStoreError(.noSuchKeychain, "no keychain at \(database)") }
        for file in all {
            try Self.mapping(file, "keychain file") { () throws(SystemError) in try POSIXFiles.remove(file) }
        }
    }

    /// After a failed `create`: removes the database (created exclusively by this process) and those of the other
    /// files that pass the checks (made by this process or SQLite); files that fail them were not ours to make.
    func removeCreatedFiles() {
        try? POSIXFiles.remove(database)
        for file in [wal, sharedMemory, journal, deviceKey] where (try? checkIfPresent(file, "keychain file")) != nil {
            try? POSIXFiles.remove(file)
        }
    }

    /// Writes `contents` to `path` atomically and durably with mode 0600 (temporary file, fsync, rename, fsync
    /// of the directory).
    static func writeDurably(_ contents: Data, to path: String) throws(KeychainStoreError) {
        try mapping(path, "file") { () throws(SystemError) in
            try POSIXFiles.writeDurably(contents, to: path, mode: 0o600)
        }
    }

    /// Runs a system call wrapper, turning its failure into the store's error.
    static func mapping<R>(
        _ path: String, _ what: String, _ body: () throws(SystemError) -> R
    ) throws(KeychainStoreError) -> R {
        do {
            return try body()
        } catch {
            throw failure(error, path, what)
        }
    }

    /// `noSuchKeychain` for a missing file, `invalidKeychain` for a symbolic link, else `io`.
    static func failure(_ error: SystemError, _ path: String, _ what: String) -> KeychainStoreError {
        if error.isSymbolicLink {
            return KeychainStoreError(
                .invalidKeychain,
                "the \(what) \(path) is a symbolic link (or not openable without following one); refusing to use it",
                underlying: error)
        }
        return KeychainStoreError(error.isNotFound ? .noSuchKeychain : .io, error.description, underlying: error)
    }
}
