import CSystemShims

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

/// The credentials the kernel reports for the other end of a Unix socket (`SO_PEERCRED`).
package struct PeerCredentials: Sendable, Equatable {
    package let processID: Int32
    package let userID: UInt32
    package let groupID: UInt32

    package init(processID: Int32, userID: UInt32, groupID: UInt32) {
        self.processID = processID
        self.userID = userID
        self.groupID = groupID
    }
}

/// A connected or listening `AF_UNIX` stream socket. Closed when released.
///
/// Sends never raise SIGPIPE (`MSG_NOSIGNAL`); receive and send timeouts bound how long a peer can stall a call.
package final class UnixSocket: @unchecked Sendable {  // the descriptor is immutable; calls are made by one owner
    /// The file descriptor.
    package let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The longest path `sockaddr_un` holds (without its NUL).
    package static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    private static func address(_ path: String) throws(SystemError) -> (sockaddr_un, socklen_t) {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumPathLength, !bytes.contains(0) else {
            throw SystemError(
                "socket path \(path) is empty or longer than \(maximumPathLength) bytes", code: ENAMETOOLONG)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
            raw[bytes.count] = 0
        }
        let length = MemoryLayout<sa_family_t>.size + bytes.count + 1
        return (address, socklen_t(length))
    }

    private static func makeSocket() throws(SystemError) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SystemError.current("cannot create a Unix socket") }
        return descriptor
    }

    /// Binds `path` and listens. The socket file gets mode 0600 (set with the umask during `bind`).
    /// - Throws: `SystemError` with `EADDRINUSE` when the path exists (a live or stale socket).
    package static func listen(path: String, backlog: Int32 = 16) throws(SystemError) -> UnixSocket {
        var (address, length) = try address(path)
        let descriptor = try makeSocket()
        let socket = UnixSocket(descriptor: descriptor)
        let previousMask = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        umask(previousMask)
        guard bound == 0 else { throw SystemError.current("cannot bind \(path)") }
        guard Glibc.listen(descriptor, backlog) == 0 else { throw SystemError.current("cannot listen on \(path)") }
        return socket
    }

    /// Connects to the socket at `path`.
    /// - Throws: `SystemError` (`ENOENT`: no socket; `ECONNREFUSED`: nobody listens — a stale socket file).
    package static func connect(path: String) throws(SystemError) -> UnixSocket {
        var (address, length) = try address(path)
        let descriptor = try makeSocket()
        let socket = UnixSocket(descriptor: descriptor)
        while true {
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, length) }
            }
            if result == 0 { return socket }
            if errno == EINTR { continue }
            throw SystemError.current("cannot connect to \(path)")
        }
    }

    /// Waits up to `timeoutMilliseconds` for a connection; `nil` when none arrived (or a signal interrupted).
    package func accept(timeoutMilliseconds: Int32) throws(SystemError) -> UnixSocket? {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, timeoutMilliseconds)
        if ready < 0 {
            if errno == EINTR { return nil }
            throw SystemError.current("poll on the listening socket failed")
        }
        guard ready > 0 else { return nil }
        let client = osec_accept_cloexec(descriptor)
        if client < 0 {
            if errno == EINTR || errno == EAGAIN || errno == ECONNABORTED { return nil }
            throw SystemError.current("accept failed")
        }
        return UnixSocket(descriptor: client)
    }

    /// The peer's process, user and group ids, from the kernel (`SO_PEERCRED`): they cannot be forged.
    package func peerCredentials() throws(SystemError) -> PeerCredentials {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
        guard osec_peer_credentials(descriptor, &pid, &uid, &gid) == 0 else {
            throw SystemError.current("cannot read the peer's credentials")
        }
        return PeerCredentials(processID: pid, userID: uid, groupID: gid)
    }

    /// Bounds every later send and receive to `seconds` (then they fail with `EAGAIN`).
    package func setTimeout(seconds: Double) {
        var value = timeval(
            tv_sec: Int(seconds.rounded(.down)), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends every byte of `bytes`.
    package func send(_ bytes: [UInt8]) throws(SystemError) {
        let failure = bytes.withUnsafeBytes { sendAll($0) }
        if let failure { throw failure }
    }

    /// Sends `count` bytes of `buffer` from `offset` (secret bytes go out without a copy).
    package func send(_ buffer: SecureBuffer, offset: Int, count: Int) throws(SystemError) {
        let failure = buffer.withBytes(offset: offset, count: count) { sendAll($0) }
        if let failure { throw failure }
    }

    private func sendAll(_ raw: UnsafeRawBufferPointer) -> SystemError? {
        var offset = 0
        while offset < raw.count {
            let start = raw.baseAddress.map { $0 + offset }
            let sent = Glibc.send(descriptor, start, raw.count - offset, Int32(MSG_NOSIGNAL))
            if sent < 0 {
                if errno == EINTR { continue }
                return SystemError.current("send failed")
            }
            offset += sent
        }
        return nil
    }

    /// Receives exactly `count` bytes; `nil` when the peer closed the connection before sending any.
    /// - Throws: `SystemError` on a timeout, an error, or a connection closed part-way.
    package func receive(exactly count: Int) throws(SystemError) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let (received, failure) = bytes.withUnsafeMutableBytes { receiveAll($0) }
        if let failure { throw failure }
        if received == 0 && count > 0 { return nil }
        guard received == count else { throw SystemError("the peer closed the connection mid-message", code: EPIPE) }
        return bytes
    }

    /// Receives exactly `count` bytes straight into `buffer` at `offset` (secrets never touch ordinary memory).
    package func receive(into buffer: SecureBuffer, offset: Int, count: Int) throws(SystemError) {
        let (received, failure) = buffer.withMutableBytes(offset: offset, count: count) { receiveAll($0) }
        if let failure { throw failure }
        guard received == count else { throw SystemError("the peer closed the connection mid-message", code: EPIPE) }
    }

    private func receiveAll(_ raw: UnsafeMutableRawBufferPointer) -> (Int, SystemError?) {
        var offset = 0
        while offset < raw.count {
            let received = recv(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset, 0)
            if received < 0 {
                if errno == EINTR { continue }
                return (offset, SystemError.current("receive failed"))
            }
            if received == 0 { break }
            offset += received
        }
        return (offset, nil)
    }
}
