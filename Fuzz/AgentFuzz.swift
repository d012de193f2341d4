// libFuzzer target for the keychain agent's request parser and dispatcher (KeychainAgentServer.serveRequests),
// what any process of the user can send on the agent's socket. Built by `Fuzz/fuzz.sh agent`.
//
// The input is the byte stream of one connection (several requests may follow each other). A reference model
// follows the same stream: it splits the frames as the protocol defines them and records what each accepted
// request means (store: id → keys; forget; forget-all). Asserted:
// - every response is one well-formed frame with a known status, in order, one per request the model expects;
// - a malformed header is answered with badRequest and ends the connection;
// - afterwards, on a new connection, `list` names exactly the keychains the model holds and `fetch` returns for
//   each exactly the keys of its last accepted store (never another keychain's keys, never stale keys).
import Foundation
import OSecKeychainAgent
import OSecSystem

/// One connection's byte streams in memory.
final class MemoryConnection: AgentConnection {
    let input: [UInt8]
    var offset = 0
    var output: [UInt8] = []

    init(_ input: [UInt8]) { self.input = input }

    func receive(exactly count: Int) throws(SystemError) -> [UInt8]? {
        if offset == input.count && count > 0 { return nil }
        guard input.count - offset >= count else {
            offset = input.count
            throw SystemError("the peer closed the connection mid-message", code: 32)
        }
        defer { offset += count }
        return Array(input[offset..<offset + count])
    }

    func receive(into buffer: SecureBuffer, offset destination: Int, count: Int) throws(SystemError) {
        guard let bytes = try receive(exactly: count) else {
            throw SystemError("the peer closed the connection mid-message", code: 32)
        }
        guard buffer.write(bytes, at: destination) else { fatalError("agent scratch write out of bounds") }
    }

    func send(_ bytes: [UInt8]) throws(SystemError) { output += bytes }

    func send(_ buffer: SecureBuffer, offset: Int, count: Int) throws(SystemError) {
        output += buffer.read(at: offset, count: count)
    }
}

/// Reads the response frames of `bytes`; stops the fuzzer when they are malformed.
func responses(_ bytes: [UInt8]) -> [(status: UInt8, payload: [UInt8])] {
    var result: [(UInt8, [UInt8])] = []
    var index = 0
    while index < bytes.count {
        guard bytes.count - index >= 5, let length = AgentProtocol.readUInt32(bytes, index + 1) else {
            fatalError("truncated response header")
        }
        guard AgentProtocol.Status(rawValue: bytes[index]) != nil else { fatalError("unknown response status") }
        let start = index + 5
        guard bytes.count - start >= Int(length) else { fatalError("response payload shorter than its length") }
        result.append((bytes[index], Array(bytes[start..<start + Int(length)])))
        index = start + Int(length)
    }
    return result
}

/// What the model expects of one request.
enum Expectation {
    case badRequestAndClose
    case request(opcode: UInt8, payload: [UInt8])
}

/// Splits the stream into frames exactly as the protocol defines them.
func frames(_ input: [UInt8]) -> [Expectation] {
    var result: [Expectation] = []
    var index = 0
    while input.count - index >= AgentProtocol.requestHeaderLength {
        let header = Array(input[index..<index + AgentProtocol.requestHeaderLength])
        guard Array(header[0..<4]) == AgentProtocol.magic, let length = AgentProtocol.readUInt32(header, 5),
            Int(length) <= AgentProtocol.maximumPayloadLength, AgentProtocol.Opcode(rawValue: header[4]) != nil
        else {
            result.append(.badRequestAndClose)
            return result
        }
        let start = index + AgentProtocol.requestHeaderLength
        guard input.count - start >= Int(length) else { return result }  // connection ends mid-payload
        result.append(.request(opcode: header[4], payload: Array(input[start..<start + Int(length)])))
        index = start + Int(length)
    }
    return result
}

func request(_ opcode: AgentProtocol.Opcode, _ payload: [UInt8]) -> [UInt8] {
    AgentProtocol.magic + [opcode.rawValue] + AgentProtocol.uint32(UInt32(payload.count)) + payload
}

nonisolated(unsafe) var agent: KeychainAgentServer?

