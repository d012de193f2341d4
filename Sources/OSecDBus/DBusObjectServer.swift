import Foundation

/// The shape of one D-Bus interface: its methods, properties and signals (for dispatch, argument checking,
/// `org.freedesktop.DBus.Properties` and introspection).
package struct DBusInterface: Sendable {
    /// One method: its name and the names and types of its arguments.
    package struct Method: Sendable {
        package let name: String
        package let inputs: [(name: String, type: String)]
        package let outputs: [(name: String, type: String)]

        package init(_ name: String, in inputs: [(String, String)] = [], out outputs: [(String, String)] = []) {
            self.name = name
            self.inputs = inputs.map { (name: $0.0, type: $0.1) }
            self.outputs = outputs.map { (name: $0.0, type: $0.1) }
        }

        /// The input signature.
        package var inputSignature: String { inputs.map(\.type).joined() }
    }

    /// One property.
    package struct Property: Sendable {
        package let name: String
        package let type: String
        package let writable: Bool

        package init(_ name: String, _ type: String, writable: Bool = false) {
            self.name = name
            self.type = type
            self.writable = writable
        }
    }

    /// One signal.
    package struct Signal: Sendable {
        package let name: String
        package let arguments: [(name: String, type: String)]

        package init(_ name: String, _ arguments: [(String, String)] = []) {
            self.name = name
            self.arguments = arguments.map { (name: $0.0, type: $0.1) }
        }
    }

    package let name: String
    package let methods: [Method]
    package let properties: [Property]
    package let signals: [Signal]

    package init(_ name: String, methods: [Method] = [], properties: [Property] = [], signals: [Signal] = []) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }
}

/// One method call, after the object server checked the caller, the object, the interface and the signature.
package struct DBusMethodCall: Sendable {
    package let path: String
    package let interface: String
    package let member: String
    package let arguments: [DBusValue]
    /// The caller's unique bus name.
    package let sender: String
}

/// What the object server asks of the service it serves.
package protocol DBusObjectHandler: AnyObject {
    /// The interfaces of the object at `path` (besides the standard ones), or `nil` when there is no such object.
    func interfaces(at path: String) -> [DBusInterface]?
    /// The names of the child nodes of `path` (for introspection).
    func childNodes(of path: String) -> [String]
    /// Runs a method; returns the reply's values, which must match the method's output signature.
    func call(_ call: DBusMethodCall) throws(DBusCallError) -> [DBusValue]
    /// The value of a property of the object at `path`.
    func property(_ name: String, interface: String, path: String) throws(DBusCallError) -> DBusValue
    /// Sets a writable property (its type has been checked).
    func setProperty(
        _ name: String, interface: String, path: String, value: DBusValue, sender: String)
        throws(DBusCallError)
    /// A connection left the bus (to drop what belonged to it).
    func clientVanished(_ name: String)
    /// Signals to emit now (after the reply to the call just handled), in order.
    func takeSignals() -> [DBusSignalEmission]
    /// Whether work runs on other threads whose results the loop must pick up soon (the loop then wakes up often).
    var hasBackgroundWork: Bool { get }
    /// Picks up the results of finished background work, on the loop's thread (signals go through
    /// ``takeSignals()``).
    func finishBackgroundWork()
}

extension DBusObjectHandler {
    package var hasBackgroundWork: Bool { false }
    package func finishBackgroundWork() {}
}

/// A signal a handler wants emitted after its reply.
package struct DBusSignalEmission: Sendable {
    package let path: String
    package let interface: String
    package let member: String
    package let values: [DBusValue]
    /// One connection, or every subscriber when `nil`.
    package let destination: String?

    package init(path: String, interface: String, member: String, _ values: [DBusValue], destination: String? = nil) {
        self.path = path
        self.interface = interface
        self.member = member
        self.values = values
        self.destination = destination
    }
}

