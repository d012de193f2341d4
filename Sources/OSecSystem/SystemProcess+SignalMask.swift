import Glibc

extension SystemProcess {
    /// Unblocks SIGTERM, SIGINT and SIGHUP for the calling thread. A process inherits its parent's signal mask, and
    /// some parents (test runners, thread pools that spawn children) start children with these signals blocked: a
    /// long-running server that must stop on them unblocks them first, then calls ``recordTerminationSignals()``.
    package static func unblockTerminationSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for number in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&set, number) }
        _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}
