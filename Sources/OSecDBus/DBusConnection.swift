internal import CDBusLoader
import Foundation

/// A private connection to a message bus (libdbus), used by one thread: the one that runs its loop.
///
/// Opens the session bus named by `DBUS_SESSION_BUS_ADDRESS` (or a given address), owns names, receives messages,
/// sends replies, errors and signals. The process does not exit when the bus goes away: ``receive(timeout:)``
/// reports it instead.
package final class DBusConnection: @unchecked Sendable {  // sendable: used by the thread running the loop only
    private let raw: OpaquePointer
    /// Cache of the Unix user behind each unique name (a name is never reused by the bus).
    private var userCache: [String: UInt32] = [:]
    /// Unique names whose user is being looked up without waiting, by the serial of the GetConnectionUnixUser call.
    private var pendingUserLookups: [UInt32: String] = [:]
    /// The most entries of either table (beyond, they start over).
    static let maximumCachedNames = 4096

    /// Connects to the bus at `address`, or to the session bus of `DBUS_SESSION_BUS_ADDRESS` when `nil`.
    package init(address: String? = nil) throws(DBusCallError) {
        // libdbus is loaded here, on the first connection, not at process start-up (CDBusLoader).
        var loadError: UnsafePointer<CChar>?
        guard osec_dbus_load(&loadError) == 0 else {
            throw .failed(loadError.map { String(cString: $0) } ?? "cannot load libdbus-1.so.3")
        }
        var error = DBusError()
        osec_dbus_error_init(&error)
        defer { osec_dbus_error_free(&error) }
        let connection: OpaquePointer?
        if let address {
            connection = osec_dbus_connection_open_private(address, &error)
            if let connection, osec_dbus_bus_register(connection, &error) == 0 {
                osec_dbus_connection_close(connection)
                osec_dbus_connection_unref(connection)
                throw Self.error(error, "cannot register on the bus at \(address)")
            }
        } else {
            connection = osec_dbus_bus_get_private(DBUS_BUS_SESSION, &error)
        }
        guard let connection else { throw Self.error(error, "cannot connect to the session bus") }
        osec_dbus_connection_set_exit_on_disconnect(connection, 0)
        raw = connection
    }

    deinit {
        osec_dbus_connection_close(raw)
        osec_dbus_connection_unref(raw)
    }

    /// The connection's unique bus name (`:1.42`).
    package var uniqueName: String {
        guard let name = osec_dbus_bus_get_unique_name(raw) else { return "" }
        return String(cString: name)
    }

    /// What ``requestName(_:replaceExisting:)`` achieved.
    package enum NameRequest: Sendable, Hashable {
        /// This connection owns the name now.
        case primaryOwner
        /// Another connection owns it and did not let it go.
        case exists
    }

    /// Asks for `name`, letting a later `--replace` take it from us; with `replaceExisting`, takes it from its owner
    /// if the owner allows replacement. Never queues.
    package func requestName(_ name: String, replaceExisting: Bool) throws(DBusCallError) -> NameRequest {
        var error = DBusError()
        osec_dbus_error_init(&error)
        defer { osec_dbus_error_free(&error) }
        // DBUS_NAME_FLAG_ALLOW_REPLACEMENT 0x1, _REPLACE_EXISTING 0x2, _DO_NOT_QUEUE 0x4.
        let flags: UInt32 = 0x1 | 0x4 | (replaceExisting ? 0x2 : 0)
        let result = osec_dbus_bus_request_name(raw, name, flags, &error)
        guard result > 0 else { throw Self.error(error, "cannot request the name \(name)") }
        // DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER 1, _ALREADY_OWNER 4.
        return result == 1 || result == 4 ? .primaryOwner : .exists
    }

    /// Gives `name` back to the bus.
    package func releaseName(_ name: String) {
        var error = DBusError()
        osec_dbus_error_init(&error)
        defer { osec_dbus_error_free(&error) }
        _ = osec_dbus_bus_release_name(raw, name, &error)
    }

    /// Subscribes to messages matching `rule` (a D-Bus match rule).
    package func addMatch(_ rule: String) throws(DBusCallError) {
        var error = DBusError()
        osec_dbus_error_init(&error)
        defer { osec_dbus_error_free(&error) }
        osec_dbus_bus_add_match(raw, rule, &error)
        if osec_dbus_error_is_set(&error) != 0 { throw Self.error(error, "cannot add the match rule") }
    }

    /// The Unix user id of the connection `name` (the bus daemon's `GetConnectionUnixUser`), cached per name.
    package func unixUser(of name: String) throws(DBusCallError) -> UInt32 {
        if let cached = userCache[name] { return cached }
        var error = DBusError()
        osec_dbus_error_init(&error)
        defer { osec_dbus_error_free(&error) }
        let user = osec_dbus_bus_get_unix_user(raw, name, &error)
        guard osec_dbus_error_is_set(&error) == 0, let uid = UInt32(exactly: user) else {
            throw Self.error(error, "cannot find the user of \(name)")
        }
        if userCache.count > Self.maximumCachedNames { userCache.removeAll() }
        userCache[name] = uid
        return uid
    }

    /// Asks the bus for the Unix user of `name` without waiting for the answer: ``receive(timeout:)`` caches it when
    /// it arrives, so that ``unixUser(of:)`` answers without a round trip to the bus daemon. Called when a new
    /// connection appears on the bus, before it calls anything.
    package func prefetchUnixUser(of name: String) {
        guard userCache[name] == nil else { return }
        if pendingUserLookups.count >= Self.maximumCachedNames { pendingUserLookups.removeAll() }
        guard
            let call = osec_dbus_message_new_method_call(
                "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetConnectionUnixUser")
        else { return }
        defer { osec_dbus_message_unref(call) }
        guard (try? DBusCodec.append([.string(name)], to: call)) != nil else { return }
        var serial: dbus_uint32_t = 0
        guard osec_dbus_connection_send(raw, call, &serial) != 0 else { return }
        pendingUserLookups[serial] = name
    }

    /// Takes the answer to a ``prefetchUnixUser(of:)`` call; `false` when `message` is not one.
    private func takeUserLookup(_ message: OpaquePointer) -> Bool {
        let type = osec_dbus_message_get_type(message)
        guard type == 2 || type == 3,  // method return, error
            let name = pendingUserLookups.removeValue(forKey: osec_dbus_message_get_reply_serial(message))
        else { return false }
        guard type == 2, Self.string(osec_dbus_message_get_sender(message)) == "org.freedesktop.DBus",
            case .uint32(let uid)? = (try? DBusCodec.decodeArguments(message))?.first
        else { return true }
        if userCache.count > Self.maximumCachedNames { userCache.removeAll() }
        userCache[name] = uid
        return true
    }

    /// Forgets what is cached about a connection that left the bus.
    package func forget(_ name: String) { userCache[name] = nil }

    /// What ``receive(timeout:)`` returns.
    package enum Received: Sendable {
        case message(DBusMessage)
        /// Nothing arrived within the timeout.
        case timeout
        /// The bus closed the connection.
        case disconnected
    }

    /// The next message, waiting at most `timeout` milliseconds (-1: forever) for one. Messages that do not decode
    /// (unsupported types, too many values) are answered with an error here and skipped.
    package func receive(timeout milliseconds: Int32) -> Received {
        var waited = false
        while true {
            if let message = osec_dbus_connection_pop_message(raw) {
                let handle = MessageHandle(takingOwnershipOf: message)
                if takeUserLookup(message) { continue }
                do {
                    return .message(try decode(handle))
                } catch {
                    if osec_dbus_message_get_type(message) == 1 { sendError(error, to: handle) }
                    continue
                }
            }
            if waited { return osec_dbus_connection_get_is_connected(raw) != 0 ? .timeout : .disconnected }
            if osec_dbus_connection_read_write(raw, milliseconds) == 0 { return .disconnected }
            waited = true
        }
    }

    private func decode(_ handle: MessageHandle) throws(DBusCallError) -> DBusMessage {
        let message = handle.raw
        let kind: DBusMessage.Kind =
            switch osec_dbus_message_get_type(message) {
            case 1: .methodCall
            case 2: .methodReturn
            case 3: .error
            case 4: .signal
            default: .other
            }
        let signature = Self.string(osec_dbus_message_get_signature(message)) ?? ""
        return DBusMessage(
            kind: kind, path: Self.string(osec_dbus_message_get_path(message)),
            interface: Self.string(osec_dbus_message_get_interface(message)),
            member: Self.string(osec_dbus_message_get_member(message)),
            sender: Self.string(osec_dbus_message_get_sender(message)), signature: signature,
            arguments: kind == .methodCall || kind == .signal ? try DBusCodec.decodeArguments(message) : [],
            noReplyExpected: osec_dbus_message_get_no_reply(message) != 0, handle: handle)
    }

    /// Replies to `call` with `values`.
    package func sendReply(_ values: [DBusValue], to call: DBusMessage) throws(DBusCallError) {
        guard !call.noReplyExpected else { return }
        guard let reply = osec_dbus_message_new_method_return(call.handle.raw) else { throw .failed("out of memory") }
        defer { osec_dbus_message_unref(reply) }
        try DBusCodec.append(values, to: reply)
        guard osec_dbus_connection_send(raw, reply, nil) != 0 else { throw .failed("cannot send the reply") }
    }

    /// Replies to `call` with an error.
    package func sendError(_ error: DBusCallError, to call: DBusMessage) {
        guard !call.noReplyExpected else { return }
        sendError(error, to: call.handle)
    }

    private func sendError(_ error: DBusCallError, to handle: MessageHandle) {
        guard let reply = osec_dbus_message_new_error(handle.raw, error.name, error.message) else { return }
        defer { osec_dbus_message_unref(reply) }
        _ = osec_dbus_connection_send(raw, reply, nil)
    }

    /// Emits a signal from `path`; to one connection when `destination` is given, else to every subscriber.
    package func emitSignal(
        path: String, interface: String, member: String, _ values: [DBusValue], destination: String? = nil
    ) throws(DBusCallError) {
        guard DBusNames.isValidObjectPath(path) else { throw .invalidArgs("invalid object path \(path)") }
        guard let signal = osec_dbus_message_new_signal(path, interface, member) else { throw .failed("out of memory") }
        defer { osec_dbus_message_unref(signal) }
        if let destination { _ = osec_dbus_message_set_destination(signal, destination) }
        try DBusCodec.append(values, to: signal)
        guard osec_dbus_connection_send(raw, signal, nil) != 0 else { throw .failed("cannot send the signal") }
    }

    /// Writes every queued outgoing message.
    package func flush() { osec_dbus_connection_flush(raw) }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    private static func error(_ error: DBusError, _ context: String) -> DBusCallError {
        guard let name = error.name else { return .failed(context) }
        let message = error.message.map { String(cString: $0) } ?? ""
        return DBusCallError(String(cString: name), "\(context): \(message)")
    }
}
