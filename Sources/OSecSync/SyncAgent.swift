import Foundation
import OSecKeychain
import OSecSystem
import Synchronization

/// The sync loop: a full sync at start, after every local change of a synchronizable item, on every NOTIFY from
/// another member (so changes show within a second while online) and every ``periodicInterval`` otherwise;
/// failures back off exponentially up to ``maximumBackoff``.
///
/// ``attach(_:environment:)`` runs it on one background thread per keychain in a process that has the keychain open
/// and a circle configured; `security sync-agent` runs it in the foreground with ``run(store:environment:)``.
package final class SyncAgent: @unchecked Sendable {  // sendable: state is atomic or immutable
    /// Full syncs happen at least this often.
    package static let periodicInterval: Duration = .seconds(30)
    /// Longest wait after repeated failures.
    package static let maximumBackoff: Duration = .seconds(30)
    /// How long one wait on the NOTIFY socket lasts before local changes are looked at again.
    static let waitSlice: Duration = .milliseconds(100)

    private let store: KeychainStore
    private let wake = Atomic<Bool>(true)
    private let stopped = Atomic<Bool>(false)
    /// Set when ``loop(environment:engine:)`` has returned: the thread no longer calls into libcrypto or libpq.
    private let finished = Atomic<Bool>(false)
    /// How long process exit waits for background loops to finish their current step.
    static let exitWait: Duration = .seconds(3)
    /// Registers ``stopAllAtExit()`` once, when the first background agent starts.
    private static let exitHook: Void = ProcessExit.onExit { SyncAgent.stopAllAtExit() }

    private static let registry = LockedValue<[String: SyncAgent]>([:])
    /// Background syncing in processes that open a keychain (on by default; the `security` tool turns it off for
    /// its one-shot commands).
    package static let backgroundEnabled = Atomic<Bool>(true)

    private init(store: KeychainStore) {
        self.store = store
    }

    /// Starts the background sync of `store` when it is in a circle (or the environment names one) and none runs
    /// in this process for that keychain yet. Returns at once.
    /// - Parameters:
    ///   - store: the keychain to keep in sync.
    ///   - environment: the variables to read (nil: the process's, read only when background syncing is on,
    ///     since building Foundation's environment dictionary is a noticeable part of a one-shot process's start-up).
    package static func attach(_ store: KeychainStore, environment: [String: String]? = nil) {
        guard backgroundEnabled.load(ordering: .relaxed) else { return }
        let environment = environment ?? ProcessInfo.processInfo.environment
        guard SyncEngine.isConfigured(store: store, environment: environment) else { return }
        let agent: SyncAgent? = registry.withLock { agents in
            guard agents[store.path] == nil else { return nil }
            let agent = SyncAgent(store: store)
            agents[store.path] = agent
            return agent
        }
        guard let agent else { return }
        _ = exitHook
        store.syncLedger.setChangeObserver { [weak agent] in agent?.wake.store(true, ordering: .releasing) }
        let thread = Thread { agent.loop(environment: environment) }
        thread.name = "OpenSecurity sync"
        thread.start()
    }

    /// Stops the background sync of the keychain at `path` (leaving a circle).
    package static func detach(path: String) {
        let agent = registry.withLock { $0.removeValue(forKey: path) }
        agent?.stopped.store(true, ordering: .releasing)
    }

    /// Stops every background loop and waits (at most ``exitWait``) until each has finished its current step, so
    /// that no sync thread is inside libcrypto or libpq while the process's exit handlers free their state (a
    /// one-shot process that changed a synchronizable item would otherwise crash on its way out).
    static func stopAllAtExit() {
        let agents = registry.withLock { agents -> [SyncAgent] in
            defer { agents = [:] }
            return Array(agents.values)
        }
        for agent in agents { agent.stopped.store(true, ordering: .releasing) }
        let deadline = ContinuousClock.now + exitWait
        while ContinuousClock.now < deadline, agents.contains(where: { !$0.finished.load(ordering: .acquiring) }) {
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    /// Runs the sync loop on this thread until the process ends (`security sync-agent`).
    /// - Throws: `notConfigured` when the keychain is in no circle; `authFailed` for a wrong passphrase.
    package static func run(
        store: KeychainStore, environment: [String: String] = ProcessInfo.processInfo.environment
    )
        throws(SyncError) -> Never
    {
        guard let engine = try SyncEngine.configured(store: store, environment: environment) else {
            throw SyncError(.notConfigured, "the keychain is not in a sync circle (use sync-join)")
        }
        let agent = SyncAgent(store: store)
        store.syncLedger.setChangeObserver { agent.wake.store(true, ordering: .releasing) }
        agent.loop(environment: environment, engine: engine)
        throw SyncError(.internal, "the sync agent stopped")
    }

    private func loop(environment: [String: String], engine initial: SyncEngine? = nil) {
        defer { finished.store(true, ordering: .releasing) }
        var engine = initial
        var backoff: Duration = .milliseconds(250)
        var nextFull = ContinuousClock.now
        while !stopped.load(ordering: .acquiring) {
            do throws(SyncError) {
                if engine == nil {
                    engine = try SyncEngine.configured(store: store, environment: environment)
                    guard engine != nil else { return }  // left the circle
                }
                guard let engine else { return }
                if wake.exchange(false, ordering: .acquiringAndReleasing) || ContinuousClock.now >= nextFull {
                    try engine.sync()
                    nextFull = ContinuousClock.now + SyncAgent.periodicInterval
                    backoff = .milliseconds(250)
                }
                if try engine.waitForRemoteChange(timeout: SyncAgent.waitSlice) {
                    wake.store(true, ordering: .releasing)
                }
            } catch {
                if error.code == .authFailed || error.code == .notConfigured { return }
                wake.store(true, ordering: .releasing)  // retry the whole sync after the pause
                Thread.sleep(
                    forTimeInterval: Double(backoff.components.seconds) + Double(backoff.components.attoseconds) / 1e18)
                backoff = min(backoff * 2, SyncAgent.maximumBackoff)
            }
        }
    }
}
