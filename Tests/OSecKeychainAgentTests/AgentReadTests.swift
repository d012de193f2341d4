import Foundation
import OSecKeychainAgent
import OSecSystem
import Testing

/// The agent's password reads (`read`, protocol version 2): the request's wire form, and a read served through a
/// real socket by an agent whose reader is a test double.
struct AgentReadTests {
    static let sample = AgentReadRequest(
        itemClass: .internetPassword, paths: ["/home/u/.local/share/keychains/login.keychain-db", "/k2"],
        accessGroups: ["group.a", "group.b"],
        attributes: [
            .init(name: "acct", value: .text("alice ü")), .init(name: "port", value: .integer(8443)),
            .init(name: "crtr", value: .integer(-1)), .init(name: "gena", value: .bytes([0, 0xFF])),
            .init(name: "srvr", value: .text("")),
        ])

    @Test func aRequestSurvivesItsWireForm() throws {
        let encoded = try #require(Self.sample.encoded())
        #expect(AgentReadRequest.decode(encoded) == Self.sample)
        let empty = AgentReadRequest(itemClass: .genericPassword, paths: [], accessGroups: [], attributes: [])
        #expect(try #require(empty.encoded()) == [0, 0, 0, 0])
        #expect(AgentReadRequest.decode([0, 0, 0, 0]) == empty)
        // The integer is 8 bytes big-endian, two's complement.
        let one = AgentReadRequest(
            itemClass: .genericPassword, paths: [], accessGroups: [],
            attributes: [.init(name: "type", value: .integer(-2))])
        #expect(
            try #require(one.encoded())
                == [0, 0, 0, 1] + Array("type".utf8) + [1, 0, 8, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE])
    }

    @Test func everyMalformedRequestIsRefused() throws {
        let encoded = try #require(Self.sample.encoded())
        // Every truncation, and any trailing byte.
        for length in 0..<encoded.count {
            #expect(AgentReadRequest.decode(Array(encoded.prefix(length))) == nil, "truncated to \(length)")
        }
        #expect(AgentReadRequest.decode(encoded + [0]) == nil)
        // A class, a type, a name, a text and an integer length out of their rules.
        #expect(AgentReadRequest.decode([2, 0, 0, 0]) == nil, "no such class")
        let attribute = { (name: [UInt8], type: UInt8, value: [UInt8]) -> [UInt8] in
            [0, 0, 0, 1] + name + [type] + [UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value
        }
        #expect(AgentReadRequest.decode(attribute(Array("acct".utf8), 0, Array("x".utf8))) != nil)
        #expect(AgentReadRequest.decode(attribute(Array("acct".utf8), 3, [])) == nil, "no such type")
        #expect(AgentReadRequest.decode(attribute([0x61, 0x63, 0x63, 0x0A], 0, [])) == nil, "a control character")
        #expect(AgentReadRequest.decode(attribute(Array("acct".utf8), 0, [0xC3, 0x28])) == nil, "not UTF-8")
        #expect(AgentReadRequest.decode(attribute(Array("port".utf8), 1, [0, 1])) == nil, "a 2-byte integer")
        #expect(AgentReadRequest.decode([0, UInt8(AgentReadRequest.maximumPaths + 1)]) == nil, "too many paths")
        // What cannot be sent is not encoded (the client then reads the keychain itself).
        let longName = AgentReadRequest(
            itemClass: .genericPassword, paths: [], accessGroups: [],
            attributes: [.init(name: "acct2", value: .text(""))])
        #expect(longName.encoded() == nil)
        let tooLarge = AgentReadRequest(
            itemClass: .genericPassword, paths: [String(repeating: "p", count: AgentProtocol.maximumPayloadLength)],
            accessGroups: [], attributes: [])
        #expect(tooLarge.encoded() == nil)
    }

    /// A real socket: the client's read reaches the reader as the request it sent, its answer comes back; a declined
    /// read is `nil`; ping reports the reads answered. An agent without a reader declines every read.
    @Test func aReadIsServedOverTheSocket() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("osec-agent-read-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createDirectory(
            at: base, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = base.path + "/agent.sock"
        let listener = try UnixSocket.listen(path: path)
        let received = LockedBox<[AgentReadRequest]>([])
        let server = try KeychainAgentServer.detached { request in
            received.update { $0.append(request) }
            return request.paths.first == "/known" ? Array("s3cret".utf8) : nil
        }
        let client = KeychainAgentClient(socketPath: path)
        let known = AgentReadRequest(
            itemClass: .genericPassword, paths: ["/known"], accessGroups: [],
            attributes: [.init(name: "svce", value: .text("app"))])
        let unknown = AgentReadRequest(itemClass: .genericPassword, paths: ["/other"], accessGroups: [], attributes: [])

        let answers = LockedBox<[[UInt8]?]>([])
        let info = LockedBox<AgentInfo?>(nil)
        let thread = Thread {
            answers.update { $0.append(try? client.read(known)) }
            answers.update { $0.append(try? client.read(unknown)) }
            info.update { $0 = client.ping() }
        }
        thread.start()
        for _ in 0..<3 {
            let connection = try #require(try listener.accept(timeoutMilliseconds: 5000))
            server.serveRequests(on: connection)
        }
        let deadline = Date().addingTimeInterval(5)
        while info.value == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(received.value == [known, unknown])
        #expect(answers.value.count == 2)
        #expect(answers.value.first.flatMap { $0 } == Array("s3cret".utf8))
        #expect(answers.value.last.flatMap { $0 } == nil)
        let reported = try #require(info.value)
        #expect(reported.version == AgentProtocol.version)
        #expect(reported.answersReads)
        #expect(reported.readsAnswered == 1)

        // Without a reader: every read is declined, and ping says so.
        let plain = try KeychainAgentServer.detached()
        let plainInfo = LockedBox<AgentInfo?>(nil)
        let plainAnswer = LockedBox<[UInt8]??>(nil)
        let second = Thread {
            plainAnswer.update { $0 = .some(try? client.read(known)) }
            plainInfo.update { $0 = client.ping() }
        }
        second.start()
        for _ in 0..<2 {
            let connection = try #require(try listener.accept(timeoutMilliseconds: 5000))
            plain.serveRequests(on: connection)
        }
        while plainInfo.value == nil && Date() < deadline.addingTimeInterval(5) { Thread.sleep(forTimeInterval: 0.01) }
        #expect(plainAnswer.value == .some(nil))
        #expect(plainInfo.value?.answersReads == false)
    }
}

/// A value shared between the test and the client thread.
final class LockedBox<Value>: @unchecked Sendable {  // guarded by lock
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
