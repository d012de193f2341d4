internal import CLibPQLoader
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One PostgreSQL connection (`PGconn*`), closed in `deinit`.
///
/// Statements are sent with `PQexecParams`: parameters out of line in binary format with explicit types, results
/// in binary format, so `bytea` travels as raw bytes (no hex or escape encoding). One statement at a time: the
/// connection is serialized by a lock, and may be shared between threads.
package final class PGConnection: @unchecked Sendable {  // sendable: `handle` is only used under `lock`
    private let handle: OpaquePointer
    private let lock = NSLock()
    private var pending: [PGNotification] = []

    /// Largest number of parameters one statement takes (the protocol sends the count as a 16-bit integer).
    package static let maximumParameters = 65_535

    /// Connects with a libpq connection string: a URI (`postgresql://user@host:5432/db?sslmode=require`) or
    /// `key=value` pairs (`host=/tmp dbname=app`). `connectTimeout` applies when the string sets none.
    /// - Throws: `PGError` of kind `.connection` when the server cannot be reached or refuses us, or libpq
    ///   cannot be loaded (it is loaded on the first connection, not at start-up: see CLibPQLoader).
    package init(_ conninfo: String, connectTimeout: Int = 10) throws(PGError) {
        var loadError: UnsafePointer<CChar>?
        guard osec_pq_load(&loadError) == 0 else {
            throw PGError(.connection, loadError.map { String(cString: $0) } ?? "cannot load libpq.so.5")
        }
        // connect_timeout through the expanded form: libpq merges the dbname (which may itself be a URI or
        // key=value string) with the other keywords, and an explicit setting in it wins.
        let keys = ["connect_timeout", "dbname"]
        let values = [String(connectTimeout), conninfo]
        var raw: OpaquePointer?
        keys.withCStringArray { keyPointers in
            values.withCStringArray { valuePointers in
                raw = osec_PQconnectdbParams(keyPointers, valuePointers, 1)
            }
        }
        guard let raw else { throw PGError(.connection, "libpq could not allocate a connection") }
        guard osec_PQstatus(raw) == CONNECTION_OK else {
            let message = PGConnection.message(raw)
            osec_PQfinish(raw)
            throw PGError(.connection, message)
        }
        handle = raw
        // NOTICEs ("relation already exists, skipping") would otherwise go to stderr.
        osec_PQsetNoticeProcessor(raw, { _, _ in }, nil)
    }

    deinit { osec_PQfinish(handle) }

    /// `false` once the connection was lost (the server stopped, the network went away).
    package var isConnected: Bool {
        lock.lock()
        defer { lock.unlock() }
        return osec_PQstatus(handle) == CONNECTION_OK
    }

    /// The server's version number (e.g. 150018 for 15.18).
    package var serverVersion: Int {
        lock.lock()
        defer { lock.unlock() }
        return Int(osec_PQserverVersion(handle))
    }

    /// Runs one statement with `parameters` (`$1`, `$2`, …) and returns its rows.
    /// - Throws: `.query` with the SQLSTATE when the server rejects it, `.connection` when the connection broke.
    @discardableResult
    package func execute(_ sql: String, _ parameters: [PGValue] = []) throws(PGError) -> PGResult {
        guard parameters.count <= PGConnection.maximumParameters else {
            throw PGError(.query, "too many parameters (\(parameters.count))")
        }
        lock.lock()
        defer { lock.unlock() }
        // Every parameter's wire form written once, into one buffer (NULLs take no bytes and pass a null pointer).
        let types = parameters.map(\.wireType)
        var lengths: [Int32] = []
        var offsets: [Int?] = []
        lengths.reserveCapacity(parameters.count)
        offsets.reserveCapacity(parameters.count)
        var total = 0
        for parameter in parameters {
            let length = parameter.wireLength
            offsets.append(parameter == .null ? nil : total)
            lengths.append(Int32(clamping: length))
            total += length
        }
        var storage: [UInt8] = []
        storage.reserveCapacity(total + 1)
        for parameter in parameters { parameter.appendWire(to: &storage) }
        storage.append(0)  // never empty: an empty value must get a pointer (a null pointer would send NULL)
        let formats = [Int32](repeating: 1, count: parameters.count)
        let result = storage.withUnsafeBufferPointer { bytes in
            let base = bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            let values: [UnsafePointer<CChar>?] = offsets.map { offset in
                guard let offset, let base else { return nil }
                return base + offset
            }
            return types.withUnsafeBufferPointer { typePointer in
                values.withUnsafeBufferPointer { valuePointer in
                    lengths.withUnsafeBufferPointer { lengthPointer in
                        formats.withUnsafeBufferPointer { formatPointer in
                            osec_PQexecParams(
                                handle, sql, Int32(parameters.count), typePointer.baseAddress,
                                valuePointer.baseAddress, lengthPointer.baseAddress, formatPointer.baseAddress, 1)
                        }
                    }
                }
            }
        }
        collectNotifications()
        return try PGConnection.decode(result, connection: handle)
    }

    /// Runs `body` inside `BEGIN … COMMIT`; rolls back when it throws.
    package func transaction<R>(_ body: () throws -> R) throws -> R {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    // MARK: LISTEN / NOTIFY

    /// Starts listening on `channel` (an SQL identifier: letters, digits and underscores only).
    package func listen(_ channel: String) throws(PGError) {
        guard !channel.isEmpty, channel.utf8.count < 64,
            channel.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else {
            throw PGError(.query, "invalid channel name")
        }
        try execute("LISTEN \(channel)")
    }

    /// Waits until a notification arrives or `timeout` passes (waiting on the connection's socket, no
    /// polling of the server), and returns what arrived (possibly nothing).
    /// - Throws: `.connection` when the connection is lost while waiting.
    package func waitForNotifications(timeout: Duration) throws(PGError) -> [PGNotification] {
        lock.lock()
        defer { lock.unlock() }
        collectNotifications()
        if pending.isEmpty {
            let socket = osec_PQsocket(handle)
            guard socket >= 0 else { throw PGError(.connection, "the connection has no socket") }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let rc = poll(&descriptor, 1, Int32(clamping: milliseconds(timeout)))
            if rc > 0 {
                guard osec_PQconsumeInput(handle) == 1 else {
                    throw PGError(.connection, PGConnection.message(handle))
                }
                collectNotifications()
            }
        }
        if osec_PQstatus(handle) != CONNECTION_OK { throw PGError(.connection, PGConnection.message(handle)) }
        defer { pending.removeAll() }
        return pending
    }

    /// Moves notifications libpq has already read into `pending`. Caller holds `lock`.
    private func collectNotifications() {
        while let notify = osec_PQnotifies(handle) {
            let item = notify.pointee
            pending.append(
                PGNotification(
                    channel: item.relname.map { String(cString: $0) } ?? "",
                    payload: item.extra.map { String(cString: $0) } ?? "", senderPID: item.be_pid))
            osec_PQfreemem(notify)
        }
    }

    // MARK: Decoding

    private static func decode(_ result: OpaquePointer?, connection: OpaquePointer) throws(PGError) -> PGResult {
        guard let result else {
            throw PGError(
                osec_PQstatus(connection) == CONNECTION_OK ? .query : .connection, message(connection))
        }
        defer { osec_PQclear(result) }
        let status = osec_PQresultStatus(result)
        switch status {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            break
        default:
            let state = osec_PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let text = osec_PQresultErrorMessage(result).map { String(cString: $0) } ?? "statement failed"
            let lost = osec_PQstatus(connection) != CONNECTION_OK
            throw PGError(
                lost && state == nil ? .connection : .query, text.trimmingCharacters(in: .whitespacesAndNewlines),
                sqlState: state)
        }
        let columnCount = osec_PQnfields(result)
        let rowCount = osec_PQntuples(result)
        var columns: [String] = []
        var types: [UInt32] = []
        for column in 0..<columnCount {
            columns.append(osec_PQfname(result, column).map { String(cString: $0) } ?? "")
            types.append(osec_PQftype(result, column))
        }
        var rows: [[PGValue]] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var values: [PGValue] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                if osec_PQgetisnull(result, row, column) == 1 {
                    values.append(.null)
                    continue
                }
                let length = Int(osec_PQgetlength(result, row, column))
                let bytes = osec_PQgetvalue(result, row, column).map { Data(bytes: $0, count: length) } ?? Data()
                values.append(try PGValue.decode(type: types[Int(column)], bytes: bytes))
            }
            rows.append(values)
        }
        let affected = osec_PQcmdTuples(result).map { Int(String(cString: $0)) ?? 0 } ?? 0
        return PGResult(columns: columns, rows: rows, affectedRows: affected)
    }

    private static func message(_ connection: OpaquePointer) -> String {
        (osec_PQerrorMessage(connection).map { String(cString: $0) } ?? "libpq error")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}

extension Array where Element == String {
    /// Lends a NULL-terminated array of C strings for the duration of `body`.
    fileprivate func withCStringArray(_ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Void) {
        let copies = map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } } + [nil]
        pointers.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { body(base) }  // never nil: the array holds the terminator
        }
    }
}
