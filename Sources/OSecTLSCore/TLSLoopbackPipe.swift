import Foundation

/// An in-memory duplex byte pipe with Secure Transport–shaped read and write callbacks, for driving a client
/// and a server context in one thread (the TLS benchmark, the demo, tests) without sockets.
///
/// Each ``Endpoint`` reads what the other one wrote. ``read`` and ``write`` have the shape of Apple's
/// `SSLReadFunc` / `SSLWriteFunc`; the connection reference they take is ``Endpoint/connection`` (an unretained
/// reference to the endpoint: keep the pipe alive while a context uses it). A read of an empty pipe reports
/// the would-block status given at creation (Apple's errSSLWouldBlock), or the closed status once the other
/// side called ``Endpoint/closeWrite()``.
///
/// `@unchecked Sendable`: meant for one thread; the buffers are not synchronised.
package final class TLSLoopbackPipe: @unchecked Sendable {
    /// One end of the pipe.
    package final class Endpoint {
        fileprivate let incoming: ByteQueue
        fileprivate let outgoing: ByteQueue
        fileprivate let wouldBlockStatus: Int32
        fileprivate let closedStatus: Int32

        fileprivate init(incoming: ByteQueue, outgoing: ByteQueue, wouldBlock: Int32, closed: Int32) {
            self.incoming = incoming
            self.outgoing = outgoing
            self.wouldBlockStatus = wouldBlock
            self.closedStatus = closed
        }

        /// The value to pass as the connection reference (`SSLSetConnection`).
        package var connection: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }

        /// Bytes waiting to be read at this end.
        package var availableCount: Int { incoming.count }

        /// Ends this side's outgoing stream: the other end reads the closed status once the bytes are consumed.
        package func closeWrite() { outgoing.isClosed = true }

        /// Appends raw bytes to the other end's input (tests inject garbage this way).
        package func inject(_ bytes: Data) { bytes.withUnsafeBytes { outgoing.append($0) } }

        /// Removes and returns the bytes waiting to be read at this end (tests tamper with records this way).
        package func takeAvailable() -> Data {
            var data = Data(count: incoming.count)
            let count = data.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return incoming.take(into: base, count: buffer.count)
            }
            return data.prefix(count)
        }
    }

    /// The client's end.
    package let client: Endpoint
    /// The server's end.
    package let server: Endpoint

    /// - Parameters:
    ///   - wouldBlockStatus: what a read of an empty pipe returns (errSSLWouldBlock, -9803).
    ///   - closedStatus: what a read returns after the other end closed (errSSLClosedGraceful, -9805).
    package init(wouldBlockStatus: Int32, closedStatus: Int32) {
        let toServer = ByteQueue()
        let toClient = ByteQueue()
        client = Endpoint(incoming: toClient, outgoing: toServer, wouldBlock: wouldBlockStatus, closed: closedStatus)
        server = Endpoint(incoming: toServer, outgoing: toClient, wouldBlock: wouldBlockStatus, closed: closedStatus)
    }

    /// `SSLReadFunc`: copies up to `*length` bytes; fewer (with the would-block status) when fewer are there.
    package static let read:
        @convention(c) (UnsafeRawPointer, UnsafeMutableRawPointer, UnsafeMutablePointer<Int>)
            -> Int32 = { connection, data, length in
                let endpoint = Unmanaged<Endpoint>.fromOpaque(connection).takeUnretainedValue()
                let wanted = length.pointee
                let copied = endpoint.incoming.take(into: data, count: wanted)
                length.pointee = copied
                if copied == wanted { return 0 }
                return endpoint.incoming.isClosed ? endpoint.closedStatus : endpoint.wouldBlockStatus
            }

    /// `SSLWriteFunc`: accepts every byte.
    package static let write:
        @convention(c) (UnsafeRawPointer, UnsafeRawPointer, UnsafeMutablePointer<Int>)
            -> Int32 = { connection, data, length in
                let endpoint = Unmanaged<Endpoint>.fromOpaque(connection).takeUnretainedValue()
                endpoint.outgoing.append(UnsafeRawBufferPointer(start: data, count: max(0, length.pointee)))
                return 0
            }
}

/// A growable FIFO of bytes.
final class ByteQueue {
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    private var start = 0
    private var end = 0
    var isClosed = false

    init(capacity: Int = 64 * 1024) {
        self.capacity = capacity
        storage = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    var count: Int { end - start }

    func append(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        if end + bytes.count > capacity {
            let used = count
            let needed = used + bytes.count
            if needed > capacity {
                var newCapacity = capacity
                while newCapacity < needed { newCapacity *= 2 }
                let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
                grown.copyMemory(from: storage + start, byteCount: used)
                storage.deallocate()
                storage = grown
                capacity = newCapacity
            } else {
                storage.copyMemory(from: storage + start, byteCount: used)
            }
            start = 0
            end = used
        }
        (storage + end).copyMemory(from: base, byteCount: bytes.count)
        end += bytes.count
    }

    func take(into destination: UnsafeMutableRawPointer, count wanted: Int) -> Int {
        let copied = min(max(wanted, 0), count)
        if copied > 0 { destination.copyMemory(from: storage + start, byteCount: copied) }
        start += copied
        if start == end {
            start = 0
            end = 0
        }
        return copied
    }
}

/// Bytes at a stable address for the life of the object (Secure Transport's `SSLGetPeerID` hands out a pointer
/// to the context's own copy of the peer ID).
///
/// `@unchecked Sendable`: immutable after init.
package final class TLSStableBytes: @unchecked Sendable {
    private let storage: UnsafeMutableRawPointer
    /// The bytes' address.
    package var pointer: UnsafeRawPointer { UnsafeRawPointer(storage) }
    /// How many bytes.
    package let count: Int
    /// The bytes as `Data`.
    package var data: Data { Data(bytes: storage, count: count) }

    /// Copies `data`.
    package init(_ data: Data) {
        count = data.count
        storage = .allocate(byteCount: max(1, data.count), alignment: 8)
        data.withUnsafeBytes { buffer in
            if let base = buffer.baseAddress, buffer.count > 0 {
                storage.copyMemory(from: base, byteCount: buffer.count)
            }
        }
    }

    deinit { storage.deallocate() }

    /// A non-NULL connection reference for contexts whose application never called `SSLSetConnection`
    /// (Apple passes NULL; Swift's callback type has no room for it). Points at one zero byte.
    package static let placeholderConnection = TLSStableBytes(Data([0]))
}
