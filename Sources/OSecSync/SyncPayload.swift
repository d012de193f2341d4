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

    /// The padded plaintext (built in one byte array, turned into `Data` once).
    package func encoded() -> Data {
        var out = PayloadWriter(capacity: 256 + (record?.secret?.count ?? 0))
        out.byte(SyncPayload.format)
        out.raw(member)
        out.double(modificationDate.timeIntervalSinceReferenceDate)
        out.raw(itemClass.code.utf8)
        if let record {
            out.byte(0)
            out.double(record.creationDate.timeIntervalSinceReferenceDate)
            out.bytes(record.accessGroup.utf8)
            out.bytes(record.accessibility.rawValue.utf8)
            let attributes = record.attributes.sorted { $0.key < $1.key }
            out.uint16(UInt16(clamping: attributes.count))
            for (key, value) in attributes {
                out.raw(key.utf8.prefix(4))
                switch value {
                case .string(let s):
                    out.byte(UInt8(ascii: "s"))
                    out.bytes(s.utf8)
                case .data(let d):
                    out.byte(UInt8(ascii: "d"))
                    out.bytes(d)
                case .integer(let i):
                    out.byte(UInt8(ascii: "i"))
                    out.uint64(UInt64(bitPattern: i))
                case .double(let d):
                    out.byte(UInt8(ascii: "f"))
                    out.double(d)
                case .date(let date):
                    out.byte(UInt8(ascii: "t"))
                    out.double(date.timeIntervalSinceReferenceDate)
                }
            }
            if let secret = record.secret {
                out.byte(1)
                out.bytes(secret)
            } else {
                out.byte(0)
            }
        } else {
            out.byte(1)
        }
        return out.padded(to: SyncPayload.paddingBlock)
    }

    /// The most attribute slots reserved ahead of decoding (every class has fewer attributes than this).
    static let attributeReserveLimit = 64

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
        let code = try reader.text(count: 4)
        guard let itemClass = ItemClass(code: code) else { throw SyncError(.tamperedRow, "unknown class \(code)") }
        self.itemClass = itemClass
        switch try reader.byte() {
        case 1:
            record = nil
        case 0:
            let created = Date(timeIntervalSinceReferenceDate: try reader.double())
            let group = try reader.text()
            guard let accessibility = Accessibility(rawValue: try reader.text())
            else {
                throw SyncError(.tamperedRow, "unknown accessibility")
            }
            let count = Int(try reader.uint16())
            var attributes: [String: AttributeValue] = [:]
            // Sized once (not rehashed as it fills); bounded, as the count is the sender's word.
            attributes.reserveCapacity(min(count, SyncPayload.attributeReserveLimit))
            for _ in 0..<count {
                let key = try reader.text(count: 4)
                guard itemClass.descriptor(for: key) != nil, attributes[key] == nil else {
                    throw SyncError(.tamperedRow, "attribute \(key) is not one of class \(code)")
                }
                switch try reader.byte() {
                case UInt8(ascii: "s"): attributes[key] = .string(try reader.text())
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
        guard reader.restIsZero else { throw SyncError(.tamperedRow, "trailing bytes") }
    }
}

/// Builds a plaintext in a byte array (one allocation, no per-byte `Data` bookkeeping); the bytes are wiped when
/// it goes away, as the secret is among them.
struct PayloadWriter {
    private var buffer: [UInt8] = []

    init(capacity: Int) { buffer.reserveCapacity(capacity) }

    mutating func byte(_ value: UInt8) { buffer.append(value) }

    mutating func raw(_ bytes: some Sequence<UInt8>) { buffer.append(contentsOf: bytes) }

    mutating func uint16(_ value: UInt16) {
        buffer.append(UInt8(value >> 8))
        buffer.append(UInt8(value & 0xFF))
    }

    mutating func uint32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { buffer.append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }

    mutating func uint64(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { buffer.append(UInt8((value >> UInt64(shift)) & 0xFF)) }
    }

    mutating func double(_ value: Double) { uint64(value.bitPattern) }

    /// u32 length ‖ bytes.
    mutating func bytes<C: Collection<UInt8>>(_ bytes: C) {
        uint32(UInt32(clamping: bytes.count))
        buffer.append(contentsOf: bytes)
    }

    /// The bytes, zero-padded to a multiple of `block`; the array is wiped.
    mutating func padded(to block: Int) -> Data {
        let remainder = buffer.count % block
        if remainder != 0 { buffer.append(contentsOf: repeatElement(0, count: block - remainder)) }
        let out = Data(buffer)
        for index in buffer.indices { buffer[index] = 0 }
        return out
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

    /// A big-endian unsigned integer of `width` bytes, read in place.
    private mutating func integer(_ width: Int) throws(SyncError) -> UInt64 {
        guard data.endIndex - offset >= width else { throw SyncError(.tamperedRow, "truncated row") }
        var value: UInt64 = 0
        for index in offset..<offset + width { value = value << 8 | UInt64(data[index]) }
        offset += width
        return value
    }

    mutating func byte() throws(SyncError) -> UInt8 { UInt8(try integer(1)) }

    mutating func uint16() throws(SyncError) -> UInt16 { UInt16(try integer(2)) }

    mutating func uint32() throws(SyncError) -> UInt32 { UInt32(try integer(4)) }

    mutating func uint64() throws(SyncError) -> UInt64 { try integer(8) }

    mutating func double() throws(SyncError) -> Double { Double(bitPattern: try uint64()) }

    mutating func bytes() throws(SyncError) -> Data { try take(Int(try uint32())) }

    /// `u32 length ‖ bytes` as UTF-8 text, decoded in place.
    mutating func text() throws(SyncError) -> String {
        let count = Int(try uint32())
        guard data.endIndex - offset >= count else { throw SyncError(.tamperedRow, "truncated row") }
        defer { offset += count }
        return String(decoding: data[offset..<offset + count], as: UTF8.self)
    }

    /// `count` raw bytes as UTF-8 text, decoded in place.
    mutating func text(count: Int) throws(SyncError) -> String {
        guard data.endIndex - offset >= count else { throw SyncError(.tamperedRow, "truncated row") }
        defer { offset += count }
        return String(decoding: data[offset..<offset + count], as: UTF8.self)
    }

    /// `true` when every byte left is zero (the padding).
    var restIsZero: Bool { data[offset...].allSatisfy { $0 == 0 } }
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
