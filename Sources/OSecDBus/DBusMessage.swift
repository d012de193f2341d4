internal import CDBusLoader
import Foundation

/// One received D-Bus message, decoded: its header fields and its arguments.
package struct DBusMessage: Sendable {
    /// The message type.
    package enum Kind: Sendable, Hashable { case methodCall, methodReturn, error, signal, other }

    package let kind: Kind
    package let path: String?
    package let interface: String?
    package let member: String?
    /// The unique bus name of the sender (`:1.42`), or `org.freedesktop.DBus` for the bus itself.
    package let sender: String?
    /// The body's signature as sent.
    package let signature: String
    /// The decoded arguments.
    package let arguments: [DBusValue]
    /// The caller asked for no reply.
    package let noReplyExpected: Bool
    /// The raw message (kept for replying).
    let handle: MessageHandle
}

/// Owns one `DBusMessage*` reference.
final class MessageHandle: @unchecked Sendable {  // sendable: only used by the thread that runs the bus loop
    let raw: OpaquePointer

    init(takingOwnershipOf raw: OpaquePointer) { self.raw = raw }
    deinit { osec_dbus_message_unref(raw) }
}

// MARK: Decoding

/// D-Bus type codes (libdbus defines them as character-literal macros Swift does not import).
enum DBusTypeCode {
    static let invalid: Int32 = 0
    static let byte = code("y")
    static let boolean = code("b")
    static let int16 = code("n")
    static let uint16 = code("q")
    static let int32 = code("i")
    static let uint32 = code("u")
    static let int64 = code("x")
    static let uint64 = code("t")
    static let double = code("d")
    static let string = code("s")
    static let objectPath = code("o")
    static let signature = code("g")
    static let unixFD = code("h")
    static let array = code("a")
    static let variant = code("v")
    static let structure = code("r")
    static let dictEntry = code("e")

    private static func code(_ character: Unicode.Scalar) -> Int32 { Int32(character.value) }
}

enum DBusCodec {
    /// The most arguments (all nesting levels together) one incoming message may decode to; a message with more is
    /// refused as a whole (a hostile caller cannot make the service build millions of values).
    static let maximumValues = 200_000

    /// Decodes every argument of `message`.
    static func decodeArguments(_ message: OpaquePointer) throws(DBusCallError) -> [DBusValue] {
        var iterator = DBusMessageIter()
        guard osec_dbus_message_iter_init(message, &iterator) != 0 else { return [] }
        var budget = maximumValues
        var values: [DBusValue] = []
        repeat {
            values.append(try decode(&iterator, budget: &budget))
        } while osec_dbus_message_iter_next(&iterator) != 0
        return values
    }

    private static func decode(_ iterator: inout DBusMessageIter, budget: inout Int) throws(DBusCallError) -> DBusValue
    {
        budget -= 1
        guard budget >= 0 else { throw .limitsExceeded("the message holds too many values") }
        let type = osec_dbus_message_iter_get_arg_type(&iterator)
        switch type {
        case DBusTypeCode.byte: return .byte(basic(&iterator, UInt8(0)))
        case DBusTypeCode.boolean: return .boolean(basic(&iterator, dbus_bool_t(0)) != 0)
        case DBusTypeCode.int16: return .int16(basic(&iterator, Int16(0)))
        case DBusTypeCode.uint16: return .uint16(basic(&iterator, UInt16(0)))
        case DBusTypeCode.int32: return .int32(basic(&iterator, Int32(0)))
        case DBusTypeCode.uint32: return .uint32(basic(&iterator, UInt32(0)))
        case DBusTypeCode.int64: return .int64(basic(&iterator, Int64(0)))
        case DBusTypeCode.uint64: return .uint64(basic(&iterator, UInt64(0)))
        case DBusTypeCode.double: return .double(basic(&iterator, Double(0)))
        case DBusTypeCode.string: return .string(string(&iterator))
        case DBusTypeCode.objectPath: return .objectPath(string(&iterator))
        case DBusTypeCode.signature: return .signature(string(&iterator))
        case DBusTypeCode.variant:
            var inner = DBusMessageIter()
            osec_dbus_message_iter_recurse(&iterator, &inner)
            return .variant(try decode(&inner, budget: &budget))
        case DBusTypeCode.structure:
            var inner = DBusMessageIter()
            osec_dbus_message_iter_recurse(&iterator, &inner)
            return .structure(try decodeAll(&inner, budget: &budget))
        case DBusTypeCode.array:
            let arraySignature = signature(&iterator)
            let element = String(arraySignature.dropFirst())
            var inner = DBusMessageIter()
            osec_dbus_message_iter_recurse(&iterator, &inner)
            if element == "y" {
                var base: UnsafePointer<UInt8>?
                var count: Int32 = 0
                osec_dbus_message_iter_get_fixed_array(&inner, &base, &count)
                guard let base, count > 0 else { return .bytes(Data()) }
                return .bytes(Data(bytes: base, count: Int(count)))
            }
            if element.hasPrefix("{") {
                var entries: [DBusDictionaryEntry] = []
                while osec_dbus_message_iter_get_arg_type(&inner) == DBusTypeCode.dictEntry {
                    var entry = DBusMessageIter()
                    osec_dbus_message_iter_recurse(&inner, &entry)
                    let pair = try decodeAll(&entry, budget: &budget)
                    guard pair.count == 2 else { throw .invalidArgs("malformed dictionary entry") }
                    entries.append(DBusDictionaryEntry(pair[0], pair[1]))
                    osec_dbus_message_iter_next(&inner)
                }
                let inside = element.dropFirst().dropLast()
                let keySignature = String(inside.prefix(1))
                return .dictionary(key: keySignature, value: String(inside.dropFirst()), entries)
            }
            return .array(element: element, try decodeAll(&inner, budget: &budget))
        default:
            // Unix file descriptors and unknown types: the services built on this never take them.
            throw .invalidArgs("unsupported argument type \(type)")
        }
    }