/// The harness's password reader: answers reads whose first keychain is `/fuzz/known`, with a secret made of the
/// request (so a response can only be right for the request it answers); declines every other read.
func modelRead(_ request: AgentReadRequest) -> [UInt8]? {
    guard request.paths.first == "/fuzz/known" else { return nil }
    let secret = [request.itemClass.rawValue, UInt8(request.attributes.count), UInt8(request.accessGroups.count)]
    return secret + Array((request.attributes.first?.name ?? "").utf8)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func agentFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    // One agent for the run, emptied before each input (forget-all): the model starts empty.
    if agent == nil { agent = try? KeychainAgentServer.detached(reader: modelRead) }
    guard let server = agent else { fatalError("cannot make an agent") }
    let reset = MemoryConnection(request(.forgetAll, []))
    server.serveRequests(on: reset)
    let connection = MemoryConnection(input)
    server.serveRequests(on: connection)
    let answers = responses(connection.output)

    var model: [[UInt8]: [UInt8]] = [:]  // keychain id → key count byte ‖ keys
    var answerIndex = 0
    for expectation in frames(input) {
        guard answerIndex < answers.count else { fatalError("a request got no response") }
        let (status, payload) = answers[answerIndex]
        answerIndex += 1
        switch expectation {
        case .badRequestAndClose:
            guard status == AgentProtocol.Status.badRequest.rawValue, payload.isEmpty else {
                fatalError("a malformed header was not refused")
            }
        case .request(let opcode, let body):
            let id = body.count >= 16 ? Array(body[0..<16]) : nil
            switch AgentProtocol.Opcode(rawValue: opcode) {
            case .store:
                if status == AgentProtocol.Status.ok.rawValue {
                    guard let id, body.count >= 23, let pathLength = AgentProtocol.readUInt16(body, 21) else {
                        fatalError("a malformed store was accepted")
                    }
                    let keysStart = 23 + Int(pathLength)
                    guard keysStart < body.count else { fatalError("a store without keys was accepted") }
                    let keyCount = Int(body[keysStart])
                    guard (1...AgentProtocol.maximumKeys).contains(keyCount),
                        body.count == keysStart + 1 + keyCount * (1 + AgentProtocol.keyLength)
                    else { fatalError("a store with a wrong key count was accepted") }
                    model[id] = Array(body[keysStart..<body.count])
                } else if status == AgentProtocol.Status.full.rawValue {
                    guard model.count == KeychainAgentServer.capacity, let id, model[id] == nil else {
                        fatalError("full reported with room left")
                    }
                } else if status != AgentProtocol.Status.badRequest.rawValue {
                    fatalError("unexpected store status \(status)")
                }
            case .fetch:
                if let id, let keys = model[id] {
                    guard status == 0, payload == keys else { fatalError("fetch returned other keys") }
                } else if status != AgentProtocol.Status.notFound.rawValue {
                    fatalError("fetch of an unknown keychain answered \(status)")
                }
            case .forget:
                if let id {
                    let held = model.removeValue(forKey: id) != nil
                    guard status == 0, payload == [held ? 1 : 0] else { fatalError("forget answered wrongly") }
                } else if status != AgentProtocol.Status.badRequest.rawValue {
                    fatalError("forget without id accepted")
                }
            case .forgetAll:
                guard status == 0, payload == AgentProtocol.uint32(UInt32(model.count)) else {
                    fatalError("forget-all count wrong")
                }
                model.removeAll()
            case .settings:
                if let id, body.count >= 21, model[id] != nil {
                    guard status == 0 else { fatalError("settings of a held keychain refused") }
                } else if status == 0 {
                    fatalError("settings of an unknown keychain or a short payload accepted")
                }
            case .list:
                guard status == 0, let count = AgentProtocol.readUInt16(payload, 0), Int(count) == model.count else {
                    fatalError("list count differs from the model")
                }
            case .ping:
                guard status == 0, payload.count == 10, payload[0] == AgentProtocol.version, payload[5] & 2 != 0 else {
                    fatalError("ping answer malformed")
                }
            case .read:
                // A read is answered by the reader exactly when its payload is a well-formed request, whose
                // encoding is canonical; a malformed one is refused and the connection goes on.
                if let decoded = AgentReadRequest.decode(body) {
                    guard decoded.encoded() == body else { fatalError("a read request decoded from another encoding") }
                    if let secret = modelRead(decoded) {
                        guard status == 0, payload == secret else { fatalError("a read got another answer") }
                    } else if status != AgentProtocol.Status.notFound.rawValue || !payload.isEmpty {
                        fatalError("a declined read answered \(status)")
                    }
                } else if status != AgentProtocol.Status.badRequest.rawValue {
                    fatalError("a malformed read was not refused")
                }
            case nil:
                fatalError("the model accepted an unknown opcode")
            }
        }
    }
    guard answerIndex == answers.count else { fatalError("more responses than requests") }

    // A second connection checks the final state against the model.
    var check = request(.list, [])
    let ids = model.keys.sorted { $0.lexicographicallyPrecedes($1) }
    for id in ids { check += request(.fetch, id) }
    let second = MemoryConnection(check)
    server.serveRequests(on: second)
    let final = responses(second.output)
    guard final.count == 1 + ids.count, final[0].status == 0,
        let count = AgentProtocol.readUInt16(final[0].payload, 0), Int(count) == model.count
    else { fatalError("final listing differs from the model") }
    for (index, id) in ids.enumerated() {
        guard final[index + 1].status == 0, final[index + 1].payload == model[id] else {
            fatalError("final fetch returned keys the model does not hold")
        }
    }
    return 0
}

