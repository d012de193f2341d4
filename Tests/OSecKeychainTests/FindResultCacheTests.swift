import Foundation
import OSecSQLite
import Testing

@testable import OSecKeychain

/// Finds are answered from ``FindResultCache`` while no commit has happened. Every way the data can change
/// underneath — another store in this process, raw SQL on another connection, a WAL checkpoint and restart,
/// locking — must show on the next find.
@Suite struct FindResultCacheTests {
    let dir = TestDirectory()

    private func query(_ account: String, attributes: Bool = true) -> ItemQuery {
        var q = ItemQuery(
            itemClass: .genericPassword, attributes: ["svce": .string("cache"), "acct": .string(account)])
        q.includesAttributes = attributes
        return q
    }

    private func secret(_ store: KeychainStore, _ account: String) throws -> String? {
        try store.find(query(account)).first?.secret.map { String(decoding: try $0.open(), as: UTF8.self) }
    }

    @Test func repeatedFindsAreServedFromTheCache() throws {
        let store = try KeychainStore.makeTest(in: dir)
        _ = try store.add(genp(account: "a", service: "cache", secret: "one"))
        #expect(try secret(store, "a") == "one")
        let cached = store.db.withLock { store.findResults.count }
        #expect(cached == 1)
        #expect(try secret(store, "a") == "one")
        #expect(store.db.withLock { store.findResults.count } == cached)
        // A miss is cached too (an empty result), and a new find shape is a new entry.
        #expect(try store.find(query("missing")).isEmpty)
        #expect(try store.find(query("a", attributes: false)).count == 1)
        #expect(store.db.withLock { store.findResults.count } == 3)
        // The cache holds what a find returns: sealed secrets, never plaintext.
        for item in try store.find(query("a")) {
            #expect(try #require(item.secret).blob.range(of: Data("one".utf8)) == nil)
        }
    }

    @Test func writesThroughAnotherStoreShowImmediately() throws {
        let path = dir.keychainPath()
        let reader = try KeychainStore.makeTest(in: dir)
        let writer = try KeychainStore.open(at: path)
        try writer.unlock(password: testPassword)
        _ = try writer.add(genp(account: "a", service: "cache", secret: "one"))
        #expect(try secret(reader, "a") == "one")
        #expect(try reader.find(query("b")).isEmpty)

        #expect(try writer.update(query("a"), with: ItemChanges(secret: Data("two".utf8))) == 1)
        #expect(try secret(reader, "a") == "two")

        _ = try writer.add(genp(account: "b", service: "cache", secret: "bee"))
        #expect(try secret(reader, "b") == "bee")

        #expect(try writer.update(query("b"), with: ItemChanges(attributes: ["labl": .string("renamed")])) == 1)
        #expect(try reader.find(query("b")).first?.attributes["labl"] == .string("renamed"))

        #expect(try writer.delete(query("a")) == 1)
        #expect(try reader.find(query("a")).isEmpty)
        var all = ItemQuery(itemClass: .genericPassword, attributes: ["svce": .string("cache")])
        all.limit = nil
        #expect(try reader.find(all).count == 1)
    }

    @Test func rawSQLOnAnotherConnectionShows() throws {
        let path = dir.keychainPath()
        let store = try KeychainStore.makeTest(in: dir)
        _ = try store.add(genp(account: "a", service: "cache", secret: "one", label: "before"))
        #expect(try store.find(query("a")).first?.attributes["labl"] == .string("before"))
        // Not through the store at all: whatever commits, the next find must see it.
        let raw = try Database(path: path)
        try raw.run("UPDATE genp SET labl = CAST('after' AS BLOB)")
        #expect(try store.find(query("a")).first?.attributes["labl"]?.bytes == Data("after".utf8))
        try raw.run("DELETE FROM genp")
        #expect(try store.find(query("a")).isEmpty)
    }

    @Test func findsInsideATransactionSeeItsOwnWrites() throws {
        let store = try KeychainStore.makeTest(in: dir)
        _ = try store.add(genp(account: "a", service: "cache", secret: "one"))
        #expect(try secret(store, "a") == "one")
        try store.db.transaction {
            try store.db.run("DELETE FROM genp")
            // Not committed: the token has not moved, but this connection must see its own delete.
            #expect(try store.find(query("a")).isEmpty)
        }
        #expect(try store.find(query("a")).isEmpty)
    }

    @Test func checkpointAndWALRestartBetweenFinds() throws {
        let path = dir.keychainPath()
        let store = try KeychainStore.makeTest(in: dir)
        let other = try KeychainStore.open(at: path)
        try other.unlock(password: testPassword)
        for i in 0..<50 { _ = try store.add(genp(account: "n\(i)", service: "cache", secret: "s\(i)")) }
        #expect(try secret(store, "n7") == "s7")
        _ = try other.db.checkpoint(.truncate)
        #expect(try secret(store, "n7") == "s7")
        #expect(try other.update(query("n7"), with: ItemChanges(secret: Data("changed".utf8))) == 1)
        #expect(try secret(store, "n7") == "changed")
    }

    @Test func lockingStillTakesEffectOnCachedResults() throws {
        let store = try KeychainStore.makeTest(in: dir)
        _ = try store.add(genp(account: "a", service: "cache", secret: "one", accessibility: .whenUnlocked))
        let before = try #require(try store.find(query("a")).first?.secret)
        #expect(try before.open() == Data("one".utf8))
        try store.lock()
        let cached = try #require(try store.find(query("a")).first?.secret)
        #expect(expectCode(.interactionNotAllowed) { _ = try cached.open() })
        try store.unlock(password: testPassword)
        #expect(try cached.open() == Data("one".utf8))
    }

    @Test func turningTheCacheOffGivesTheSameResults() throws {
        let store = try KeychainStore.makeTest(in: dir)
        for i in 0..<5 { _ = try store.add(genp(account: "n\(i)", service: "cache", secret: "s\(i)")) }
        let cachedFirst = try (0..<5).map { try secret(store, "n\($0)") }
        let cachedAgain = try (0..<5).map { try secret(store, "n\($0)") }
        store.cachesFinds = false
        #expect(store.db.withLock { store.findResults.count } == 0)
        let uncached = try (0..<5).map { try secret(store, "n\($0)") }
        #expect(cachedFirst == uncached)
        #expect(cachedAgain == uncached)
        #expect(store.db.withLock { store.findResults.count } == 0)
    }

    @Test func theCacheIsBounded() throws {
        let store = try KeychainStore.makeTest(in: dir)
        _ = try store.add(genp(account: "a", service: "cache", secret: "one"))
        for i in 0..<(FindResultCache.entryLimit + 100) {
            _ = try store.find(query("missing-\(i)"))
        }
        let count = store.db.withLock { store.findResults.count }
        #expect(count > 0 && count <= FindResultCache.entryLimit)
        #expect(try secret(store, "a") == "one")
    }
}
