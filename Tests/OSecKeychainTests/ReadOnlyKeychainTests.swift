import Foundation
import OSecSQLite
import OSecSystem
import OSecTestSupport
import Testing

@testable import OSecKeychain

/// Issue 12 item 8: an existing keychain on storage this process cannot write is opened read-only: finds work,
/// and errSecIO comes only from an actual write.
///
/// The reader is a second process (`KeychainStress`) for which the keychain's directory is genuinely read-only:
/// as root, a read-only bind mount in a private mount namespace (`unshare -m`: EROFS); where that is not allowed,
/// the files handed to an unprivileged user and made read-only for it (`setpriv`: EACCES); as a normal user, the
/// directory and files made read-only (EACCES).
@Suite(.serialized, .enabled(if: BuiltExecutable.path("KeychainStress") != nil, "needs KeychainStress (swift build)"))
struct ReadOnlyKeychainTests {
    let dir = TestDirectory()
    static let group = "opensecurity.shared"  // the facade's default access group, which KeychainStress uses

    enum Confinement: CustomStringConvertible {
        case readOnlyMount, unprivilegedUser, permissionBits
        var description: String {
            switch self {
            case .readOnlyMount: "read-only bind mount"
            case .unprivilegedUser: "read-only files of an unprivileged user"
            case .permissionBits: "read-only mode bits"
            }
        }
    }

    /// The strongest confinement available; `OPENSECURITY_TEST_READONLY=setpriv` forces the unprivileged-user one
    /// as root (to exercise it where mounts are allowed too).
    static let confinement: Confinement = {
        guard POSIXFiles.effectiveUserID == 0 else { return .permissionBits }
        if ProcessInfo.processInfo.environment["OPENSECURITY_TEST_READONLY"] == "setpriv" { return .unprivilegedUser }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["-m", "sh", "-c", "mount --bind -o ro /tmp /tmp"]  // a private namespace: harmless
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return .unprivilegedUser }
        probe.waitUntilExit()
        return probe.terminationStatus == 0 ? .readOnlyMount : .unprivilegedUser
    }()

    static let unprivileged: UInt32 = 65_534  // nobody

    /// Runs `KeychainStress args` with `directory` read-only for it; returns its standard output.
    func runConfined(_ directory: String, _ args: [String]) throws -> String {
        let stress = try #require(BuiltExecutable.path("KeychainStress"))
        let process = Process()
        var environment = ProcessInfo.processInfo.environment
        environment["OPENSECURITY_ACCESS_GROUPS"] = nil
        process.environment = environment
        var restore: () -> Void = {}
        switch Self.confinement {
        case .readOnlyMount:
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            process.arguments =
                ["-m", "sh", "-c", "mount --bind -o ro \"$0\" \"$0\" && exec \"$@\"", directory, stress] + args
        case .unprivilegedUser:
            let entries =
                [dir.path]
                + (try FileManager.default.subpathsOfDirectory(atPath: dir.path)).map {
                    dir.path + "/" + $0
                }
            for path in entries {
                try FileManager.default.setAttributes([.ownerAccountID: Self.unprivileged], ofItemAtPath: path)
            }
            try makeReadOnly(directory)
            restore = {
                for path in entries {
                    try? FileManager.default.setAttributes([.ownerAccountID: 0], ofItemAtPath: path)
                }
            }
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments =
                ["--reuid=\(Self.unprivileged)", "--regid=\(Self.unprivileged)", "--clear-groups", stress] + args
        case .permissionBits:
            try makeReadOnly(directory)
            process.executableURL = URL(fileURLWithPath: stress)
            process.arguments = args
        }
        defer {
            restore()
            try? makeWritable(directory)
        }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func makeReadOnly(_ directory: String) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: directory + "/" + name)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: directory)
    }

    func makeWritable(_ directory: String) throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory + "/" + name)
        }
    }

    func item(_ service: String, _ secret: String) -> NewItem {
        NewItem(
            itemClass: .genericPassword, attributes: ["svce": .string(service), "acct": .string("alice")],
            accessGroup: Self.group, secret: Data(secret.utf8))
    }

    @Test func findingItemsInAClosedKeychainOnReadOnlyStorageWorks() throws {
        let path = dir.keychainPath()
        do {
            let store = try KeychainStore.create(at: path, password: nil)
            _ = try store.add(item("readonly.example", "ro-secret"))
        }
        let files = KeychainFiles(database: path)
        #expect(!FileManager.default.fileExists(atPath: files.wal), "closed: SQLite removed the WAL")
        let directory = files.directory
        let found = try runConfined(directory, ["get", path, "readonly.example", "alice"])
        #expect(found == "found ro-secret", "\(Self.confinement): \(found)")
        let added = try runConfined(directory, ["try-add", path, "new.example", "alice", "x"])
        #expect(added == "status -36", "\(Self.confinement): errSecIO for the write, got \(added)")
        #expect(try KeychainStore.open(at: path).find(ItemQuery(itemClass: .genericPassword)).count == 1)
    }

    @Test func aKeychainInUseIsReadThroughItsWriteAheadLog() throws {
        let path = dir.keychainPath()
        let store = try KeychainStore.create(at: path, password: nil)
        _ = try store.add(item("first.example", "one"))
        _ = try store.add(item("second.example", "two"))  // committed to the WAL, not yet checkpointed
        let files = KeychainFiles(database: path)
        #expect(try FileManager.default.attributesOfItem(atPath: files.wal)[.size] as? Int ?? 0 > 0)
        let found = try runConfined(files.directory, ["get", path, "second.example", "alice"])
        #expect(found == "found two", "\(Self.confinement): \(found)")
        #expect(try runConfined(files.directory, ["try-add", path, "x.example", "alice", "x"]) == "status -36")
        withExtendedLifetime(store) {}
    }

    @Test func anOldKeychainOnReadOnlyStorageReportsThatItNeedsAWrite() throws {
        try FileManager.default.createDirectory(at: dir.url, withIntermediateDirectories: true)
        let path = dir.path + "/v1.keychain-db"
        let fixtures = SchemaMigrationTests.fixtures
        for suffix in ["", ".devkey"] {
            try Data(contentsOf: fixtures.appendingPathComponent("v1-device.keychain-db" + suffix))
                .write(to: URL(fileURLWithPath: path + suffix))
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path + suffix)
        }
        #expect(try runConfined(dir.path, ["get", path, "bank.example", "alice"]) == "status -36")
        #expect(try Database(path: path).userVersion == 1, "nothing was written")
    }
}
