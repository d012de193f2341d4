import OSecSQLite

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An item's secret as stored: AES-256-GCM ciphertext bound to the item it belongs to (see `SecretBinding`).
/// Opening it needs the item's protection-class key, so it fails with `interactionNotAllowed` when that key is
/// locked away.
package struct SealedSecret: Sendable {
    let blob: Data
    let itemClass: ItemClass
    let rowID: Int64
    /// The protection class whose key is needed to open the secret.
    package let protectionClass: ProtectionClass
    let keyRing: KeyRing
    /// The associated data the blob was sealed with, made once: a cached find result is opened many times.
    let associatedData: Data

    init(blob: Data, binding: SecretBinding, keyRing: KeyRing) {
        self.init(
            blob: blob, itemClass: binding.itemClass, rowID: binding.rowID, protectionClass: binding.protectionClass,
            keyRing: keyRing, associatedData: binding.associatedData(prefix: keyRing.itemAADPrefix))
    }

    /// For a row decoded straight into its associated data (``SecretBinding/appendHeader`` and
    /// ``BindingEncoding/appendColumn(_:at:kind:to:)``).
    init(
        blob: Data, itemClass: ItemClass, rowID: Int64, protectionClass: ProtectionClass, keyRing: KeyRing,
        associatedData: Data
    ) {
        self.blob = blob
        self.itemClass = itemClass
        self.rowID = rowID
        self.protectionClass = protectionClass
        self.keyRing = keyRing
        self.associatedData = associatedData
    }

    /// Decrypts and returns the secret.
    /// - Throws: `interactionNotAllowed` (keychain locked), `integrityCheckFailed` (errSecDecode: the stored blob
    ///   was sealed for another item, or the row's identifying attributes, access group, sync flag, protection
    ///   class, persistent ref or the ciphertext were changed outside the keychain).
    package func open() throws(KeychainStoreError) -> Data {
        do {
            return try keyRing.openSecret(blob, protectionClass: protectionClass, associatedData: associatedData)
        } catch  where error.code == .integrityCheckFailed {
            throw SecretBinding.tamperError(itemClass, rowID, underlying: error)
        }
    }
}

/// What a sealed secret is bound to: its AES-GCM associated data names the item, so a blob opens only in the row
/// it was sealed for and only while that row still identifies the same item.
///
/// Bound (schema version 2): keychain id, class, the row's id (`id`, never changed by the engine), its persistent
/// ref, its protection class, `sync`, `agrp` and every primary-key attribute of the class (Apple's uniqueness
/// attributes: for `genp` acct, svce; `inet` acct, sdmn, srvr, ptcl, atyp, port, path; `cert` issr, slnr, ctyp;
/// `keys` klbl, atag, kcls, crtr, type, bsiz, esiz, sdat, edat; and vwht, tkid, musr, ggrp for all). Everything an
/// item is *found by* in a point lookup is therefore authenticated: a secret can neither be moved to another row
/// nor be reached through edited identifying attributes. The other attributes (labels, comments, dates, …) are
/// only stored: editing them changes what is shown, never which secret is returned.
struct SecretBinding: Sendable {
    let itemClass: ItemClass
    let rowID: Int64
    let uuid: Data
    let protectionClass: ProtectionClass
    let accessGroup: String
    let isSynchronizable: Bool
    /// The primary-key attribute values (``ItemClass/primaryKeyIndices`` order), canonically encoded.
    let primaryKey: Data

    /// Label of the version-2 item associated data.
    static let label = "OSecKeychain.item.v2"
    /// Label of schema version 1's associated data (keychain id ‖ class ‖ persistent ref ‖ protection class only),
    /// still read once when a version-1 keychain's secrets are re-sealed (see `KeychainStore.resealLegacySecrets`).
    static let legacyLabel = "OSecKeychain.item.v1"

    /// `prefix` is ``KeyRing/itemAADPrefix`` (``label`` ‖ keychain id).
    func associatedData(prefix: [UInt8]) -> Data {
        var aad: [UInt8] = []
        aad.reserveCapacity(prefix.count + 48 + accessGroup.utf8.count + primaryKey.count)
        Self.appendHeader(
            prefix: prefix, itemClass: itemClass, rowID: rowID, uuid: uuid, protectionClass: protectionClass,
            isSynchronizable: isSynchronizable, accessGroup: accessGroup, to: &aad)
        aad.append(contentsOf: primaryKey)
        return Data(aad)
    }

    /// The associated data up to the primary-key values: prefix ‖ class code ‖ row id (8, big-endian) ‖ persistref
    /// UUID ‖ class letter ‖ sync (1) ‖ agrp (length-prefixed UTF-8). Built in a byte array, made `Data` once:
    /// appending single bytes to `Data` costs a range replacement each (this runs for every secret sealed or opened).
    static func appendHeader(
        prefix: [UInt8], itemClass: ItemClass, rowID: Int64, uuid: Data, protectionClass: ProtectionClass,
        isSynchronizable: Bool, accessGroup: String, to aad: inout [UInt8]
    ) {
        aad.append(contentsOf: prefix)
        aad.append(contentsOf: itemClass.codeBytes)
        BindingEncoding.append(UInt64(bitPattern: rowID), to: &aad)
        aad.append(contentsOf: uuid)
        aad.append(protectionClass.byte)
        aad.append(isSynchronizable ? 1 : 0)
        BindingEncoding.appendLength(accessGroup.utf8.count, to: &aad)
        aad.append(contentsOf: accessGroup.utf8)
    }

