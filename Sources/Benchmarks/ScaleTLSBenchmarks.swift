import Foundation
import OpenSecurityTLS
import Security
import Synchronization

/// `--suite scale-tls`: a `TLSListener` (P-256 identity, TLS 1.3) with 100, 300 and 1,000 concurrent connections
/// from `TLSConnection` clients in the same process, over loopback only.
///
/// For each level: full handshakes per second while all the clients connect at once (TCP connect and both ends of
/// every handshake, on this machine's cores); memory per connection (the process's resident set growth from before
/// the first connection to when every connection has completed one round trip, divided by the connections: both
/// ends live in this process, so it is a client's and a server's share together); and the median and 99th
/// percentile latency of a 1 KiB request answered by a 1 KiB response while every connection sends requests back
/// to back.
///
/// Bounded in time: each level's handshakes are bounded by the handshake timeout (30 s, far from reached), its
/// request phase by `3 × --seconds` (default 3 s); with the fixture (openssl CLI, under a second) the suite takes
/// well under a minute. It closes every connection and the listener before the next level, and removes the
/// fixture's files at the end of the run (BenchScratch).
enum ScaleTLSBenchmarks {
    static let suite = ScaleSuite(name: "scale-tls") { options in run(options) }

    static let levels = [100, 300, 1_000]
    static let messageBytes = 1024

    struct Level: Sendable {
        var handshakesPerSecond: Double
        var bytesPerConnection: Double
        var medianMilliseconds: Double
        var p99Milliseconds: Double
        var exchanges: Int
    }

    static func run(_ options: BenchOptions) -> [ScalePoint] {
        // Both ends of every connection are descriptors of this process (plus the listener, the reactor and
        // Foundation's own); there is no wrapper-layer call for the limit, so the bench raises its soft limit here.
        raiseOpenFileLimit(to: 2 * (levels.max() ?? 0) + 256)
        guard let fixture = try? TLSBenchmarks.makeFixture() else {
            BenchTable.line("scale-tls: cannot generate the PKI with the openssl CLI")
            return []
        }
        let context = Context(fixture: fixture)
        var points: [ScalePoint] = []
        for count in levels {
            guard let level = blocking({ try await measure(count, context, requestSeconds: 3 * options.seconds) })
            else {
                BenchTable.line("scale-tls: \(count) connections failed")
                continue
            }
            func point(_ series: String, _ value: Double, _ unit: String, _ note: String?) {
                points.append(
                    ScalePoint(
                        suite: "scale-tls", series: series, xLabel: "connections", x: Double(count), value: value,
                        unit: unit, note: note))
            }
            let last = count == levels.last
            point(
                "full handshakes per second (all clients at once)", level.handshakesPerSecond, "op/s",
                last
                    ? "falls with the connections: SocketReactor polls every waiting descriptor on each wake (poll(2))"
                    : nil)
            point(
                "memory per connection (client + server, RSS delta)", level.bytesPerConnection / 1024, "KiB",
                last
                    ? "two TLS states, socket buffers and the tasks' stacks; flat: nothing is shared per connection"
                    : nil)
            point("1 KiB request/response latency, median", level.medianMilliseconds, "ms", nil)
            point(
                "1 KiB request/response latency, p99", level.p99Milliseconds, "ms",
                last ? "every connection sends back to back: latency grows with the connections in flight" : nil)
        }
        return points
    }

    /// The server identity and the client configuration (the benchmark PKI's root, host name "localhost").
    struct Context: @unchecked Sendable {
        let server: TLSConfiguration
        let client: TLSConfiguration

        init(fixture: TLSBenchmarks.Fixture) {
            var server = TLSConfiguration()
            server.identity = fixture.serverEC
            var client = TLSConfiguration()
            client.trustAnchors = [fixture.root]
            client.serverName = "localhost"
            client.resumesSessions = false
            self.server = server
            self.client = client
        }
    }

