import Foundation
import Testing

@testable import OSecKeychain

/// SQLite's locks are POSIX record locks, which a process loses on *any* close of a descriptor for the locked file,
/// even one SQLite never saw. Opening another store on a keychain must therefore never open and close the keychain's
/// SQLite files itself: the first connection's read lock on the shared-memory index would vanish, and another
/// process opening the keychain would take itself for the only user and reset the index under the first one
/// (SIGBUS on its mapping, or a corrupt database).
@Suite struct FileLockTests {
    let dir = TestDirectory()

    /// SQLite's "dead man switch" byte of the `-shm` file (UNIX_SHM_DMS: offset 120 + 8 lock slots): every open
    /// connection holds a shared lock on it.
    static let deadManSwitch = 128

    /// Whether another process can take an exclusive lock on `length` bytes at `offset` of `path` right now.
    func anotherProcessCanLock(_ path: String, offset: Int, length: Int = 1) throws -> Bool {
        let script = """
            import fcntl, os, sys
            fd = os.open(sys.argv[1], os.O_RDWR)
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, int(sys.argv[3]), int(sys.argv[2]))
                print("locked")
            except OSError:
                print("busy")
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path, String(offset), String(length)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return text.hasPrefix("locked")
    }

    @Test func openingMoreStoresKeepsTheFirstConnectionsLocks() throws {
        let path = dir.keychainPath()
        let first = try KeychainStore.create(at: path, password: testPassword, kdf: .testing)
        _ = try first.add(genp(account: "a", service: "locks", secret: "s"))
        let index = path + "-shm"
        #expect(try !anotherProcessCanLock(index, offset: Self.deadManSwitch), "the first connection holds its lock")

        let second = try KeychainStore.open(at: path)
        try second.unlock(password: testPassword)
        _ = try second.find(ItemQuery(itemClass: .genericPassword))
        let third = try KeychainStore.openOrCreate(at: path)
        _ = third
        #expect(try !anotherProcessCanLock(index, offset: Self.deadManSwitch), "opening others kept the locks")

        // And the first connection still works after the others came and went.
        _ = try first.add(genp(account: "b", service: "locks", secret: "t"))
        #expect(try first.find(ItemQuery(itemClass: .genericPassword)).count == 2)
    }
}
