/// The rows a statement returned (decoded from the binary format) and how many rows it changed.
package struct PGResult: Sendable {
    /// Column names, in order.
    package let columns: [String]
    /// The rows; each has one value per column.
    package let rows: [[PGValue]]
    /// Rows inserted, updated or deleted (`PQcmdTuples`), 0 for other statements.
    package let affectedRows: Int

    /// The value in `column` of the first row, or `.null` when there is no row.
    package func scalar(_ column: Int = 0) -> PGValue {
        guard let first = rows.first, column < first.count else { return .null }
        return first[column]
    }
}

/// An asynchronous notification (`NOTIFY channel, 'payload'`) received on a connection that LISTENs.
package struct PGNotification: Sendable, Hashable {
    /// The channel name.
    package let channel: String
    /// The payload ("" when none).
    package let payload: String
    /// The server process that sent it.
    package let senderPID: Int32
}
