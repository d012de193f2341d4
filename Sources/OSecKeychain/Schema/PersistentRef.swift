#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A persistent reference to a stored item: its class plus a 16-byte UUID that stays the same for the item's whole
/// life (updates keep it; a re-added item gets a new one). New UUIDs are RFC 9562 version 7 (``newUUID(at:)``).
package struct PersistentRef: Hashable, Sendable {
    /// The item's class.
    package let itemClass: ItemClass
    /// The 16 bytes of the UUID.
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

    /// A new item's UUID: RFC 9562 version 7, a 48-bit Unix time in milliseconds followed by 74 random bits (the
    /// version and variant fields set). Like Apple's random UUIDs it is opaque and unique; unlike them, UUIDs made
    /// one after another sort together, so the keychain's indexes over them (the persistent-ref index, the sync
    /// ledger's) grow at one edge instead of at a random leaf: a transaction adding thousands of items (a sync
    /// pull, a bulk add) rewrites a few pages of those indexes rather than nearly all of them.
    package static func newUUID(at date: Date = Date()) throws(KeychainStoreError) -> Data {
        var uuid = try PasswordKDF.randomID(uuidLength)
        // Clamped to the 48-bit field (a date before 1970 or past its end, or not finite, never traps).
        let since1970 = date.timeIntervalSince1970 * 1000
        let milliseconds: UInt64 =
            since1970.isFinite && since1970 > 0 ? UInt64(min(since1970, Double(0xFFFF_FFFF_FFFF))) : 0
        for index in 0..<6 {
            uuid[uuid.startIndex + index] = UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * index))
        }
        uuid[uuid.startIndex + 6] = 0x70 | (uuid[uuid.startIndex + 6] & 0x0F)  // version 7
        uuid[uuid.startIndex + 8] = 0x80 | (uuid[uuid.startIndex + 8] & 0x3F)  // variant 10
        return uuid
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
