import Foundation
import OSecKeychainAgent
import OSecSystem
import Testing

/// The checks that keep the keychain agent to its user, without running an agent: the peer-credential rule, the
/// runtime directory's owner and mode rules, and the client's view of missing and stale sockets.
struct KeychainAgentCheckTests {
    @Test func onlyPeersOfTheAgentsUserAreAccepted() {
        let mine = PeerCredentials(processID: 10, userID: 1000, groupID: 1000)
        let other = PeerCredentials(processID: 11, userID: 1001, groupID: 1000)
        let root = PeerCredentials(processID: 12, userID: 0, groupID: 0)
        #expect(KeychainAgentServer.accepts(peer: mine, agentUserID: 1000))
        #expect(!KeychainAgentServer.accepts(peer: other, agentUserID: 1000), "same group, other user")
        #expect(!KeychainAgentServer.accepts(peer: root, agentUserID: 1000), "root is another user too")
        #expect(!KeychainAgentServer.accepts(peer: mine, agentUserID: 0))
    }

    private func status(owner: UInt32, mode: UInt16, directory: Bool = true, link: Bool = false) -> FileStatus {
        FileStatus(
            identity: FileIdentity(device: 1, inode: 2), owner: owner, permissions: mode,
            kind: link ? .symbolicLink : directory ? .directory : .regular)
    }

    @Test func theRuntimeDirectoryMustBeAPrivateDirectoryOfTheUser() {
        #expect(RuntimeDirectory.problem(with: status(owner: 1000, mode: 0o700), userID: 1000) == nil)
        #expect(
            RuntimeDirectory.problem(with: status(owner: 1001, mode: 0o700), userID: 1000) != nil,
            "pre-created by another")
        #expect(RuntimeDirectory.problem(with: status(owner: 1000, mode: 0o750), userID: 1000) != nil, "group access")
        #expect(
            RuntimeDirectory.problem(with: status(owner: 1000, mode: 0o703), userID: 1000) != nil, "others may write")
        #expect(RuntimeDirectory.problem(with: status(owner: 1000, mode: 0o700, directory: false), userID: 1000) != nil)
        #expect(
            RuntimeDirectory.problem(with: status(owner: 1000, mode: 0o777, directory: false, link: true), userID: 1000)
                != nil, "a symbolic link")
    }

    @Test func aRealDirectoryIsCheckedOnDisk() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(
            "osec-agent-check-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createDirectory(
            at: base, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        #expect(throws: Never.self) { try RuntimeDirectory.check(base.path, userID: SystemProcess.userID) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: base.path)
        #expect(throws: SystemError.self) { try RuntimeDirectory.check(base.path, userID: SystemProcess.userID) }
        let link = base.path + "-link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: base.path)
        defer { try? FileManager.default.removeItem(atPath: link) }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: base.path)
        #expect(throws: SystemError.self) { try RuntimeDirectory.check(link, userID: SystemProcess.userID) }
        #expect(throws: SystemError.self) { try RuntimeDirectory.check(base.path, userID: SystemProcess.userID &+ 1) }
    }

    @Test func aMissingOrStaleSocketMeansNoAgent() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(
            "osec-agent-stale-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createDirectory(
            at: base, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = base.path + "/agent.sock"
        let client = KeychainAgentClient(socketPath: path)
        #expect(client.ping() == nil)
        #expect(throws: KeychainAgentError.self) { try client.fetch(keychainID: [UInt8](repeating: 1, count: 16)) }
        // A socket file nobody listens on (an agent killed with SIGKILL leaves one).
        do { _ = try UnixSocket.listen(path: path) }  // closed at once: the file stays
        #expect(FileStatus.of(path)?.kind == .socket)
        #expect(client.ping() == nil)
        do {
            _ = try client.fetch(keychainID: [UInt8](repeating: 1, count: 16))
            Issue.record("a stale socket answered")
        } catch {
            guard case .notRunning = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
        #expect(POSIXFiles.removeSocket(path))
        #expect(FileStatus.of(path) == nil)
    }
}
