import Foundation

/// One D-Bus value with its type: what a message carries, decoded, or what a reply will carry.
///
/// Containers carry the signature of their elements so that empty arrays and dictionaries still have a type.
/// `ay` decodes to ``bytes(_:)`` (one copy, not one value per byte); every other array to ``array(element:_:)``.
package indirect enum DBusValue: Sendable, Hashable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// `ay`.
    case bytes(Data)
    /// `a<element>` (not `ay`, not a dictionary).
    case array(element: String, [DBusValue])
    /// `a{<key><value>}`: the entries in order.
    case dictionary(key: String, value: String, [DBusDictionaryEntry])
    /// `(…)`.
    case structure([DBusValue])
    /// `v`.
    case variant(DBusValue)

    /// The value's single complete type signature.
    package var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .bytes: "ay"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let members): "(" + members.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    /// The concatenated signature of a list of values (a message body's signature).
    package static func signature(of values: [DBusValue]) -> String { values.map(\.signature).joined() }
}

/// One entry of a D-Bus dictionary (`{kv}`).
package struct DBusDictionaryEntry: Sendable, Hashable {
    package let key: DBusValue
    package let value: DBusValue

    package init(_ key: DBusValue, _ value: DBusValue) {
        self.key = key
        self.value = value
    }
}

// MARK: Building and reading the common shapes

extension DBusValue {
    /// `a{ss}` from a Swift dictionary (keys sorted, so the wire form is deterministic).
    package static func stringMap(_ map: [String: String]) -> DBusValue {
        .dictionary(
            key: "s", value: "s", map.sorted { $0.key < $1.key }.map { DBusDictionaryEntry(.string($0), .string($1)) })
    }

    /// `a{sv}` from a Swift dictionary (keys sorted).
    package static func variantMap(_ map: [String: DBusValue]) -> DBusValue {
        .dictionary(
            key: "s", value: "v",
            map.sorted { $0.key < $1.key }.map { DBusDictionaryEntry(.string($0), .variant($1)) })
    }

    /// `ao`.
    package static func objectPaths(_ paths: [String]) -> DBusValue {
        .array(element: "o", paths.map { .objectPath($0) })
    }

    /// The string of an `s`, `o` or `g` value.
    package var stringValue: String? {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): s
        default: nil
        }
    }

    /// The object path of an `o` value.
    package var objectPathValue: String? {
        if case .objectPath(let path) = self { return path }
        return nil
    }

    /// The bytes of an `ay` value.
    package var bytesValue: Data? {
        if case .bytes(let data) = self { return data }
        return nil
    }

    /// The flag of a `b` value.
    package var boolValue: Bool? {
        if case .boolean(let flag) = self { return flag }
        return nil
    }

    /// The content of a `v` value; other values unchanged.
    package var unwrappedVariant: DBusValue {
        if case .variant(let inner) = self { return inner.unwrappedVariant }
        return self
    }

    /// The elements of an array value (`ay` gives its bytes as `y` values).
    package var arrayElements: [DBusValue]? {
        switch self {
        case .array(_, let elements): elements
        case .bytes(let data): data.map { .byte($0) }
        default: nil
        }
    }

    /// The object paths of an `ao` value.
    package var objectPathsValue: [String]? {
        guard case .array(let element, let elements) = self, element == "o" else { return nil }
        return elements.compactMap(\.objectPathValue)
    }

    /// The map of an `a{ss}` value; `nil` for any other type. A repeated key keeps its first value.
    package var stringMapValue: [String: String]? {
        guard case .dictionary(let key, let value, let entries) = self, key == "s", value == "s" else { return nil }
        var map: [String: String] = [:]
        for entry in entries {
            guard let k = entry.key.stringValue, let v = entry.value.stringValue else { return nil }
            if map[k] == nil { map[k] = v }
        }
        return map
    }

    /// The map of an `a{sv}` value (variants unwrapped); `nil` for any other type.
    package var variantMapValue: [String: DBusValue]? {
        guard case .dictionary(let key, let value, let entries) = self, key == "s", value == "v" else { return nil }
        var map: [String: DBusValue] = [:]
        for entry in entries {
            guard let k = entry.key.stringValue else { return nil }
            if map[k] == nil { map[k] = entry.value.unwrappedVariant }
        }
        return map
    }
}
