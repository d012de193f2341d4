import OSecSQLite

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Results of recent finds, kept while the database's ``CommitToken`` is unchanged.
///
/// A find reads the token first; when it differs from the one the cache was filled under, some
/// connection (this one, another in this process, or another process) has committed since, and the whole
/// cache is dropped. Otherwise the stored result is exactly what the SELECT would return, because nothing
/// was committed in between. What is kept is what a find returns: attributes and *sealed* secrets — no
/// plaintext is cached, and opening a secret still needs its class key (so locking still takes effect).
///
/// Bounded by an entry count and an estimate of the bytes held; when either would be exceeded the cache
/// starts over. Only touched under the connection's lock.
final class FindResultCache: @unchecked Sendable {  // sendable: guarded by the Database lock
    struct Key: Hashable {
        let shape: FindShape
        let bindings: [SQLiteValue]

        /// Equality is the derived one; hashing feeds the bindings' bytes straight to the hasher instead
        /// of going through each field's and enum case's own `hash(into:)` (this runs on every find).
        func hash(into hasher: inout Hasher) {
            let q = shape.query
            hasher.combine(q.ordinal &* 31 &+ (shape.withAttributes ? 2 : 0) &+ (shape.hasLimit ? 1 : 0))
            hasher.combine(q.attributeMask)
            hasher.combine(
                q.groupCount &* 7 &+ q.refCount &* 3 &+ q.rowIDCount
                    &+ (q.hasAccessibility ? 1 << 40 : 0) &+ (q.hasSync ? 1 << 41 : 0))
            for value in bindings {
                switch value {
                case .null: hasher.combine(0 as UInt8)
                case .integer(let i): hasher.combine(i)
                case .real(let d): hasher.combine(d)
                case .text(let s): hasher.combine(s)
                case .blob(let d): hasher.combine(d)
                }
            }
        }
    }

    static let entryLimit = 16_384
    static let byteLimit = 8 << 20

    private var token: CommitToken?
    private var entries: [Key: [KeychainItem]] = [:]
    private var bytes = 0

    /// The cached result for `key`, or `nil`; first drops everything cached under another token.
    func lookup(_ key: Key, token: CommitToken) -> [KeychainItem]? {
        guard token == self.token else {
            removeAll()
            self.token = token
            return nil
        }
        return entries[key]
    }

    /// Caches `items` for `key`, under the token given to the preceding ``lookup(_:token:)``.
    func insert(_ items: [KeychainItem], for key: Key) {
        let size = FindResultCache.estimatedSize(of: key, items)
        guard size <= FindResultCache.byteLimit / 16 else { return }
        if entries.count >= FindResultCache.entryLimit || bytes + size > FindResultCache.byteLimit {
            let token = self.token
            removeAll()
            self.token = token
        }
        entries[key] = items
        bytes += size
    }

    func removeAll() {
        entries.removeAll()
        bytes = 0
        token = nil
    }

    var count: Int { entries.count }

    /// Bytes held, roughly: fixed overheads plus variable-length payloads.
    private static func estimatedSize(of key: Key, _ items: [KeychainItem]) -> Int {
        var size = 96
        for value in key.bindings { size += 32 + payload(value) }
        for item in items {
            size += 224 + item.accessGroup.utf8.count + (item.secret?.blob.count ?? 0)
            for entry in item.attributes { size += 64 + payload(entry.value) }
        }
        return size
    }

    private static func payload(_ value: SQLiteValue) -> Int {
        switch value {
        case .text(let s): s.utf8.count
        case .blob(let d): d.count
        default: 0
        }
    }

    private static func payload(_ value: AttributeValue) -> Int {
        switch value {
        case .string(let s): s.utf8.count
        case .data(let d): d.count
        default: 0
        }
    }
}
