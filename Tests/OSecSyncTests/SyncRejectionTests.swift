import Foundation
import OSecCrypto
import OSecPostgres
import OSecTestSupport
import Testing

/// What a hostile or broken server can try, and what a machine does about it: each attempt is rejected with a
/// clear error (an exit status) and nothing local changes.
@Suite(
    .serialized,
    .enabled(if: Machine.available, "needs PostgreSQL's server binaries and the SyncStress/security executables"))
struct SyncRejectionTests {
    let directory: TemporaryDirectory
    let server: PGTestServer

    init() throws {
        directory = try TemporaryDirectory(prefix: "osec-sync")
        server = try PGTestServer.shared()
    }

    static let decodeExit: Int32 = 93  // errSecDecode (-26275) & 0xFF
    static let authFailedExit: Int32 = 51  // errSecAuthFailed (-25293) & 0xFF
    static let notAvailableExit: Int32 = 53  // errSecNotAvailable (-25291) & 0xFF

    func pair(_ base: String) throws -> (Machine, Machine, Data) {
        let circle = "\(base)-\(UUID().uuidString)"
        let a = Machine(directory, "\(base)-a", server: server, circle: circle)
        let b = Machine(directory, "\(base)-b", server: server, circle: circle)
        try a.join()
        try b.join()
        return (a, b, try circleID(circle))
    }

    func circleID(_ name: String) throws -> Data {
        let lookup = Digest.hash(.sha256, Data("OSecSync.circle.v1".utf8) + Data(name.utf8))
        let row = try server.connect().execute("SELECT circle_id FROM osec_circles WHERE lookup = $1", [.bytes(lookup)])
        return try #require(row.scalar().bytesValue)
    }

    /// A sequence number past everything the members saw, so the next pull fetches the row.
    func freshSeq(_ db: PGConnection) throws -> Int64 {
        try #require(db.execute("SELECT coalesce(max(seq), 0) + 1000 FROM osec_items").scalar().integerValue)
    }

    @Test func aWrongPassphraseExits51AndNothingIsPulledOrPushed() throws {
        let (a, _, _) = try pair("wrongpass")
        try a.must("set", "kept", "yes")
        try a.sync()
        let outsider = Machine(directory, "wrongpass-c", server: server, circle: a.circle)
        try outsider.must("local", "mine", "1")
        try outsider.must("set", "pending", "2")
        let (status, text) = try outsider.security(
            ["sync-join", "-u", outsider.url, "-c", outsider.circle, outsider.keychain], stdin: Data("wrong\n".utf8))
        #expect(status == Self.authFailedExit)
        #expect(text.contains("passphrase"))
        #expect(try outsider.items() == ["pending=2"], "nothing pulled")
        let (notJoined, _) = try outsider.run("sync")
        #expect(notJoined == Self.notAvailableExit, "not in the circle")
        try a.sync()
        #expect(try a.items() == ["kept=yes"], "nothing pushed")
        // The environment's passphrase file is checked the same way.
        let file = try directory.write("wrong-passphrase", Data("also wrong".utf8))
        let (envStatus, _) = try outsider.security(
            ["sync-now", outsider.keychain],
            environment: [
                "OPENSECURITY_SYNC_URL": outsider.url, "OPENSECURITY_SYNC_CIRCLE": outsider.circle,
                "OPENSECURITY_SYNC_PASSPHRASE_FILE": file,
            ])
        #expect(envStatus == Self.authFailedExit)
        #expect(try outsider.items() == ["pending=2"])
    }

    @Test func aTamperedRowIsRejectedAndNothingLocalChanges() throws {
        let (a, b, circle) = try pair("tamper")
        try a.must("set", "x", "v1")
        try syncAll([a, b])
        try a.must("set", "x", "v2")
        try a.must("set", "y", "new")
        try a.sync()
        let db = try server.connect()
        // Flip one byte in the ciphertext of one row.
        let flipped = try db.execute(
            """
            UPDATE osec_items SET blob = set_byte(blob, 20, get_byte(blob, 20) # 1)
            WHERE circle_id = $1 AND version = 2
            """, [.bytes(circle)])
        #expect(flipped.affectedRows == 1)
        let (status, text) = try b.run("sync")
        #expect(status == Self.decodeExit, "\(text)")
        #expect(try b.items() == ["x=v1"], "nothing of the bad batch was applied")
    }