    /// Schema version 1's associated data for the same row (`prefix` = ``legacyLabel`` ‖ keychain id).
    func legacyAssociatedData(prefix: [UInt8]) -> Data {
        var aad = prefix
        aad.append(contentsOf: itemClass.codeBytes)
        aad.append(contentsOf: uuid)
        aad.append(protectionClass.byte)
        return Data(aad)
    }

    /// The error for a blob that fails its tag check in this row.
    func tamperError(underlying: KeychainStoreError) -> KeychainStoreError {
        Self.tamperError(itemClass, rowID, underlying: underlying)
    }

    static func tamperError(
        _ itemClass: ItemClass, _ rowID: Int64, underlying: KeychainStoreError
    ) -> KeychainStoreError {
        KeychainStoreError(
            .integrityCheckFailed,
            "the secret stored in \(itemClass.code) row \(rowID) does not belong to that item: the row's "
                + "identifying attributes, access group, sync flag, accessibility or persistent ref were changed, or "
                + "its secret was moved from another item, outside the keychain (the file was tampered with)",
            underlying: underlying)
    }
}

/// The canonical byte encoding of bound values: fixed-width big-endian integers and length-prefixed bytes, so no
/// two different value lists encode alike. A primary-key value encodes as it compares in SQLite's UNIQUE
/// constraint: an integral REAL like an INTEGER (443.0 = 443), and a string or blob in a `bytes` column by its
/// bytes.
enum BindingEncoding {
    /// Appends one primary-key column value of an attribute of `kind`.
    static func append(_ value: SQLiteValue, kind: AttributeDescriptor.Kind, to data: inout [UInt8]) {
        switch value {
        case .null:
            data.append(UInt8(ascii: "n"))
        case .integer(let v):
            data.append(UInt8(ascii: "i"))
            append(UInt64(bitPattern: v), to: &data)
        case .real(let v):
            if v.isNaN {
                data.append(UInt8(ascii: "n"))  // SQLite stores NaN as NULL
            } else if let exact = Int64(exactly: v) {
                data.append(UInt8(ascii: "i"))
                append(UInt64(bitPattern: exact), to: &data)
            } else {
                data.append(UInt8(ascii: "r"))
                append(v.bitPattern, to: &data)
            }
        case .text(let v):
            // A `bytes` column stores text as a BLOB of its UTF-8 (CAST(? AS BLOB)); other columns keep TEXT.
            data.append(kind == .bytes ? UInt8(ascii: "b") : UInt8(ascii: "t"))
            appendLength(v.utf8.count, to: &data)
            data.append(contentsOf: v.utf8)
        case .blob(let v):
            data.append(UInt8(ascii: "b"))
            appendLengthPrefixed(v, to: &data)
        }
    }

    static func append(_ value: UInt64, to data: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    static func appendLengthPrefixed(_ bytes: Data, to data: inout [UInt8]) {
        appendLength(bytes.count, to: &data)
        data.append(contentsOf: bytes)
    }

    /// A 4-byte big-endian length.
    static func appendLength(_ count: Int, to data: inout [UInt8]) {
        let count = UInt32(truncatingIfNeeded: count)
        for shift in stride(from: 24, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: count >> shift)) }
    }

    /// Appends the current row's column `index` (a primary-key attribute of `kind`) exactly as
    /// ``append(_:kind:to:)`` appends the same value read with `value(at:)`, without copying it out first.
    static func appendColumn(
        _ row: Statement, at index: Int32, kind: AttributeDescriptor.Kind, to data: inout [UInt8]
    ) {
        switch row.columnType(at: index) {
        case .integer:
            append(.integer(row.int64(at: index)), kind: kind, to: &data)
        case .real:
            append(.real(row.double(at: index)), kind: kind, to: &data)
        case .null:
            data.append(UInt8(ascii: "n"))
        case .text:
            data.append(kind == .bytes ? UInt8(ascii: "b") : UInt8(ascii: "t"))
            appendLength(row.byteCount(at: index), to: &data)
            row.appendBytes(at: index, to: &data)
        case .blob:
            data.append(UInt8(ascii: "b"))
            appendLength(row.byteCount(at: index), to: &data)
            row.appendBytes(at: index, to: &data)
        }
    }

    /// The encoding of a class's primary-key values; `value` gets each one's position among the primary-key
    /// attributes and its index in ``ItemClass/attributes``.
    static func primaryKey(_ itemClass: ItemClass, value: (_ position: Int, _ index: Int) -> SQLiteValue) -> Data {
        var data: [UInt8] = []
        data.reserveCapacity(64)
        for (position, index) in itemClass.primaryKeyIndices.enumerated() {
            append(value(position, index), kind: itemClass.attributes[index].kind, to: &data)
        }
        return Data(data)
    }
}

extension ProtectionClass {
    /// The class letter as one ASCII byte.
    var byte: UInt8 {
        switch self {
        case .whenUnlocked: UInt8(ascii: "A")
        case .afterFirstUnlock: UInt8(ascii: "C")
        case .always: UInt8(ascii: "D")
        }
    }
}
