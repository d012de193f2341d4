import Foundation
import OSecKeychain

/// The state of a keychain's sync, as `security sync-status` prints it.
package struct SyncStatus: Sendable {
    /// The server (password removed).
    package let url: String
    /// The circle name.
    package let circle: String
    /// The circle's id (hex).
    package let circleID: String
    /// This keychain's member id (hex).
    package let member: String
    /// The circle's members as the server lists them (empty when the server is unreachable).
    package let members: [ServerMember]
    /// Whether the server answered.
    package let serverReachable: Bool
    /// When this keychain last pushed a change.
    package let lastPush: Date?
    /// When this keychain last pulled.
    package let lastPull: Date?
    /// Local changes not pushed yet.
    package let pendingChanges: Int
    /// Synchronizable items the ledger knows.
    package let items: Int
    /// Deleted items the ledger remembers (tombstones).
    package let tombstones: Int
    /// Conflicts resolved here (losers kept for ``SyncEngine/conflictRetention``).
    package let conflicts: [SyncConflict]
}
