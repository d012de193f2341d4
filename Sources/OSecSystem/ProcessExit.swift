import Synchronization

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

/// Work to do when the process exits normally (`exit`, or returning from `main`).
///
/// Handlers run from one `atexit` handler that is registered when the first handler is added. `atexit` handlers
/// run in the reverse order of their registration, so these run before the clean-ups of libraries that were
/// initialized earlier — OpenSSL's `OPENSSL_cleanup` among them, which frees the locks a background thread still
/// using libcrypto would take. A layer that runs its own threads stops them here.
package enum ProcessExit {
    private static let handlers = LockedValue<[@Sendable () -> Void]>([])
    private static let registered = Atomic<Bool>(false)

    /// Runs `body` at normal process exit, after handlers added later (last added, first run).
    package static func onExit(_ body: @escaping @Sendable () -> Void) {
        handlers.withLock { $0.append(body) }
        guard !registered.exchange(true, ordering: .acquiringAndReleasing) else { return }
        atexit { ProcessExit.runHandlers() }
    }

    private static func runHandlers() {
        let list = handlers.withLock { current -> [@Sendable () -> Void] in
            defer { current = [] }
            return current
        }
        for handler in list.reversed() { handler() }
    }
}
