import OSecLocks

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits for socket readiness without blocking a thread of Swift's cooperative pool: one background thread
/// polls every descriptor someone awaits (`poll(2)`) and resumes the waiting task when its descriptor is ready,
/// its deadline passed, or the task was cancelled.
///
/// One process-wide instance (``shared``); its thread lives as long as the process.
package final class SocketReactor: Sendable {
    /// The process-wide reactor.
    package static let shared = SocketReactor()

    /// What a waiter waits for.
    package enum Interest: Sendable {
        case readable, writable
    }

    /// Why a wait ended without readiness.
    package enum WaitError: Error, Sendable {
        /// The deadline passed.
        case timedOut
        /// The waiting task was cancelled.
        case cancelled
    }

    private struct Waiter {
        let fd: Int32
        let events: Int16
        let deadline: ContinuousClock.Instant?
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var nextID: UInt64 = 1
        var waiters: [UInt64: Waiter] = [:]
        var cancelledBeforeRegistration: Set<UInt64> = []
    }

    /// Behind a pthread mutex rather than `Synchronization.Mutex`, whose futex lock ThreadSanitizer cannot see:
    /// with it every waiter hand-over between a task and the poll thread was reported as a race (docs/fuzzing.md).
    private let state = LockedValue(State())
    /// The self-pipe that wakes the poll thread when the waiter set changes.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// A reactor of its own (with its own poll thread, which lives as long as the process): for tests that count
    /// what one reactor holds. Everything else uses ``shared``.
    package init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        startDetachedThread { [self] in run() }
    }

    /// Suspends until `fd` is ready for `interest` (or reports an error or hang-up: the next operation on it
    /// returns the error), the deadline passes (``WaitError/timedOut``) or the task is cancelled.
    package func wait(_ fd: Int32, for interest: Interest, until deadline: ContinuousClock.Instant?) async throws {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextID &+= 1 }
            return state.nextID
        }
        let events = Int16(interest == .readable ? POLLIN : POLLOUT)
        // A cancellation that arrives after the poll thread resumed the wait (before the handler below is removed)
        // finds no waiter and records the id as "cancelled before registration"; nothing would ever remove it
        // (one entry per such race, for the life of the process). Once the handler is gone no cancellation can
        // record the id any more, so forgetting it here leaves nothing behind.
        defer { state.withLock { _ = $0.cancelledBeforeRegistration.remove(id) } }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = state.withLock { state -> Bool in
                    if state.cancelledBeforeRegistration.remove(id) != nil { return true }
                    state.waiters[id] = Waiter(fd: fd, events: events, deadline: deadline, continuation: continuation)
                    return false
                }
                if cancelled {
                    continuation.resume(throwing: WaitError.cancelled)
                } else {
                    wake()
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let waiter = state.waiters.removeValue(forKey: id) else {
                    state.cancelledBeforeRegistration.insert(id)
                    return nil
                }
                return waiter
            }
            waiter?.continuation.resume(throwing: WaitError.cancelled)
        }
    }

    /// How many waiters are registered, and how many cancellations arrived for a wait not (or no longer)
    /// registered. Both return to 0 when nothing waits: the load test and the soak sample them.
    package var counts: (waiters: Int, pendingCancellations: Int) {
        state.withLock { ($0.waiters.count, $0.cancelledBeforeRegistration.count) }
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func run() {
        var drain = [UInt8](repeating: 0, count: 64)
        while true {
            let snapshot = state.withLock { $0.waiters }
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            var ids: [UInt64] = []
            var nearest: ContinuousClock.Instant?
            for (id, waiter) in snapshot {
                fds.append(pollfd(fd: waiter.fd, events: waiter.events, revents: 0))
                ids.append(id)
                if let deadline = waiter.deadline, nearest.map({ deadline < $0 }) ?? true { nearest = deadline }
            }
            var timeout: Int32 = -1
            if let nearest {
                let remaining = ContinuousClock.now.duration(to: nearest)
                let milliseconds =
                    remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
                timeout = Int32(clamping: max(0, milliseconds + 1))
            }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno != EINTR { usleep(1000) }
            if fds[0].revents != 0 { while read(wakeRead, &drain, drain.count) > 0 {} }
            let now = ContinuousClock.now
            var resumeReady: [CheckedContinuation<Void, any Error>] = []
            var resumeTimedOut: [CheckedContinuation<Void, any Error>] = []
            state.withLock { state in
                for (index, id) in ids.enumerated() {
                    guard let waiter = state.waiters[id] else { continue }
                    if fds[index + 1].revents != 0 {
                        state.waiters[id] = nil
                        resumeReady.append(waiter.continuation)
                    } else if let deadline = waiter.deadline, deadline <= now {
                        state.waiters[id] = nil
                        resumeTimedOut.append(waiter.continuation)
                    }
                }
            }
            for continuation in resumeReady { continuation.resume() }
            for continuation in resumeTimedOut { continuation.resume(throwing: WaitError.timedOut) }
        }
    }
}

/// A value behind a pthread mutex (`PosixMutex`). Used instead of `Synchronization.Mutex` for state that several
/// threads share: Mutex's futex lock is invisible to ThreadSanitizer, which then reports every hand-over between
/// threads as a race (docs/fuzzing.md, "Sanitizers"); a pthread mutex it sees. OSecTLSCore, a peer wrapper that
/// cannot import this module, keeps its own copy.
package final class LockedValue<Value>: @unchecked Sendable {  // sendable: `value` is only touched under `lock`
    private let lock = PosixMutex()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
