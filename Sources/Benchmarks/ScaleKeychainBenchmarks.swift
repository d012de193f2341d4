import Foundation
import OSecKeychain
import OSecSystem
import Security

/// `--suite scale-keychain`: how the keychain's costs grow with the number of items it holds (1k, 10k, 100k, 1M
/// generic passwords in one keychain file).
///
/// At each size: `SecItemAdd`, `SecItemCopyMatching` by primary key (service + account, `kSecReturnData`) and by a
/// non-key attribute (`kSecAttrLabel`, `kSecReturnData`), `kSecMatchLimitAll` over the class
/// (`kSecReturnAttributes`), `SecItemUpdate` (new `kSecValueData`, re-sealed) and `SecItemDelete` by primary key,
/// the database's size on disk, this process's peak RSS, and the time a fresh `security find-generic-password -w`
/// process takes to open the keychain and answer its first query (posix_spawn + waitpid).
///
/// Filling: the keychain grows to each size through the store's bulk path, `KeychainStore.add(contentsOf:)` (one
/// transaction per batch of ``batchSize`` items; every secret sealed exactly as `SecItemAdd` seals it, bound to its
/// row). Adding 1M items one `SecItemAdd` (one fsync'd transaction) at a time would take most of an hour. Each
/// operation is then measured on a sample at each size through the public API, with the find-result cache off (so
/// every find reaches SQLite). Adds and deletes use their own items (`extra-…`), so the filled items stay.
///
/// Bounded in time: each measurement stops after ``sampleSeconds`` (at least ``minimumSamples`` calls; one call of
/// the match-all), so the suite's time is the fill (about a minute for 1M items on a quiet 2-core machine) and the
/// one match-all call at 1M (one attribute dictionary per item): a few minutes on a quiet machine, 14 minutes on the
/// shared one with six builds running. Everything lives in one `BenchScratch` directory under the temporary
/// directory, removed at the end of the run; nothing is read from or written to the working directory.
/// `OPENSECURITY_BENCH_SCALE_MAX` (an item count) stops at a smaller size, for trying the suite out.
enum ScaleKeychainBenchmarks {
    static let suite = ScaleSuite(name: "scale-keychain") { options in run(options) }

    static let sizes = [1_000, 10_000, 100_000, 1_000_000]
    /// Items per transaction of the bulk fill.
    static let batchSize = 5_000
    static let sampleSeconds = 1.5
    static let minimumSamples = 3
    static let service = "service"

    private static func account(_ i: Int) -> String { "account-\(i)" }
    private static func label(_ i: Int) -> String { "label-\(i)" }

    static func run(_ options: BenchOptions) -> [ScalePoint] {
        let limit = SystemProcess.environment("OPENSECURITY_BENCH_SCALE_MAX").flatMap(Int.init) ?? Int.max
        let directory = BenchScratch.directory("scale-keychain")
        let path = directory + "/scale.keychain-db"
        var created: SecKeychain?
        guard SecKeychainCreate(path, 0, nil, false, nil, &created) == errSecSuccess, let keychain = created,
            let store = try? KeychainStore.open(at: path)
        else {
            print("scale-keychain: cannot create a keychain in \(directory)")
            return []
        }
        KeychainStore.findCachingEnabled.store(false, ordering: .relaxed)
        defer { KeychainStore.findCachingEnabled.store(true, ordering: .relaxed) }
        var points: [ScalePoint] = []
        func point(_ series: String, _ size: Int, _ value: Double, _ unit: String, _ note: String? = nil) {
            let p = ScalePoint(
                suite: "scale-keychain", series: series, xLabel: "items", x: Double(size), value: value, unit: unit,
                note: note)
            points.append(p)
        }
        var generator = SplitMix(seed: 0x5eed)
        var filled = 0
        for size in sizes where size <= limit {
            let fillStart = DispatchTime.now().uptimeNanoseconds
            guard fill(store, from: filled, to: size) else {
                print("scale-keychain: the bulk fill to \(size) items failed")
                break
            }
            filled = size
            BenchTable.line(
                "  (filled to \(size) items in "
                    + String(format: "%.1f s", Double(DispatchTime.now().uptimeNanoseconds - fillStart) / 1e9) + ")")
            let secret = Data(repeating: 0x41, count: 64)

            // Adds: new items, one SecItemAdd (one durable transaction) each.
            var added = 0
            point(
                "add", size,
                rate(sampleSeconds) {
                    let q: [String: Any] = [
                        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                        kSecAttrAccount as String: "extra-\(size)-\(added)", kSecValueData as String: secret,
                        kSecUseKeychain as String: keychain,
                    ]
                    added += 1
                    return SecItemAdd(q as CFDictionary, nil)
                }, "op/s")
            point(
                "find by primary key", size,
                rate(sampleSeconds) {
                    let q: [String: Any] = [
                        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                        kSecAttrAccount as String: account(generator.next(below: size)),
                        kSecReturnData as String: true, kSecUseKeychain as String: keychain,
                    ]
                    var result: CFTypeRef?
                    return SecItemCopyMatching(q as CFDictionary, &result)
                }, "op/s")
            point(
                "find by a non-key attribute (label)", size,
                1000
                    / rate(sampleSeconds) {
                        let q: [String: Any] = [
                            kSecClass as String: kSecClassGenericPassword,
                            kSecAttrLabel as String: label(generator.next(below: size)),
                            kSecReturnData as String: true, kSecUseKeychain as String: keychain,
                        ]
                        var result: CFTypeRef?
                        return SecItemCopyMatching(q as CFDictionary, &result)
                    }, "ms per call")
            point(
                "kSecMatchLimitAll over the class (attributes)", size,
                1000
                    / rate(sampleSeconds, minimum: 1) {
                        let q: [String: Any] = [
                            kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: kSecMatchLimitAll,
                            kSecReturnAttributes as String: true, kSecUseKeychain as String: keychain,
                        ]
                        var result: CFTypeRef?
                        let status = SecItemCopyMatching(q as CFDictionary, &result)
                        guard status == errSecSuccess else { return status }
                        return (result as? NSArray)?.count ?? 0 >= size ? errSecSuccess : errSecInternal
                    }, "ms per call")
            point(
                "update (new data, re-sealed)", size,
                rate(sampleSeconds) {
                    let q: [String: Any] = [
                        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                        kSecAttrAccount as String: account(generator.next(below: size)),
                        kSecUseKeychain as String: keychain,
                    ]
                    return SecItemUpdate(q as CFDictionary, [kSecValueData as String: secret] as CFDictionary)
                }, "op/s")
            var deleted = 0
            point(
                "delete", size,
                rate(sampleSeconds, limit: added) {
                    let q: [String: Any] = [
                        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                        kSecAttrAccount as String: "extra-\(size)-\(deleted)", kSecUseKeychain as String: keychain,
                    ]
                    deleted += 1
                    return SecItemDelete(q as CFDictionary)
                }, "op/s")
            point("database file size", size, Double(fileBytes(path)) / 1_048_576, "MiB")
            point("peak RSS of this process", size, Double(peakRSSKiB()) / 1024, "MiB")
            if let first = firstQueryMilliseconds(path, directory: directory, account: account(size / 2)) {
                point("fresh process: open + first query", size, first, "ms")
            }
        }
        return points
    }

