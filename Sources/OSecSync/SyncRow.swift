import Foundation
import OSecCrypto

/// One row of the server's `osec_items` table: all the database operator ever sees of an item.
///
/// `circle_id`, `item_id` (16 random bytes), `version` (1, 2, … per item), `seq` (the circle's change counter),
/// `tombstone`, and `blob` = `0x01 ‖ nonce (12) ‖ AES-256-GCM(circle key, padded payload) ‖ tag (16)` with
/// associated data `"OSecSync.item.v1" ‖ circle id ‖ item id ‖ u64 version ‖ u8 tombstone`. A blob moved to
/// another item, another version or another circle, or with its tombstone flag flipped, does not open.
package struct SyncRow: Sendable, Hashable {
    /// The item's random id.
    package let itemID: Data
    /// The item's version on the server.
    package let version: Int64
    /// The circle's sequence number of the change (0 before the server assigned one).
    package let seq: Int64
    /// The row deletes the item.
    package let isTombstone: Bool
    /// The sealed payload.
    package let blob: Data

    package init(itemID: Data, version: Int64, seq: Int64, isTombstone: Bool, blob: Data) {
        self.itemID = itemID
        self.version = version
        self.seq = seq
        self.isTombstone = isTombstone
        self.blob = blob
    }

    static let boxVersion: UInt8 = 1
    static let nonceLength = 12
    static let tagLength = 16
    static let label = Data("OSecSync.item.v1".utf8)

    static func associatedData(circleID: Data, itemID: Data, version: Int64, tombstone: Bool) -> Data {
        var aad = Data(capacity: label.count + 41)
        aad.append(label)
        aad.append(circleID)
        aad.append(itemID)
        aad.appendUInt64(UInt64(bitPattern: version))
        aad.append(tombstone ? 1 : 0)
        return aad
    }

    /// Seals `payload` as version `version` of `itemID`.
    package static func seal(
        _ payload: SyncPayload, itemID: Data, version: Int64, key: CircleKey
    ) throws(SyncError) -> SyncRow {
        var plain = payload.encoded()
        defer { plain.resetBytes(in: 0..<plain.count) }
        return try seal(plaintext: plain, itemID: itemID, version: version, tombstone: payload.isTombstone, key: key)
    }

    /// Seals an already encoded plaintext (any bytes: the fuzz harness seals malformed payloads this way, as a
    /// buggy or newer member could).
    package static func seal(
        plaintext plain: Data, itemID: Data, version: Int64, tombstone: Bool, key: CircleKey
    ) throws(SyncError) -> SyncRow {
        let aad = associatedData(circleID: key.circleID, itemID: itemID, version: version, tombstone: tombstone)
        do {
            let nonce = try SecureRandom.publicBytes(nonceLength)
            let (ciphertext, tag) = try key.sealingKey.seal(
                nonce: nonce, plaintext: plain, aad: aad, tagLength: tagLength)
            var blob = Data(capacity: 1 + nonceLength + ciphertext.count + tagLength)
            blob.append(boxVersion)
            blob.append(nonce)
            blob.append(ciphertext)
            blob.append(tag)
            return SyncRow(itemID: itemID, version: version, seq: 0, isTombstone: tombstone, blob: blob)
        } catch {
            throw SyncError(.internal, "sealing a row failed", underlying: error)
        }
    }

    /// Opens the row with the circle key.
    /// - Throws: `tamperedRow` when the blob does not belong to this circle, item, version and tombstone flag.
    package func open(with key: CircleKey) throws(SyncError) -> SyncPayload {
        guard itemID.count == 16, version > 0, blob.count >= 1 + SyncRow.nonceLength + SyncRow.tagLength,
            blob.first == SyncRow.boxVersion
        else {
            throw SyncError(.tamperedRow, "row \(itemID.hexString) v\(version) is malformed")
        }
        let aad = SyncRow.associatedData(
            circleID: key.circleID, itemID: itemID, version: version, tombstone: isTombstone)
        let plain: Data
        do {
            plain = try key.sealingKey.open(combined: blob, from: 1, tagLength: SyncRow.tagLength, aad: aad)
        } catch {
            throw SyncError(
                .tamperedRow,
                "row \(itemID.hexString) v\(version) does not open with this circle's key: it was modified, "
                    + "moved from another item or version, or copied from another circle")
        }
        let payload = try SyncPayload(decoding: plain)
        guard payload.isTombstone == isTombstone else { throw SyncError(.tamperedRow, "tombstone flag mismatch") }
        return payload
    }
}

extension Data {
    /// Lowercase hexadecimal.
    package var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(count * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses lowercase or uppercase hexadecimal; `nil` when malformed.
    package init?(hexString: String) {
        let chars = Array(hexString.utf8)
        guard chars.count % 2 == 0 else { return nil }
        var out = Data(capacity: chars.count / 2)
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var index = 0
        while index < chars.count {
            guard let high = nibble(chars[index]), let low = nibble(chars[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        self = out
    }
}
