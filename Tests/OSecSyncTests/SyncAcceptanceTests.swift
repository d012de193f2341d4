import Foundation
import OSecPostgres
import OSecTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Three keychains standing for three machines (separate files, separate processes) and one real PostgreSQL server.
@Suite(
    .serialized,
    .enabled(if: Machine.available, "needs PostgreSQL's server binaries and the SyncStress/security executables"))
struct SyncAcceptanceTests {
    let directory: TemporaryDirectory
    let server: PGTestServer

    init() throws {
        directory = try TemporaryDirectory(prefix: "osec-sync")
        server = try PGTestServer.shared()
    }

    func machines(_ circle: String, _ names: [String] = ["a", "b", "c"]) throws -> [Machine] {
        let machines = names.map { Machine(directory, $0, server: server, circle: circle) }
        for machine in machines { try machine.join() }
        return machines
    }

    static func circleName(_ base: String) -> String { "\(base)-\(UUID().uuidString)" }

    @Test func addUpdateDeleteOnOneShowsOnTheOtherTwo() throws {
        let m = try machines(Self.circleName("crud"))
        try m[0].must("set", "alice", "first")
        try m[0].must("local", "private", "never-leaves")
        try syncAll(m)
        #expect(try m[1].items() == ["alice=first"])
        #expect(try m[2].items() == ["alice=first"])
        try m[1].must("set", "alice", "second")
        try m[1].must("set", "bob", "b")
        try syncAll(m)
        for machine in m { #expect(try machine.items() == ["alice=second", "bob=b"]) }
        try m[2].must("delete", "alice")
        try syncAll(m)
        for machine in m { #expect(try machine.items() == ["bob=b"]) }
        // The item without kSecAttrSynchronizable stayed on its machine.
        let (status, _) = try m[1].run("delete", "private")
        #expect(status == 44)
    }

    @Test func concurrentUpdatesConvergeToTheSameWinnerEverywhere() throws {
        let m = try machines(Self.circleName("conflict"))
        try m[0].must("set", "shared", "v0")
        try syncAll(m)
        // Offline from each other: a then b change the same item (b's change is later, so it wins).
        try m[0].must("set", "shared", "from-a")
        Thread.sleep(forTimeInterval: 0.05)
        try m[1].must("set", "shared", "from-b")
        // a pushes first; b's push is refused (compare-and-set), b pulls a's, keeps its later change and pushes it.
        try syncAll([m[0], m[1], m[2], m[0]], rounds: 2)
        for machine in m { #expect(try machine.items() == ["shared=from-b"]) }
        // The other order: the later change is pushed first, the earlier one loses on its own machine.
        try m[2].must("set", "shared", "from-c-early")
        Thread.sleep(forTimeInterval: 0.05)
        try m[0].must("set", "shared", "from-a-late")
        try syncAll([m[0], m[2], m[1]], rounds: 2)
        for machine in m { #expect(try machine.items() == ["shared=from-a-late"]) }
        // Two machines add the same account independently: a collision is a conflict, never a duplicate.
        try m[1].must("set", "twin", "b-copy")
        Thread.sleep(forTimeInterval: 0.05)
        try m[2].must("set", "twin", "c-copy")
        try syncAll([m[1], m[2], m[0]], rounds: 3)
        for machine in m { #expect(try machine.items() == ["shared=from-a-late", "twin=c-copy"]) }
        let (status, json) = try m[2].security(["sync-status", "-j", m[2].keychain])
        #expect(status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(((object?["conflicts"] as? [Any])?.count ?? 0) >= 1, "the loser is shown in sync-status")
    }

    @Test func anIdentitySyncedAsTwoItemsFormsOnTheOtherSide() throws {
        try #require(OpenSSLCLI.isAvailable)
        let m = try machines(Self.circleName("identity"), ["a", "b"])
        let key = directory.path("key.pem")
        let cert = directory.path("cert.pem")
        let p12 = directory.path("id.p12")
        _ = try OpenSSLCLI.check([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key,
            "-out", cert, "-days", "30", "-subj", "/CN=sync identity",
        ])
        _ = try OpenSSLCLI.check([
            "pkcs12", "-export", "-inkey", key, "-in", cert, "-out", p12, "-passout", "pass:pw",
        ])
        try m[0].must("add-identity", p12, "pw")
        try syncAll(m)
        #expect(try m[1].must("identity").contains("sync identity key=true"))
    }

    @Test func thirtySIGKILLsOfASyncingProcessLoseNothingAndConverge() throws {
        let m = try machines(Self.circleName("kill"), ["a", "b"])
        var committed = Set<Int>()
        var generator = SystemRandomNumberGenerator()
        for round in 0..<30 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Machine.helper ?? "/nonexistent")
            process.arguments = ["churn", m[0].keychain, "k\(round)"]
            process.environment = Machine.environment()
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Meanwhile another process on the same machine syncs the same keychain (claims keep them apart).
            if round % 3 == 0 { _ = try? m[0].run("sync") }
            Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.6, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            for line in lines.split(separator: "\n") where line.hasPrefix("committed ") {
                if let i = Int(line.dropFirst(10)) { committed.insert(round * 100_000 + i) }
            }
        }
        try syncAll(m, rounds: 2)
        let expected = committed.map { "k\($0 / 100_000)-\($0 % 100_000)=v\($0 % 100_000)" }
        let onB = Set(try m[1].items())
        let onA = Set(try m[0].items())
        #expect(!expected.isEmpty)
        #expect(Set(expected).isSubset(of: onA), "nothing committed locally was lost")
        #expect(Set(expected).isSubset(of: onB), "every committed change reached the other machine")
        #expect(onA == onB, "the two machines converged")
    }

    @Test func theServerStoppedForAWhileLocalWritesGoOnAndEverythingConverges() throws {
        let own = try PGTestServer()
        defer { own.destroy() }
        let circle = Self.circleName("outage")
        let m = ["a", "b"].map { Machine(directory, "outage-\($0)", server: own, circle: circle) }
        for machine in m { try machine.join() }
        try m[0].must("set", "before", "1")
        try syncAll(m)
        try own.stop()
        try m[0].must("set", "during-a", "2")
        try m[1].must("set", "during-b", "3")
        try m[1].must("delete", "before")
        let (status, _) = try m[0].run("sync")
        #expect(status == 53, "errSecNotAvailable while the server is down")
        try own.restart()
        try syncAll(m)
        for machine in m { #expect(try machine.items() == ["during-a=2", "during-b=3"]) }
    }

    @Test func aDumpOfTheServerContainsNoPlantedSecretOrAttributeInAnyEncoding() throws {
        let circle = Self.circleName("dump")
        let m = try machines(circle, ["a", "b"])
        let prefix = "plant\(UInt32.random(in: 0...UInt32.max))"
        try m[0].must("plant", prefix, "200")
        try syncAll(m)
        let dumpFile = directory.path("server.sql")
        let pgDump = try #require(
            ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).sorted().last.map {
                "/usr/lib/postgresql/\($0)/bin/pg_dump"
            })
        let (status, output) = try PGTestServer.run([pgDump, "--dbname=\(server.url)", "--file=\(dumpFile)"])
        #expect(status == 0, "\(output)")
        let dump = try Data(contentsOf: URL(fileURLWithPath: dumpFile))
        #expect(dump.count > 10_000)
        let text = String(decoding: dump, as: UTF8.self).lowercased()
        var planted: [String] = [circle]
        for i in 0..<200 {
            planted += ["secret", "account", "service", "label", "comment"].map { "\(prefix)-\($0)-\(i)" }
        }
        for value in planted {
            let bytes = Data(value.utf8)
            let hex = bytes.map { String(format: "%02x", $0) }.joined()
            let encodings: [Data] = [
                bytes, Data(hex.utf8), Data(bytes.base64EncodedString().utf8),
                value.data(using: .utf16LittleEndian) ?? Data(), value.data(using: .utf16BigEndian) ?? Data(),
            ]
            for encoding in encodings { #expect(dump.range(of: encoding) == nil, "\(value) leaked") }
            #expect(!text.contains(hex), "\(value) leaked as hex")
        }
        // The planted items did arrive on the other machine (the dump is of a working circle).
        #expect(try m[1].must("count").trimmingCharacters(in: .whitespacesAndNewlines) == "200")
        let (found, _) = try m[1].security(["find-generic-password", "-s", "\(prefix)-service-7", m[1].keychain])
        #expect(found == 44, "synchronizable items are invisible without kSecAttrSynchronizable (Apple's rule)")
    }
}
