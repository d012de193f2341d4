internal import CLibSSL
import Foundation

/// Owns one SSL_SESSION reference (a resumable session or a TLS 1.3 ticket the client received).
///
/// `@unchecked Sendable`: the session is only read after it is stored (SSL_set_session takes its own
/// reference), which libssl supports from several threads.
final class TLSSession: @unchecked Sendable {
    let raw: OpaquePointer

    /// Takes over one reference to `raw`.
    init(takingOwnershipOf raw: OpaquePointer) { self.raw = raw }

    deinit { SSL_SESSION_free(raw) }

    var isResumable: Bool { SSL_SESSION_is_resumable(raw) == 1 }
}

/// The client's sessions, keyed by the peer ID the application chose (Apple's `SSLSetPeerID`): a connection
/// with a peer ID offers the last session received under that ID, and stores the sessions (TLS 1.3 tickets) it
/// receives under it. Process-wide, like Secure Transport's session cache; bounded by
/// ``TLSLimits/sessionCacheCapacity`` (the least recently stored ID is dropped first).
final class TLSSessionCache: Sendable {
    static let shared = TLSSessionCache()

    private struct Entry {
        var session: TLSSession
        var stamp: UInt64
    }

    private struct State {
        var entries: [Data: Entry] = [:]
        var clock: UInt64 = 0
    }

    /// Behind a pthread mutex rather than `Synchronization.Mutex`, whose futex lock ThreadSanitizer cannot see
    /// (every store from another connection's thread was reported as a race; docs/fuzzing.md, "Sanitizers").
    private let state = LockedState(State())

    /// The session stored under `peerID`, if it can still be resumed.
    func session(for peerID: Data) -> TLSSession? {
        state.withLock { state in
            guard let entry = state.entries[peerID] else { return nil }
            guard entry.session.isResumable else {
                state.entries[peerID] = nil
                return nil
            }
            return entry.session
        }
    }

    /// Stores `session` under `peerID`, replacing an older one.
    func store(_ session: TLSSession, for peerID: Data) {
        let evicted: TLSSession? = state.withLock { state in
            state.clock &+= 1
            var evicted: TLSSession?
            if state.entries[peerID] == nil, state.entries.count >= TLSLimits.sessionCacheCapacity,
                let oldest = state.entries.min(by: { $0.value.stamp < $1.value.stamp })
            {
                evicted = state.entries.removeValue(forKey: oldest.key)?.session
            }
            state.entries[peerID] = Entry(session: session, stamp: state.clock)
            return evicted
        }
        _ = evicted  // freed outside the lock
    }

    /// Sessions stored.
    var count: Int { state.withLock { $0.entries.count } }

    /// Forgets the session stored under `peerID`.
    func remove(_ peerID: Data) {
        let old = state.withLock { $0.entries.removeValue(forKey: peerID) }
        _ = old
    }

    /// Forgets every session (tests use it to force full handshakes).
    func removeAll() {
        let old = state.withLock { state -> [Data: Entry] in
            let old = state.entries
            state.entries = [:]
            return old
        }
        _ = old
    }
}

/// A value behind an `NSLock` (a pthread mutex, whose ordering ThreadSanitizer sees): the copy of OSecSystem's
/// `LockedValue` for this wrapper, which sits beside OSecSystem in the layers and cannot import it.
final class LockedState<Value>: @unchecked Sendable {  // sendable: `value` is only touched under `lock`
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
