import Foundation
import OSecKeychain
import OSecSync

/// Synchronizable keychain items (`kSecAttrSynchronizable: true`) shared by several machines through a PostgreSQL
/// server, end-to-end encrypted: OpenSecurity's counterpart of iCloud Keychain (our API beyond Apple's).
///
/// A keychain joins a *sync circle*, named by a PostgreSQL connection string (libpq URI or `key=value` form) and a
/// circle name, with the circle passphrase; the first member creates the circle. From then on every add, update
/// and delete of a synchronizable item reaches the other members; items without the flag never leave the machine.
/// The SecItem API does not change. Any process that opens a keychain in a circle syncs it on a background thread;
/// ``syncNow(keychain:)`` and `security sync-agent` serve machines where no process stays up.
///
/// Services can instead set `OPENSECURITY_SYNC_URL`, `OPENSECURITY_SYNC_CIRCLE` and
/// `OPENSECURITY_SYNC_PASSPHRASE_FILE` (the file's whole content is the passphrase).
///
/// Errors are `NSError`s in `NSOSStatusErrorDomain`: a wrong passphrase is `errSecAuthFailed`, an unreachable
/// server `errSecNotAvailable`, a tampered, swapped, replayed or foreign server row `errSecDecode`.
public enum OpenSecuritySync {
    /// One member of a circle.
    public struct Member: Sendable, Codable, Hashable {
        /// The member's id (hex).
        public let id: String
        /// The host name it registered with.
        public let hostName: String
        /// When it last synced.
        public let lastSeen: Date
    }

    /// A conflict this keychain resolved (the losing change is kept for 30 days).
    public struct Conflict: Sendable, Codable, Hashable {
        /// The item's sync id (hex).
        public let itemID: String
        /// When it was resolved.
        public let resolved: Date
        /// The winning member's id (hex), or `"local"`.
        public let winner: String
        /// The losing member's id (hex), or `"local"`.
        public let loser: String
        /// The losing change's modification date.
        public let loserModified: Date
    }

    /// What ``status(keychain:)`` reports.
    public struct Status: Sendable, Codable, Hashable {
        /// The server's connection string without its password.
        public let url: String
        /// The circle's name.
        public let circle: String
        /// The circle's id (hex).
        public let circleID: String
        /// This keychain's member id (hex).
        public let member: String
        /// Whether the server answered.
        public let serverReachable: Bool
        /// The members the server lists.
        public let members: [Member]
        /// When this keychain last pushed.
        public let lastPush: Date?
        /// When this keychain last pulled.
        public let lastPull: Date?
        /// Local changes waiting to be pushed.
        public let pendingChanges: Int
        /// Synchronizable items known to the sync.
        public let items: Int
        /// Deleted items remembered as tombstones.
        public let tombstones: Int
        /// Conflicts resolved here.
        public let conflicts: [Conflict]
    }

    /// Joins (or, for the first member, creates) the circle `circle` on the server `url` with `passphrase`.
    /// - Parameters:
    ///   - url: the PostgreSQL connection string (libpq URI or `key=value` form).
    ///   - circle: the circle's name (1 to 256 bytes; only a hash of it reaches the server).
    ///   - passphrase: the circle passphrase (the first member chooses it).
    ///   - keychain: the keychain (`nil`: the default one); created when it does not exist yet.
    /// - Throws: `errSecAuthFailed` for a wrong passphrase, `errSecNotAvailable` when the server is unreachable.
    public static func join(url: String, circle: String, passphrase: Data, keychain: SecKeychain? = nil) throws {
        try run {
            let store = try openStore(keychain, create: true)
            _ = try SyncEngine.join(
                store: store, settings: try SyncSettings(url: url, circle: circle), passphrase: passphrase,
                parameters: try creationParameters())
            SecSyncHooks.opened(store)
        }
    }

    /// Leaves the circle: nothing arrives or leaves afterwards; the items stay.
    public static func leave(keychain: SecKeychain? = nil) throws {
        try run {
            let store = try openStore(keychain, create: false)
            guard let engine = try SyncEngine.configured(store: store, environment: [:]) else {
                throw SyncError(.notConfigured, "the keychain is not in a sync circle")
            }
            SyncAgent.detach(path: store.path)
            try engine.leave()
        }
    }

