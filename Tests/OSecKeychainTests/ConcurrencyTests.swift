import Foundation
import Testing

@testable import OSecKeychain

/// Several connections (one `KeychainStore` per thread, each with its own SQLite connection) on one file.
/// The multi-*process* test is done at the facade level with the `security` executable; SQLite's locking
/// is the same across connections of one process and across processes (POSIX advisory locks + -shm).
@Suite struct ConcurrencyTests {
    let dir = TestDirectory()

    @Test func eightConnectionsAddAndReadConcurrently() throws {
        let path = dir.keychainPath()
        _ = try KeychainStore.create(at: path, password: testPassword, kdf: .testing)
        let threads = 8
        let perThread = 300
        let failures = FailureLog()
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            do {
                let store = try KeychainStore.open(at: path)
                try store.unlock(password: testPassword)
                for n in 0..<perThread {
                    let added = try store.add(
                        genp(account: "t\(t)-\(n)", service: "concurrent", secret: "secret-\(t)-\(n)"))
                    let found = try store.find(ItemQuery(persistentRef: added.persistentRef))
                    guard found.count == 1, try found[0].secret?.open() == Data("secret-\(t)-\(n)".utf8) else {
                        failures.record("read-back mismatch t\(t) n\(n)")
                        return
                    }
                }
            } catch {
                failures.record("thread \(t): \(error)")
            }
        }
        #expect(failures.messages.isEmpty, "\(failures.messages.prefix(3))")
        let check = try KeychainStore.open(at: path)
        #expect(
            try check.find(ItemQuery(itemClass: .genericPassword, attributes: ["svce": .string("concurrent")])).count
                == threads * perThread)
    }

    @Test func concurrentOpenOrCreateInitializesOnce() throws {
        let path = dir.keychainPath("race.keychain-db")
        let failures = FailureLog()
        let ids = FailureLog()
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do {
                let store = try KeychainStore.openOrCreate(at: path)
                ids.record(store.keyRing.keychainID.base64EncodedString())
            } catch {
                failures.record("\(error)")
            }
        }
        #expect(failures.messages.isEmpty, "\(failures.messages)")
        #expect(Set(ids.messages).count == 1)
    }

    @Test func sharedStoreAcrossThreads() throws {
        let store = try KeychainStore.makeTest(in: dir)
        let failures = FailureLog()
        DispatchQueue.concurrentPerform(iterations: 4) { t in
            for n in 0..<100 {
                do {
                    _ = try store.add(genp(account: "s\(t)-\(n)", service: "shared", secret: "x"))
                    _ = try store.find(
                        ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("s\(t)-\(n)")]))
                } catch { failures.record("\(error)") }
            }
        }
        #expect(failures.messages.isEmpty)
        #expect(try store.find(ItemQuery(itemClass: .genericPassword)).count == 400)
    }
}

/// Thread-safe message collector.
final class FailureLog: @unchecked Sendable {  // sendable: guarded by `lock`
    private let lock = NSLock()
    private var storage: [String] = []
    func record(_ message: String) {
        lock.lock()
        storage.append(message)
        lock.unlock()
    }
    var messages: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
