// TLSLoad: the TLS load test's second process. Runs `--rounds` rounds of `--clients` concurrent TLSConnection
// clients × `--requests` request/response exchanges against one TLSListener on loopback, and after each round
// prints one JSON line: requests answered, open file descriptors (/proc/self/fd), resident memory (/proc/self/statm,
// read after malloc_trim so that it counts what is in use, not what glibc keeps for later) and what could grow per
// connection: TLS engines alive, sessions in the client and server caches, socket-reactor waiters and pending
// cancellations. Exit status 0 when every request of every round was answered correctly.
//
// Usage: TLSLoad --p12 server.p12 --password pw --ca root.pem [--clients 64] [--requests 200] [--rounds 4]
import Foundation
import OSecSystem
import OSecTLSCore
import OpenSecurityTLS
import Security

struct Options {
    var p12 = ""
    var password = ""
    var ca = ""
    var clients = 64
    var requests = 200
    var rounds = 4

    static func parse(_ arguments: ArraySlice<String>) -> Options {
        var options = Options()
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            let value = iterator.next() ?? ""
            switch argument {
            case "--p12": options.p12 = value
            case "--password": options.password = value
            case "--ca": options.ca = value
            case "--clients": options.clients = Int(value) ?? options.clients
            case "--requests": options.requests = Int(value) ?? options.requests
            case "--rounds": options.rounds = Int(value) ?? options.rounds
            default:
                FileHandle.standardError.write(Data("unknown option \(argument)\n".utf8))
                exit(2)
            }
        }
        return options
    }
}

struct LoadFailure: Error, CustomStringConvertible {
    let description: String
}

/// Fixed-size messages: 32 bytes each way; the answer is the request with every byte incremented.
let messageSize = 32

func answer(to request: Data) -> Data { Data(request.map { $0 &+ 1 }) }

func readExactly(_ connection: TLSConnection, _ count: Int) async throws -> Data {
    var result = Data()
    while result.count < count {
        let chunk = try await connection.read(upTo: count - result.count)
        if chunk.isEmpty { break }
        result.append(chunk)
    }
    return result
}

/// Counts the server's live connections, so a round ends only when every one of them closed.
actor ServerBook {
    var live = 0
    var failures: [String] = []
    func opened() { live += 1 }
    func closed(_ failure: String?) {
        live -= 1
        if let failure { failures.append(failure) }
    }
}

func serve(_ listener: TLSListener, _ book: ServerBook) async {
    while true {
        guard let connection = try? await listener.accept() else { return }
        await book.opened()
        Task {
            var failure: String?
            do {
                while true {
                    let request = try await readExactly(connection, messageSize)
                    if request.isEmpty { break }
                    guard request.count == messageSize else { throw LoadFailure(description: "short request") }
                    try await connection.write(answer(to: request))
                }
            } catch {
                failure = "\(error)"
            }
            await connection.close()
            await book.closed(failure)
        }
    }
}

func runClient(_ index: Int, port: UInt16, _ configuration: TLSConfiguration, requests: Int) async throws -> Int {
    let connection = try await TLSConnection.connect(host: "127.0.0.1", port: port, configuration: configuration)
    var answered = 0
    for sequence in 0..<requests {
        var request = Data(count: messageSize)
        for offset in 0..<messageSize { request[offset] = UInt8(truncatingIfNeeded: index &* 31 &+ sequence &+ offset) }
        try await connection.write(request)
        let reply = try await readExactly(connection, messageSize)
        guard reply == answer(to: request) else { throw LoadFailure(description: "client \(index): wrong answer") }
        answered += 1
    }
    await connection.close()
    return answered
}

func descriptorCount() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1 }

/// Resident memory after returning the heap's free pages to the system.
func residentKiB() -> Int {
    ProcessMemory.trimHeap()
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
        let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return -1 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

func main() async -> Int32 {
    let options = Options.parse(CommandLine.arguments.dropFirst())
    do {
        guard let p12 = FileManager.default.contents(atPath: options.p12) else {
            throw LoadFailure(description: "cannot read \(options.p12)")
        }
        var items: CFArray?
        let status = SecPKCS12Import(
            p12 as CFData, [kSecImportExportPassphrase as String: options.password] as CFDictionary, &items)
        guard status == errSecSuccess, let first = (items as? [[String: Any]])?.first,
            let identity = first[kSecImportItemIdentity as String] as? SecIdentity
        else { throw LoadFailure(description: "SecPKCS12Import: \(status)") }
        let pem = try String(contentsOfFile: options.ca, encoding: .utf8)
        let anchors = try OpenSecurityCertificates.certificates(fromPEM: pem)

        var serverConfiguration = TLSConfiguration()
        serverConfiguration.identity = identity
        serverConfiguration.handshakeTimeout = .seconds(60)
        let credential = try TLSCredentialCache.credential(for: identity, chain: [])
        let listener = try TLSListener(configuration: serverConfiguration)
        let book = ServerBook()
        let server = Task { await serve(listener, book) }

        var clientConfiguration = TLSConfiguration()
        clientConfiguration.trustAnchors = anchors
        clientConfiguration.serverName = "localhost"
        clientConfiguration.handshakeTimeout = .seconds(60)

        let configuration = clientConfiguration
        let port = listener.port
        let requests = options.requests
        var allAnswered = true
        for round in 1...options.rounds {
            let start = Date()
            let answered = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<options.clients {
                    group.addTask { try await runClient(index, port: port, configuration, requests: requests) }
                }
                var total = 0
                for try await count in group { total += count }
                return total
            }
            while await book.live > 0 { try await Task.sleep(for: .milliseconds(10)) }
            let failures = await book.failures
            let expected = options.clients * options.requests
            allAnswered = allAnswered && answered == expected && failures.isEmpty
            let seconds = Date().timeIntervalSince(start)
            let tls = TLSEngine.liveCounts(credential: credential)
            let reactor = SocketReactor.shared.counts
            print(
                "{\"round\":\(round),\"answered\":\(answered),\"expected\":\(expected),"
                    + "\"serverFailures\":\(failures.count),\"fds\":\(descriptorCount()),\"rssKiB\":\(residentKiB()),"
                    + "\"engines\":\(tls.engines),\"clientSessions\":\(tls.clientSessions),"
                    + "\"serverSessions\":\(tls.serverSessions),\"waiters\":\(reactor.waiters),"
                    + "\"pendingCancellations\":\(reactor.pendingCancellations),"
                    + "\"seconds\":\(String(format: "%.2f", seconds))}")
        }
        listener.close()
        server.cancel()
        return allAnswered ? 0 : 1
    } catch {
        FileHandle.standardError.write(Data("TLSLoad: \(error)\n".utf8))
        return 1
    }
}

exit(await main())