    /// Fills the keychain with items `from..<to` through the store's bulk path: one transaction per batch.
    private static func fill(_ store: KeychainStore, from: Int, to: Int) -> Bool {
        let secret = Data(repeating: 0x53, count: 64)
        var next = from
        while next < to {
            let end = min(next + batchSize, to)
            let items = (next..<end).map { i in
                NewItem(
                    itemClass: .genericPassword,
                    attributes: [
                        "svce": .string(service), "acct": .string(account(i)), "labl": .string(label(i)),
                    ],
                    accessGroup: SecKeychainConfiguration.defaultAccessGroup, secret: secret)
            }
            do { _ = try store.add(contentsOf: items) } catch { return false }
            next = end
        }
        return true
    }

    /// Calls per second of `operation` (which must return errSecSuccess), for `seconds` but at least `minimum`
    /// calls and at most `limit`; -1 at the first failure.
    private static func rate(
        _ seconds: Double, minimum: Int = minimumSamples, limit: Int = Int.max, _ operation: () -> OSStatus
    ) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        var count = 0
        var elapsed = 0.0
        while count < limit && (count < minimum || elapsed < seconds) {
            let status = operation()
            guard status == errSecSuccess else {
                BenchTable.line("  (operation failed: OSStatus \(status))")
                return -1
            }
            count += 1
            elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        return Double(count) / elapsed
    }

    /// The database and its write-ahead log, in bytes.
    private static func fileBytes(_ path: String) -> Int {
        [path, path + "-wal"].reduce(0) { total, file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)??.intValue
            return total + (size ?? 0)
        }
    }

    /// This process's peak resident set (`VmHWM` of /proc/self/status), in KiB.
    private static func peakRSSKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return 0
    }

    /// Median wall time (ms) of three fresh `security find-generic-password -w` processes reading one item of the
    /// keychain at `path` (spawn to exit), or `nil` without the `security` tool beside this executable.
    private static func firstQueryMilliseconds(_ path: String, directory: String, account: String) -> Double? {
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("security").path
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            BenchTable.line("  (no \(tool): swift build -c release --product security; fresh-process row skipped)")
            return nil
        }
        var environment = ProcessInfo.processInfo.environment
        environment["OPENSECURITY_KEYCHAIN"] = path
        environment["XDG_CONFIG_HOME"] = directory + "/config"
        environment["XDG_RUNTIME_DIR"] = directory + "/run"
        let command = PreparedCommand(
            tool, arguments: ["find-generic-password", "-a", account, "-s", service, "-w", path],
            environment: environment)
        var times: [Double] = []
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            guard (try? command.run()) == 0 else {
                BenchTable.line("  (security find-generic-password failed on the \(path) keychain)")
                return nil
            }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return times.sorted()[1]
    }
}

/// A small deterministic generator (SplitMix64): `SystemRandomNumberGenerator` makes a syscall per draw.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(bound))
    }
}
