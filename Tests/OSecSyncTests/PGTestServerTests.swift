import Foundation
import OSecPostgres
import OSecTestSupport
import Testing

/// The throwaway server's helper works from a clone anywhere: started from a directory other users cannot enter
/// (mode 0700, as `mktemp -d` and many home directories are), as root (the server then runs as `osecpg`) and as an
/// ordinary user, it prints the connection string and nothing else, and the server answers on it.
@Suite(.serialized, .enabled(if: PGTestServer.isAvailable, "needs PostgreSQL's server binaries"))
struct PGTestServerTests {
    static var isRoot: Bool {
        (try? PGTestServer.run(["/usr/bin/id", "-u"]).text.trimmingCharacters(in: .whitespacesAndNewlines)) == "0"
    }

    /// Starts the helper at `script` from `directory`, (as `user` through setpriv when given), checks its whole
    /// output (standard output and standard error together, as the tests read it before) is one connection string
    /// the server answers on, and destroys the server.
    func startQuietly(
        script: String, from directory: String, bookkeeping: String, as user: (uid: String, gid: String)?
    )
        throws
    {
        let prefix = user.map {
            ["/usr/bin/setpriv", "--reuid=\($0.uid)", "--regid=\($0.gid)", "--clear-groups", "--"]
        }
        let start = try PGTestServer.run(
            (prefix ?? []) + [script, "start", bookkeeping, "5432"], currentDirectory: directory)
        defer {
            _ = try? PGTestServer.run((prefix ?? []) + [script, "destroy", bookkeeping], currentDirectory: directory)
        }
        #expect(start.status == 0, "\(start.text)")
        let lines = start.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "exactly one line of output: \(start.text)")
        let url = String(lines.first ?? "")
        #expect(url.hasPrefix("host=/tmp/osec-pg.") && url.hasSuffix(" port=5432 user=osec dbname=postgres"), "\(url)")
        let answer = try PGConnection(url).execute("SELECT 40 + 2").scalar().integerValue
        #expect(answer == 42)
    }

    /// A 0700 directory of `TemporaryDirectory`, owned by the user `owner` when given.
    func privateDirectory(_ parent: TemporaryDirectory, _ name: String, owner: String? = nil) throws -> String {
        let path = parent.path(name)
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        if let owner {
            let (status, text) = try PGTestServer.run(["/bin/chown", owner, path])
            guard status == 0 else { throw TestFailure("chown \(owner) \(path): \(text)") }
        }
        return path
    }

    @Test func theHelperIsQuietAndWorksFromADirectoryTheServerUserCannotEnter() throws {
        let scratch = try TemporaryDirectory(prefix: "osec-pg-0700")
        let caller = try privateDirectory(scratch, "clone")
        try startQuietly(script: PGTestServer.script, from: caller, bookkeeping: caller + "/server", as: nil)
    }

    /// As root, also as an ordinary user (`nobody`) with its own 0700 directory holding a copy of the helper (the
    /// clone itself may be in a directory only root can enter).
    @Test(.enabled(if: PGTestServerTests.isRoot, "needs root to become another user"))
    func theHelperWorksForAnOrdinaryUserInTheirOwn0700Directory() throws {
        let scratch = try TemporaryDirectory(prefix: "osec-pg-0700")
        try FileManager.default.setAttributes([.posixPermissions: 0o711], ofItemAtPath: scratch.path(""))
        let (gidStatus, gid) = try PGTestServer.run(["/usr/bin/id", "-g", "nobody"])
        try #require(gidStatus == 0)
        let home = try privateDirectory(scratch, "nobody-home", owner: "nobody")
        let script = home + "/pg-test-server.sh"
        try FileManager.default.copyItem(atPath: PGTestServer.script, toPath: script)
        _ = try PGTestServer.run(["/bin/chown", "nobody", script])
        try startQuietly(
            script: script, from: home, bookkeeping: home + "/server",
            as: ("nobody", gid.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
}
