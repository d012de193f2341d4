#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex: the lock of the wrapper layers, which build on FoundationEssentials (no `NSLock`).
///
/// A pthread mutex rather than `Synchronization.Mutex`: ThreadSanitizer intercepts `pthread_mutex_lock`, but not
/// Mutex's futex lock, and then reports every hand-over between threads as a race (docs/fuzzing.md, "Sanitizers").
/// `NSLock` is the same pthread mutex, but lives in full Foundation, which the `security` front end does not link
/// (docs/security-tool.md, "Start-up cost").
package final class PosixMutex: @unchecked Sendable {  // sendable: the mutex itself serializes its users
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A mutex; `recursive` lets the thread that holds it lock it again (each lock needs its unlock).
    package init(recursive: Bool = false) {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        if recursive {
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        }
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Blocks until the calling thread holds the mutex.
    package func lock() { pthread_mutex_lock(mutex) }

    /// Releases the mutex the calling thread holds.
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the mutex.
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// Sleeps the calling thread for `seconds` (`nanosleep`; `Thread.sleep` is full Foundation's).
package func sleepThread(seconds: Double) {
    guard seconds > 0 else { return }
    let seconds = min(seconds, 86_400)  // a day: callers sleep milliseconds; bounds the conversion below
    let whole = seconds.rounded(.down)
    var request = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR {
        request = remaining
    }
}

/// Starts a detached thread that runs `body` (`pthread_create`; `Thread` is full Foundation's).
/// Returns false when the system cannot start another thread.
@discardableResult
package func startDetachedThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    let context = Unmanaged.passRetained(ThreadStart(body: body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
        &thread, nil,
        { context in
            guard let context else { return nil }
            let box = Unmanaged<AnyObject>.fromOpaque(context).takeRetainedValue()
            guard let box = box as? ThreadStart else { return nil }
            box.body()
            return nil
        }, context)
    guard status == 0 else {
        Unmanaged<AnyObject>.fromOpaque(context).release()
        return false
    }
    pthread_detach(thread)
    return true
}

/// What a thread of ``startDetachedThread(_:)`` runs, handed through `pthread_create`'s context pointer.
private final class ThreadStart {
    let body: @Sendable () -> Void

    init(body: @escaping @Sendable () -> Void) { self.body = body }
}
