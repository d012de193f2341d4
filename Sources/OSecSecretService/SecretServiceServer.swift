import Foundation
import OSecDBus
import OSecSystem

/// Runs the Secret Service on the session bus until it goes away or another instance takes the name.
package enum SecretServiceServer {
    /// How a run ended.
    package enum Outcome: Sendable, Hashable {
        /// The bus closed the connection.
        case busGone
        /// Another provider took `org.freedesktop.secrets` (`--replace`).
        case replaced
        /// SIGTERM, SIGINT or SIGHUP.
        case stopped
    }

    /// Connects to `address` (default: `DBUS_SESSION_BUS_ADDRESS`), owns `org.freedesktop.secrets` (taking it from
    /// another provider that allows it when `replace`), then serves until the bus goes away or the name is taken.
    /// - Throws: a ``DBusCallError`` when the bus cannot be reached or the name is owned by someone else.
    package static func run(
        configuration: SecretServiceConfiguration, address: String? = nil, replace: Bool = false,
        ready: (String) -> Void = { _ in }
    ) throws -> Outcome {
        let service = try SecretService(configuration: configuration)
        let connection = try DBusConnection(address: address)
        let server = DBusObjectServer(
            connection: connection, handler: service, allowedUser: POSIXFiles.effectiveUserID)
        try server.watchClients()
        guard try connection.requestName(SecretService.busName, replaceExisting: replace) == .primaryOwner else {
            throw DBusCallError(
                "org.freedesktop.DBus.Error.AddressInUse",
                "\(SecretService.busName) is owned by another provider (use --replace to take it over)")
        }
        // Stop cleanly on SIGTERM, SIGINT and SIGHUP (checked between messages, at least twice a second).
        SystemProcess.unblockTerminationSignals()
        SystemProcess.recordTerminationSignals()
        ready(connection.uniqueName)
        switch server.run(pollMilliseconds: 500, while: { !SystemProcess.terminationRequested }) {
        case .nameLost: return .replaced
        case .disconnected: return .busGone
        case .stopped:
            connection.releaseName(SecretService.busName)
            connection.flush()
            return .stopped
        }
    }
}
