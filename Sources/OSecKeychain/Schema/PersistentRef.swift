#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A persistent reference to a stored item: its class plus a random 16-byte UUID that stays the same
/// for the item's whole life (updates keep it; a re-added item gets a new one).
package struct PersistentRef: Hashable, Sendable {
    /// The item's class.
    package let itemClass: ItemClass
    /// The 16 random bytes.
    package let uuid: Data

    /// Byte length of ``uuid``.
    package static let uuidLength = 16

    package init(itemClass: ItemClass, uuid: Data) throws(KeychainStoreError) {
        guard uuid.count == PersistentRef.uuidLength else {
            throw KeychainStoreError(.param, "persistent ref UUID must be 16 bytes")
        }
        self.itemClass = itemClass
        self.uuid = Data(uuid)
    }

    /// For UUIDs already checked to be 16 bytes (rows read from the database).
    init(itemClass: ItemClass, validatedUUID: Data) {
        self.itemClass = itemClass
        self.uuid = validatedUUID
    }

    /// Parses Apple's UUID form: 4 ASCII class bytes followed by the 16-byte UUID (20 bytes).
    package init(data: Data) throws(KeychainStoreError) {
        guard data.count == 4 + PersistentRef.uuidLength,
            let code = String(bytes: data.prefix(4), encoding: .ascii),
            let itemClass = ItemClass(code: code)
        else {
            throw KeychainStoreError(.param, "malformed persistent ref")
        }
        try self.init(itemClass: itemClass, uuid: Data(data.dropFirst(4)))
    }

    /// Apple's 20-byte encoding: class code ‖ UUID.
    package var data: Data { Data(itemClass.code.utf8) + uuid }
}