// MARK: Seeds

/// Records what the client sends on a real socket, and answers through a detached agent.
final class RecordingConnection: AgentConnection {
    let socket: UnixSocket
    var received: [UInt8] = []

    init(_ socket: UnixSocket) { self.socket = socket }

    func receive(exactly count: Int) throws(SystemError) -> [UInt8]? {
        let bytes = try socket.receive(exactly: count)
        received += bytes ?? []
        return bytes
    }

    func receive(into buffer: SecureBuffer, offset: Int, count: Int) throws(SystemError) {
        try socket.receive(into: buffer, offset: offset, count: count)
        received += buffer.read(at: offset, count: count)
    }

    func send(_ bytes: [UInt8]) throws(SystemError) { try socket.send(bytes) }

    func send(_ buffer: SecureBuffer, offset: Int, count: Int) throws(SystemError) {
        try socket.send(buffer, offset: offset, count: count)
    }
}

/// With OSEC_FUZZ_SEEDS=dir: the byte streams KeychainAgentClient really sends for each request (recorded on a
/// socket served by a detached agent), one file per connection and one with all of them in a row.
@_cdecl("LLVMFuzzerInitialize")
public func agentFuzzInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    guard let directory = getenv("OSEC_FUZZ_SEEDS").map({ String(cString: $0) }) else { return 0 }
    let path = "/tmp/osec-agent-seeds-\(getpid()).sock"
    guard let listener = try? UnixSocket.listen(path: path),
        let server = try? KeychainAgentServer.detached(reader: modelRead)
    else {
        fatalError("cannot make the seed agent")
    }
    let client = KeychainAgentClient(socketPath: path)
    let id1 = [UInt8](repeating: 0x11, count: 16)
    let id2 = [UInt8](repeating: 0x22, count: 16)
    let keyA = AgentKey(tag: UInt8(ascii: "A"), bytes: [UInt8](repeating: 0xA5, count: 32))
    let keyC = AgentKey(tag: UInt8(ascii: "C"), bytes: [UInt8](repeating: 0xC3, count: 32))
    let calls: [@Sendable (KeychainAgentClient) -> Void] = [
        { _ = $0.ping() },
        {
            try? $0.store(
                keychainID: id1, path: "/home/u/login.keychain-db", keys: [keyA, keyC], timeout: 300,
                lockOnSleep: true)
        },
        { try? $0.store(keychainID: id2, path: "/k2", keys: [keyA], timeout: nil, lockOnSleep: false) },
        { _ = try? $0.fetch(keychainID: id1) },
        { _ = try? $0.updateSettings(keychainID: id1, timeout: 60, lockOnSleep: false) },
        { _ = try? $0.list() },
        { _ = try? $0.forget(keychainID: id2) },
        {
            _ = try? $0.read(
                AgentReadRequest(
                    itemClass: .internetPassword, paths: ["/fuzz/known", "/k2"], accessGroups: ["group.a"],
                    attributes: [
                        .init(name: "acct", value: .text("alice")), .init(name: "port", value: .integer(8443)),
                        .init(name: "gena", value: .bytes([0, 1, 2])),
                    ]))
        },
        {
            _ = try? $0.read(AgentReadRequest(itemClass: .genericPassword, paths: [], accessGroups: [], attributes: []))
        },
        { _ = try? $0.forgetAll() },
    ]
    var all: [UInt8] = []
    for (index, call) in calls.enumerated() {
        let thread = Thread { call(client) }
        thread.start()
        guard let connection = try? listener.accept(timeoutMilliseconds: 5000) else { fatalError("no client") }
        let recorder = RecordingConnection(connection)
        server.serveRequests(on: recorder)
        all += recorder.received
        _ = FileManager.default.createFile(atPath: "\(directory)/client-\(index)", contents: Data(recorder.received))
    }
    _ = FileManager.default.createFile(atPath: "\(directory)/client-all", contents: Data(all))
    _ = unlink(path)
    return 0
}
