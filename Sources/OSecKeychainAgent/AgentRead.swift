/// A password read the agent answers for a client (``AgentProtocol/Opcode/read``): what the `security` front end
/// would otherwise look up itself — the first item of one password class matching some attributes, in the first
/// keychain of a list that has one — so that the process asking loads neither SQLite nor libcrypto's ciphers.
///
/// ```
/// read request = class (1) ‖ path count (1) ‖ paths ‖ group count (1) ‖ groups ‖ attribute count (1) ‖ attributes
/// path, group  = length (2) ‖ UTF-8
/// attribute    = name (4, ASCII: Apple's attribute code, e.g. "svce") ‖ type (1) ‖ length (2) ‖ value
/// response     = the secret (status ``AgentProtocol/Status/notFound`` when the agent does not answer)
/// ```
///
/// Types: 0 text (UTF-8), 1 integer (8 bytes, big-endian, two's complement), 2 bytes. The encoding is canonical:
/// a payload decodes only when it is exactly what ``encoded()`` makes of the value it decodes to.
package struct AgentReadRequest: Sendable, Equatable {
    /// Which password class.
    package enum ItemClass: UInt8, Sendable {
        case genericPassword = 0
        case internetPassword = 1
    }

    /// One attribute condition's value.
    package enum Value: Sendable, Equatable {
        case text(String)
        case integer(Int64)
        case bytes([UInt8])
    }

    /// One attribute condition: Apple's four-character attribute code and the value it must equal.
    package struct Attribute: Sendable, Equatable {
        package let name: String
        package let value: Value

        package init(name: String, value: Value) {
            self.name = name
            self.value = value
        }
    }

    package let itemClass: ItemClass
    /// The keychains to search, in order (absolute paths, as the client resolved them).
    package let paths: [String]
    /// The access groups the client may read.
    package let accessGroups: [String]
    package let attributes: [Attribute]

    /// Most keychains in one request.
    package static let maximumPaths = 16
    /// Most access groups in one request.
    package static let maximumGroups = 64
    /// Most attribute conditions in one request.
    package static let maximumAttributes = 32

    package init(itemClass: ItemClass, paths: [String], accessGroups: [String], attributes: [Attribute]) {
        self.itemClass = itemClass
        self.paths = paths
        self.accessGroups = accessGroups
        self.attributes = attributes
    }

    /// The request payload, or `nil` when the request exceeds a bound (a count, a field's 65,535 bytes or the
    /// protocol's payload size): the caller then looks the password up itself.
    package func encoded() -> [UInt8]? {
        guard paths.count <= Self.maximumPaths, accessGroups.count <= Self.maximumGroups,
            attributes.count <= Self.maximumAttributes
        else { return nil }
        var out: [UInt8] = [itemClass.rawValue, UInt8(paths.count)]
        for path in paths {
            guard Self.appendField(Array(path.utf8), to: &out) else { return nil }
        }
        out.append(UInt8(accessGroups.count))
        for group in accessGroups {
            guard Self.appendField(Array(group.utf8), to: &out) else { return nil }
        }
        out.append(UInt8(attributes.count))
        for attribute in attributes {
            let name = Array(attribute.name.utf8)
            guard Self.isAttributeName(name) else { return nil }
            out += name
            switch attribute.value {
            case .text(let text):
                out.append(0)
                guard Self.appendField(Array(text.utf8), to: &out) else { return nil }
            case .integer(let number):
                out.append(1)
                out += AgentProtocol.uint16(8)
                out += AgentProtocol.uint32(UInt32(truncatingIfNeeded: UInt64(bitPattern: number) >> 32))
                out += AgentProtocol.uint32(UInt32(truncatingIfNeeded: UInt64(bitPattern: number)))
            case .bytes(let bytes):
                out.append(2)
                guard Self.appendField(bytes, to: &out) else { return nil }
            }
        }
        guard out.count <= AgentProtocol.maximumPayloadLength else { return nil }
        return out
    }

    /// The request a payload carries, or `nil` when it is malformed: a truncated or trailing field, a count or
    /// type out of range, text that is not UTF-8, an attribute name that is not four printable ASCII characters,
    /// or an integer that is not 8 bytes.
    package static func decode(_ payload: [UInt8]) -> AgentReadRequest? {
        var reader = FieldReader(bytes: payload)
        guard let classByte = reader.byte(), let itemClass = ItemClass(rawValue: classByte),
            let pathCount = reader.byte(), Int(pathCount) <= maximumPaths
        else { return nil }
        var paths: [String] = []
        for _ in 0..<pathCount {
            guard let path = reader.text() else { return nil }
            paths.append(path)
        }
        guard let groupCount = reader.byte(), Int(groupCount) <= maximumGroups else { return nil }
        var groups: [String] = []
        for _ in 0..<groupCount {
            guard let group = reader.text() else { return nil }
            groups.append(group)
        }
        guard let attributeCount = reader.byte(), Int(attributeCount) <= maximumAttributes else { return nil }
        var attributes: [Attribute] = []
        for _ in 0..<attributeCount {
            guard let nameBytes = reader.bytes(4), isAttributeName(nameBytes),
                let type = reader.byte(), let field = reader.field()
            else { return nil }
            let name = String(decoding: nameBytes, as: UTF8.self)
            switch type {
            case 0:
                guard let text = String(validating: field, as: UTF8.self) else { return nil }
                attributes.append(Attribute(name: name, value: .text(text)))
            case 1:
                guard field.count == 8 else { return nil }
                let bits = field.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                attributes.append(Attribute(name: name, value: .integer(Int64(bitPattern: bits))))
            case 2:
                attributes.append(Attribute(name: name, value: .bytes(field)))
            default:
                return nil
            }
        }
        guard reader.isAtEnd else { return nil }
        return AgentReadRequest(itemClass: itemClass, paths: paths, accessGroups: groups, attributes: attributes)
    }

    /// An attribute name on the wire: four printable ASCII characters (Apple's attribute codes).
    private static func isAttributeName(_ bytes: [UInt8]) -> Bool {
        bytes.count == 4 && bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    private static func appendField(_ bytes: [UInt8], to out: inout [UInt8]) -> Bool {
        guard bytes.count <= Int(UInt16.max) else { return false }
        out += AgentProtocol.uint16(UInt16(bytes.count)) + bytes
        return true
    }
}

/// Reads a read request's fields in order, never past the end.
private struct FieldReader {
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset == bytes.count }

    mutating func byte() -> UInt8? { bytes(1)?.first }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// A length-prefixed field.
    mutating func field() -> [UInt8]? {
        guard let length = bytes(2).flatMap({ AgentProtocol.readUInt16($0, 0) }) else { return nil }
        return bytes(Int(length))
    }

    /// A length-prefixed UTF-8 field.
    mutating func text() -> String? { field().flatMap { String(validating: $0, as: UTF8.self) } }
}
