import OSecSQLite

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A value that changes whenever any connection (this process or another) commits to a keychain: callers that
/// keep something derived from the items (the Secret Service's attribute index) rebuild it only when the token
/// they built it under differs from the current one.
package struct KeychainChangeToken: Equatable, Sendable {
    let commit: CommitToken
}

extension KeychainStore {
    /// The keychain's current change token, or `nil` when it cannot be read now (then treat everything as
    /// changed). Read it *before* the finds whose results it vouches for: a commit landing in between only makes
    /// the next token differ.
    package var changeToken: KeychainChangeToken? {
        db.commitToken().map(KeychainChangeToken.init(commit:))
    }
}
