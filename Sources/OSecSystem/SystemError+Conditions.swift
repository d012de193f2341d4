#if canImport(Glibc)
import Glibc
#endif

extension SystemError {
    /// The address (socket path) is already bound (`EADDRINUSE`).
    package var isAddressInUse: Bool { code == EADDRINUSE }
    /// Nobody listens on the socket (`ECONNREFUSED`): a stale socket file.
    package var isConnectionRefused: Bool { code == ECONNREFUSED }
    /// The call timed out (`EAGAIN` / `EWOULDBLOCK` after a socket timeout).
    package var isTimeout: Bool { code == EAGAIN || code == EWOULDBLOCK }
    /// Permission denied (`EACCES` / `EPERM`).
    package var isPermissionDenied: Bool { code == EACCES || code == EPERM }
}
