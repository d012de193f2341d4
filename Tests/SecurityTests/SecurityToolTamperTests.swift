import Foundation
import OSecSQLite
import Testing

/// Issue 12 items 2 and 7 through the `security` command line: a tampered keychain file never makes
/// `find-generic-password -w` print another item's password, and `delete-generic-password` leaves nothing behind.
extension SecurityToolTests {
    @Test func findGenericPasswordNeverPrintsAnotherItemsPasswordFromATamperedFile() throws {
        #expect(
            try security(["add-generic-password", "-a", "alice", "-s", "bank.example", "-w", "bank-pw"]).status == 0)
        #expect(try security(["add-generic-password", "-a", "eve", "-s", "evil.example", "-w", "evil-pw"]).status == 0)
        let raw = try Database(path: keychainPath)
        let rows = try raw.query("SELECT id, persistref, secret FROM genp ORDER BY id") {
            ($0.int64(at: 0), $0.data(at: 1) ?? Data(), $0.data(at: 2) ?? Data())
        }
        try #require(rows.count == 2)
        // Swap the persistref and secret columns of the two rows.
        try raw.transaction {
            try raw.run("UPDATE genp SET persistref = randomblob(16) WHERE id = ?", [.integer(rows[0].0)])
            try raw.run(
                "UPDATE genp SET persistref = ?, secret = ? WHERE id = ?",
                [.blob(rows[0].1), .blob(rows[0].2), .integer(rows[1].0)])
            try raw.run(
                "UPDATE genp SET persistref = ?, secret = ? WHERE id = ?",
                [.blob(rows[1].1), .blob(rows[1].2), .integer(rows[0].0)])
        }
        let swapped = try security(["find-generic-password", "-s", "evil.example", "-w"])
        #expect(swapped.status != 0 && !swapped.stdout.contains("bank-pw"), "\(swapped)")
        #expect(!swapped.stderr.isEmpty, "the failure is explained")
        // Edit the attacker's row's service to the bank's instead (after removing the bank's row).
        try raw.run("DELETE FROM genp WHERE id = ?", [.integer(rows[0].0)])
        try raw.run("UPDATE genp SET svce = CAST('bank.example' AS BLOB), acct = CAST('alice' AS BLOB)")
        let moved = try security(["find-generic-password", "-a", "alice", "-s", "bank.example", "-w"])
        #expect(moved.status != 0 && moved.stdout.isEmpty, "\(moved)")
    }

    @Test func deleteGenericPasswordLeavesNoTraceOnDisk() throws {
        let tag = UUID().uuidString
        for n in 0..<5 {
            #expect(try security(["add-generic-password", "-a", "f\(n)", "-s", "filler", "-w", "x"]).status == 0)
        }
        #expect(
            try security([
                "add-generic-password", "-a", "ACCOUNT-\(tag)", "-s", "SERVICE-\(tag)", "-G", "GENERIC-\(tag)", "-w",
                "SECRET-\(tag)",
            ]).status == 0)
        let sealed = try #require(
            try Database(path: keychainPath).scalar(
                "SELECT secret FROM genp WHERE svce = CAST(? AS BLOB)", [.text("SERVICE-\(tag)")]
            ).blobValue)
        #expect(try security(["delete-generic-password", "-a", "ACCOUNT-\(tag)", "-s", "SERVICE-\(tag)"]).status == 0)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: keychainPath + suffix) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: keychainPath + suffix))
            for marker in [
                Data("ACCOUNT-\(tag)".utf8), Data("SERVICE-\(tag)".utf8), Data("GENERIC-\(tag)".utf8), sealed,
            ] {
                #expect(bytes.range(of: marker) == nil, "\(suffix.isEmpty ? "database" : suffix) keeps deleted bytes")
            }
        }
    }
}
