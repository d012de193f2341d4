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
    /// The type OID and binary wire form of a parameter (`nil` bytes = SQL NULL).
    var wire: (type: UInt32, bytes: Data?) {
        switch self {
        case .null: return (0, nil)
        case .bytes(let d): return (PGType.bytea, d)
        case .text(let s): return (PGType.text, Data(s.utf8))
        case .integer(let i): return (PGType.int8, PGWire.int64(i))
        case .bool(let b): return (PGType.bool, Data([b ? 1 : 0]))
        case .bytesArray(let items): return (PGType.byteaArray, PGWire.array(of: PGType.bytea, items))
        case .integerArray(let items): return (PGType.int8Array, PGWire.array(of: PGType.int8, items.map(PGWire.int64)))
        case .boolArray(let items):
            return (PGType.boolArray, PGWire.array(of: PGType.bool, items.map { Data([$0 ? 1 : 0]) }))
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
    static func int64(_ value: Int64) -> Data {
        withUnsafeBytes(of: value.bigEndian) { Data($0) }
    }

    static func int32(_ value: Int32) -> Data {
        withUnsafeBytes(of: value.bigEndian) { Data($0) }
    }

    /// A one-dimensional array without NULLs: ndim, has-null flag, element type, (length, lower bound), then
    /// each element as its length and bytes (array_send in src/backend/utils/adt/arrayfuncs.c).
    static func array(of elementType: UInt32, _ elements: [Data]) -> Data {
        var out = Data(capacity: 20 + elements.reduce(0) { $0 + 4 + $1.count })
        out.append(int32(elements.isEmpty ? 0 : 1))
        out.append(int32(0))
        out.append(int32(Int32(bitPattern: elementType)))
        if !elements.isEmpty {
            out.append(int32(Int32(clamping: elements.count)))
            out.append(int32(1))
        }
        for element in elements {
            out.append(int32(Int32(clamping: element.count)))
            out.append(element)
        }
        return out
    }
}
