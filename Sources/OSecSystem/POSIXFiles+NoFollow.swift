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

/// Opening files without following symbolic links, and asking about files without trusting their paths: the
/// ground work for refusing files that another user planted or can read.
extension POSIXFiles {
    /// How a file is opened.
    package enum Access: Sendable {
        case readOnly, readWrite, writeOnly
    }

    /// The effective user id of this process (`geteuid`): the user keychain files must belong to.
    package static var effectiveUserID: UInt32 { UInt32(geteuid()) }

    /// Opens `path` with `O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC`: a symbolic link as the last component fails with
    /// `ELOOP` (``SystemError/isSymbolicLink``), and a FIFO or device planted under the name cannot block the call.
    /// - Parameters:
    ///   - create: create the file with this mode when it is missing (`O_CREAT`; the umask may narrow the mode, so
    ///     callers that need it exact call ``FileDescriptor/setPermissions(_:)``).
    ///   - exclusive: with `create`, fail with `EEXIST` when the file exists (`O_EXCL`).
    ///   - directory: the path must be a directory (`O_DIRECTORY`; opened read-only).
    package static func openNoFollow(
        _ path: String, access: Access, create mode: UInt16? = nil, exclusive: Bool = false, directory: Bool = false
    ) throws(SystemError) -> FileDescriptor {
        var flags = O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        switch access {
        case .readOnly: flags |= O_RDONLY
        case .readWrite: flags |= O_RDWR
        case .writeOnly: flags |= O_WRONLY
        }
        if directory { flags |= O_DIRECTORY }
        if mode != nil { flags |= O_CREAT }
        if mode != nil && exclusive { flags |= O_EXCL }
        while true {
            let fd = open(path, flags, mode_t(mode ?? 0))
            if fd >= 0 { return FileDescriptor(raw: fd, path: path) }
            if errno == EINTR { continue }
            throw SystemError.current("cannot open \(path)")
        }
    }

    /// `lstat` of `path` (a symbolic link is reported as one, not followed); `nil` when nothing has that name.
    package static func linkStatus(_ path: String) throws(SystemError) -> FileStatus? {
        var raw = stat()
        guard lstat(path, &raw) == 0 else {
            if errno == ENOENT { return nil }
            throw SystemError.current("cannot lstat \(path)")
        }
        return FileStatus(raw)
    }

    /// Whether this process may read (or, with `write`, write) the file `path` (`faccessat` with the effective
    /// ids; a read-only mount refuses writing). Checks by name, opening nothing.
    package static func isAccessibleFile(_ path: String, write: Bool) -> Bool {
        faccessat(AT_FDCWD, path, write ? W_OK : R_OK, AT_EACCESS) == 0
    }

    /// Whether this process may create files in the directory `path` (`faccessat` with the effective ids, so a
    /// read-only mount says no even to root).
    package static func isWritableDirectory(_ path: String) -> Bool {
        faccessat(AT_FDCWD, path.isEmpty ? "." : path, W_OK | X_OK, AT_EACCESS) == 0
    }
}
