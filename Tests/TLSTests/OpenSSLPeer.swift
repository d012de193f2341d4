import Foundation
import OSecTestSupport

/// A running `openssl s_server` / `s_client`, its output collected; killed when it goes away.
final class OpenSSLPeer: @unchecked Sendable {  // output guarded by `lock`
    let process = Process()
    private let lock = NSLock()
    private var collected = Data()
    private let finished = DispatchSemaphore(value: 0)
    private let input = Pipe()

    private init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: OpenSSLCLI.executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = input
        try process.run()
        let reader = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                lock.lock()
                collected.append(chunk)
                lock.unlock()
            }
            finished.signal()
        }
    }

    deinit { terminate() }

    /// Everything the process printed so far (stdout and stderr).
    var output: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: collected, as: UTF8.self)
    }

    /// Starts `openssl s_server` on a free IPv4 port and returns it once it is listening.
    static func server(_ arguments: [String]) throws -> (OpenSSLPeer, UInt16) {
        let peer = try OpenSSLPeer(["s_server", "-accept", "0", "-4"] + arguments)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let line = peer.output.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT") }),
                let port = line.split(separator: ":").last.flatMap({ UInt16($0.trimmingCharacters(in: .whitespaces)) })
            {
                return (peer, port)
            }
            if !peer.process.isRunning { break }
            usleep(20_000)
        }
        peer.terminate()
        throw TestFailure("s_server did not start: \(peer.output)")
    }

    /// Starts `openssl s_client` connecting to 127.0.0.1:`port`, with `stdin` as its input (kept open with
    /// `-ign_eof` until the server closes).
    static func client(
        port: UInt16, _ arguments: [String], stdin: Data = Data(), ignoreEOF: Bool = true
    ) throws
        -> OpenSSLPeer
    {
        let peer = try OpenSSLPeer(
            ["s_client", "-connect", "127.0.0.1:\(port)"] + (ignoreEOF ? ["-ign_eof"] : []) + arguments)
        peer.input.fileHandleForWriting.write(stdin)
        try? peer.input.fileHandleForWriting.close()
        return peer
    }

    /// Waits for the process to exit (at most `seconds`, then kills it); returns the exit status.
    @discardableResult
    func wait(seconds: Double = 30) -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { terminate() }
        process.waitUntilExit()
        _ = finished.wait(timeout: .now() + 5)
        return process.terminationStatus
    }

    /// Kills the process if it still runs.
    func terminate() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? input.fileHandleForWriting.close()
    }
}
