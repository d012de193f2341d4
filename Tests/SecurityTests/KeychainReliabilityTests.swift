import Foundation
import OSecTestSupport
import Security
import Testing

/// Runs the `KeychainStress` executable built next to the test bundle.
enum StressProcess {
    static var executable: String? { BuiltExecutable.path("KeychainStress") }

    static func start(_ args: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable ?? "/nonexistent")
        process.arguments = args
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, out)
    }

    /// The indices a process reported as added ("added <i>" lines).
    static func reported(_ output: Data) -> [Int] {
        String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { line in
            line.hasPrefix("added ") ? Int(line.dropFirst(6)) : nil
        }
    }
}

@Suite(.serialized, .enabled(if: StressProcess.executable != nil, "needs the KeychainStress executable (swift build)"))
struct KeychainReliabilityTests {
    func password(_ kc: TestKeychain, _ account: String) -> Data? {
        var result: CFTypeRef?
        let q: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "stress",
            kSecAttrAccount as String: account, kSecReturnData as String: true,
        ]
        guard SecItemCopyMatching(kc.q(q), &result) == errSecSuccess else { return nil }
        return result as? Data
    }

    @Test func eightProcessesAddAndReadConcurrently() throws {
        let kc = try TestKeychain()
        let processes = try (0..<8).map { try StressProcess.start(["add", kc.path, "p\($0)", "300"]) }
        for (process, pipe) in processes {
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(StressProcess.reported(output).count == 300)
        }
        var result: CFTypeRef?
        let all: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "stress",
            kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true,
            kSecReturnData as String: true,
        ]
        #expect(SecItemCopyMatching(kc.q(all), &result) == errSecSuccess)
        let items = try #require(result as? [[String: Any]])
        #expect(items.count == 2400, "nothing lost")
        for item in items {
            let account = item["acct"] as? String ?? ""
            #expect(item["v_Data"] as? Data == Data("secret-\(account)".utf8), "nothing corrupted")
        }
    }

    @Test func writerKilledAtRandomMomentsLosesNoReportedAdd() throws {
        let kc = try TestKeychain()
        var generator = SystemRandomNumberGenerator()
        var reportedTotal = 0
        for round in 0..<30 {
            let (process, pipe) = try StressProcess.start(["add-forever", kc.path, "k\(round)"])
            usleep(UInt32.random(in: 20_000...250_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let reported = StressProcess.reported(pipe.fileHandleForReading.readDataToEndOfFile())
            reportedTotal += reported.count
            for i in reported {
                #expect(
                    password(kc, "k\(round)-\(i)") == Data("secret-k\(round)-\(i)".utf8),
                    "round \(round) add \(i) was reported but is gone")
            }
        }
        #expect(reportedTotal > 0)
        // The store is intact: it still takes adds and answers queries.
        let q: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "after-crash",
            kSecValueData as String: Data("ok".utf8),
        ]
        #expect(SecItemAdd(kc.q(q), nil) == errSecSuccess)
    }

    /// This process keeps answering a repeated find from its result cache; another process's update and
    /// delete must still show on the very next find.
    @Test func anotherProcessWritesShowOnTheNextFind() throws {
        let kc = try TestKeychain()
        func run(_ args: [String]) throws {
            let (process, pipe) = try StressProcess.start(args)
            _ = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "KeychainStress \(args.first ?? "")")
        }
        try run(["set", kc.path, "shared", "first"])
        for _ in 0..<3 { #expect(password(kc, "shared") == Data("first".utf8)) }
        try run(["set", kc.path, "shared", "second"])
        #expect(password(kc, "shared") == Data("second".utf8))
        #expect(password(kc, "other") == nil)
        try run(["set", kc.path, "other", "third"])
        #expect(password(kc, "other") == Data("third".utf8))
        try run(["delete", kc.path, "shared"])
        #expect(password(kc, "shared") == nil)
    }

    /// Issue 12 item 5: another process deletes the keychain and creates a new one at the same path; this
    /// process's next add must not report success for a write into the deleted file.
    @Test func anAddAfterAnotherProcessRecreatedTheKeychainIsNotLost() throws {
        let kc = try TestKeychain()
        func add(_ account: String) -> OSStatus {
            SecItemAdd(
                kc.q([
                    kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "stress",
                    kSecAttrAccount as String: account, kSecValueData as String: Data("secret-\(account)".utf8),
                ]), nil)
        }
        func seenByAnotherProcess(_ account: String) throws -> String {
            let (process, pipe) = try StressProcess.start(["get", kc.path, "stress", account])
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(add("before") == errSecSuccess)
        let (recreate, pipe) = try StressProcess.start(["recreate", kc.path])
        _ = pipe.fileHandleForReading.readDataToEndOfFile()
        recreate.waitUntilExit()
        #expect(recreate.terminationStatus == 0)
        let status = add("after")
        #expect(status == errSecSuccess || status == errSecInvalidKeychain, "\(status)")
        if status == errSecSuccess {
            #expect(try seenByAnotherProcess("after") == "found secret-after", "reported success, but the item is lost")
            #expect(password(kc, "after") == Data("secret-after".utf8))
        }
        #expect(try seenByAnotherProcess("before") == "status \(errSecItemNotFound)", "the new keychain is empty")
    }

    @Test func identityPersistentRefResolvesInASecondProcess() throws {
        let kc = try TestKeychain()
        let key = KeyFixtures.generate(kSecAttrKeyTypeECSECPrimeRandom, 256)
        let certificate = try TestPKI.issue(cn: "second-process.example", for: key, serial: 33)
        let identity = try OpenSecurityCertificates.createIdentity(certificate: certificate, privateKey: key)
        var result: CFTypeRef?
        #expect(
            SecItemAdd(kc.q([kSecValueRef as String: identity, kSecReturnPersistentRef as String: true]), &result)
                == errSecSuccess)
        let ref = try #require(result as? Data)
        let (process, pipe) = try StressProcess.start([
            "resolve", kc.path, ref.map { String(format: "%02x", $0) }.joined(),
        ])
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(output == "identity second-process.example\n")
    }
}

@Suite struct KeychainAtRestTests {
    @Test func noSecretByteInClearAnywhereAndPrivateFileModes() throws {
        let kc = try TestKeychain(subdirectory: "keychains")
        let canary = "CANARY-\(UUID().uuidString)"
        #expect(
            SecItemAdd(
                kc.q([
                    kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "canary",
                    kSecValueData as String: Data(canary.utf8),
                ]), nil) == errSecSuccess)
        let key = KeyFixtures.generate(kSecAttrKeyTypeECSECPrimeRandom, 256)
        #expect(
            SecItemAdd(kc.q([kSecClass as String: kSecClassKey, kSecValueRef as String: key]), nil) == errSecSuccess)
        let privateBytes = try #require(SecKeyCopyExternalRepresentation(key, nil)) as Data
        let scalar = privateBytes.suffix(32)
        let directory = URL(fileURLWithPath: kc.path).deletingLastPathComponent()
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.contains { $0.hasSuffix("-wal") }, "the WAL is checked too")
        for file in files {
            let path = directory.appendingPathComponent(file).path
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(bytes.range(of: Data(canary.utf8)) == nil, "\(file) holds the password in clear")
            #expect(bytes.range(of: scalar) == nil, "\(file) holds the private key in clear")
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file) has mode \(String(mode ?? 0, radix: 8))")
        }
        let dirMode = try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int
        #expect(dirMode == 0o700, "the keychain directory has mode \(String(dirMode ?? 0, radix: 8))")
    }
}
