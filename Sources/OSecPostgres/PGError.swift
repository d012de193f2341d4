/// An error from PostgreSQL or from libpq: the SQLSTATE when the server sent one, and libpq's message.
package struct PGError: Error, Sendable, CustomStringConvertible {
    /// Where the failure happened.
    package enum Kind: Sendable, Hashable {
        /// The connection could not be made or was lost (server down, network, authentication).
        case connection
        /// The server rejected a statement (see ``PGError/sqlState``).
        case query
        /// A reply had an unexpected shape (a column of an unexpected type, a missing row).
        case protocolViolation
    }

    /// The kind of failure.
    package let kind: Kind
    /// The five-character SQLSTATE (`"40001"`, `"23505"`…), or `nil` when the server sent none.
    package let sqlState: String?
    /// libpq's or the server's message (never contains parameter values: we send them out of line).
    package let message: String

    package init(_ kind: Kind, _ message: String, sqlState: String? = nil) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
    }

    /// `true` when reconnecting and retrying may help (connection lost, server shutting down, serialization
    /// failure or deadlock).
    package var isTransient: Bool {
        if kind == .connection { return true }
        guard let state = sqlState else { return false }
        // 08: connection exception; 57P01-57P03: admin/crash shutdown, cannot connect now; 40001/40P01.
        return state.hasPrefix("08") || state.hasPrefix("57P") || state == "40001" || state == "40P01"
    }

    package var description: String {
        "PGError.\(kind)\(sqlState.map { " [\($0)]" } ?? ""): \(message)"
    }
}