    @Test func aReplayedOlderVersionIsRejectedAndNothingLocalChanges() throws {
        let (a, b, circle) = try pair("replay")
        try a.must("set", "x", "v1")
        try syncAll([a, b])
        let db = try server.connect()
        let old = try #require(
            db.execute("SELECT item_id, blob FROM osec_items WHERE circle_id = $1", [.bytes(circle)]).rows.first)
        try a.must("set", "x", "v2")
        try syncAll([a, b])
        #expect(try b.items() == ["x=v2"])
        // The operator puts version 1 back, as if it were a new change.
        try db.execute(
            "UPDATE osec_items SET version = 1, blob = $2, seq = $3 WHERE circle_id = $1 AND item_id = $4",
            [.bytes(circle), old[1], .integer(try freshSeq(db)), old[0]])
        let (status, _) = try b.run("sync")
        #expect(status == Self.decodeExit)
        #expect(try b.items() == ["x=v2"])
        // The old blob presented as a newer version does not open either.
        try db.execute(
            "UPDATE osec_items SET version = 3, seq = $2 WHERE circle_id = $1 AND item_id = $3",
            [.bytes(circle), .integer(try freshSeq(db)), old[0]])
        let (again, _) = try b.run("sync")
        #expect(again == Self.decodeExit)
        #expect(try b.items() == ["x=v2"])
    }

    @Test func aRowCopiedFromAnotherCircleIsRejectedAndNothingLocalChanges() throws {
        let (a, b, first) = try pair("copyfrom")
        try a.must("set", "x", "secret-of-circle-one")
        try syncAll([a, b])
        // A second circle with the same passphrase.
        let (c, d, second) = try pair("copyto")
        try c.must("set", "own", "1")
        try syncAll([c, d])
        let db = try server.connect()
        try db.execute(
            """
            INSERT INTO osec_items (circle_id, item_id, version, seq, tombstone, blob)
            SELECT $2, item_id, version, $3, tombstone, blob FROM osec_items WHERE circle_id = $1
            """, [.bytes(first), .bytes(second), .integer(try freshSeq(db))])
        let (status, _) = try d.run("sync")
        #expect(status == Self.decodeExit)
        #expect(try d.items() == ["own=1"])
        // A blob moved to another item (q's row gets p's version-2 blob) does not open either (swap).
        let (e, f, third) = try pair("swap")
        try e.must("set", "p", "1")
        try e.must("set", "q", "2")
        try syncAll([e, f])
        try e.must("set", "p", "3")
        try e.sync()
        try db.execute(
            """
            UPDATE osec_items SET blob = (SELECT blob FROM osec_items WHERE circle_id = $1 AND version = 2),
                version = 2, seq = $2
            WHERE circle_id = $1 AND version = 1
            """, [.bytes(third), .integer(try freshSeq(db))])
        let (swapped, _) = try f.run("sync")
        #expect(swapped == Self.decodeExit)
        #expect(try f.items() == ["p=1", "q=2"])
    }
}

/// The command-line interface scripts depend on.
@Suite(
    .serialized,
    .enabled(if: Machine.available, "needs PostgreSQL's server binaries and the SyncStress/security executables"))
struct SyncCommandTests {
    let directory: TemporaryDirectory
    let server: PGTestServer

    init() throws {
        directory = try TemporaryDirectory(prefix: "osec-sync")
        server = try PGTestServer.shared()
    }

    @Test func syncJoinCreatesTheCircleAndTheKeychainAndStatusPrintsOneJSONObject() throws {
        let circle = "cli-\(UUID().uuidString)"
        let a = Machine(directory, "cli-a", server: server, circle: circle)
        #expect(!FileManager.default.fileExists(atPath: a.keychain))
        let (joined, text) = try a.security(
            ["sync-join", "-u", a.url, "-c", circle, a.keychain], stdin: Data("pw\n".utf8))
        #expect(joined == 0, "\(text)")
        #expect(FileManager.default.fileExists(atPath: a.keychain))
        try a.must("set", "one", "1")
        let (synced, _) = try a.security(["sync-now", a.keychain])
        #expect(synced == 0)
        let (status, json) = try a.security(["sync-status", "--json", a.keychain])
        #expect(status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["circle"] as? String == circle)
        #expect(object["pendingChanges"] as? Int == 0)
        #expect((object["members"] as? [Any])?.count == 1)
        #expect(json.split(separator: "\n").count == 1)
        let (plain, human) = try a.security(["sync-status", a.keychain])
        #expect(plain == 0 && human.contains("pending changes: 0"))
    }

    @Test func syncNowWorksFromTheEnvironmentWithoutAJoin() throws {
        let circle = "env-\(UUID().uuidString)"
        let a = Machine(directory, "env-a", server: server, circle: circle)
        try a.join(passphrase: "from the file")
        try a.must("set", "shared", "hello")
        try a.sync()
        let b = Machine(directory, "env-b", server: server, circle: circle)
        try b.must("local", "placeholder", "x")  // the keychain exists, never joined
        let file = try directory.write("passphrase", Data("from the file".utf8))
        let environment = [
            "OPENSECURITY_SYNC_URL": b.url, "OPENSECURITY_SYNC_CIRCLE": circle,
            "OPENSECURITY_SYNC_PASSPHRASE_FILE": file,
        ]
        let (status, text) = try b.security(["sync-now", b.keychain], environment: environment)
        #expect(status == 0, "\(text)")
        #expect(try b.items() == ["shared=hello"])
    }

