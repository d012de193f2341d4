import OSecSystem

/// The keychain agent's wire format: one request, one response, each a small binary frame on a Unix stream socket.
///
/// ```
/// request  = magic "OSA1" (4) ‖ opcode (1) ‖ payload length (4, big-endian) ‖ payload
/// response = status (1) ‖ payload length (4, big-endian) ‖ payload
/// ```
///
/// Payloads (integers big-endian; a keychain id is the keychain's random 16-byte id; a key is a tag byte
/// `A` / `C` — the protection class — followed by ``keyLength`` bytes):
///
/// | opcode | request payload | response payload |
/// |---|---|---|
/// | ``Opcode/ping`` | — | version (1) ‖ agent pid (4) ‖ flags (1) ‖ reads answered (4) |
/// | ``Opcode/store`` | id ‖ timeout (4) ‖ flags (1) ‖ path length (2) ‖ path ‖ key count (1) ‖ keys | — |
/// | ``Opcode/fetch`` | id | key count (1) ‖ keys (status ``Status/notFound`` when locked) |
/// | ``Opcode/forget`` | id | 1 when the keychain was unlocked, else 0 |
/// | ``Opcode/forgetAll`` | — | number forgotten (4) |
/// | ``Opcode/settings`` | id ‖ timeout (4) ‖ flags (1) | — (``Status/notFound`` when locked) |
/// | ``Opcode/list`` | — | count (2) ‖ per keychain: id ‖ seconds left (4) ‖ flags (1) ‖ path length (2) ‖ path |
/// | ``Opcode/read`` | an ``AgentReadRequest`` | the secret (``Status/notFound`` when the agent does not answer it) |
///
/// A timeout of ``noTimeout`` means none; flags bit 0 is "lock on sleep". Ping's flags: bit 0, the agent can be
/// dumped or traced; bit 1, it answers password reads.
package enum AgentProtocol {
    /// Protocol version (reported by ping). 2 added ``Opcode/read`` and ping's read flag and count (a client reads
    /// version 1's shorter ping too).
    package static let version: UInt8 = 2
    package static let magic: [UInt8] = Array("OSA1".utf8)
    /// Request header: magic, opcode, length.
    package static let requestHeaderLength = 9
    /// Response header: status, length.
    package static let responseHeaderLength = 5
    /// Largest payload either side accepts: bounds what a peer can make the other allocate or read.
    package static let maximumPayloadLength = 8 * 1024
    /// Bytes of each key (AES-256 class keys).
    package static let keyLength = 32
    /// Most keys per keychain entry.
    package static let maximumKeys = 4
    /// Bytes of a keychain id.
    package static let idLength = 16
    /// Longest keychain path recorded with an entry (for listings only).
    package static let maximumPathLength = 4096
    /// The timeout value meaning "never lock after inactivity".
    package static let noTimeout: UInt32 = 0xFFFF_FFFF
    /// Flag bit: lock the keychain when the system sleeps.
    package static let lockOnSleepFlag: UInt8 = 1

    /// What a request asks for.
    package enum Opcode: UInt8, Sendable {
        case ping = 1
        case store = 2
        case fetch = 3
        case forget = 4
        case forgetAll = 5
        case settings = 6
        case list = 7
        case read = 8
    }

    /// How a request went.
    package enum Status: UInt8, Sendable {
        case ok = 0
        /// The keychain is not unlocked in the agent.
        case notFound = 1
        /// The request is malformed.
        case badRequest = 2
        /// The peer is not the agent's user.
        case refused = 3
        /// The agent holds as many keychains as it has locked memory for.
        case full = 4
    }

    package static func uint32(_ value: UInt32) -> [UInt8] {
        [
            UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ]
    }

    package static func uint16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(truncatingIfNeeded: value)] }

    package static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    package static func readUInt16(_ bytes: [UInt8], _ offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }
}

/// One key held for a keychain: its protection class tag and bytes.
package struct AgentKey: Sendable, Equatable {
    /// `A` (WhenUnlocked) or `C` (AfterFirstUnlock), as an ASCII byte.
    package let tag: UInt8
    package var bytes: [UInt8]

    package init(tag: UInt8, bytes: [UInt8]) {
        self.tag = tag
        self.bytes = bytes
    }
}

/// One keychain the agent holds unlocked (from ``KeychainAgentClient/list()``).
package struct AgentEntry: Sendable, Equatable {
    package let keychainID: [UInt8]
    package let path: String
    /// Seconds of inactivity left before it locks; `nil` when it never locks by itself.
    package let secondsLeft: UInt32?
    package let lockOnSleep: Bool
}

/// What ping reports.
package struct AgentInfo: Sendable, Equatable {
    package let version: UInt8
    package let processID: Int32
    /// Whether the agent process may be dumped or traced (it makes itself non-dumpable: `false`).
    package let isDumpable: Bool
    /// Whether it answers password reads (``AgentProtocol/Opcode/read``).
    package var answersReads = false
    /// How many password reads it has answered since it started.
    package var readsAnswered: UInt32 = 0
}

/// The byte stream the agent reads requests from and writes responses to: a `UnixSocket` in the agent, memory in
/// the fuzz harness.
package protocol AgentConnection {
    /// Exactly `count` bytes; `nil` at a clean end of stream before the first byte.
    func receive(exactly count: Int) throws(SystemError) -> [UInt8]?
    /// Exactly `count` bytes, straight into `buffer` at `offset`.
    func receive(into buffer: SecureBuffer, offset: Int, count: Int) throws(SystemError)
    /// Every byte of `bytes`.
    func send(_ bytes: [UInt8]) throws(SystemError)
    /// `count` bytes of `buffer` from `offset`.
    func send(_ buffer: SecureBuffer, offset: Int, count: Int) throws(SystemError)
}

extension UnixSocket: AgentConnection {}