    /// One level: a listener, `count` clients connecting at once, then requests for `requestSeconds`.
    static func measure(_ count: Int, _ context: Context, requestSeconds: Double) async throws -> Level {
        let listener = try TLSListener(port: 0, configuration: context.server)
        let port = listener.port
        let acceptor = Task {
            while let connection = try? await listener.accept() {
                Task { await serve(connection) }
            }
        }
        defer {
            listener.close()
            acceptor.cancel()
        }
        // One connection first, so the baseline includes what the first one loads once.
        let warm = try await TLSConnection.connect(host: "127.0.0.1", port: port, configuration: context.client)
        _ = try await exchange(warm, [UInt8](repeating: 1, count: messageBytes))
        await warm.close()
        let baseline = residentBytes()

        let start = DispatchTime.now().uptimeNanoseconds
        let connections = try await withThrowingTaskGroup(of: TLSConnection.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await TLSConnection.connect(host: "127.0.0.1", port: port, configuration: context.client)
                }
            }
            var all: [TLSConnection] = []
            for try await connection in group { all.append(connection) }
            return all
        }
        let handshakeSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        // Every connection completes one round trip (the server's side of the handshake done too).
        let request = [UInt8](repeating: 0x5A, count: messageBytes)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for connection in connections { group.addTask { _ = try await exchange(connection, request) } }
            try await group.waitForAll()
        }
        let perConnection = Double(max(residentBytes() - baseline, 0)) / Double(count)

        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(requestSeconds * 1e9)
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for connection in connections {
                group.addTask {
                    var samples: [Double] = []
                    while DispatchTime.now().uptimeNanoseconds < deadline {
                        samples.append(try await exchange(connection, request))
                    }
                    return samples
                }
            }
            var all: [Double] = []
            for try await samples in group { all.append(contentsOf: samples) }
            return all.sorted()
        }
        for connection in connections { await connection.close() }
        guard !latencies.isEmpty else { throw BenchFailure() }
        return Level(
            handshakesPerSecond: Double(count) / handshakeSeconds, bytesPerConnection: perConnection,
            medianMilliseconds: latencies[latencies.count / 2],
            p99Milliseconds: latencies[min(latencies.count - 1, latencies.count * 99 / 100)],
            exchanges: latencies.count)
    }

    /// Sends `request` and reads a response of the same length; returns the round trip in milliseconds.
    static func exchange(_ connection: TLSConnection, _ request: [UInt8]) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await connection.write(Data(request))
        var received = 0
        while received < request.count {
            let data = try await connection.read(upTo: request.count - received)
            guard !data.isEmpty else { throw BenchFailure() }
            received += data.count
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// The server side: answers every 1 KiB request with 1 KiB until the client closes.
    static func serve(_ connection: TLSConnection) async {
        let response = Data(repeating: 0xA5, count: messageBytes)
        var pending = 0
        while let data = try? await connection.read(upTo: messageBytes), !data.isEmpty {
            pending += data.count
            while pending >= messageBytes {
                pending -= messageBytes
                guard (try? await connection.write(response)) != nil else {
                    await connection.close()
                    return
                }
            }
        }
        await connection.close()
    }

    /// The resident set size (`VmRSS` of /proc/self/status), in bytes; 0 when unreadable.
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        let kibibytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
        return kibibytes * 1024
    }

    /// Raises the soft limit on open descriptors to `wanted` (at most the hard limit). The bench target calls
    /// `setrlimit` itself: no wrapper target offers the call, and only this suite needs it.
    static func raiseOpenFileLimit(to wanted: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(wanted) else { return }
        limit.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) != 0 {
            BenchTable.line("scale-tls: cannot raise the open-file limit to \(wanted)")
        }
    }

    /// Runs `body` to completion from synchronous code; nil when it throws.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> T? {
        let box = BlockingBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = try? await body()
            done.signal()
        }
        done.wait()
        return box.value
    }
}

/// Where ``ScaleTLSBenchmarks/blocking(_:)`` leaves the task's result (written before the semaphore is signalled,
/// read after it is waited for).
private final class BlockingBox<T>: @unchecked Sendable {
    var value: T?
}
