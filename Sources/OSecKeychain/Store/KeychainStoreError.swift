/// The one error type thrown by the keychain storage engine.
///
/// ``Code`` is an open set of conditions. The engine knows no `OSStatus`: the `Security` facade maps each code to
/// Apple's result code in one place (`ErrorMapping.swift`).
/// Equality compares only the code; ``reason`` is for diagnostics and never contains secret bytes.
package struct KeychainStoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong. Codes can be added without breaking callers.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable name, e.g. `"duplicateItem"`.
        package let name: String

        private init(_ name: String) { self.name = name }

        /// An item with the same class primary key already exists (add, or an update producing a collision).
        package static let duplicateItem = Code("duplicateItem")
        /// No item matched (used by the facade for empty results; the engine returns empty arrays/counts).
        package static let itemNotFound = Code("itemNotFound")
        /// Wrong keychain password (or a tampered wrapped master key: the two are indistinguishable).
        package static let authFailed = Code("authFailed")
        /// A secret's protection class key is not available because the keychain is locked.
        package static let interactionNotAllowed = Code("interactionNotAllowed")
        /// No keychain file at the path.
        package static let noSuchKeychain = Code("noSuchKeychain")
        /// The file is not a keychain of ours (not SQLite, wrong application id, newer format, corrupt key file), or
        /// one of its files is unsafe to use: a symbolic link, not a regular file, owned by another user, or
        /// accessible to the group or other users.
        package static let invalidKeychain = Code("invalidKeychain")
        /// The keychain's path no longer names the file this store opened: another process deleted it (and maybe
        /// created a new keychain there). Nothing was written; open the path again. Checked before every write.
        package static let keychainReplaced = Code("keychainReplaced")
        /// `create` on a path where a keychain already exists.
        package static let duplicateKeychain = Code("duplicateKeychain")
        /// An invalid argument (malformed persistent ref, wrong value type for an attribute, bad KDF parameters…).
        package static let param = Code("param")
        /// An attribute key that the item class does not have.
        package static let noSuchAttribute = Code("noSuchAttribute")
        /// A sealed secret failed authentication: the row was tampered with (e.g. a blob moved from another row).
        package static let integrityCheckFailed = Code("integrityCheckFailed")
        /// Another connection held the database lock for longer than the busy timeout.
        package static let databaseBusy = Code("databaseBusy")
        /// A file-system or SQLite I/O failure (disk full, permission…), or a write to a keychain that could only be
        /// opened read-only (read-only storage).
        package static let io = Code("io")
        /// An unexpected failure inside the engine or a layer below.
        package static let `internal` = Code("internal")

        package var description: String { name }
    }

    /// The condition.
    package let code: Code
    /// Human-readable detail for logs (never secret bytes).
    package let reason: String
    /// The lower-layer error (SQLite, crypto, POSIX) that caused this one, if any.
    package let underlying: (any Error & Sendable)?

    package init(_ code: Code, _ reason: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.reason = reason
        self.underlying = underlying
    }

    package var description: String {
        var text = "KeychainStoreError.\(code.name): \(reason)"
        if let underlying { text += " [\(underlying)]" }
        return text
    }
}

extension KeychainStoreError: Equatable {
    package static func == (lhs: KeychainStoreError, rhs: KeychainStoreError) -> Bool { lhs.code == rhs.code }
}
