internal import CSQLite

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The committed state of a WAL-mode database as another connection last published it, read without a
/// transaction (see ``Database/commitToken()``).
package struct CommitToken: Equatable, Sendable {
    // The 48-byte WAL-index header: iVersion, unused, iChange (bumped by every commit), isInit,
    // bigEndCksum, szPage, mxFrame, nPage, aFrameCksum[2], aSalt[2], aCksum[2].
    let words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    package static func == (a: CommitToken, b: CommitToken) -> Bool {
        a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2
            && a.words.3 == b.words.3 && a.words.4 == b.words.4 && a.words.5 == b.words.5
    }
}

extension Database {
    /// A token that changes whenever any connection — in this process or another — commits a
    /// transaction to this WAL-mode database; `nil` when it cannot be read (not in WAL mode, no
    /// shared-memory index yet, a writer in the middle of publishing a commit).
    ///
    /// It is the WAL-index header that every SQLite reader consults when it starts a read transaction
    /// (the file format is documented at sqlite.org/walformat.html, §2.5; stable since 3.7.0): a commit
    /// becomes visible to readers exactly when the writer rewrites this header, and every rewrite
    /// increments its change counter, changes `mxFrame`, or resets the WAL with new salts. Reading it
    /// costs a few loads instead of the two lock syscalls of a read transaction, which lets a caller
    /// cache query results and know, before each use, that no commit has happened since.
    ///
    /// Read the token *before* the query whose result it will vouch for: a commit that lands in between
    /// then makes the next token differ, which only costs a cache miss.
    ///
    /// Available after ``setJournalMode(_:)`` put the connection in WAL mode and it has run a statement
    /// (so that SQLite has mapped the index); `nil` before. Do not switch the journal mode or set
    /// `locking_mode=EXCLUSIVE` by other means afterwards (with EXCLUSIVE the index lives in heap memory
    /// and this would read a mapping nobody updates).
    package func commitToken() -> CommitToken? {
        withLock {
            // Without WAL mode the shared-memory index does not exist: asking the VFS for it would create one.
            guard isKnownWAL else { return nil }
            if mainFile == nil {
                var file: UnsafeMutablePointer<sqlite3_file>?
                guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK else {
                    return nil
                }
                mainFile = file.map(UnsafeMutableRawPointer.init)  // lives as long as the connection
            }
            guard let file = mainFile?.assumingMemoryBound(to: sqlite3_file.self),
                let methods = file.pointee.pMethods, methods.pointee.iVersion >= 2,
                let shmMap = methods.pointee.xShmMap, let barrier = methods.pointee.xShmBarrier
            else {
                return nil
            }
            // Region 0 without extending: non-nil only when SQLite already mapped the index for this
            // connection. The mapping stays valid until the connection closes (we hold its lock).
            var region: UnsafeMutableRawPointer?
            guard shmMap(file, 0, 32 * 1024, 0, &region) == SQLITE_OK, let region else { return nil }
            // Writers update the second copy, then the first (with barriers): equal copies mean no update
            // in progress. Same protocol as SQLite's own walIndexTryHdr.
            let first = Database.header(at: UnsafeRawPointer(region))
            barrier(file)
            let second = Database.header(at: UnsafeRawPointer(region) + 48)
            guard first == second, region.load(fromByteOffset: 12, as: UInt8.self) != 0 else { return nil }
            return first
        }
    }

    private static func header(at pointer: UnsafeRawPointer) -> CommitToken {
        CommitToken(
            words: (
                pointer.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                pointer.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                pointer.loadUnaligned(fromByteOffset: 16, as: UInt64.self),
                pointer.loadUnaligned(fromByteOffset: 24, as: UInt64.self),
                pointer.loadUnaligned(fromByteOffset: 32, as: UInt64.self),
                pointer.loadUnaligned(fromByteOffset: 40, as: UInt64.self)
            ))
    }
}
