import Foundation
import OSecKeychain

/// What one server row holds once opened: who changed the item and when, and the item itself (or nothing, for a
/// tombstone).
///
/// Plaintext layout (all integers big-endian), padded with zero bytes to a multiple of ``paddingBlock`` so the
/// sealed size says little about the content:
/// ```
/// u8 format (1) ‖ member id (16) ‖ f64 mdat ‖ class code (4) ‖ u8 kind (0 item, 1 tombstone)
/// item only: f64 cdat ‖ str agrp ‖ str pdmn ‖ u16 count ‖ count × (key (4) ‖ u8 type ‖ value) ‖ u8 has secret
///            ‖ [bytes secret]
/// str/bytes = u32 length ‖ bytes; value by type: s str, d bytes, i i64, f f64, t f64 (seconds since 2001)
/// ```
package struct SyncPayload: Sendable, Hashable {
    /// The member that made this change.
    package let member: Data
    /// When the change was made (the item's `mdat`, or the deletion time): the conflict rule compares it.
    package let modificationDate: Date
    /// The item's class.
    package let itemClass: ItemClass
    /// The item, or `nil` for a tombstone.
    package let record: SyncRecord?

    static let format: UInt8 = 1
    /// Plaintexts are padded to a multiple of this many bytes.
    package static let paddingBlock = 64
    /// Largest accepted plaintext (a certificate chain item is a few KiB; this bounds a hostile row).
    static let maximumLength = 1 << 24

    package init(member: Data, modificationDate: Date, itemClass: ItemClass, record: SyncRecord?) {
        self.member = member
        self.modificationDate = modificationDate
        self.itemClass = itemClass
        self.record = record
    }

    /// `true` for a deletion.
    package var isTombstone: Bool { record == nil }

    /// The conflict rule's key: the later modification wins, ties go to the larger member id (bytewise).
    package func wins(over other: SyncPayload) -> Bool {
        SyncPayload.isLater((modificationDate, member), than: (other.modificationDate, other.member))
    }

    /// The conflict rule on (mdat, member id) pairs: the same answer on every member.
    package static func isLater(_ a: (Date, Data), than b: (Date, Data)) -> Bool {
        let (x, y) = (a.0.timeIntervalSinceReferenceDate, b.0.timeIntervalSinceReferenceDate)
        if x != y { return x > y }
        return a.1.lexicographicallyPrecedes(b.1) == false && a.1 != b.1
    }

    // MARK: Encoding

    /// The padded plaintext.
    package func encoded() -> Data {
        var out = Data(capacity: 256)
        out.append(SyncPayload.format)
        out.append(member)
        out.appendDouble(modificationDate.timeIntervalSinceReferenceDate)
        out.append(Data(itemClass.code.utf8))
        if let record {
            out.append(0)
            out.appendDouble(record.creationDate.timeIntervalSinceReferenceDate)
            out.appendBytes(Data(record.accessGroup.utf8))
            out.appendBytes(Data(record.accessibility.rawValue.utf8))
            let attributes = record.attributes.sorted { $0.key < $1.key }
            out.appendUInt16(UInt16(clamping: attributes.count))
            for (key, value) in attributes {
                out.append(Data(key.utf8.prefix(4)))
                switch value {
                case .string(let s):
                    out.append(UInt8(ascii: "s"))
                    out.appendBytes(Data(s.utf8))
                case .data(let d):
                    out.append(UInt8(ascii: "d"))
                    out.appendBytes(d)
                case .integer(let i):
                    out.append(UInt8(ascii: "i"))
                    out.appendUInt64(UInt64(bitPattern: i))
                case .double(let d):
                    out.append(UInt8(ascii: "f"))
                    out.appendDouble(d)
                case .date(let date):
                    out.append(UInt8(ascii: "t"))
                    out.appendDouble(date.timeIntervalSinceReferenceDate)
                }
            }
            if let secret = record.secret {
                out.append(1)
                out.appendBytes(secret)
            } else {
                out.append(0)
            }
        } else {
            out.append(1)
        }
        let remainder = out.count % SyncPayload.paddingBlock
        if remainder != 0 { out.append(Data(count: SyncPayload.paddingBlock - remainder)) }
        return out
    }

    /// Parses a plaintext; every malformed input throws `tamperedRow` (it opened, so a member sealed it: a bug or
    /// a newer format, never trusted).
    package init(decoding bytes: Data) throws(SyncError) {
        guard bytes.count <= SyncPayload.maximumLength else { throw SyncError(.tamperedRow, "row too large") }
        var reader = ByteReader(bytes)
        guard try reader.byte() == SyncPayload.format else {
            throw SyncError(.serverIncompatible, "a row in an unknown format (a newer OpenSecurity?)")
        }
        member = try reader.take(16)
        modificationDate = Date(timeIntervalSinceReferenceDate: try reader.double())
        let code = String(decoding: try reader.take(4), as: UTF8.self)
        guard let itemClass = ItemClass(code: code) else { throw SyncError(.tamperedRow, "unknown class \(code)") }
        self.itemClass = itemClass
        switch try reader.byte() {
        case 1:
            record = nil
        case 0:
            let created = Date(timeIntervalSinceReferenceDate: try reader.double())
            let group = String(decoding: try reader.bytes(), as: UTF8.self)
            guard let accessibility = Accessibility(rawValue: String(decoding: try reader.bytes(), as: UTF8.self))
            else {
                throw SyncError(.tamperedRow, "unknown accessibility")
            }
            let count = Int(try reader.uint16())
            var attributes: [String: AttributeValue] = [:]
            for _ in 0..<count {
                let key = String(decoding: try reader.take(4), as: UTF8.self)
                guard itemClass.descriptor(for: key) != nil, attributes[key] == nil else {
                    throw SyncError(.tamperedRow, "attribute \(key) is not one of class \(code)")
                }
                switch try reader.byte() {
                case UInt8(ascii: "s"): attributes[key] = .string(String(decoding: try reader.bytes(), as: UTF8.self))
                case UInt8(ascii: "d"): attributes[key] = .data(try reader.bytes())
                case UInt8(ascii: "i"): attributes[key] = .integer(Int64(bitPattern: try reader.uint64()))
                case UInt8(ascii: "f"): attributes[key] = .double(try reader.double())
                case UInt8(ascii: "t"):
                    attributes[key] = .date(Date(timeIntervalSinceReferenceDate: try reader.double()))
                default: throw SyncError(.tamperedRow, "unknown value type")
                }
            }
            let secret: Data? = try reader.byte() == 1 ? try reader.bytes() : nil
            record = SyncRecord(
                itemClass: itemClass, attributes: attributes, accessGroup: group, accessibility: accessibility,
                creationDate: created, modificationDate: modificationDate, secret: secret)
        default:
            throw SyncError(.tamperedRow, "unknown row kind")
        }
        guard reader.remaining.allSatisfy({ $0 == 0 }) else { throw SyncError(.tamperedRow, "trailing bytes") }
    }
}

