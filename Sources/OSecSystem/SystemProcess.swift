import CSystemShims

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

/// This process and others: ids, environment, the executable, starting a detached process, clocks and signals.
package enum SystemProcess {
    /// The real user id.
    package static var userID: UInt32 { getuid() }

    /// The process id.
    package static var processID: Int32 { getpid() }

    /// One environment variable, read directly (`getenv`; much cheaper than building Foundation's dictionary).
    package static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    /// The path of the running executable (`/proc/self/exe`), or `nil`.
    package static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Starts `path arguments…` detached: a new session, standard streams on /dev/null, no inherited descriptors.
    /// - Returns: the child's process id (the caller need not wait for it: it is reaped by init once we exit).
    package static func spawnDetached(_ path: String, arguments: [String]) throws(SystemError) -> Int32 {
        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = osec_spawn_detached(path, &argv, nil, &pid)
        guard status == 0 else { throw SystemError("cannot start \(path)", code: status) }
        return pid
    }

    /// Whether process `pid` exists (and may be signalled by us).
    package static func isRunning(_ pid: Int32) -> Bool { kill(pid, 0) == 0 || errno == EPERM }

    /// Sends `signal` to `pid`; `false` when it failed.
    @discardableResult
    package static func send(_ signal: Int32, to pid: Int32) -> Bool { kill(pid, signal) == 0 }

    /// Waits for child `pid` without blocking: its exit status, or `nil` while it runs.
    package static func reap(_ pid: Int32) -> Int32? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        return status
    }

    /// Seconds on a clock that does not jump with the wall clock and stops while the system is suspended.
    package static var monotonicSeconds: Double { clockSeconds(CLOCK_MONOTONIC) }

    /// Seconds on a clock that does not jump with the wall clock and keeps counting while suspended
    /// (`CLOCK_BOOTTIME`): the difference to ``monotonicSeconds`` grows by the time spent asleep.
    package static var bootSeconds: Double { clockSeconds(CLOCK_BOOTTIME) }

    private static func clockSeconds(_ clock: clockid_t) -> Double {
        var now = timespec()
        clock_gettime(clock, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Sleeps for `milliseconds`.
    package static func sleep(milliseconds: Int) {
        usleep(useconds_t(max(0, milliseconds) * 1000))
    }

    /// Installs handlers that record SIGTERM, SIGINT and SIGHUP in ``terminationRequested`` instead of ending
    /// the process (a server loop checks the flag between requests).
    package static func recordTerminationSignals() {
        for number in [SIGTERM, SIGINT, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in SystemProcess.terminationFlag = 1 }
            sigemptyset(&action.sa_mask)
            _ = sigaction(number, &action, nil)
        }
    }

    nonisolated(unsafe) private static var terminationFlag: sig_atomic_t = 0

    /// Whether a termination signal arrived since ``recordTerminationSignals()``.
    package static var terminationRequested: Bool { terminationFlag != 0 }
}

/// The per-user directory for runtime files such as the keychain agent's socket.
///
/// `$XDG_RUNTIME_DIR/opensecurity` when `XDG_RUNTIME_DIR` is an absolute path to a directory the user owns
/// (systemd-logind creates it at login and removes it at logout), otherwise `/tmp/opensecurity-<uid>`. The
/// directory is created with mode 0700; an existing one is used only if it is a real directory (not a symbolic
/// link) owned by the user with no group or other permissions — another user who pre-creates it in /tmp is refused.
package enum RuntimeDirectory {
    /// The directory's path, without creating or checking it.
    package static func path(userID: UInt32 = SystemProcess.userID) -> String {
        if let xdg = SystemProcess.environment("XDG_RUNTIME_DIR"), xdg.hasPrefix("/"),
            let status = FileStatus.of(xdg), status.kind == .directory, status.owner == userID
        {
            return (xdg.hasSuffix("/") ? String(xdg.dropLast()) : xdg) + "/opensecurity"
        }
        return "/tmp/opensecurity-\(userID)"
    }

    /// The directory, created if needed (mode 0700) and checked.
    /// - Throws: `SystemError` (`EPERM`) naming the path and the problem when it is not safe to use.
    package static func prepare(userID: UInt32 = SystemProcess.userID) throws(SystemError) -> String {
        let directory = path(userID: userID)
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw SystemError.current("cannot create \(directory)")
        }
        try check(directory, userID: userID)
        return directory
    }

    /// The directory if it exists and passes the checks, else `nil` (for clients that must not create it).
    package static func existing(userID: UInt32 = SystemProcess.userID) -> String? {
        let directory = path(userID: userID)
        guard (try? check(directory, userID: userID)) != nil else { return nil }
        return directory
    }

    /// Throws unless `directory` is a directory (not a link) owned by `userID` with no group/other permissions.
    package static func check(_ directory: String, userID: UInt32) throws(SystemError) {
        guard let status = FileStatus.of(directory) else {
            throw SystemError("\(directory) does not exist", code: ENOENT)
        }
        if let problem = problem(with: status, userID: userID) {
            throw SystemError("refusing \(directory): \(problem)", code: EPERM)
        }
    }

    /// Why a directory with `status` is unsafe for `userID`'s secrets, or `nil` when it is safe.
    package static func problem(with status: FileStatus, userID: UInt32) -> String? {
        if status.kind == .symbolicLink { return "it is a symbolic link" }
        if status.kind != .directory { return "it is not a directory" }
        if status.owner != userID { return "it belongs to uid \(status.owner), not \(userID)" }
        if status.permissions & 0o077 != 0 {
            return "its mode is \(String(status.permissions, radix: 8)), not 700 (group or others have access)"
        }
        return nil
    }
}

