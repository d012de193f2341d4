import Foundation
import Security

#if canImport(Glibc)
import Glibc
#endif

// What an application written for Secure Transport on macOS does: a BSD socket and SSLReadFunc / SSLWriteFunc
// callbacks that read and write it, the file descriptor passed as the connection reference.

/// Blocking read of exactly `*length` bytes (errSSLClosedGraceful at end of stream).
func socketRead(
    _ connection: SSLConnectionRef, _ data: UnsafeMutableRawPointer, _ length: UnsafeMutablePointer<Int>
)
    -> OSStatus
{
    let fd = connection.load(as: Int32.self)
    let wanted = length.pointee
    var total = 0
    while total < wanted {
        let count = read(fd, data + total, wanted - total)
        if count > 0 {
            total += count
            continue
        }
        if count < 0 && errno == EINTR { continue }
        length.pointee = total
        if count == 0 { return errSSLClosedGraceful }
        // A blocking socket reports EAGAIN only when its receive timeout passed: a silent peer.
        if errno == EAGAIN || errno == EWOULDBLOCK { return errSecIO }
        return errSSLClosedAbort
    }
    length.pointee = total
    return errSecSuccess
}

/// Blocking write of all `*length` bytes.
func socketWrite(
    _ connection: SSLConnectionRef, _ data: UnsafeRawPointer, _ length: UnsafeMutablePointer<Int>
)
    -> OSStatus
{
    let fd = connection.load(as: Int32.self)
    let wanted = length.pointee
    var total = 0
    while total < wanted {
        let count = send(fd, data + total, wanted - total, Int32(MSG_NOSIGNAL))
        if count > 0 {
            total += count
            continue
        }
        if count < 0 && errno == EINTR { continue }
        length.pointee = total
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return errSSLWouldBlock }
        return errSSLClosedAbort
    }
    length.pointee = total
    return errSecSuccess
}

/// A connected or listening TCP socket on 127.0.0.1, closed on deinit; its descriptor lives at a stable address
/// so it can be the `SSLConnectionRef`.
final class TestSocket: @unchecked Sendable {  // used by one test at a time
    let descriptor: UnsafeMutablePointer<Int32>
    var fd: Int32 { descriptor.pointee }
    var connection: SSLConnectionRef { UnsafeRawPointer(descriptor) }

    init(fd: Int32) {
        descriptor = .allocate(capacity: 1)
        descriptor.pointee = fd
    }

    deinit {
        if descriptor.pointee >= 0 { Glibc.close(descriptor.pointee) }
        descriptor.deallocate()
    }

    func close() {
        if descriptor.pointee >= 0 { Glibc.close(descriptor.pointee) }
        descriptor.pointee = -1
    }

    /// Sets a receive timeout so a test never waits forever on a silent peer.
    func setReceiveTimeout(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    static func address(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// Connects to 127.0.0.1:`port`, retrying briefly while the server starts.
    static func connect(port: UInt16) throws -> TestSocket {
        for _ in 0..<100 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw TestFailure("socket: \(errno)") }
            var address = address(port: port)
            let rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if rc == 0 {
                let socket = TestSocket(fd: fd)
                socket.setReceiveTimeout(seconds: 30)
                return socket
            }
            Glibc.close(fd)
            usleep(50_000)
        }
        throw TestFailure("cannot connect to port \(port)")
    }

    /// A listening socket on 127.0.0.1 with a free port.
    static func listen() throws -> (TestSocket, UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: \(errno)") }
        var address = address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && Glibc.listen(fd, 16) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            Glibc.close(fd)
            throw TestFailure("bind/listen: \(errno)")
        }
        return (TestSocket(fd: fd), UInt16(bigEndian: address.sin_port))
    }

    /// Accepts one connection (waits at most `seconds`).
    func accept(seconds: Int32 = 30) throws -> TestSocket {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, seconds * 1000) == 1 else { throw TestFailure("no connection within \(seconds) s") }
        let client = Glibc.accept(fd, nil, nil)
        guard client >= 0 else { throw TestFailure("accept: \(errno)") }
        let socket = TestSocket(fd: client)
        socket.setReceiveTimeout(seconds: 30)
        return socket
    }

    /// Writes raw bytes (tests send garbage this way).
    func sendRaw(_ data: Data) {
        data.withUnsafeBytes { buffer in
            _ = send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
        }
    }
}

/// A client or server SSLContext on `socket` with the socket callbacks.
func makeContext(_ side: SSLProtocolSide, on socket: TestSocket) throws -> SSLContext {
    guard let context = SSLCreateContext(nil, side, .streamType) else { throw TestFailure("SSLCreateContext") }
    guard SSLSetIOFuncs(context, socketRead, socketWrite) == errSecSuccess,
        SSLSetConnection(context, socket.connection) == errSecSuccess
    else { throw TestFailure("SSLSetIOFuncs") }
    return context
}

/// `SSLHandshake` until it returns something other than errSSLWouldBlock.
func handshake(_ context: SSLContext) -> OSStatus {
    var status: OSStatus
    repeat { status = SSLHandshake(context) } while status == errSSLWouldBlock
    return status
}

/// Writes all of `data` with SSLWrite.
func sslWriteAll(_ context: SSLContext, _ data: Data) -> OSStatus {
    data.withUnsafeBytes { buffer -> OSStatus in
        var offset = 0
        while offset < buffer.count {
            var processed = 0
            let status = SSLWrite(context, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, &processed)
            offset += processed
            if status != errSecSuccess && status != errSSLWouldBlock { return status }
            if status == errSSLWouldBlock && processed == 0 { continue }
        }
        return errSecSuccess
    }
}

/// Reads until `count` bytes arrived (or an error); returns the bytes and the last status.
func sslRead(_ context: SSLContext, count: Int) -> (Data, OSStatus) {
    var result = Data()
    var buffer = [UInt8](repeating: 0, count: 16384)
    while result.count < count {
        var processed = 0
        let status = SSLRead(context, &buffer, min(buffer.count, count - result.count), &processed)
        result.append(contentsOf: buffer[0..<processed])
        if status != errSecSuccess && status != errSSLWouldBlock { return (result, status) }
    }
    return (result, errSecSuccess)
}

func setDomainName(_ context: SSLContext, _ name: String) -> OSStatus {
    SSLSetPeerDomainName(context, name, name.utf8.count)
}

/// Apple's deprecated functions, called through a protocol so the tests build without deprecation warnings.
protocol DeprecatedSecureTransport {
    func setTrustedRoots(_ context: SSLContext, _ roots: [SecCertificate], _ replace: Bool) -> OSStatus
}

struct DeprecatedSecureTransportCalls: DeprecatedSecureTransport {
    @available(*, deprecated)
    func setTrustedRoots(_ context: SSLContext, _ roots: [SecCertificate], _ replace: Bool) -> OSStatus {
        SSLSetTrustedRoots(context, roots as CFArray, replace)
    }
}

/// `SSLSetTrustedRoots` without the deprecation warning.
func trustRoots(_ context: SSLContext, _ roots: [SecCertificate], only: Bool = true) -> OSStatus {
    let calls: any DeprecatedSecureTransport = DeprecatedSecureTransportCalls()
    return calls.setTrustedRoots(context, roots, only)
}
