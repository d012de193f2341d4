import Foundation
import OSecSystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What the socket reactor (the poll thread under every TLSConnection and TCPSocket wait) keeps between waits.
@Suite struct SocketReactorTests {
    /// Waits cancelled at every moment — before they register, while the poll thread resumes them, after they were
    /// resumed — leave nothing behind. A cancellation arriving after the poll thread had resumed a wait (before the
    /// wait returned) used to record the wait's id as "cancelled before registration" for the life of the process.
    @Test func cancelledWaitsLeaveNothingBehind() async throws {
        let reactor = SocketReactor()
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        var byte: UInt8 = 1
        try #require(write(fds[1], &byte, 1) == 1)  // fds[0] stays readable: every wait is resumed at once
        let fd = fds[0]
        for round in 0..<2000 {
            let task = Task { try? await reactor.wait(fd, for: .readable, until: nil) }
            if round % 3 == 1 { await Task.yield() }
            if round % 3 == 2 { try await Task.sleep(for: .microseconds(50)) }
            task.cancel()
            await task.value
        }
        let counts = reactor.counts
        #expect(counts.waiters == 0)
        #expect(counts.pendingCancellations == 0)
    }

    /// A wait cancelled while nothing is ready ends with `cancelled` and is removed from the poll set.
    @Test func aCancelledIdleWaitIsRemoved() async throws {
        let reactor = SocketReactor()
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let fd = fds[0]
        let task = Task { () -> Bool in
            do {
                try await reactor.wait(fd, for: .readable, until: nil)
                return false
            } catch SocketReactor.WaitError.cancelled {
                return true
            } catch {
                return false
            }
        }
        while reactor.counts.waiters == 0 { try await Task.sleep(for: .milliseconds(1)) }
        task.cancel()
        #expect(await task.value)
        #expect(reactor.counts.waiters == 0)
        #expect(reactor.counts.pendingCancellations == 0)
    }
}