    /// Pushes every pending change and pulls every remote one; returns when both are done.
    ///
    /// When the environment names a circle (all three `OPENSECURITY_SYNC_…` variables), a keychain that does not
    /// exist yet is created and joins it: a fresh machine configured only by the environment comes up
    /// synchronized.
    /// - Throws: `errSecNotAvailable` when the keychain is in no circle (and the environment names none) or the
    ///   server is unreachable; `errSecAuthFailed` for a wrong passphrase; `errSecDecode` for a bad server row
    ///   (nothing of it is applied); `errSecNoSuchKeychain` when the keychain does not exist and the environment
    ///   names no circle; `errSecParam` when the passphrase file cannot be read.
    public static func syncNow(keychain: SecKeychain? = nil) throws {
        try run {
            let store = try openStore(keychain, create: try environmentNamesCircle())
            guard let engine = try SyncEngine.configured(store: store) else {
                throw SyncError(.notConfigured, "the keychain is not in a sync circle (use sync-join)")
            }
            try engine.sync()
        }
    }

    /// The circle, its members, the last push and pull, pending changes and resolved conflicts. Like
    /// ``syncNow(keychain:)``, creates a missing keychain when the environment names a circle.
    public static func status(keychain: SecKeychain? = nil) throws -> Status {
        try run {
            let store = try openStore(keychain, create: try environmentNamesCircle())
            guard let engine = try SyncEngine.configured(store: store) else {
                throw SyncError(.notConfigured, "the keychain is not in a sync circle")
            }
            let status = try engine.status()
            func name(_ member: Data?) -> String { member?.hexString ?? "local" }
            return Status(
                url: status.url, circle: status.circle, circleID: status.circleID, member: status.member,
                serverReachable: status.serverReachable,
                members: status.members.map {
                    Member(id: $0.memberID.hexString, hostName: $0.hostName, lastSeen: $0.lastSeen)
                }, lastPush: status.lastPush, lastPull: status.lastPull, pendingChanges: status.pendingChanges,
                items: status.items, tombstones: status.tombstones,
                conflicts: status.conflicts.map {
                    Conflict(
                        itemID: $0.itemID.hexString, resolved: $0.resolvedAt, winner: name($0.winner),
                        loser: name($0.loser), loserModified: $0.loserModificationDate)
                })
        }
    }

    /// Runs the sync loop in the foreground until the process is stopped (`security sync-agent`). Like
    /// ``syncNow(keychain:)``, creates a missing keychain when the environment names a circle.
    public static func runAgent(keychain: SecKeychain? = nil) throws -> Never {
        let store = try run { try openStore(keychain, create: try environmentNamesCircle()) }
        do {
            try SyncAgent.run(store: store)
        } catch {
            throw SecError(error).nsError
        }
    }

    /// Whether processes sync keychains in circles on a background thread (default `true`). Set it before the
    /// first keychain call.
    public static var isBackgroundSyncEnabled: Bool {
        get { SyncAgent.backgroundEnabled.load(ordering: .relaxed) }
        set { SyncAgent.backgroundEnabled.store(newValue, ordering: .relaxed) }
    }

    /// Environment variable with the scrypt cost N (a power of two, 2^10…2^20) used when this process *creates* a
    /// circle (default 2^17). Joining uses the circle's own parameters. Lower it only for tests.
    public static let creationCostVariable = "OPENSECURITY_SYNC_SCRYPT_N"

    // MARK: Internals

    private static func creationParameters() throws -> CircleKey.Parameters {
        guard let text = ProcessInfo.processInfo.environment[creationCostVariable], !text.isEmpty else {
            return .default
        }
        guard let n = UInt64(text) else { throw SecError.param("\(creationCostVariable) must be a number") }
        return try CircleKey.Parameters(n: n, r: 8, p: 1)
    }

    /// Whether the environment names a circle (all three variables set): a keychain that does not exist yet is
    /// then created, since the environment alone is enough to join. Throws `param` when the passphrase file of a
    /// complete configuration cannot be read (before anything is created).
    private static func environmentNamesCircle() throws -> Bool {
        try SyncSettings.fromEnvironment(ProcessInfo.processInfo.environment) != nil
    }

    private static func openStore(_ keychain: SecKeychain?, create: Bool) throws -> KeychainStore {
        let path = try keychain?.path ?? mapStoreError { try KeychainStore.defaultPath() }
        return try KeychainRegistry.store(at: path, create: create)
    }

    private static func run<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as SyncError {
            throw SecError(error).nsError
        } catch let error as SecError {
            throw error.nsError
        }
    }
}

/// Starts the background sync when a keychain in a circle is opened.
enum SecSyncHooks {
    static func opened(_ store: KeychainStore) {
        SyncAgent.attach(store)
    }
}