extension POSIXFiles {
    /// Removes `path` if it is a socket (a stale agent socket); other file types are left alone.
    @discardableResult
    package static func removeSocket(_ path: String) -> Bool {
        guard let status = FileStatus.of(path), status.kind == .socket else { return false }
        return unlink(path) == 0
    }
}

extension POSIXFiles {
    /// Creates `path` and its missing parents with `mode` (like `mkdir -p`; existing directories are left alone).
    package static func makeDirectories(_ path: String, mode: UInt16) throws(SystemError) {
        var missing: [String] = []
        var current = path
        while !current.isEmpty, current != "/", FileStatus.of(current) == nil {
            missing.append(current)
            current = POSIXFiles.parentDirectory(of: current)
        }
        for directory in missing.reversed() where mkdir(directory, mode_t(mode)) != 0 && errno != EEXIST {
            throw SystemError.current("cannot create directory \(directory)")
        }
    }
}

/// A command prepared once and run to its end many times with `posix_spawn` and `waitpid` and nothing else (the
/// C strings are built once, here): for measuring the cost of whole processes, where Foundation's `Process`
/// would add its own cost to every spawn.
package final class PreparedCommand {
    package let path: String
    private var argv: [UnsafeMutablePointer<CChar>?]
    private var envp: [UnsafeMutablePointer<CChar>?]

    /// `path arguments…` with exactly `environment`.
    package init(_ path: String, arguments: [String], environment: [String: String]) {
        self.path = path
        argv = ([path] + arguments).map { strdup($0) } + [nil]
        envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    }

    deinit {
        for pointer in argv + envp { free(pointer) }
    }

    /// Runs the command and waits for it: its exit status (128 + the signal when a signal ended it). Standard
    /// input and error are /dev/null; standard output goes to `output` (a descriptor), else /dev/null.
    package func run(output: Int32? = nil) throws(SystemError) -> Int32 {
        var waitStatus: Int32 = 0
        let status = osec_spawn_and_wait(path, &argv, &envp, output ?? -1, &waitStatus)
        guard status == 0 else { throw SystemError("cannot run \(path)", code: status) }
        let signal = waitStatus & 0x7f
        return signal == 0 ? (waitStatus >> 8) & 0xff : 128 + signal
    }
}

extension SystemProcess {
    /// Replaces this process with `path` (`execv`): the same process id, environment, standard streams and every
    /// descriptor not marked close-on-exec; `arguments` becomes its whole argument vector (`argv[0]` included).
    /// Returns only when the exec failed, with the error.
    package static func replaceProcess(with path: String, arguments: [String]) -> SystemError {
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        execv(path, &argv)
        return SystemError.current("cannot run \(path)")
    }
}

extension SystemProcess {
    /// Ends the process with `status` (`exit`: buffered output is flushed and exit handlers run).
    package static func exit(_ status: Int32) -> Never {
        #if canImport(Glibc)
        Glibc.exit(status)
        #else
        Darwin.exit(status)
        #endif
    }
}