    private static func decodeAll(
        _ iterator: inout DBusMessageIter, budget: inout Int
    ) throws(DBusCallError) -> [DBusValue] {
        var values: [DBusValue] = []
        while osec_dbus_message_iter_get_arg_type(&iterator) != DBusTypeCode.invalid {
            values.append(try decode(&iterator, budget: &budget))
            osec_dbus_message_iter_next(&iterator)
        }
        return values
    }

    private static func basic<T>(_ iterator: inout DBusMessageIter, _ initial: T) -> T {
        var value = initial
        withUnsafeMutablePointer(to: &value) {
            osec_dbus_message_iter_get_basic(&iterator, UnsafeMutableRawPointer($0))
        }
        return value
    }

    private static func string(_ iterator: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>?
        withUnsafeMutablePointer(to: &pointer) {
            osec_dbus_message_iter_get_basic(&iterator, UnsafeMutableRawPointer($0))
        }
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    private static func signature(_ iterator: inout DBusMessageIter) -> String {
        guard let raw = osec_dbus_message_iter_get_signature(&iterator) else { return "" }
        defer { osec_dbus_free(raw) }
        return String(cString: raw)
    }

    // MARK: Encoding

    /// Appends `values` to `message`'s body.
    static func append(_ values: [DBusValue], to message: OpaquePointer) throws(DBusCallError) {
        var iterator = DBusMessageIter()
        osec_dbus_message_iter_init_append(message, &iterator)
        for value in values { try append(value, to: &iterator) }
    }

    private static func append(_ value: DBusValue, to iterator: inout DBusMessageIter) throws(DBusCallError) {
        var ok: dbus_bool_t = 1
        switch value {
        case .byte(let v): ok = appendBasic(&iterator, DBusTypeCode.byte, v)
        case .boolean(let v): ok = appendBasic(&iterator, DBusTypeCode.boolean, dbus_bool_t(v ? 1 : 0))
        case .int16(let v): ok = appendBasic(&iterator, DBusTypeCode.int16, v)
        case .uint16(let v): ok = appendBasic(&iterator, DBusTypeCode.uint16, v)
        case .int32(let v): ok = appendBasic(&iterator, DBusTypeCode.int32, v)
        case .uint32(let v): ok = appendBasic(&iterator, DBusTypeCode.uint32, v)
        case .int64(let v): ok = appendBasic(&iterator, DBusTypeCode.int64, v)
        case .uint64(let v): ok = appendBasic(&iterator, DBusTypeCode.uint64, v)
        case .double(let v): ok = appendBasic(&iterator, DBusTypeCode.double, v)
        case .string(let s):
            guard !s.utf8.contains(0) else { throw .invalidArgs("a string holds a NUL character") }
            ok = appendString(&iterator, DBusTypeCode.string, s)
        case .objectPath(let path):
            guard DBusNames.isValidObjectPath(path) else { throw .invalidArgs("invalid object path \(path)") }
            ok = appendString(&iterator, DBusTypeCode.objectPath, path)
        case .signature(let s):
            guard DBusNames.isValidSignature(s) else { throw .invalidArgs("invalid signature") }
            ok = appendString(&iterator, DBusTypeCode.signature, s)
        case .bytes(let data):
            var inner = DBusMessageIter()
            guard osec_dbus_message_iter_open_container(&iterator, DBusTypeCode.array, "y", &inner) != 0 else {
                throw .failed("out of memory")
            }
            if !data.isEmpty {
                ok = data.withUnsafeBytes { raw -> dbus_bool_t in
                    var base = raw.baseAddress
                    return osec_dbus_message_iter_append_fixed_array(&inner, DBusTypeCode.byte, &base, Int32(raw.count))
                }
            }
            guard osec_dbus_message_iter_close_container(&iterator, &inner) != 0 else { throw .failed("out of memory") }
        case .array(let element, let elements):
            try container(&iterator, DBusTypeCode.array, element) { (inner) throws(DBusCallError) in
                for item in elements {
                    guard item.signature == element else { throw .invalidArgs("array element of the wrong type") }
                    try append(item, to: &inner)
                }
            }
        case .dictionary(let key, let valueSignature, let entries):
            try container(&iterator, DBusTypeCode.array, "{" + key + valueSignature + "}") {
                (inner) throws(DBusCallError) in
                for entry in entries {
                    guard entry.key.signature == key, entry.value.signature == valueSignature else {
                        throw .invalidArgs("dictionary entry of the wrong type")
                    }
                    try container(&inner, DBusTypeCode.dictEntry, nil) { (pair) throws(DBusCallError) in
                        try append(entry.key, to: &pair)
                        try append(entry.value, to: &pair)
                    }
                }
            }
        case .structure(let members):
            try container(&iterator, DBusTypeCode.structure, nil) { (inner) throws(DBusCallError) in
                for member in members { try append(member, to: &inner) }
            }
        case .variant(let inner):
            try container(&iterator, DBusTypeCode.variant, inner.signature) { (content) throws(DBusCallError) in
                try append(inner, to: &content)
            }
        }
        guard ok != 0 else { throw .failed("cannot encode a \(value.signature) value") }
    }

    private static func container(
        _ iterator: inout DBusMessageIter, _ type: Int32, _ signature: String?,
        _ body: (inout DBusMessageIter) throws(DBusCallError) -> Void
    ) throws(DBusCallError) {
        var inner = DBusMessageIter()
        let opened: dbus_bool_t
        if let signature {
            guard DBusNames.isValidSignature(signature) || type == DBusTypeCode.array else {
                throw .invalidArgs("invalid signature \(signature)")
            }
            opened = osec_dbus_message_iter_open_container(&iterator, type, signature, &inner)
        } else {
            opened = osec_dbus_message_iter_open_container(&iterator, type, nil, &inner)
        }
        guard opened != 0 else { throw .failed("cannot open a container") }
        do {
            try body(&inner)
        } catch {
            osec_dbus_message_iter_abandon_container(&iterator, &inner)
            throw error
        }
        guard osec_dbus_message_iter_close_container(&iterator, &inner) != 0 else { throw .failed("out of memory") }
    }

    private static func appendBasic<T>(_ iterator: inout DBusMessageIter, _ type: Int32, _ value: T) -> dbus_bool_t {
        var copy = value
        return withUnsafePointer(to: &copy) {
            osec_dbus_message_iter_append_basic(&iterator, type, UnsafeRawPointer($0))
        }
    }

    private static func appendString(_ iterator: inout DBusMessageIter, _ type: Int32, _ value: String) -> dbus_bool_t {
        value.withCString { cString -> dbus_bool_t in
            var pointer: UnsafePointer<CChar>? = cString
            return withUnsafePointer(to: &pointer) { osec_dbus_message_iter_append_basic(&iterator, type, $0) }
        }
    }
}

/// Name and signature validation (libdbus's own rules).
package enum DBusNames {
    /// Whether `path` is a valid object path.
    package static func isValidObjectPath(_ path: String) -> Bool {
        guard !path.utf8.contains(0) else { return false }
        var error = DBusError()
        osec_dbus_error_init(&error)
        defer { osec_dbus_error_free(&error) }
        return osec_dbus_validate_path(path, &error) != 0
    }

    /// Whether `signature` is a valid single complete type.
    package static func isValidSignature(_ signature: String) -> Bool {
        guard !signature.utf8.contains(0) else { return false }
        var error = DBusError()
        osec_dbus_error_init(&error)
        defer { osec_dbus_error_free(&error) }
        return osec_dbus_signature_validate_single(signature, &error) != 0
    }

    /// Whether `name` is valid as one element of an object path (`[A-Za-z0-9_]+`).
    package static func isValidPathElement(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F
            }
    }
}
