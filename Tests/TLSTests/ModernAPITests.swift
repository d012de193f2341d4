import Foundation
import OpenSecurityTLS
import Security
import Testing

/// OpenSecurityTLS: TLSListener and TLSConnection against each other and against the openssl CLI.
@Suite struct ModernAPITests {
    let pki = TLSTestPKI.shared

    func serverConfiguration(
        _ name: String = "server-ec", clientAuthentication: TLSConfiguration.ClientAuthentication = .none
    ) throws -> TLSConfiguration {
        var configuration = TLSConfiguration()
        configuration.identity = try pki.identity(name)
        configuration.clientAuthentication = clientAuthentication
        configuration.trustAnchors = [pki.root]
        configuration.handshakeTimeout = .seconds(20)
        return configuration
    }

    func clientConfiguration(identity: String? = nil) throws -> TLSConfiguration {
        var configuration = TLSConfiguration()
        configuration.identity = try identity.map { try pki.identity($0) }
        configuration.trustAnchors = [pki.root]
        configuration.serverName = "localhost"
        configuration.handshakeTimeout = .seconds(20)
        return configuration
    }

    /// Serves one connection: reads a line, answers it reversed, closes.
    func serveOnce(_ listener: TLSListener) -> Task<Result<String, TLSError>, Never> {
        Task {
            do {
                let connection = try await listener.accept()
                let request = try await connection.read()
                try await connection.write(Data(request.reversed()))
                await connection.close()
                return .success(String(decoding: request, as: UTF8.self))
            } catch let error as TLSError {
                return .failure(error)
            } catch {
                return .failure(TLSError(errSecInternal, "\(error)"))
            }
        }
    }

    @Test func listenerAndConnectionExchangeDataWithMutualAuthentication() async throws {
        let listener = try TLSListener(configuration: try serverConfiguration(clientAuthentication: .required))
        defer { listener.close() }
        let server = serveOnce(listener)
        var configuration = try clientConfiguration(identity: "client-ec")
        configuration.applicationProtocols = ["h2"]
        let connection = try await TLSConnection.connect(
            host: "127.0.0.1", port: listener.port, configuration: configuration)
        #expect(await connection.protocolVersion == .tlsProtocol13)
        try await connection.write(Data("ping".utf8))
        let reply = try await connection.read()
        #expect(String(decoding: reply, as: UTF8.self) == "gnip")
        #expect(try await connection.read().isEmpty)  // close_notify
        await connection.close()
        let served = await server.value
        #expect(try served.get() == "ping")
    }
}
