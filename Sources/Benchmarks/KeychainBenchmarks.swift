import Foundation
import OSecKeychain
import OSecSystem
import OpenSSLBaseline
import Security
import Synchronization

/// Keychain adds, finds (kSecReturnData by service + account) and deletes on a 10,000-item keychain, beside the
/// floor: raw SQLite plus AES-256-GCM in C with the same durability settings, measured in the same run.
enum KeychainBenchmarks {
    /// Items in the keychain (and the floor's table): 10,000, or `OPENSECURITY_BENCH_KEYCHAIN_ITEMS` (at least 100)
    /// for runs under callgrind, where adding 10,000 items one durable transaction at a time takes too long. The
    /// row names keep saying 10,000 and 2,000.
    static let itemCount =
        SystemProcess.environment("OPENSECURITY_BENCH_KEYCHAIN_ITEMS").flatMap(Int.init).map { max($0, 100) } ?? 10_000
    /// Items the delete row removes (one SecItemDelete, one transaction each), from `account-0` up.
    static let deleteCount = min(2_000, itemCount / 5)

    static func rows() -> [BenchRow] {
        let directory = BenchScratch.directory("keychain")
        var keychain: SecKeychain?
        guard SecKeychainCreate(directory + "/bench.keychain-db", 0, nil, false, nil, &keychain) == errSecSuccess,
            let keychain
        else {
            print("keychain benchmark: cannot create a keychain in \(directory)")
            return []
        }
        let floorPath = directory + "/floor.sqlite"
        let secret = Data(repeating: 0x53, count: 64)
        var added = false
        var deleted = false
        var deletedFloor = false
        /// Runs `operation` for 0..<count, one call each; operations per second, or -1 at the first failure.
        func opsPerSecond(_ count: Int, _ operation: (Int) -> OSStatus) -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            for i in 0..<count where operation(i) != errSecSuccess { return -1 }
            return Double(count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        func deleteSome() -> Double {
            deleted = true
            return opsPerSecond(deleteCount) { i in
                let q: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "service",
                    kSecAttrAccount as String: "account-\(i)", kSecUseKeychain as String: keychain,
                ]
                return SecItemDelete(q as CFDictionary)
            }
        }
        func fill() -> Double {
            added = true
            return opsPerSecond(itemCount) { i in
                let q: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "service",
                    kSecAttrAccount as String: "account-\(i)", kSecValueData as String: secret,
                    kSecUseKeychain as String: keychain,
                ]
                return SecItemAdd(q as CFDictionary, nil)
            }
        }
        // The floor's generator (an LCG, in keychain_baseline.c): SystemRandomNumberGenerator makes a getrandom
        // syscall per draw, which would be charged to our side only.
        var seed: UInt32 = 12345
        func nextIndex() -> Int {
            seed = seed &* 1_103_515_245 &+ 12345
            return Int(seed % UInt32(itemCount))
        }
        /// A find row: timed against the C floor of the same lookups (SQLite SELECT, then AES-256-GCM open).
        func findRow(_ name: String, ours: @escaping (Double) -> Double) -> BenchRow {
            BenchRow(
                name: name, unit: "op/s", opensslLabel: "SQLite SELECT + AES-256-GCM open (C floor)", ours: ours,
                openssl: { osec_baseline_keychain_find(floorPath, Int32(itemCount), $0) })
        }
        let rows = [
            BenchRow(
                name: "SecItemAdd, 10,000 passwords (64 B)", unit: "op/s",
                opensslLabel: "SQLite INSERT + AES-256-GCM seal (C floor)",
                ours: { _ in added ? -1 : fill() },
                openssl: { _ in
                    FileManager.default.fileExists(atPath: floorPath)
                        ? -1 : osec_baseline_keychain_insert(floorPath, Int32(itemCount))
                }),
            findRow(
                "SecItemCopyMatching data by svce+acct",
                ours: { s in
                    measure(s) {
                        let i = nextIndex()
                        let q: [String: Any] = [
                            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "service",
                            kSecAttrAccount as String: "account-\(i)", kSecReturnData as String: true,
                            kSecUseKeychain as String: keychain,
                        ]
                        var result: CFTypeRef?
                        guard SecItemCopyMatching(q as CFDictionary, &result) == errSecSuccess else {
                            throw BenchFailure()
                        }
                    }
                }),
            // What the caller's own code costs before SecItemCopyMatching starts: the [String: Any] literal and
            // its bridging to CFDictionary (NSDictionary on Linux), exactly as in the row above.
            findRow(
                "  [caller] building the query dictionary alone",
                ours: { s in
                    var sink = 0
                    let rate = measure(s) {
                        let i = nextIndex()
                        let q: [String: Any] = [
                            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "service",
                            kSecAttrAccount as String: "account-\(i)", kSecReturnData as String: true,
                            kSecUseKeychain as String: keychain,
                        ]
                        sink &+= (q as CFDictionary).count
                    }
                    return sink > 0 ? rate : -1
                }),
            findRow("  same, query dictionaries built beforehand", ours: { s in prebuiltFind(s, cached: true) }),
            findRow("  same, find-result cache off", ours: { s in prebuiltFind(s, cached: false) }),
            findRow("  [store layer] find + open secret", ours: { s in storeFind(s, cached: true) }),
            findRow("  [store layer] same, find-result cache off", ours: { s in storeFind(s, cached: false) }),
            // Last: it removes items the finds above look up.
            BenchRow(
                name: "SecItemDelete, 2,000 passwords by svce+acct", unit: "op/s",
                opensslLabel: "SQLite DELETE (C floor)",
                ours: { _ in added && !deleted ? deleteSome() : -1 },
                openssl: { _ in
                    guard !deletedFloor else { return -1 }
                    deletedFloor = true
                    return osec_baseline_keychain_delete(floorPath, Int32(deleteCount))
                }),
        ]
        /// SecItemCopyMatching with query dictionaries built before the clock starts (1,024 of them, cycled).
        func prebuiltFind(_ s: Double, cached: Bool) -> Double {
            let queries: [CFDictionary] = (0..<1024).map { _ in
                let i = nextIndex()
                let q: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "service",
                    kSecAttrAccount as String: "account-\(i)", kSecReturnData as String: true,
                    kSecUseKeychain as String: keychain,
                ]
                return q as CFDictionary
            }
            KeychainStore.findCachingEnabled.store(cached, ordering: .relaxed)
            defer { KeychainStore.findCachingEnabled.store(true, ordering: .relaxed) }
            var n = 0
            return measure(s) {
                var result: CFTypeRef?
                n = (n + 1) & 1023
                guard SecItemCopyMatching(queries[n], &result) == errSecSuccess else { throw BenchFailure() }
            }
        }
        /// Finds through the store layer directly (a second connection to the benchmark keychain).
        func storeFind(_ s: Double, cached: Bool) -> Double {
            guard let store = try? KeychainStore.open(at: directory + "/bench.keychain-db") else { return -1 }
            store.cachesFinds = cached
            return measure(s) {
                let i = nextIndex()
                var query = ItemQuery(
                    itemClass: .genericPassword,
                    attributes: ["svce": .string("service"), "acct": .string("account-\(i)")],
                    accessGroups: SecKeychainConfiguration.accessGroups, isSynchronizable: false, limit: 1)
                query.includesAttributes = false
                guard let item = try store.find(query).first, let secret = try item.secret?.open(), secret.count == 64
                else {
                    throw BenchFailure()
                }
            }
        }
        return rows
    }
}
