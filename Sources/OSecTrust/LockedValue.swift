import Foundation

/// A value behind an `NSLock` (a pthread mutex). Used instead of `Synchronization.Mutex` for the state that trust
/// evaluations on several threads share: Mutex's futex lock is invisible to ThreadSanitizer, which then reports
/// every hand-over between threads as a race (docs/fuzzing.md, "Sanitizers"); a pthread mutex it sees.
final class LockedValue<Value>: @unchecked Sendable {  // sendable: `value` is only touched under `lock`
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
