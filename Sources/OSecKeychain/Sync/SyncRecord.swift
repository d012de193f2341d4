#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything a synchronizable item is, as one value: what the sync layer seals and sends to other members,
/// and what it writes back when a remote change arrives. The row id and persistent ref are not part of it
/// (they are per machine, as on Apple platforms).
package struct SyncRecord: Sendable, Hashable {
    /// The item's class.
    package var itemClass: ItemClass
    /// Class attributes (every stored one, primary-key attributes included).
    package var attributes: [String: AttributeValue]
    /// `agrp`.
    package var accessGroup: String
    /// `pdmn`.
    package var accessibility: Accessibility
    /// `cdat`.
    package var creationDate: Date
    /// `mdat`: the conflict rule compares it (later wins).
    package var modificationDate: Date
    /// The secret in clear (only ever held in memory; sealed before it leaves the process).
    package var secret: Data?

    package init(
        itemClass: ItemClass, attributes: [String: AttributeValue], accessGroup: String,
        accessibility: Accessibility, creationDate: Date, modificationDate: Date, secret: Data?
    ) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.accessGroup = accessGroup
        self.accessibility = accessibility
        self.creationDate = creationDate
        self.modificationDate = modificationDate
        self.secret = secret
    }

    /// A stored item as a record, with its secret in clear.
    init(item: KeychainItem, secret: Data?) {
        var attributes: [String: AttributeValue] = [:]
        attributes.reserveCapacity(item.attributes.count)
        for entry in item.attributes { attributes[entry.key] = entry.value }
        self.init(
            itemClass: item.itemClass, attributes: attributes, accessGroup: item.accessGroup,
            accessibility: item.accessibility, creationDate: item.creationDate,
            modificationDate: item.modificationDate, secret: secret)
    }

    /// The primary-key attributes (Apple's uniqueness rule, with `agrp` and `sync`): what a colliding local
    /// item shares with this one.
    package var primaryKeyAttributes: [String: AttributeValue] {
        var key: [String: AttributeValue] = [:]
        for descriptor in itemClass.attributes where descriptor.isPrimaryKey {
            key[descriptor.key] = attributes[descriptor.key] ?? ItemSQL.defaultAttribute(for: descriptor)
        }
        return key
    }
}

/// One pending local change of a synchronizable item, claimed for pushing.
package struct SyncOutboxEntry: Sendable {
    /// The item's sync id (random, 16 bytes).
    package let itemID: Data
    /// The item's class.
    package let itemClass: ItemClass
    /// The change counter at claim time: the push completes only this many changes.
    package let change: Int64
    /// The server version the change is based on (0 = the item is new to the server).
    package let baseVersion: Int64
    /// The item now, or `nil` when it was deleted (a tombstone goes out).
    package let record: SyncRecord?
    /// When the deletion happened (tombstones only).
    package let deletionDate: Date?
    /// The claim this entry was taken in (its expiry, unique per claim of this process): a later claim that must
    /// leave a batch still being pushed alone names it (see ``KeychainStore/claimSyncChanges(limit:lease:sparing:)``).
    package let claim: Double
}

/// The sync ledger's view of one item.
package struct SyncItemState: Sendable {
    /// The item's sync id.
    package let itemID: Data
    /// The item's class.
    package let itemClass: ItemClass
    /// The local row, or `nil` after a delete (a tombstone).
    package let persistentRef: PersistentRef?
    /// The last server version this machine saw or wrote.
    package let version: Int64
    /// Who made the current state: `nil` = this machine, else the member id that did.
    package let member: Data?
    /// `mdat` of the current state (of the deletion, for tombstones).
    package let modificationDate: Date
    /// A local change waits in the outbox.
    package let hasPendingChange: Bool
}

/// A resolved conflict, as the ledger keeps it for a while.
package struct SyncConflict: Sendable {
    /// The item's sync id.
    package let itemID: Data
    /// When this machine resolved it.
    package let resolvedAt: Date
    /// The member whose change won (`nil` = this machine).
    package let winner: Data?
    /// The member whose change lost (`nil` = this machine).
    package let loser: Data?
    /// `mdat` of the losing change.
    package let loserModificationDate: Date
    /// The losing change, sealed by the sync layer (opaque here).
    package let loserBlob: Data?
}
