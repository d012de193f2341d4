import OSecSystem

/// Why a call to the keychain agent failed.
package enum KeychainAgentError: Error, Sendable, CustomStringConvertible {
    /// No agent listens (no socket, or a stale one).
    case notRunning
    /// The agent refused us, or the socket is served by another user's process.
    case refused(String)
    /// The agent holds as many keychains as it can.
    case full
    /// A malformed or unexpected answer.
    case protocolError(String)
    /// The agent could not be started.
    case startFailed(String)
    /// A system call failed (the runtime directory is unsafe, a timeout…).
    case system(SystemError)

    package var description: String {
        switch self {
        case .notRunning: return "the keychain agent is not running"
        case .refused(let why): return "the keychain agent refused the request: \(why)"
        case .full: return "the keychain agent holds as many keychains as it can"
        case .protocolError(let why): return "unexpected answer from the keychain agent: \(why)"
        case .startFailed(let why): return "the keychain agent did not start: \(why)"
        case .system(let error): return "keychain agent: \(error)"
        }
    }
}

/// Talks to the per-user keychain agent (see ``KeychainAgentServer``) over its Unix socket.
///
/// Every connection checks that the process serving the socket belongs to the same user (`SO_PEERCRED`), so a
/// socket planted by someone else is never trusted with keys. Calls are bounded by a timeout: a stuck agent makes
/// them fail, never hang.
package struct KeychainAgentClient: Sendable {
    /// The socket's path.
    package let socketPath: String

    /// File name of the socket inside the runtime directory.
    package static let socketName = "keychain-agent.sock"
    /// Seconds a call may take.
    package static let timeoutSeconds = 5.0
    /// Seconds ``start(executable:arguments:)`` waits for a new agent to answer.
    package static let startTimeoutSeconds = 5.0

    /// Environment variable that turns the agent off for a process when set to `off` (or `0`).
    package static let switchVariable = "OPENSECURITY_KEYCHAIN_AGENT"

    /// Read once: whether this process's environment lets it use the agent at all (``switchVariable``).
    package static let isEnabledByEnvironment: Bool = {
        let value = SystemProcess.environment(switchVariable)?.lowercased()
        return value != "off" && value != "0"
    }()

    package init(socketPath: String) {
        self.socketPath = socketPath
    }

    /// The socket path in the user's runtime directory (not created, not checked).
    package static func defaultSocketPath() -> String {
        RuntimeDirectory.path() + "/" + socketName
    }

    /// The socket path, with the runtime directory created (0700) and checked.
    package static func prepareSocketPath() throws(SystemError) -> String {
        try RuntimeDirectory.prepare() + "/" + socketName
    }

    /// The client for the current user's agent, or `nil` when its runtime directory does not exist or is unsafe
    /// (then no agent can be running for us).
    package static func current() -> KeychainAgentClient? {
        guard let directory = RuntimeDirectory.existing() else { return nil }
        return KeychainAgentClient(socketPath: directory + "/" + socketName)
    }

    // MARK: Requests

    /// The agent's version and pid, or `nil` when no agent answers.
    package func ping() -> AgentInfo? {
        guard let payload = try? call(.ping, []), payload.count == 6 || payload.count == 10,
            let pid = AgentProtocol.readUInt32(payload, 1)
        else { return nil }
        var info = AgentInfo(version: payload[0], processID: Int32(bitPattern: pid), isDumpable: payload[5] & 1 != 0)
        if let reads = AgentProtocol.readUInt32(payload, 6) {
            info.answersReads = payload[5] & 2 != 0
            info.readsAnswered = reads
        }
        return info
    }

    /// Hands the agent a keychain's keys (replacing what it held for that keychain).
    /// - Parameters:
    ///   - keychainID: the keychain's 16-byte id (``AgentProtocol/idLength``).
    ///   - path: the keychain's path, for listings only.
    ///   - keys: its unwrapped class keys (at most ``AgentProtocol/maximumKeys``, each ``AgentProtocol/keyLength``).
    ///   - timeout: seconds of inactivity before the agent locks it; `nil` for never.
    ///   - lockOnSleep: whether the agent locks it when the system sleeps.
    package func store(
        keychainID: [UInt8], path: String, keys: [AgentKey], timeout: UInt32?, lockOnSleep: Bool
    ) throws(KeychainAgentError) {
        guard keychainID.count == AgentProtocol.idLength, !keys.isEmpty, keys.count <= AgentProtocol.maximumKeys,
            keys.allSatisfy({ $0.bytes.count == AgentProtocol.keyLength })
        else { throw .protocolError("bad keys for the agent") }
        let pathBytes = Array(path.utf8.prefix(AgentProtocol.maximumPathLength))
        var payload = keychainID + AgentProtocol.uint32(timeout ?? AgentProtocol.noTimeout)
        payload.append(lockOnSleep ? AgentProtocol.lockOnSleepFlag : 0)
        payload += AgentProtocol.uint16(UInt16(pathBytes.count)) + pathBytes
        payload.append(UInt8(keys.count))
        for key in keys { payload += [key.tag] + key.bytes }
        defer { Self.wipe(&payload) }
        _ = try call(.store, payload)
    }

    /// The keys the agent holds for a keychain, or `nil` when it is locked there.
    package func fetch(keychainID: [UInt8]) throws(KeychainAgentError) -> [AgentKey]? {
        var payload: [UInt8]
        do {
            payload = try call(.fetch, keychainID)
        } catch {
            if case .protocolError(let why) = error, why == Self.notFoundMarker { return nil }
            throw error
        }
        defer { Self.wipe(&payload) }
        guard let count = payload.first, payload.count == 1 + Int(count) * (1 + AgentProtocol.keyLength) else {
            throw .protocolError("malformed keys")
        }
        var keys: [AgentKey] = []
        for index in 0..<Int(count) {
            let start = 1 + index * (1 + AgentProtocol.keyLength)
            keys.append(
                AgentKey(tag: payload[start], bytes: Array(payload[(start + 1)...(start + AgentProtocol.keyLength)])))
        }
        return keys
    }

    /// The secret the agent reads for `request`, or `nil` when it does not answer (no match, a locked keychain,
    /// an agent without a reader, a request too large to send): the caller then looks it up itself.
    package func read(_ request: AgentReadRequest) throws(KeychainAgentError) -> [UInt8]? {
        guard let payload = request.encoded() else { return nil }
        do {
            return try call(.read, payload)
        } catch {
            if case .protocolError(let why) = error, why == Self.notFoundMarker { return nil }
            throw error
        }
    }

    /// Locks a keychain in the agent. Returns whether it was unlocked there.
    @discardableResult
    package func forget(keychainID: [UInt8]) throws(KeychainAgentError) -> Bool {
        try call(.forget, keychainID).first == 1
    }

    /// Locks every keychain the agent holds. Returns how many there were.
    @discardableResult
    package func forgetAll() throws(KeychainAgentError) -> Int {
        Int(AgentProtocol.readUInt32(try call(.forgetAll, []), 0) ?? 0)
    }

    /// Changes the timeout and lock-on-sleep setting of a keychain the agent holds. Returns `false` when the
    /// keychain is not unlocked there.
    @discardableResult
    package func updateSettings(
        keychainID: [UInt8], timeout: UInt32?, lockOnSleep: Bool
    ) throws(KeychainAgentError) -> Bool {
        var payload = keychainID + AgentProtocol.uint32(timeout ?? AgentProtocol.noTimeout)
        payload.append(lockOnSleep ? AgentProtocol.lockOnSleepFlag : 0)
        do {
            _ = try call(.settings, payload)
            return true
        } catch {
            if case .protocolError(let why) = error, why == Self.notFoundMarker { return false }
            throw error
        }
    }

    /// The keychains the agent holds unlocked.
    package func list() throws(KeychainAgentError) -> [AgentEntry] {
        let payload = try call(.list, [])
        guard let count = AgentProtocol.readUInt16(payload, 0) else { throw .protocolError("malformed list") }
        var entries: [AgentEntry] = []
        var offset = 2
        for _ in 0..<count {
            let idEnd = offset + AgentProtocol.idLength
            guard let left = AgentProtocol.readUInt32(payload, idEnd), idEnd + 5 <= payload.count,
                let pathLength = AgentProtocol.readUInt16(payload, idEnd + 5),
                idEnd + 7 + Int(pathLength) <= payload.count
            else { throw .protocolError("malformed list") }
            let path = String(decoding: payload[(idEnd + 7)..<(idEnd + 7 + Int(pathLength))], as: UTF8.self)
            entries.append(
                AgentEntry(
                    keychainID: Array(payload[offset..<idEnd]), path: path,
                    secondsLeft: left == AgentProtocol.noTimeout ? nil : left,
                    lockOnSleep: payload[idEnd + 4] & AgentProtocol.lockOnSleepFlag != 0))
            offset = idEnd + 7 + Int(pathLength)
        }
        return entries
    }

    // MARK: Starting

    /// The running agent, or a new one started as `executable arguments…` (detached, in its own session) when
    /// none answers — a stale socket is replaced by the new agent.
    package static func start(executable: String, arguments: [String]) throws(KeychainAgentError) -> KeychainAgentClient
    {
        let path: String
        do {
            path = try prepareSocketPath()
        } catch {
            throw .system(error)
        }
        let client = KeychainAgentClient(socketPath: path)
        if client.ping() != nil { return client }
        let pid: Int32
        do {
            pid = try SystemProcess.spawnDetached(executable, arguments: arguments)
        } catch {
            throw .startFailed("\(error)")
        }
        let deadline = SystemProcess.monotonicSeconds + startTimeoutSeconds
        while SystemProcess.monotonicSeconds < deadline {
            if client.ping() != nil { return client }
            if let status = SystemProcess.reap(pid) {
                // It exited: another agent may have won a race to the socket; else it failed.
                if client.ping() != nil { return client }
                throw .startFailed("\(executable) exited with status \(status >> 8 & 0xFF)")
            }
            SystemProcess.sleep(milliseconds: 10)
        }
        throw .startFailed("no answer within \(Int(startTimeoutSeconds)) s")
    }

    // MARK: Transport

    private static let notFoundMarker = "not unlocked in the agent"

    private func connect() throws(KeychainAgentError) -> UnixSocket {
        let socket: UnixSocket
        do {
            socket = try UnixSocket.connect(path: socketPath)
        } catch {
            if error.isNotFound || error.isConnectionRefused { throw .notRunning }
            throw .system(error)
        }
        socket.setTimeout(seconds: Self.timeoutSeconds)
        // Never hand keys to (or take keys from) a process of another user.
        guard let server = try? socket.peerCredentials() else { throw .refused("cannot identify the agent") }
        guard server.userID == SystemProcess.userID else {
            throw .refused("the socket \(socketPath) is served by uid \(server.userID)")
        }
        return socket
    }

    private func call(_ opcode: AgentProtocol.Opcode, _ payload: [UInt8]) throws(KeychainAgentError) -> [UInt8] {
        guard payload.count <= AgentProtocol.maximumPayloadLength else { throw .protocolError("request too large") }
        let socket = try connect()
        var frame = AgentProtocol.magic + [opcode.rawValue] + AgentProtocol.uint32(UInt32(payload.count)) + payload
        defer { Self.wipe(&frame) }
        do {
            try socket.send(frame)
            guard let header = try socket.receive(exactly: AgentProtocol.responseHeaderLength) else {
                throw KeychainAgentError.refused("the agent closed the connection")
            }
            guard let length = AgentProtocol.readUInt32(header, 1), Int(length) <= AgentProtocol.maximumPayloadLength,
                let status = AgentProtocol.Status(rawValue: header[0])
            else { throw KeychainAgentError.protocolError("malformed response header") }
            let body = Int(length) == 0 ? [] : (try socket.receive(exactly: Int(length)) ?? [])
            guard body.count == Int(length) else { throw KeychainAgentError.protocolError("short response") }
            switch status {
            case .ok: return body
            case .notFound: throw KeychainAgentError.protocolError(Self.notFoundMarker)
            case .badRequest: throw KeychainAgentError.protocolError("the agent rejected the request as malformed")
            case .refused: throw KeychainAgentError.refused("not the agent's user")
            case .full: throw KeychainAgentError.full
            }
        } catch let error as KeychainAgentError {
            throw error
        } catch let error as SystemError {
            throw .system(error)
        } catch {
            throw .protocolError("\(error)")
        }
    }

    /// Overwrites `bytes` with zeros.
    package static func wipe(_ bytes: inout [UInt8]) {
        for index in bytes.indices { bytes[index] = 0 }
    }
}
