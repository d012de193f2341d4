#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A stored item as returned by queries. Reading it never decrypts anything; the secret is opened
/// only when ``SealedSecret/open()`` is called.
package struct KeychainItem: Sendable {
    /// The item's class.
    package let itemClass: ItemClass
    /// The SQLite row id (stable for the item's life; Apple's older row-id persistent refs use it).
    package let rowID: Int64
    /// The persistent reference (class + UUID), stable across updates.
    package let persistentRef: PersistentRef
    /// Stored class attributes (non-NULL columns; primary-key attributes are always present, with their
    /// defaults when they were omitted at add time). Empty when the query set `includesAttributes = false`.
    package let attributes: ItemAttributes
    /// `agrp`.
    package let accessGroup: String
    /// `pdmn`.
    package let accessibility: Accessibility
    /// `sync`.
    package let isSynchronizable: Bool
    /// `cdat`, set by the engine when the item was added.
    package let creationDate: Date
    /// `mdat`, refreshed by the engine on every update.
    package let modificationDate: Date
    /// The sealed secret, or `nil` when the item has none.
    package let secret: SealedSecret?
}
