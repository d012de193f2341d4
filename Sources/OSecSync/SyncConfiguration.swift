import Foundation
import OSecKeychain

/// Where a keychain syncs: a PostgreSQL connection string (libpq URI or key=value form) and a circle name.
package struct SyncSettings: Sendable, Hashable {
    /// The libpq connection string.
    package let url: String
    /// The circle's name (only its SHA-256 reaches the server).
    package let circle: String

    package init(url: String, circle: String) throws(SyncError) {
        guard !url.isEmpty else { throw SyncError(.param, "the sync server URL is empty") }
        guard !circle.isEmpty, circle.utf8.count <= 256 else {
            throw SyncError(.param, "the circle name must have 1 to 256 bytes")
        }
        self.url = url
        self.circle = circle
    }

    /// The environment variable naming the server (a libpq connection string).
    package static let urlVariable = "OPENSECURITY_SYNC_URL"
    /// The environment variable naming the circle.
    package static let circleVariable = "OPENSECURITY_SYNC_CIRCLE"
    /// The environment variable naming a file whose whole content is the circle passphrase.
    package static let passphraseFileVariable = "OPENSECURITY_SYNC_PASSPHRASE_FILE"

    /// The settings and passphrase from the environment, when all three variables are set.
    /// - Throws: `param` when the passphrase file cannot be read or is empty.
    package static func fromEnvironment(
        _ environment: [String: String]
    ) throws(SyncError) -> (SyncSettings, passphrase: Data)? {
        guard let url = environment[urlVariable], !url.isEmpty, let circle = environment[circleVariable],
            !circle.isEmpty, let file = environment[passphraseFileVariable], !file.isEmpty
        else { return nil }
        let passphrase: Data
        do {
            passphrase = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw SyncError(.param, "cannot read the passphrase file \(file) (\(passphraseFileVariable))")
        }
        guard !passphrase.isEmpty else { throw SyncError(.param, "the passphrase file \(file) is empty") }
        return (try SyncSettings(url: url, circle: circle), passphrase)
    }

    /// The URL without a password, for status output (`postgresql://user:secret@host` → `postgresql://user@host`,
    /// `password=secret` → `password=***`).
    package var redactedURL: String {
        var text = url
        if let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].firstIndex(of: "@") {
            let credentials = text[scheme.upperBound..<at]
            if let colon = credentials.firstIndex(of: ":") { text.removeSubrange(colon..<at) }
        }
        return text.replacingOccurrences(
            of: "password\\s*=\\s*('[^']*'|\\S+)", with: "password=***", options: .regularExpression)
    }
}

/// The circle a keychain joined, kept in the keychain itself: a generic password in access group
/// ``accessGroup`` (accessibility `dku`, never synchronizable) whose secret holds the settings and the derived
/// circle key, so processes that open the keychain sync without the passphrase.
struct StoredCircle: Codable {
    var url: String
    var circle: String
    var circleID: String
    var key: String

    static let accessGroup = "opensecurity.sync"
    static let service = "org.opensecurity.sync"
    static let account = "circle"

    private static var query: ItemQuery {
        ItemQuery(
            itemClass: .genericPassword, attributes: ["svce": .string(service), "acct": .string(account)],
            accessGroups: [accessGroup], isSynchronizable: false, limit: 1)
    }

    static func load(_ store: KeychainStore) throws(SyncError) -> StoredCircle? {
        do {
            guard let item = try store.find(query).first, let secret = try item.secret?.open() else { return nil }
            return try JSONDecoder().decode(StoredCircle.self, from: secret)
        } catch let error as KeychainStoreError {
            throw SyncError(
                .keychain, "reading the circle settings failed: \(error.reason)", underlying: error)
        } catch {
            throw SyncError(.keychain, "the stored circle settings are malformed")
        }
    }

    func save(_ store: KeychainStore) throws(SyncError) {
        do {
            let secret = try JSONEncoder().encode(self)
            if try store.update(StoredCircle.query, with: ItemChanges(secret: secret)) == 0 {
                _ = try store.add(
                    NewItem(
                        itemClass: .genericPassword,
                        attributes: [
                            "svce": .string(StoredCircle.service), "acct": .string(StoredCircle.account),
                            "labl": .string("OpenSecurity sync circle"),
                        ],
                        accessGroup: StoredCircle.accessGroup, accessibility: .alwaysThisDeviceOnly,
                        isSynchronizable: false, secret: secret))
            }
        } catch let error as KeychainStoreError {
            throw SyncError(
                .keychain, "saving the circle settings failed: \(error.reason)", underlying: error)
        } catch {
            throw SyncError(.internal, "encoding the circle settings failed")
        }
    }

    static func remove(_ store: KeychainStore) throws(SyncError) {
        do {
            _ = try store.delete(query)
        } catch {
            throw SyncError(
                .keychain, "removing the circle settings failed: \(error.reason)", underlying: error)
        }
    }
}