    /// A fresh machine (a container with an empty home) configured by the three environment variables alone:
    /// `sync-now` creates the default keychain, joins and pulls; `sync-status` and later changes work both ways.
    @Test func aFreshMachineComesUpSynchronizedFromTheEnvironmentAlone() throws {
        let circle = "fresh-\(UUID().uuidString)"
        let a = Machine(directory, "fresh-a", server: server, circle: circle)
        try a.join(passphrase: "only in the file")
        try a.must("set", "shared", "hello")
        try a.sync()
        let home = directory.path("fresh-home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
        let file = try directory.write("fresh-passphrase", Data("only in the file".utf8))
        let environment = [
            "HOME": home, "XDG_DATA_HOME": "", "OPENSECURITY_SYNC_URL": a.url, "OPENSECURITY_SYNC_CIRCLE": circle,
            "OPENSECURITY_SYNC_PASSPHRASE_FILE": file,
        ]
        let keychain = "fresh-home/.local/share/opensecurity/keychains/login"
        let fresh = Machine(directory, keychain, server: server, circle: circle)
        #expect(!FileManager.default.fileExists(atPath: fresh.keychain))
        let (status, text) = try fresh.security(["sync-now"], environment: environment)
        #expect(status == 0, "\(text)")
        #expect(FileManager.default.fileExists(atPath: fresh.keychain), "the default keychain was created")
        #expect(try fresh.items() == ["shared=hello"])
        let (listed, json) = try fresh.security(["sync-status", "-j"], environment: environment)
        #expect(listed == 0, "\(json)")
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect((object?["members"] as? [Any])?.count == 2)
        try fresh.must("set", "back", "1")
        try fresh.sync()
        try a.sync()
        #expect(try a.items() == ["back=1", "shared=hello"])
    }

    /// Without the environment, a missing keychain stays missing: `sync-now` reports errSecNoSuchKeychain.
    @Test func syncNowWithoutACircleCreatesNoKeychain() throws {
        let home = directory.path("bare-home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
        let bare = Machine(directory, "bare-home/.local/share/opensecurity/keychains/login", server: server, circle: "")
        let (status, _) = try bare.security(["sync-now"], environment: ["HOME": home, "XDG_DATA_HOME": ""])
        #expect(status == 50)  // errSecNoSuchKeychain (-25294) & 0xFF
        #expect(!FileManager.default.fileExists(atPath: bare.keychain))
    }

    @Test func afterSyncLeaveNoChangesArriveOrLeave() throws {
        let circle = "leave-\(UUID().uuidString)"
        let a = Machine(directory, "leave-a", server: server, circle: circle)
        let b = Machine(directory, "leave-b", server: server, circle: circle)
        try a.join()
        try b.join()
        try a.must("set", "before", "1")
        try syncAll([a, b])
        let (left, _) = try a.security(["sync-leave", a.keychain])
        #expect(left == 0)
        try b.must("set", "after-b", "2")
        try b.sync()
        try a.must("set", "after-a", "3")
        let (status, _) = try a.run("sync")
        #expect(status == SyncRejectionTests.notAvailableExit)
        try b.sync()
        #expect(try a.items() == ["after-a=3", "before=1"])
        #expect(try b.items() == ["after-b=2", "before=1"])
        let (members, json) = try b.security(["sync-status", "-j", b.keychain])
        #expect(members == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect((object?["members"] as? [Any])?.count == 1, "the member left the server's list")
    }

    @Test func twoProcessesSyncingOneKeychainPushEachChangeOnce() throws {
        let circle = "once-\(UUID().uuidString)"
        let a = Machine(directory, "once-a", server: server, circle: circle)
        try a.join()
        try a.must("plant", "once", "300")
        let processes = try (0..<2).map { _ -> Process in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Machine.helper ?? "/nonexistent")
            process.arguments = ["sync", a.keychain]
            process.environment = Machine.environment()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let db = try server.connect()
        let lookup = Digest.hash(.sha256, Data("OSecSync.circle.v1".utf8) + Data(circle.utf8))
        let counts = try db.execute(
            """
            SELECT count(*), coalesce(max(version), 0) FROM osec_items i JOIN osec_circles c USING (circle_id)
            WHERE c.lookup = $1
            """, [.bytes(lookup)])
        #expect(counts.rows.first?[0].integerValue == 300)
        #expect(counts.rows.first?[1].integerValue == 1, "no change was pushed twice")
    }
}
