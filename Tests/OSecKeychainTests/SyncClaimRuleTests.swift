import Foundation
import OSecSQLite
import OSecSystem
import Testing

@testable import OSecKeychain

/// Which outbox entries a push may claim (`KeychainStore.claimSyncChanges`): in outbox order, the unclaimed ones,
/// its own earlier claims except the one it spares, lapsed claims, and claims of processes that are gone; never a
/// live process's claim that still holds. Other processes' claims are written here with raw SQL.
@Suite struct SyncClaimRuleTests {
    let dir = TestDirectory()

    @Test func aClaimTakesFreeLapsedAndOrphanedEntriesInOrderAndLeavesLiveClaimsAlone() throws {
        let path = dir.keychainPath()
        let store = try KeychainStore.create(at: path, password: testPassword, kdf: .testing)
        _ = try store.add(
            contentsOf: (0..<8).map { index in
                NewItem(
                    itemClass: .genericPassword,
                    attributes: ["svce": .string("claims.example"), "acct": .string("a\(index)")],
                    accessGroup: "test.group", isSynchronizable: true, secret: Data("v\(index)".utf8))
            })
        let raw = try Database(path: path)
        let order = try raw.query("SELECT rowid, item_id FROM sync_outbox ORDER BY rowid") { $0.data(at: 1) ?? Data() }
        #expect(order.count == 8)
        // A process that has exited: its claims are orphaned.
        let exited = Process()
        exited.executableURL = URL(fileURLWithPath: "/bin/true")
        try exited.run()
        exited.waitUntilExit()
        let gone = Int64(exited.processIdentifier)
        let live: Int64 = 1  // init: always there
        let now = Date().timeIntervalSinceReferenceDate
        let claims: [(Int, Int64, Double)] = [
            (0, live, now + 3600), (1, live, now + 3600),  // held
            (2, gone, now + 3600),  // orphaned
            (3, live, now - 10),  // lapsed
            (5, POSIXProcesses.currentID, now + 3600),  // this process's own earlier claim
        ]
        for (index, pid, until) in claims {
            try raw.run(
                "UPDATE sync_outbox SET claimed_pid = ?, claimed_until = ? WHERE item_id = ?",
                [.integer(pid), .real(until), .blob(order[index])])
        }
        let first = try store.claimSyncChanges(limit: 3, lease: 60)
        #expect(first.map(\.itemID) == [order[2], order[3], order[4]])
        let second = try store.claimSyncChanges(limit: 10, lease: 60, sparing: first.first?.claim)
        #expect(second.map(\.itemID) == [order[5], order[6], order[7]])
        // Nothing else is free: the live holder's two entries stay out, the two claims of this process in force
        // are spared in turn.
        #expect(
            try store.claimSyncChanges(limit: 10, lease: 60, sparing: second.first?.claim).map(\.itemID)
                == [order[2], order[3], order[4]])
        let holders = try raw.query("SELECT claimed_pid FROM sync_outbox ORDER BY rowid") { $0.int64(at: 0) }
        #expect(holders[0] == live && holders[1] == live)
    }
}
