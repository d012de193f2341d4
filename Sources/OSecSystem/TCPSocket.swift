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

#if os(Linux)
private let streamSocket: Int32 = Int32(SOCK_STREAM.rawValue)
private let noSignal: Int32 = Int32(MSG_NOSIGNAL)
#else
private let streamSocket: Int32 = SOCK_STREAM
private let noSignal: Int32 = 0
#endif

// The C calls whose names TCPSocket's own methods shadow.
private func systemClose(_ fd: Int32) { _ = close(fd) }
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}
private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }
private func systemAccept(_ fd: Int32) -> Int32 { accept(fd, nil, nil) }

/// A non-blocking TCP socket whose operations suspend (through ``SocketReactor``) instead of blocking a thread.
///
/// Owns its descriptor (closed by ``close()`` or on deinit). Meant for one reader and one writer at a time.
///
/// `@unchecked Sendable`: the descriptor is an atomic-free integer set once; closing is idempotent and guarded.
package final class TCPSocket: @unchecked Sendable {
    private let lock = PosixMutex()
    private var fd: Int32

    private init(fd: Int32) {
        self.fd = fd
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    deinit { close() }

    /// The descriptor, or -1 once closed.
    package var descriptor: Int32 {
        lock.lock()
        defer { lock.unlock() }
        return fd
    }

    /// Closes the descriptor (idempotent).
    package func close() {
        lock.lock()
        let old = fd
        fd = -1
        lock.unlock()
        if old >= 0 { systemClose(old) }
    }

    /// Shuts down the sending direction (the peer reads end of stream); the socket stays open for reading.
    package func shutdownWrite() {
        let fd = descriptor
        if fd >= 0 { _ = shutdown(fd, Int32(SHUT_WR)) }
    }

    private func liveDescriptor() throws(SystemError) -> Int32 {
        let fd = descriptor
        guard fd >= 0 else { throw SystemError("socket is closed", code: EBADF) }
        return fd
    }

    private static func wait(
        _ fd: Int32, _ interest: SocketReactor.Interest, _ deadline: ContinuousClock.Instant?
    )
        async throws(SystemError)
    {
        do {
            try await SocketReactor.shared.wait(fd, for: interest, until: deadline)
        } catch SocketReactor.WaitError.timedOut {
            throw SystemError("timed out", code: ETIMEDOUT)
        } catch {
            throw SystemError("cancelled", code: ECANCELED)
        }
    }

    // MARK: Client

    /// Connects to `host`:`port` (each address `getaddrinfo` returns, in order) before `deadline`.
    package static func connect(
        host: String, port: UInt16, deadline: ContinuousClock.Instant?
    )
        async throws(SystemError) -> TCPSocket
    {
        var hints = addrinfo()
        hints.ai_socktype = streamSocket
        hints.ai_flags = AI_NUMERICSERV | AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            throw SystemError("cannot resolve \(host): \(String(cString: gai_strerror(rc)))", code: EHOSTUNREACH)
        }
        defer { freeaddrinfo(first) }
        var lastError = SystemError("no address for \(host)", code: EHOSTUNREACH)
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let raw = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard raw >= 0 else {
                lastError = SystemError.current("socket")
                continue
            }
            let candidate = TCPSocket(fd: raw)
            candidate.setNoDelay()
            guard let address = info.pointee.ai_addr else { continue }
            if systemConnect(raw, address, info.pointee.ai_addrlen) == 0 { return candidate }
            guard errno == EINPROGRESS else {
                lastError = SystemError.current("connect to \(host):\(port)")
                continue
            }
            try await wait(raw, .writable, deadline)
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(raw, SOL_SOCKET, SO_ERROR, &failure, &length)
            if failure == 0 { return candidate }
            lastError = SystemError("connect to \(host):\(port)", code: failure)
        }
        throw lastError
    }

    // MARK: Server

    /// A listening socket on `host`:`port` (port 0 picks a free one; see ``localPort``).
    package static func listen(host: String, port: UInt16, backlog: Int32 = 128) throws(SystemError) -> TCPSocket {
        var hints = addrinfo()
        hints.ai_socktype = streamSocket
        hints.ai_flags = AI_NUMERICSERV | AI_PASSIVE
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &list)
        guard rc == 0, let info = list else {
            throw SystemError("cannot resolve \(host): \(String(cString: gai_strerror(rc)))", code: EHOSTUNREACH)
        }
        defer { freeaddrinfo(info) }
        let raw = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
        guard raw >= 0 else { throw SystemError.current("socket") }
        let listener = TCPSocket(fd: raw)
        var on: Int32 = 1
        _ = setsockopt(raw, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(raw, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            throw SystemError.current("bind \(host):\(port)")
        }
        guard systemListen(raw, backlog) == 0 else { throw SystemError.current("listen") }
        return listener
    }

    /// The local port (for a listener bound to port 0).
    package var localPort: UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = descriptor
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard rc == 0 else { return 0 }
        return withUnsafePointer(to: &storage) { pointer -> UInt16 in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            case AF_INET6:
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin6_port)
                }
            default: 0
            }
        }
    }

    /// Accepts one connection.
    package func accept() async throws(SystemError) -> TCPSocket {
        while true {
            let fd = try liveDescriptor()
            let client = systemAccept(fd)
            if client >= 0 {
                let socket = TCPSocket(fd: client)
                socket.setNoDelay()
                return socket
            }
            switch errno {
            case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED: try await TCPSocket.wait(fd, .readable, nil)
            case EMFILE, ENFILE:
                // Out of descriptors: let other connections finish rather than spin.
                do { try await Task.sleep(for: .milliseconds(50)) } catch {
                    throw SystemError("cancelled", code: ECANCELED)
                }
            default: throw SystemError.current("accept")
            }
        }
    }

    private func setNoDelay() {
        var on: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    // MARK: Data

    /// Reads at most `maximumCount` bytes (at least one; empty `Data` at end of stream) before `deadline`.
    package func read(maximumCount: Int, deadline: ContinuousClock.Instant?) async throws(SystemError) -> Data {
        let capacity = max(1, maximumCount)
        var buffer = Data(count: capacity)
        while true {
            let fd = try liveDescriptor()
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, capacity, 0) }
            if count >= 0 {
                buffer.removeSubrange(count...)
                return buffer
            }
            switch errno {
            case EAGAIN, EWOULDBLOCK: try await TCPSocket.wait(fd, .readable, deadline)
            case EINTR: continue
            default: throw SystemError.current("recv")
            }
        }
    }

    /// Writes all of `data` before `deadline`.
    package func write(_ data: Data, deadline: ContinuousClock.Instant?) async throws(SystemError) {
        var offset = 0
        while offset < data.count {
            let fd = try liveDescriptor()
            let count = data.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return send(fd, base + offset, buffer.count - offset, noSignal)
            }
            if count > 0 {
                offset += count
                continue
            }
            switch errno {
            case EAGAIN, EWOULDBLOCK: try await TCPSocket.wait(fd, .writable, deadline)
            case EINTR: continue
            default: throw SystemError.current("send")
            }
        }
    }
}
