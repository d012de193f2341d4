import Foundation
import OSecTestSupport
import Testing

/// 64 concurrent clients × 200 requests against a TLSListener on loopback, for five rounds, in a second process
/// (`TLSLoad`) that counts only its own descriptors and memory.
@Suite struct LoadTests {
    struct Round: Decodable {
        let round: Int
        let answered: Int
        let expected: Int
        let serverFailures: Int
        let fds: Int
        let rssKiB: Int
        /// TLS engines alive, sessions in the client cache and in libssl's server caches.
        let engines: Int
        let clientSessions: Int
        let serverSessions: Int
        /// Socket-reactor waiters (the listener's accept) and cancellations recorded for waits not registered.
        let waiters: Int
        let pendingCancellations: Int
        let seconds: Double
    }

    @Test(.timeLimit(.minutes(10)))
    func everyRequestIsAnsweredWithoutDescriptorOrMemoryGrowth() throws {
        let executable = try #require(BuiltExecutable.path("TLSLoad"), "TLSLoad was not built")
        let pki = TLSTestPKI.shared
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "--p12", pki.path("server-ec.p12"), "--password", TLSTestPKI.p12Password, "--ca", pki.path("ca.pem"),
            "--clients", "64", "--requests", "200", "--rounds", "5",
        ]
        // Fewer malloc arenas: the resident size then reflects what the TLS code holds, not allocator spread.
        process.environment = ProcessInfo.processInfo.environment.merging(["MALLOC_ARENA_MAX": "2"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let deadline = Date().addingTimeInterval(480)  // hang guard only; the run takes ~30 s in a debug build
        while process.isRunning && Date() < deadline { usleep(100_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let rounds = try text.split(separator: "\n").map { try JSONDecoder().decode(Round.self, from: Data($0.utf8)) }
        #expect(process.terminationStatus == 0, "\(text)")
        try #require(rounds.count == 5, "\(text)")
        for round in rounds {
            #expect(round.answered == 64 * 200)
            #expect(round.answered == round.expected)
            #expect(round.serverFailures == 0)
        }
        // Descriptors: every connection of a round is closed before the next one.
        #expect(rounds.last?.fds ?? 0 <= (rounds.first?.fds ?? 0) + 1, "\(text)")
        // What could grow per connection does not: each round's engines are freed (fewer than one round's 128
        // are left when it is sampled), the client keeps one session (one peer ID), the server's TLS 1.3 tickets
        // are stateless, and the reactor holds only the listener's accept.
        for round in rounds {
            #expect(round.engines < 2 * 64, "\(text)")
            #expect(round.clientSessions <= 1, "\(text)")
            #expect(round.serverSessions == 0, "\(text)")
            #expect(round.waiters <= 1, "\(text)")
            #expect(round.pendingCancellations == 0, "\(text)")
        }
        // Memory: after two warm-up rounds (caches, allocator) the resident size stays put. TLSLoad returns the
        // heap's free pages (malloc_trim) before each sample: what glibc keeps for later is not growth (without it
        // a slow run of the whole suite measured +4.1 MiB here, with no table above growing).

        #expect(rounds[4].rssKiB - rounds[2].rssKiB < 4096, "\(text)")
    }
}
