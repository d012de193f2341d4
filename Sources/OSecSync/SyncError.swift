import OSecASN1

/// The one error type of the sync layer: a `DomainError` (OSecASN1) whose codes are ``SyncErrorDomain``'s. It knows no
/// `OSStatus`: the `Security` facade maps each `Code` to Apple's result code in its one error mapping
/// (`ErrorMapping.swift`). Equality compares only the code; `reason` is for people (never secret bytes) and
/// `underlying` the lower-layer error, if any.
package typealias SyncError = DomainError<SyncErrorDomain>

/// The code set of ``SyncError``.
package enum SyncErrorDomain: ErrorDomain {
    /// `"SyncError"`.
    package static let typeName = "SyncError"
}

/// What went wrong in the sync layer (an open set).
extension ErrorCode where Domain == SyncErrorDomain {
    /// Wrong circle passphrase (the key-check value does not match): nothing was pulled or pushed.
    package static var authFailed: Self { Self("authFailed") }
    /// A server row does not open under the circle key with its circle id, item id and version: it was
    /// tampered with, swapped with another row or copied from another circle.
    package static var tamperedRow: Self { Self("tamperedRow") }
    /// The server offered an item at an older version than this member already saw (a replay or rollback).
    package static var replayedRow: Self { Self("replayedRow") }
    /// The server cannot be reached (or the connection broke); local writes go on and sync later.
    package static var serverUnavailable: Self { Self("serverUnavailable") }
    /// The server's schema or a circle row is not what this version understands.
    package static var serverIncompatible: Self { Self("serverIncompatible") }
    /// The keychain is not in a circle and no circle is configured in the environment.
    package static var notConfigured: Self { Self("notConfigured") }
    /// A bad argument (empty circle name, unreadable passphrase file, parameters out of range).
    package static var param: Self { Self("param") }
    /// The local keychain refused an operation (its own error is in `SyncError.underlying`).
    package static var keychain: Self { Self("keychain") }
    /// An unexpected failure.
    package static var `internal`: Self { Self("internal") }
}
