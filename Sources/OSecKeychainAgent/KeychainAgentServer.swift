import OSecSystem

/// The per-user keychain agent: holds the unwrapped class keys of keychains unlocked by `security
/// unlock-keychain` (or `SecKeychainUnlock` while an agent runs) so that later processes of the same user can read
/// them, until `lock-keychain`, the keychain's inactivity timeout, sleep (for lock-on-sleep keychains), logout or
/// reboot; and, given a reader by its host, answers password reads (``AgentReadRequest``) for the `security`
/// front end.
///
/// ## What it protects
/// - Keys live only in one OSecSystem `SecureBuffer` (locked in RAM, excluded from core dumps); requests and
///   responses are assembled there too, and every slot is zeroed when a keychain locks and when the agent exits.
/// - The process is non-dumpable (no core file, no `ptrace` or `/proc/<pid>/mem` for other processes of the user).
/// - Only peers with the agent's own uid are served (`SO_PEERCRED`); the socket lives in a 0700 directory the user
///   owns (`RuntimeDirectory` in OSecSystem).
///
/// ## When it exits
/// When nothing has been unlocked and no request has come for ``idleExitSeconds`` (``readerIdleExitSeconds`` for an
/// agent that answers password reads), when its socket is removed or replaced (logout removes `$XDG_RUNTIME_DIR`),
/// or on SIGTERM / SIGINT / SIGHUP. Killed with SIGKILL it loses only the unlock state: the keychains are files, and
/// the next start replaces the stale socket.
package final class KeychainAgentServer {
    /// Keychains held at most (each slot is `slotLength` bytes of locked memory).
    package static let capacity = 64
    /// Seconds the agent stays up with nothing unlocked: the start-up grace, and after the last lock or the last
    /// request (so a client that has just seen the agent answer can count on it for a store that follows).
    package static let idleExitSeconds = 10.0
    /// Seconds a connected peer may take to send a request or read a response.
    package static let peerTimeoutSeconds = 2.0
    /// A gap this much larger on the boot clock than on the monotonic clock means the system slept.
    static let sleepDetectionSeconds = 5.0
    /// Seconds an agent that answers password reads stays up after the last request with nothing unlocked: the
    /// processes that ask it (scripts calling `security find-generic-password` in a loop) are short-lived.
    package static let readerIdleExitSeconds = 600.0

    /// in-use (1) ‖ id (16) ‖ key count (1) ‖ keys (tag 1 + key 32 each)
    static let slotLength = 1 + AgentProtocol.idLength + 1 + AgentProtocol.maximumKeys * (1 + AgentProtocol.keyLength)

    /// Non-secret facts about an occupied slot.
    struct Entry {
        var path: String
        var timeout: UInt32
        var lockOnSleep: Bool
        var lastUse: Double
    }

    private let memory: SecureBuffer
    private let scratch: Int
    /// Answers ``AgentProtocol/Opcode/read`` requests (the secret, or `nil` to decline); without one every read is
    /// declined. The agent's host supplies it: this layer does not open keychains.
    private let reader: AgentReader?
    /// Password reads answered since the agent started (reported by ping).
    private var readsAnswered: UInt32 = 0
    private var entries: [Int: Entry] = [:]
    private let userID = SystemProcess.userID
    private let socketPath: String
    private var emptySince = SystemProcess.bootSeconds
    private var sleepBaseline = SystemProcess.bootSeconds - SystemProcess.monotonicSeconds

    private init(socketPath: String, memory: SecureBuffer, reader: AgentReader?) {
        self.socketPath = socketPath
        self.memory = memory
        self.scratch = Self.capacity * Self.slotLength
        self.reader = reader
    }

    /// An agent that serves no socket: requests reach it through ``serveRequests(on:)`` only (the fuzz harness
    /// and tests). Its keys live in locked memory as in a running agent.
    package static func detached(reader: AgentReader? = nil) throws(SystemError) -> KeychainAgentServer {
        let memory = try SecureBuffer(minimumCount: capacity * slotLength + AgentProtocol.maximumPayloadLength)
        return KeychainAgentServer(socketPath: "", memory: memory, reader: reader)
    }

    /// How a run ended.
    package enum Exit: Equatable, Sendable {
        /// Nothing was unlocked for ``idleExitSeconds``.
        case idle
        /// A signal asked it to stop.
        case terminated
        /// Its socket was removed or replaced.
        case socketGone
        /// Another agent already serves the socket.
        case alreadyRunning
    }

    /// Runs the agent on `socketPath` (default: ``KeychainAgentClient/defaultSocketPath()``) until it exits;
    /// `reader` answers password reads (see ``AgentReadRequest``).
    /// - Throws: `SystemError` when it cannot harden itself, lock memory or bind the socket.
    package static func run(socketPath: String? = nil, reader: AgentReader? = nil) throws(SystemError) -> Exit {
        try ProcessHardening.forbidCoreDumps()
        ProcessHardening.ignoreBrokenPipes()
        SystemProcess.recordTerminationSignals()
        let path: String
        if let socketPath { path = socketPath } else { path = try KeychainAgentClient.prepareSocketPath() }
        let memory = try SecureBuffer(minimumCount: capacity * slotLength + AgentProtocol.maximumPayloadLength)
        guard let listener = try bind(path) else { return .alreadyRunning }
        let server = KeychainAgentServer(socketPath: path, memory: memory, reader: reader)
        let identity = FileStatus.of(path)
        let exit = server.serve(listener, identity: identity)
        server.forgetAll()
        // Remove the socket only while it is still ours (a newer agent may have replaced it).
        if let now = FileStatus.of(path), now.identity == identity?.identity {
            _ = POSIXFiles.removeSocket(path)
        }
        return exit
    }

    /// Binds the socket, replacing a stale one; `nil` when a live agent answers on it.
    private static func bind(_ path: String) throws(SystemError) -> UnixSocket? {
        do {
            return try UnixSocket.listen(path: path)
        } catch  where error.isAddressInUse {
            if (try? UnixSocket.connect(path: path)) != nil { return nil }
            // Nobody listens: a stale socket left by an agent that was killed.
            _ = POSIXFiles.removeSocket(path)
            return try UnixSocket.listen(path: path)
        }
    }

    private func serve(_ listener: UnixSocket, identity: FileStatus?) -> Exit {
        while true {
            if SystemProcess.terminationRequested { return .terminated }
            expire()
            let idleLimit = reader == nil ? Self.idleExitSeconds : Self.readerIdleExitSeconds
            if entries.isEmpty && SystemProcess.bootSeconds - emptySince >= idleLimit { return .idle }
            let now = FileStatus.of(socketPath)
            guard let now, now.identity == identity?.identity else { return .socketGone }
            guard let connection = try? listener.accept(timeoutMilliseconds: 500) else { continue }
            handle(connection)
            // A request restarts the idle grace: `start` pings before a store, and the store must find us.
            if entries.isEmpty { emptySince = SystemProcess.bootSeconds }
        }
    }

    // MARK: Requests

    private func handle(_ connection: UnixSocket) {
        connection.setTimeout(seconds: Self.peerTimeoutSeconds)
        guard let peer = try? connection.peerCredentials(), Self.accepts(peer: peer, agentUserID: userID) else {
            try? connection.send(Self.response(.refused, []))
            return
        }
        serveRequests(on: connection)
    }

    /// Serves the requests of one accepted, authorized connection. Several requests may share a connection; it
    /// ends at EOF, on a timeout or on a malformed frame. (The fuzz harness drives this over memory.)
    package func serveRequests(on connection: some AgentConnection) {
        while let header = try? connection.receive(exactly: AgentProtocol.requestHeaderLength) {
            guard Array(header[0..<4]) == AgentProtocol.magic, let length = AgentProtocol.readUInt32(header, 5),
                Int(length) <= AgentProtocol.maximumPayloadLength,
                let opcode = AgentProtocol.Opcode(rawValue: header[4])
            else {
                try? connection.send(Self.response(.badRequest, []))
                return
            }
            let count = Int(length)
            // The payload (it may carry keys) goes straight into locked memory.
            guard (try? connection.receive(into: memory, offset: scratch, count: count)) != nil else { return }
            let sent = respond(to: opcode, payloadLength: count, on: connection)
            memory.zero(at: scratch, count: AgentProtocol.maximumPayloadLength)
            if !sent { return }
        }
    }

    /// Whether a peer may use the agent: only processes of the agent's own user.
    package static func accepts(peer: PeerCredentials, agentUserID: UInt32) -> Bool {
        peer.userID == agentUserID
    }

    private static func response(_ status: AgentProtocol.Status, _ payload: [UInt8]) -> [UInt8] {
        [status.rawValue] + AgentProtocol.uint32(UInt32(payload.count)) + payload
    }

    /// Answers one request; `false` when the connection should end.
    private func respond(
        to opcode: AgentProtocol.Opcode, payloadLength: Int, on connection: some AgentConnection
    ) -> Bool {
        let request = Request(memory: memory, start: scratch, count: payloadLength)
        switch opcode {
        case .ping:
            let pid = UInt32(bitPattern: SystemProcess.processID)
            let flags: UInt8 = (ProcessHardening.isDumpable ? 1 : 0) | (reader == nil ? 0 : 2)
            return send(
                [AgentProtocol.version] + AgentProtocol.uint32(pid) + [flags] + AgentProtocol.uint32(readsAnswered),
                on: connection)
        case .store:
            return send(status: store(request), on: connection)
        case .fetch:
            guard let id = request.id(), let slot = slot(for: id) else {
                return send(status: .notFound, on: connection)
            }
            entries[slot]?.lastUse = SystemProcess.bootSeconds
            let keyCount = Int(memory.read(at: slotStart(slot) + 1 + AgentProtocol.idLength, count: 1).first ?? 0)
            let keysLength = keyCount * (1 + AgentProtocol.keyLength)
            let header = [AgentProtocol.Status.ok.rawValue] + AgentProtocol.uint32(UInt32(1 + keysLength))
            guard (try? connection.send(header)) != nil else { return false }
            let keys = slotStart(slot) + 1 + AgentProtocol.idLength
            return (try? connection.send(memory, offset: keys, count: 1 + keysLength)) != nil
        case .forget:
            guard let id = request.id() else { return send(status: .badRequest, on: connection) }
            let slot = slot(for: id)
            if let slot { release(slot) }
            return send([slot == nil ? 0 : 1], on: connection)
        case .forgetAll:
            let count = UInt32(entries.count)
            forgetAll()
            return send(AgentProtocol.uint32(count), on: connection)
        case .settings:
            guard let id = request.id(), let timeout = request.uint32(at: AgentProtocol.idLength),
                let flags = request.byte(at: AgentProtocol.idLength + 4)
            else { return send(status: .badRequest, on: connection) }
            guard let slot = slot(for: id) else { return send(status: .notFound, on: connection) }
            entries[slot]?.timeout = timeout
            entries[slot]?.lockOnSleep = flags & AgentProtocol.lockOnSleepFlag != 0
            return send(status: .ok, on: connection)
        case .list:
            return send(listing(), on: connection)
        case .read:
            guard let reader else { return send(status: .notFound, on: connection) }
            guard let read = AgentReadRequest.decode(request.bytes(at: 0, count: payloadLength) ?? []) else {
                return send(status: .badRequest, on: connection)
            }
            guard var secret = reader(read), secret.count <= AgentProtocol.maximumPayloadLength else {
                return send(status: .notFound, on: connection)
            }
            defer { KeychainAgentClient.wipe(&secret) }
            var frame = Self.response(.ok, secret)
            defer { KeychainAgentClient.wipe(&frame) }
            guard (try? connection.send(frame)) != nil else { return false }
            readsAnswered &+= 1
            return true
        }
    }

    private func send(_ payload: [UInt8], on connection: some AgentConnection) -> Bool {
        (try? connection.send(Self.response(.ok, payload))) != nil
    }

    private func send(status: AgentProtocol.Status, on connection: some AgentConnection) -> Bool {
        (try? connection.send(Self.response(status, []))) != nil
    }

    private func store(_ request: Request) -> AgentProtocol.Status {
        let idLength = AgentProtocol.idLength
        guard let id = request.id(), let timeout = request.uint32(at: idLength),
            let flags = request.byte(at: idLength + 4), let pathLength = request.uint16(at: idLength + 5),
            Int(pathLength) <= AgentProtocol.maximumPathLength,
            let path = request.text(at: idLength + 7, count: Int(pathLength)),
            let keyCount = request.byte(at: idLength + 7 + Int(pathLength)),
            keyCount > 0, Int(keyCount) <= AgentProtocol.maximumKeys
        else { return .badRequest }
        let keysStart = idLength + 8 + Int(pathLength)
        let keysLength = Int(keyCount) * (1 + AgentProtocol.keyLength)
        guard keysStart + keysLength == request.count else { return .badRequest }
        let target = slot(for: id) ?? (0..<Self.capacity).first { entries[$0] == nil }
        guard let target else { return .full }
        let start = slotStart(target)
        memory.zero(at: start, count: Self.slotLength)
        memory.write([1], at: start)
        memory.write(id, at: start + 1)
        memory.write([keyCount], at: start + 1 + idLength)
        memory.copy(from: request.start + keysStart, to: start + 2 + idLength, count: keysLength)
        entries[target] = Entry(
            path: path, timeout: timeout, lockOnSleep: flags & AgentProtocol.lockOnSleepFlag != 0,
            lastUse: SystemProcess.bootSeconds)
        return .ok
    }

    private func listing() -> [UInt8] {
        var payload = AgentProtocol.uint16(UInt16(entries.count))
        let now = SystemProcess.bootSeconds
        for (slot, entry) in entries.sorted(by: { $0.key < $1.key }) {
            payload += memory.read(at: slotStart(slot) + 1, count: AgentProtocol.idLength)
            var left = AgentProtocol.noTimeout
            if entry.timeout != AgentProtocol.noTimeout {
                left = UInt32(max(0, (Double(entry.timeout) - (now - entry.lastUse)).rounded(.up)))
            }
            payload += AgentProtocol.uint32(left)
            payload.append(entry.lockOnSleep ? AgentProtocol.lockOnSleepFlag : 0)
            let path = Array(entry.path.utf8.prefix(AgentProtocol.maximumPathLength))
            payload += AgentProtocol.uint16(UInt16(path.count)) + path
        }
        return payload
    }

    // MARK: Slots and timeouts

    private func slotStart(_ slot: Int) -> Int { slot * Self.slotLength }

    private func slot(for id: [UInt8]) -> Int? {
        entries.keys.first { memory.matches(id, at: slotStart($0) + 1) }
    }

    private func release(_ slot: Int) {
        memory.zero(at: slotStart(slot), count: Self.slotLength)
        entries[slot] = nil
        if entries.isEmpty { emptySince = SystemProcess.bootSeconds }
    }

    private func forgetAll() {
        for slot in Array(entries.keys) { release(slot) }
        memory.zero(at: 0, count: memory.count)
    }

    /// Locks keychains idle for longer than their timeout, and lock-on-sleep keychains after a suspend.
    private func expire() {
        let now = SystemProcess.bootSeconds
        let asleep = now - SystemProcess.monotonicSeconds
        let slept = asleep - sleepBaseline > Self.sleepDetectionSeconds
        sleepBaseline = asleep
        for (slot, entry) in entries {
            let idle = entry.timeout != AgentProtocol.noTimeout && now - entry.lastUse >= Double(entry.timeout)
            if idle || (slept && entry.lockOnSleep) { release(slot) }
        }
    }
}