/// Serves objects on a connection: checks that every caller runs as the allowed user, dispatches method calls by
/// object path and interface, checks argument signatures, answers `org.freedesktop.DBus.Introspectable`,
/// `org.freedesktop.DBus.Properties` (Get, GetAll, Set) and `org.freedesktop.DBus.Peer` itself, and turns thrown
/// ``DBusCallError``s into error replies.
package final class DBusObjectServer {
    package let connection: DBusConnection
    private let handler: any DBusObjectHandler
    private let allowedUser: UInt32

    /// Why ``run(while:)`` returned.
    package enum StopReason: Sendable, Hashable {
        /// The bus went away.
        case disconnected
        /// Another connection took the bus name (`--replace`).
        case nameLost(String)
        /// The caller's condition turned false.
        case stopped
    }

    package init(connection: DBusConnection, handler: any DBusObjectHandler, allowedUser: UInt32) {
        self.connection = connection
        self.handler = handler
        self.allowedUser = allowedUser
    }

    /// Subscribes to the bus's notices of departing connections (so sessions of dead clients are dropped).
    package func watchClients() throws(DBusCallError) {
        try connection.addMatch(
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'")
    }

    /// Handles messages until the bus goes away, the name is lost, or `condition` returns `false` (checked at least
    /// every `pollMilliseconds`).
    /// While the handler has background work, the loop wakes up every ``backgroundPollMilliseconds`` to pick up
    /// its results.
    package func run(pollMilliseconds: Int32 = 500, while condition: () -> Bool = { true }) -> StopReason {
        while condition() {
            let timeout =
                handler.hasBackgroundWork ? min(pollMilliseconds, Self.backgroundPollMilliseconds) : pollMilliseconds
            switch connection.receive(timeout: timeout) {
            case .timeout: break
            case .disconnected: return .disconnected
            case .message(let message):
                if let reason = handle(message) { return reason }
            }
            if handler.hasBackgroundWork {
                handler.finishBackgroundWork()
                emitSignals()
            }
        }
        return .stopped
    }

    /// How often the loop looks for finished background work while there is some.
    package static let backgroundPollMilliseconds: Int32 = 20

    private func emitSignals() {
        for signal in handler.takeSignals() {
            try? connection.emitSignal(
                path: signal.path, interface: signal.interface, member: signal.member, signal.values,
                destination: signal.destination)
        }
    }

    /// Handles one message; a non-nil result ends the loop.
    private func handle(_ message: DBusMessage) -> StopReason? {
        switch message.kind {
        case .signal:
            return handleSignal(message)
        case .methodCall:
            do {
                try connection.sendReply(try dispatch(message), to: message)
            } catch {
                connection.sendError(error, to: message)
            }
            emitSignals()
            return nil
        default:
            return nil
        }
    }

    private func handleSignal(_ message: DBusMessage) -> StopReason? {
        if message.interface == "org.freedesktop.DBus.Local" && message.member == "Disconnected" {
            return .disconnected
        }
        guard message.sender == "org.freedesktop.DBus", message.interface == "org.freedesktop.DBus" else { return nil }
        if message.member == "NameLost", let name = message.arguments.first?.stringValue {
            return .nameLost(name)
        }
        if message.member == "NameOwnerChanged", message.arguments.count == 3,
            let name = message.arguments[0].stringValue, name.hasPrefix(":")
        {
            if message.arguments[2].stringValue == "" {
                connection.forget(name)
                handler.clientVanished(name)
            } else if message.arguments[1].stringValue == "" {
                // A new connection: learn its user now, so that its first call needs no round trip to the bus.
                connection.prefetchUnixUser(of: name)
            }
        }
        return nil
    }

    private func dispatch(_ message: DBusMessage) throws(DBusCallError) -> [DBusValue] {
        guard let sender = message.sender, let path = message.path, let member = message.member else {
            throw .invalidArgs("a method call needs a sender, a path and a member")
        }
        guard try connection.unixUser(of: sender) == allowedUser else {
            throw .accessDenied("this service answers only its own user")
        }
        let interface = message.interface
        let arguments = message.arguments
        switch interface {
        case "org.freedesktop.DBus.Peer":
            if member == "Ping" { return [] }
            if member == "GetMachineId" {
                let id = (try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8)) ?? ""
                return [.string(id.trimmingCharacters(in: .whitespacesAndNewlines))]
            }
            throw .unknownMethod("no method \(member) in org.freedesktop.DBus.Peer")
        case "org.freedesktop.DBus.Introspectable":
            guard member == "Introspect" else { throw .unknownMethod("no method \(member) in Introspectable") }
            return [.string(introspect(path))]
        case "org.freedesktop.DBus.Properties":
            return try properties(member, path: path, message: message, sender: sender)
        default:
            break
        }
        guard let interfaces = handler.interfaces(at: path) else { throw .unknownObject("no object at \(path)") }
        let candidates = interface.map { name in interfaces.filter { $0.name == name } } ?? interfaces
        if let interface, candidates.isEmpty {
            throw .unknownInterface("\(path) has no interface \(interface)")
        }
        for candidate in candidates {
            guard let method = candidate.methods.first(where: { $0.name == member }) else { continue }
            guard message.signature == method.inputSignature else {
                throw .invalidArgs(
                    "\(candidate.name).\(member) takes (\(method.inputSignature)), not (\(message.signature))")
            }
            let values = try handler.call(
                DBusMethodCall(
                    path: path, interface: candidate.name, member: member, arguments: arguments, sender: sender))
            let expected = method.outputs.map(\.type).joined()
            guard DBusValue.signature(of: values) == expected else {
                throw .failed("internal error: \(member) produced the wrong reply type")
            }
            return values
        }
        throw .unknownMethod("\(path) has no method \(member)")
    }

    private func properties(
        _ member: String, path: String, message: DBusMessage, sender: String
    ) throws(DBusCallError) -> [DBusValue] {
        guard let interfaces = handler.interfaces(at: path) else { throw .unknownObject("no object at \(path)") }
        let arguments = message.arguments
        func find(_ name: String) throws(DBusCallError) -> DBusInterface {
            guard let interface = interfaces.first(where: { $0.name == name }) else {
                throw .unknownInterface("\(path) has no interface \(name)")
            }
            return interface
        }
        switch (member, message.signature) {
        case ("Get", "ss"):
            guard let interfaceName = arguments[0].stringValue, let name = arguments[1].stringValue else { break }
            let interface = try find(interfaceName)
            guard interface.properties.contains(where: { $0.name == name }) else {
                throw .unknownProperty("\(interfaceName) has no property \(name)")
            }
            return [.variant(try handler.property(name, interface: interfaceName, path: path))]
        case ("GetAll", "s"):
            guard let interfaceName = arguments[0].stringValue else { break }
            // An empty interface name means every interface (the specification allows it).
            let chosen = interfaceName.isEmpty ? interfaces : [try find(interfaceName)]
            var entries: [DBusDictionaryEntry] = []
            for interface in chosen {
                for property in interface.properties {
                    let value = try handler.property(property.name, interface: interface.name, path: path)
                    entries.append(DBusDictionaryEntry(.string(property.name), .variant(value)))
                }
            }
            return [.dictionary(key: "s", value: "v", entries)]
        case ("Set", "ssv"):
            guard let interfaceName = arguments[0].stringValue, let name = arguments[1].stringValue else { break }
            let interface = try find(interfaceName)
            guard let property = interface.properties.first(where: { $0.name == name }) else {
                throw .unknownProperty("\(interfaceName) has no property \(name)")
            }
            guard property.writable else { throw .propertyReadOnly("\(interfaceName).\(name) is read-only") }
            let value = arguments[2].unwrappedVariant
            guard value.signature == property.type else {
                throw .invalidArgs("\(interfaceName).\(name) is of type \(property.type), not \(value.signature)")
            }
            try handler.setProperty(name, interface: interfaceName, path: path, value: value, sender: sender)
            return []
        case ("Get", _), ("GetAll", _), ("Set", _):
            throw .invalidArgs("wrong arguments (\(message.signature)) for org.freedesktop.DBus.Properties.\(member)")
        default:
            throw .unknownMethod("no method \(member) in org.freedesktop.DBus.Properties")
        }
        throw .invalidArgs("wrong arguments for org.freedesktop.DBus.Properties.\(member)")
    }

    // MARK: Introspection

    private static let standardInterfaces = """
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect"><arg name="xml_data" type="s" direction="out"/></method>
          </interface>
          <interface name="org.freedesktop.DBus.Peer">
            <method name="Ping"/>
            <method name="GetMachineId"><arg name="machine_uuid" type="s" direction="out"/></method>
          </interface>
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get"><arg name="interface_name" type="s" direction="in"/>
              <arg name="property_name" type="s" direction="in"/><arg name="value" type="v" direction="out"/></method>
            <method name="GetAll"><arg name="interface_name" type="s" direction="in"/>
              <arg name="properties" type="a{sv}" direction="out"/></method>
            <method name="Set"><arg name="interface_name" type="s" direction="in"/>
              <arg name="property_name" type="s" direction="in"/><arg name="value" type="v" direction="in"/></method>
            <signal name="PropertiesChanged"><arg name="interface_name" type="s"/>
              <arg name="changed_properties" type="a{sv}"/><arg name="invalidated_properties" type="as"/></signal>
          </interface>

        """

    /// The introspection XML of `path`: its interfaces (if it is an object) and its child nodes.
    package func introspect(_ path: String) -> String {
        var xml = """
            <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
            <node>

            """
        xml += Self.standardInterfaces
        for interface in handler.interfaces(at: path) ?? [] {
            xml += "  <interface name=\"\(interface.name)\">\n"
            for method in interface.methods {
                xml += "    <method name=\"\(method.name)\">"
                for argument in method.inputs {
                    xml += "<arg name=\"\(argument.name)\" type=\"\(argument.type)\" direction=\"in\"/>"
                }
                for argument in method.outputs {
                    xml += "<arg name=\"\(argument.name)\" type=\"\(argument.type)\" direction=\"out\"/>"
                }
                xml += "</method>\n"
            }
            for property in interface.properties {
                let access = property.writable ? "readwrite" : "read"
                xml += "    <property name=\"\(property.name)\" type=\"\(property.type)\" access=\"\(access)\"/>\n"
            }
            for signal in interface.signals {
                xml += "    <signal name=\"\(signal.name)\">"
                for argument in signal.arguments { xml += "<arg name=\"\(argument.name)\" type=\"\(argument.type)\"/>" }
                xml += "</signal>\n"
            }
            xml += "  </interface>\n"
        }
        for child in handler.childNodes(of: path) where DBusNames.isValidPathElement(child) {
            xml += "  <node name=\"\(child)\"/>\n"
        }
        return xml + "</node>\n"
    }
}
