import Foundation
import OSecSystem

/// The files that make up one keychain, and the file-system chores around them.
///
/// `<path>` (SQLite database), `<path>-wal`, `<path>-shm` (SQLite WAL mode), `<path>-journal` (only if
/// SQLite ever falls back to a rollback journal) and `<path>.devkey` (the device key). Files are mode
/// 0600, directories the engine creates are mode 0700.
package struct KeychainFiles: Sendable {
    /// The database path.
    package let database: String

    package init(database: String) {
        self.database = database
    }

    package var wal: String { database + "-wal" }
    package var sharedMemory: String { database + "-shm" }
    package var journal: String { database + "-journal" }
    package var deviceKey: String { database + ".devkey" }
    /// Every file that may belong to the keychain.
    package var all: [String] { [database, wal, sharedMemory, journal, deviceKey] }

    /// Environment variable that overrides the default keychain path.
    package static let pathVariable = "OPENSECURITY_KEYCHAIN"

    /// `$OPENSECURITY_KEYCHAIN`, else `$XDG_DATA_HOME/opensecurity/keychains/login.keychain-db`, else
    /// `$HOME/.local/share/opensecurity/keychains/login.keychain-db`.
    package static func defaultPath(environment: [String: String]) throws(KeychainStoreError) -> String {
        if let override = environment[pathVariable], !override.isEmpty { return override }
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {  // XDG: relative values are ignored
            dataHome = xdg
        } else if let home = environment["HOME"], !home.isEmpty {
            dataHome = home + "/.local/share"
        } else {
            throw KeychainStoreError(.noSuchKeychain, "neither XDG_DATA_HOME nor HOME is set")
        }
        return dataHome + "/opensecurity/keychains/login.keychain-db"
    }

    var exists: Bool { FileManager.default.fileExists(atPath: database) }

    /// Creates missing parent directories with mode 0700 (existing ones are left alone).
    func createParentDirectories() throws(KeychainStoreError) {
        let parent = (database as NSString).deletingLastPathComponent
        guard !parent.isEmpty else { return }
        var missing: [String] = []
        var current = parent
        while !current.isEmpty, current != "/", !FileManager.default.fileExists(atPath: current) {
            missing.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        for directory in missing.reversed() {
            try Self.mapping { () throws(SystemError) in try POSIXFiles.makeDirectory(directory, mode: 0o700) }
            POSIXFiles.syncDirectory(of: directory)  // the new entry must survive power loss too
        }
    }

    /// Creates the database file with mode 0600 before SQLite opens it (SQLite gives the -wal and -shm
    /// files the database's mode). Returns `false` when `exclusive` and the file already exists.
    func createDatabaseFile(exclusive: Bool) throws(KeychainStoreError) -> Bool {
        let created = try Self.mapping { () throws(SystemError) in
            try POSIXFiles.createFile(database, mode: 0o600, exclusive: exclusive)
        }
        // SQLite syncs the WAL's directory entry, not the database's.
        if created { POSIXFiles.syncDirectory(of: database) }
        return created
    }

    /// Sets mode 0600 on every keychain file that exists (a safety net after SQLite created -wal/-shm).
    func restrictPermissions() {
        for file in all where FileManager.default.fileExists(atPath: file) {
            POSIXFiles.setMode(file, mode: 0o600)
        }
    }

    /// Removes every keychain file; `noSuchKeychain` when the database does not exist.
    func removeAll() throws(KeychainStoreError) {
        guard exists else { throw KeychainStoreError(.noSuchKeychain, "no keychain at \(database)") }
        for file in all where FileManager.default.fileExists(atPath: file) || isDanglingLink(file) {
            try Self.mapping { () throws(SystemError) in try POSIXFiles.remove(file) }
        }
    }

    private func isDanglingLink(_ path: String) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
    }

    /// Writes `contents` to `path` atomically and durably with mode 0600 (temporary file, fsync, rename, fsync
    /// of the directory).
    static func writeDurably(_ contents: Data, to path: String) throws(KeychainStoreError) {
        try mapping { () throws(SystemError) in try POSIXFiles.writeDurably(contents, to: path, mode: 0o600) }
    }

    /// Runs a system call wrapper, turning its failure into the store's error (`noSuchKeychain` for a missing
    /// file, else `io`).
    static func mapping<R>(_ body: () throws(SystemError) -> R) throws(KeychainStoreError) -> R {
        do {
            return try body()
        } catch {
            throw KeychainStoreError(error.isNotFound ? .noSuchKeychain : .io, error.description, underlying: error)
        }
    }
}