/// What answers password reads in an agent: the secret of the first match, or `nil` to decline (no match, a
/// locked keychain, any error — the client then looks it up itself).
package typealias AgentReader = (AgentReadRequest) -> [UInt8]?

/// A request payload in the agent's scratch memory.
private struct Request {
    let memory: SecureBuffer
    let start: Int
    let count: Int

    func byte(at offset: Int) -> UInt8? {
        guard offset >= 0, offset < count else { return nil }
        return memory.read(at: start + offset, count: 1).first
    }

    func bytes(at offset: Int, count length: Int) -> [UInt8]? {
        guard offset >= 0, length >= 0, offset + length <= count else { return nil }
        return memory.read(at: start + offset, count: length)
    }

    func id() -> [UInt8]? { bytes(at: 0, count: AgentProtocol.idLength) }

    func uint32(at offset: Int) -> UInt32? { bytes(at: offset, count: 4).flatMap { AgentProtocol.readUInt32($0, 0) } }

    func uint16(at offset: Int) -> UInt16? { bytes(at: offset, count: 2).flatMap { AgentProtocol.readUInt16($0, 0) } }

    func text(at offset: Int, count length: Int) -> String? {
        bytes(at: offset, count: length).map { String(decoding: $0, as: UTF8.self) }
    }
}
