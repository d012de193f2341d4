/// The one error type of the sync layer. Each ``Code`` carries the `OSStatus` the facade reports.
package struct SyncError: Error, Sendable, CustomStringConvertible {
    /// What went wrong (an open set).
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable name.
        package let name: String
        /// The `OSStatus` for this condition.
        package let osStatus: Int32

        private init(_ name: String, _ osStatus: Int32) {
            self.name = name
            self.osStatus = osStatus
        }

        /// Wrong circle passphrase (the key-check value does not match): nothing was pulled or pushed.
        package static let authFailed = Code("authFailed", -25293)  // errSecAuthFailed
        /// A server row does not open under the circle key with its circle id, item id and version: it was
        /// tampered with, swapped with another row or copied from another circle.
        package static let tamperedRow = Code("tamperedRow", -26275)  // errSecDecode
        /// The server offered an item at an older version than this member already saw (a replay or rollback).
        package static let replayedRow = Code("replayedRow", -26275)  // errSecDecode
        /// The server cannot be reached (or the connection broke); local writes go on and sync later.
        package static let serverUnavailable = Code("serverUnavailable", -25291)  // errSecNotAvailable
        /// The server's schema or a circle row is not what this version understands.
        package static let serverIncompatible = Code("serverIncompatible", -25295)  // errSecInvalidKeychain
        /// The keychain is not in a circle and no circle is configured in the environment.
        package static let notConfigured = Code("notConfigured", -25291)  // errSecNotAvailable
        /// A bad argument (empty circle name, unreadable passphrase file, parameters out of range).
        package static let param = Code("param", -50)  // errSecParam
        /// The local keychain refused an operation (its own error is in ``SyncError/underlying``).
        package static let keychain = Code("keychain", -26276)  // errSecInternal, or the keychain's status
        /// An unexpected failure.
        package static let `internal` = Code("internal", -26276)  // errSecInternal

        package var description: String { name }
    }

    /// The condition.
    package let code: Code
    /// What happened, for people (never secret bytes).
    package let reason: String
    /// The status to report: the code's, or the keychain's own status for ``Code/keychain``.
    package let osStatus: Int32
    /// The lower-layer error, if any.
    package let underlying: (any Error & Sendable)?

    package init(_ code: Code, _ reason: String, osStatus: Int32? = nil, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.reason = reason
        self.osStatus = osStatus ?? code.osStatus
        self.underlying = underlying
    }

    package var description: String {
        "SyncError.\(code.name) (\(osStatus)): \(reason)" + (underlying.map { " [\($0)]" } ?? "")
    }
}

extension SyncError: Equatable {
    package static func == (lhs: SyncError, rhs: SyncError) -> Bool { lhs.code == rhs.code }
}