/// A bounds-checked reader over untrusted bytes (every read either succeeds or throws).
struct ByteReader {
    private let data: Data
    private var offset: Int

    init(_ data: Data) {
        self.data = data
        self.offset = data.startIndex
    }

    var remaining: Data { data[offset...] }

    mutating func take(_ count: Int) throws(SyncError) -> Data {
        guard count >= 0, data.endIndex - offset >= count else { throw SyncError(.tamperedRow, "truncated row") }
        defer { offset += count }
        return Data(data[offset..<offset + count])
    }

    mutating func byte() throws(SyncError) -> UInt8 { try take(1)[0] }

    mutating func uint16() throws(SyncError) -> UInt16 {
        try take(2).reduce(0) { $0 << 8 | UInt16($1) }
    }

    mutating func uint32() throws(SyncError) -> UInt32 {
        try take(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func uint64() throws(SyncError) -> UInt64 {
        try take(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func double() throws(SyncError) -> Double { Double(bitPattern: try uint64()) }

    mutating func bytes() throws(SyncError) -> Data { try take(Int(try uint32())) }
}

extension Data {
    mutating func appendUInt16(_ value: UInt16) {
        append(UInt8(value >> 8))
        append(UInt8(value & 0xFF))
    }

    mutating func appendUInt64(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { append(UInt8((value >> UInt64(shift)) & 0xFF)) }
    }

    mutating func appendDouble(_ value: Double) { appendUInt64(value.bitPattern) }

    mutating func appendBytes(_ bytes: Data) {
        let count = UInt32(clamping: bytes.count)
        for shift in stride(from: 24, through: 0, by: -8) { append(UInt8((count >> UInt32(shift)) & 0xFF)) }
        append(bytes)
    }
}
