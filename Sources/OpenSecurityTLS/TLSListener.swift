import Foundation
import OSecSystem
import OSecTLSCore
import Security

/// Accepts TLS connections on a TCP port with a server identity.
///
/// ```swift
/// var configuration = TLSConfiguration()
/// configuration.identity = serverIdentity
/// configuration.clientAuthentication = .required
/// configuration.trustAnchors = [clientCA]
/// let listener = try TLSListener(port: 8443, configuration: configuration)
/// while true {
///     let connection = try await listener.accept()
///     Task { try await serve(connection) }   // the handshake runs on the first read or write
/// }
/// ```
public final class TLSListener: Sendable {
    private let socket: TCPSocket
    private let configuration: TLSConfiguration
    /// Identifies this listener in the session ID context when a verifyPeer closure judges its clients.
    private let sessionScope = Data("listener \(UUID().uuidString)".utf8)
    /// The port listened on (the one chosen when created with port 0).
    public let port: UInt16

    /// Listens on `host`:`port` (port 0: a free port, see ``port``). The configuration must have an identity.
    public init(host: String = "127.0.0.1", port: UInt16 = 0, configuration: TLSConfiguration) throws {
        guard let identity = configuration.identity else {
            throw TLSError(errSSLBadConfiguration, "a listener needs TLSConfiguration.identity")
        }
        do {
            _ = try TLSCredentialCache.credential(for: identity, chain: configuration.certificateChain)
        } catch {
            throw TLSError(errSSLBadConfiguration, "the identity cannot be used for TLS: \(error)")
        }
        do {
            socket = try TCPSocket.listen(host: host, port: port, backlog: TLSListener.backlog)
        } catch {
            throw TLSError(errSecIO, "cannot listen on \(host):\(port): \(error)")
        }
        self.configuration = configuration
        self.port = socket.localPort
    }

    /// Waits for the next TCP connection. Its handshake runs on its first ``TLSConnection/read(upTo:)`` or
    /// ``TLSConnection/write(_:)`` (or ``TLSConnection/handshake()``), bounded by the handshake timeout, so a slow
    /// or silent client never holds up the next `accept`.
    public func accept() async throws -> TLSConnection {
        let client: TCPSocket
        do {
            client = try await socket.accept()
        } catch {
            throw TLSError.transport(error, "accept")
        }
        return try TLSConnection(
            socket: client, side: .server, configuration: configuration, serverName: nil, port: port,
            listenerScope: sessionScope)
    }

    /// Stops listening (pending ``accept()`` calls fail).
    public func close() { socket.close() }

    /// Connections the kernel completes before ``accept()`` takes them (Linux caps it at
    /// `net.core.somaxconn`, 4096 by default). With the usual 128, a burst of a few hundred clients overflows the
    /// queue, the kernel drops their SYNs and they retry one, three, seven seconds later: at 1,000 clients
    /// connecting at once, handshakes per second fell to a fifth (docs/bench-scale/scale-tls.md).
    static let backlog: Int32 = 4096
}
