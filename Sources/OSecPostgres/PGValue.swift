import Foundation

/// A statement parameter or a result cell. Parameters are always sent in PostgreSQL's binary format with an
/// explicit type, out of line from the SQL text, so values never need quoting.
package enum PGValue: Sendable, Hashable {
    case null
    /// `bytea`.
    case bytes(Data)
    /// `text`.
    case text(String)
    /// `int8` (`bigint`); results of type `int2`/`int4` are widened to this.
    case integer(Int64)
    /// `bool`.
    case bool(Bool)
    /// `bytea[]` (one-dimensional, no NULL elements): for batched statements with `unnest`.
    case bytesArray([Data])
    /// `int8[]` (one-dimensional, no NULL elements).
    case integerArray([Int64])
    /// `bool[]` (one-dimensional, no NULL elements).
    case boolArray([Bool])
}

extension PGValue {
    /// The bytes of a `bytea` cell.
    package var bytesValue: Data? { if case .bytes(let v) = self { v } else { nil } }
    /// The text of a `text`/`varchar`/`name` cell.
    package var textValue: String? { if case .text(let v) = self { v } else { nil } }
    /// The number of an integer cell.
    package var integerValue: Int64? { if case .integer(let v) = self { v } else { nil } }
    /// The value of a `bool` cell.
    package var boolValue: Bool? { if case .bool(let v) = self { v } else { nil } }
    /// `true` for SQL NULL.
    package var isNull: Bool { self == .null }
}

/// PostgreSQL's type OIDs for the types we send and read (pg_type.dat; stable since PostgreSQL 7).
enum PGType {
    static let bool: UInt32 = 16
    static let bytea: UInt32 = 17
    static let int8: UInt32 = 20
    static let int2: UInt32 = 21
    static let int4: UInt32 = 23
    static let text: UInt32 = 25
    static let oid: UInt32 = 26
    static let varchar: UInt32 = 1043
    static let name: UInt32 = 19
    static let boolArray: UInt32 = 1000
    static let byteaArray: UInt32 = 1001
    static let int8Array: UInt32 = 1016
    static let void: UInt32 = 2278
}

extension PGValue {
    /// The type OID of a parameter (0 for NULL: the server infers it).
    var wireType: UInt32 {
        switch self {
        case .null: 0
        case .bytes: PGType.bytea
        case .text: PGType.text
        case .integer: PGType.int8
        case .bool: PGType.bool
        case .bytesArray: PGType.byteaArray
        case .integerArray: PGType.int8Array
        case .boolArray: PGType.boolArray
        }
    }

    /// The byte length of the parameter's binary wire form (0 for NULL).
    var wireLength: Int {
        switch self {
        case .null: 0
        case .bytes(let d): d.count
        case .text(let s): s.utf8.count
        case .integer: 8
        case .bool: 1
        case .bytesArray(let items): PGWire.arrayHeaderLength(items.count) + items.reduce(0) { $0 + 4 + $1.count }
        case .integerArray(let items): PGWire.arrayHeaderLength(items.count) + items.count * 12
        case .boolArray(let items): PGWire.arrayHeaderLength(items.count) + items.count * 5
        }
    }

    /// Appends the parameter's binary wire form to `out` (nothing for NULL). Arrays are written element by element
    /// into the one buffer (no intermediate value per element).
    func appendWire(to out: inout [UInt8]) {
        switch self {
        case .null: break
        case .bytes(let d): PGWire.append(d, to: &out)
        case .text(let s): out.append(contentsOf: s.utf8)
        case .integer(let i): PGWire.append(i, to: &out)
        case .bool(let b): out.append(b ? 1 : 0)
        case .bytesArray(let items):
            PGWire.appendArrayHeader(of: PGType.bytea, count: items.count, to: &out)
            for item in items {
                PGWire.append(Int32(clamping: item.count), to: &out)
                PGWire.append(item, to: &out)
            }
        case .integerArray(let items):
            PGWire.appendArrayHeader(of: PGType.int8, count: items.count, to: &out)
            for item in items {
                PGWire.append(Int32(8), to: &out)
                PGWire.append(item, to: &out)
            }
        case .boolArray(let items):
            PGWire.appendArrayHeader(of: PGType.bool, count: items.count, to: &out)
            for item in items {
                PGWire.append(Int32(1), to: &out)
                out.append(item ? 1 : 0)
            }
        }
    }

    /// Decodes a binary result cell of type `type`.
    static func decode(type: UInt32, bytes: Data) throws(PGError) -> PGValue {
        switch type {
        case PGType.bytea: return .bytes(bytes)
        case PGType.void: return .null
        case PGType.text, PGType.varchar, PGType.name: return .text(String(decoding: bytes, as: UTF8.self))
        case PGType.bool:
            guard bytes.count == 1 else { throw PGError(.protocolViolation, "malformed bool") }
            return .bool(bytes[bytes.startIndex] != 0)
        case PGType.int2, PGType.int4, PGType.int8, PGType.oid:
            guard [2, 4, 8].contains(bytes.count) else { throw PGError(.protocolViolation, "malformed integer") }
            var value: Int64 = 0
            for byte in bytes { value = value << 8 | Int64(byte) }
            // Sign-extend the narrower integer types (oid is unsigned 32-bit).
            let width = Int64(bytes.count * 8)
            if type != PGType.oid && width < 64 && value & (1 << (width - 1)) != 0 { value -= 1 << width }
            return .integer(value)
        default:
            throw PGError(.protocolViolation, "result column of unsupported type \(type)")
        }
    }
}

/// PostgreSQL's binary wire formats (network byte order).
enum PGWire {
    static func append(_ value: Int64, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { out.append(contentsOf: $0) }
    }

    static func append(_ value: Int32, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { out.append(contentsOf: $0) }
    }

    static func append(_ bytes: Data, to out: inout [UInt8]) {
        bytes.withUnsafeBytes { out.append(contentsOf: $0) }
    }

    /// The length of a one-dimensional array's header (``appendArrayHeader(of:count:to:)``).
    static func arrayHeaderLength(_ count: Int) -> Int { count == 0 ? 12 : 20 }

    /// The header of a one-dimensional array without NULLs: ndim, has-null flag, element type, then (length, lower
    /// bound); each element follows as its length and bytes (array_send in src/backend/utils/adt/arrayfuncs.c).
    static func appendArrayHeader(of elementType: UInt32, count: Int, to out: inout [UInt8]) {
        append(Int32(count == 0 ? 0 : 1), to: &out)
        append(Int32(0), to: &out)
        append(Int32(bitPattern: elementType), to: &out)
        if count > 0 {
            append(Int32(clamping: count), to: &out)
            append(Int32(1), to: &out)
        }
    }
}
