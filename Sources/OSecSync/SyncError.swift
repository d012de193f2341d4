/// The one error type of the sync layer. It knows no `OSStatus`: the `Security` facade maps each ``Code`` to Apple's
/// result code in its one error mapping (`ErrorMapping.swift`).
package struct SyncError: Error, Sendable, CustomStringConvertible {
    /// What went wrong (an open set).
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable name.
        package let name: String

        private init(_ name: String) { self.name = name }

        /// Wrong circle passphrase (the key-check value does not match): nothing was pulled or pushed.
        package static let authFailed = Code("authFailed")
        /// A server row does not open under the circle key with its circle id, item id and version: it was
        /// tampered with, swapped with another row or copied from another circle.
        package static let tamperedRow = Code("tamperedRow")
        /// The server offered an item at an older version than this member already saw (a replay or rollback).
        package static let replayedRow = Code("replayedRow")
        /// The server cannot be reached (or the connection broke); local writes go on and sync later.
        package static let serverUnavailable = Code("serverUnavailable")
        /// The server's schema or a circle row is not what this version understands.
        package static let serverIncompatible = Code("serverIncompatible")
        /// The keychain is not in a circle and no circle is configured in the environment.
        package static let notConfigured = Code("notConfigured")
        /// A bad argument (empty circle name, unreadable passphrase file, parameters out of range).
        package static let param = Code("param")
        /// The local keychain refused an operation (its own error is in ``SyncError/underlying``).
        package static let keychain = Code("keychain")
        /// An unexpected failure.
        package static let `internal` = Code("internal")

        package var description: String { name }
    }

    /// The condition.
    package let code: Code
    /// What happened, for people (never secret bytes).
    package let reason: String
    /// The lower-layer error, if any.
    package let underlying: (any Error & Sendable)?

    package init(_ code: Code, _ reason: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.reason = reason
        self.underlying = underlying
    }

    package var description: String {
        "SyncError.\(code.name): \(reason)" + (underlying.map { " [\($0)]" } ?? "")
    }
}

extension SyncError: Equatable {
    package static func == (lhs: SyncError, rhs: SyncError) -> Bool { lhs.code == rhs.code }
}
