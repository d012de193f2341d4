import OSecASN1

/// The one error type thrown by the keychain storage engine: a `DomainError` (OSecASN1) whose codes are
/// ``KeychainStoreErrorDomain``'s (`KeychainStoreError.Code.duplicateItem`, …).
///
/// `Code` is an open set of conditions. The engine knows no `OSStatus`: the `Security` facade maps each code to
/// Apple's result code in one place (`ErrorMapping.swift`).
/// Equality compares only the code; `reason` is for diagnostics and never contains secret bytes; `underlying` is the
/// lower-layer error (SQLite, crypto, POSIX) that caused this one, if any.
package typealias KeychainStoreError = DomainError<KeychainStoreErrorDomain>

/// The code set of ``KeychainStoreError``.
package enum KeychainStoreErrorDomain: ErrorDomain {
    /// `"KeychainStoreError"`.
    package static let typeName = "KeychainStoreError"
}

/// What went wrong in the keychain store. Codes can be added without breaking callers.
extension ErrorCode where Domain == KeychainStoreErrorDomain {
    /// An item with the same class primary key already exists (add, or an update producing a collision).
    package static var duplicateItem: Self { Self("duplicateItem") }
    /// No item matched (used by the facade for empty results; the engine returns empty arrays/counts).
    package static var itemNotFound: Self { Self("itemNotFound") }
    /// Wrong keychain password (or a tampered wrapped master key: the two are indistinguishable).
    package static var authFailed: Self { Self("authFailed") }
    /// A secret's protection class key is not available because the keychain is locked.
    package static var interactionNotAllowed: Self { Self("interactionNotAllowed") }
    /// No keychain file at the path.
    package static var noSuchKeychain: Self { Self("noSuchKeychain") }
    /// The file is not a keychain of ours (not SQLite, wrong application id, newer format, corrupt key file), or
    /// one of its files is unsafe to use: a symbolic link, not a regular file, owned by another user, or
    /// accessible to the group or other users.
    package static var invalidKeychain: Self { Self("invalidKeychain") }
    /// The keychain's path no longer names the file this store opened: another process deleted it (and maybe
    /// created a new keychain there). Nothing was written; open the path again. Checked before every write.
    package static var keychainReplaced: Self { Self("keychainReplaced") }
    /// `create` on a path where a keychain already exists.
    package static var duplicateKeychain: Self { Self("duplicateKeychain") }
    /// An invalid argument (malformed persistent ref, wrong value type for an attribute, bad KDF parameters…).
    package static var param: Self { Self("param") }
    /// An attribute key that the item class does not have.
    package static var noSuchAttribute: Self { Self("noSuchAttribute") }
    /// A sealed secret failed authentication: the row was tampered with (e.g. a blob moved from another row).
    package static var integrityCheckFailed: Self { Self("integrityCheckFailed") }
    /// Another connection held the database lock for longer than the busy timeout.
    package static var databaseBusy: Self { Self("databaseBusy") }
    /// A file-system or SQLite I/O failure (disk full, permission…), or a write to a keychain that could only be
    /// opened read-only (read-only storage).
    package static var io: Self { Self("io") }
    /// An unexpected failure inside the engine or a layer below.
    package static var `internal`: Self { Self("internal") }
}
