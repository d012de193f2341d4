/// A D-Bus error reply: an error name (`org.freedesktop.DBus.Error.InvalidArgs`, …) and a message.
///
/// What a method handler throws; the object server sends it back to the caller as an error message. The message
/// is for people and never carries secret bytes.
package struct DBusCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The D-Bus error name.
    package let name: String
    /// A human-readable explanation.
    package let message: String

    package init(_ name: String, _ message: String) {
        self.name = name
        self.message = message
    }

    package var description: String { "\(name): \(message)" }

    /// `org.freedesktop.DBus.Error.Failed`.
    package static func failed(_ message: String) -> Self { Self("org.freedesktop.DBus.Error.Failed", message) }
    /// `org.freedesktop.DBus.Error.InvalidArgs`.
    package static func invalidArgs(_ message: String) -> Self {
        Self("org.freedesktop.DBus.Error.InvalidArgs", message)
    }
    /// `org.freedesktop.DBus.Error.UnknownMethod`.
    package static func unknownMethod(_ message: String) -> Self {
        Self("org.freedesktop.DBus.Error.UnknownMethod", message)
    }
    /// `org.freedesktop.DBus.Error.UnknownObject`.
    package static func unknownObject(_ message: String) -> Self {
        Self("org.freedesktop.DBus.Error.UnknownObject", message)
    }
    /// `org.freedesktop.DBus.Error.UnknownInterface`.
    package static func unknownInterface(_ message: String) -> Self {
        Self("org.freedesktop.DBus.Error.UnknownInterface", message)
    }
    /// `org.freedesktop.DBus.Error.UnknownProperty`.
    package static func unknownProperty(_ message: String) -> Self {
        Self("org.freedesktop.DBus.Error.UnknownProperty", message)
    }
    /// `org.freedesktop.DBus.Error.PropertyReadOnly`.
    package static func propertyReadOnly(_ message: String) -> Self {
        Self("org.freedesktop.DBus.Error.PropertyReadOnly", message)
    }
    /// `org.freedesktop.DBus.Error.AccessDenied`.
    package static func accessDenied(_ message: String) -> Self {
        Self("org.freedesktop.DBus.Error.AccessDenied", message)
    }
    /// `org.freedesktop.DBus.Error.NotSupported`.
    package static func notSupported(_ message: String) -> Self {
        Self("org.freedesktop.DBus.Error.NotSupported", message)
    }
    /// `org.freedesktop.DBus.Error.LimitsExceeded`.
    package static func limitsExceeded(_ message: String) -> Self {
        Self("org.freedesktop.DBus.Error.LimitsExceeded", message)
    }
}
