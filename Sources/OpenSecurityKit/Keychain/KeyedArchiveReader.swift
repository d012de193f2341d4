import Foundation

/// Reads `NSKeyedArchiver` archives of Foundation's property-list-like classes without `NSKeyedUnarchiver`.
///
/// Keychain items are input from outside (any app with the access group may have written them), and Foundation's
/// unarchiver on Linux stops the process on some malformed archives (an unknown class name, a dangling object
/// reference). This reader walks the archive's object table itself, with every reference checked, a depth limit
/// and cycle detection, so a bad archive is an error. It understands what the archiver writes for `NSString`,
/// `NSNumber`, `NSData`, `NSDate`, `NSArray`, `NSSet`, `NSOrderedSet`, `NSDictionary` (and their mutable
/// subclasses), `NSNull`, `NSUUID` and `NSURL`; ``classNames(in:)`` lists an archive's classes so that archives of
/// other classes go to `NSKeyedUnarchiver` only once every class they name exists.
enum KeyedArchiveReader {
    /// Deepest nesting decoded (dictionaries of arrays of …); archives written by apps are a few levels deep.
    static let maximumDepth = 64
    /// Most objects an archive may hold (the keychain stores small values).
    static let maximumObjects = 1 << 20

    /// Why an archive was not decoded.
    struct Malformed: Error {
        let reason: String
        /// Set when the archive is well formed as far as read, but holds an object of a class this reader does not
        /// know (which `NSKeyedUnarchiver` may).
        let unsupportedClass: String?

        init(_ reason: String, unsupportedClass: String? = nil) {
            self.reason = reason
            self.unsupportedClass = unsupportedClass
        }
    }

    /// The archive's property list: `$archiver`, `$objects` and `$top` (with `root`).
    struct Archive {
        let objects: [Any]
        let root: Int

        init(_ data: Data) throws(Malformed) {
            guard
                let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
            else { throw Malformed("not a property list") }
            guard plist["$archiver"] as? String == "NSKeyedArchiver" else { throw Malformed("not a keyed archive") }
            guard let objects = plist["$objects"] as? [Any], objects.count <= maximumObjects else {
                throw Malformed("no object table")
            }
            guard let top = plist["$top"] as? [String: Any], let root = top["root"].flatMap(KeyedArchiveReader.uid)
            else { throw Malformed("no root object") }
            guard objects.indices.contains(root) else { throw Malformed("the root reference is out of range") }
            self.objects = objects
            self.root = root
        }
    }

    /// The root object as Foundation values (`String`, `NSNumber`, `Data`, `Date`, `[Any]`, `Set`/`NSSet`,
    /// `NSDictionary`, `NSNull`, `UUID`, `URL`); nil for an archived nil.
    static func decode(_ data: Data) throws(Malformed) -> Any? {
        let archive = try Archive(data)
        var decoder = Decoder(objects: archive.objects)
        return try decoder.value(archive.root, depth: 0)
    }

    /// Every class name the archive's objects declare (`$classname`), after checking that every reference in it
    /// points into the object table.
    static func classNames(in data: Data) throws(Malformed) -> Set<String> {
        let archive = try Archive(data)
        var names: Set<String> = []
        for object in archive.objects {
            guard let dictionary = object as? [String: Any] else { continue }
            for value in dictionary.values {
                try checkReferences(value, count: archive.objects.count)
            }
            if let name = dictionary["$classname"] as? String { names.insert(name) }
        }
        return names
    }

    private static func checkReferences(_ value: Any, count: Int) throws(Malformed) {
        if let reference = uid(value) {
            guard reference < count else { throw Malformed("a reference is out of range") }
        } else if let array = value as? [Any] {
            for element in array { try checkReferences(element, count: count) }
        }
    }

    /// The index of a `CF$UID` reference (`_NSKeyedArchiverUID` on Linux, read through its `value`).
    static func uid(_ value: Any) -> Int? {
        guard let object = value as? NSObject, String(describing: type(of: object)) == "_NSKeyedArchiverUID" else {
            return nil
        }
        for child in Mirror(reflecting: object).children where child.label == "value" {
            if let number = child.value as? UInt32 { return Int(number) }
        }
        return nil
    }

    private struct Decoder {
        let objects: [Any]
        var done: [Int: Any] = [:]
        var inProgress: Set<Int> = []

        mutating func value(_ index: Int, depth: Int) throws(Malformed) -> Any? {
            guard depth <= maximumDepth else { throw Malformed("nested deeper than \(maximumDepth) levels") }
            guard objects.indices.contains(index) else { throw Malformed("a reference is out of range") }
            if let value = done[index] { return value }
            guard inProgress.insert(index).inserted else { throw Malformed("the archive refers to itself") }
            defer { inProgress.remove(index) }
            let object = objects[index]
            if index == 0, object as? String == "$null" { return nil }
            let result: Any
            switch object {
            case let string as String: result = string
            case let data as Data: result = data
            case let number as NSNumber: result = number
            case let dictionary as [String: Any]: result = try instance(dictionary, depth: depth)
            default: throw Malformed("an object of an unexpected kind")
            }
            done[index] = result
            return result
        }

        private mutating func element(_ reference: Any, depth: Int) throws(Malformed) -> Any {
            guard let index = uid(reference) else { throw Malformed("a collection element is not a reference") }
            return try value(index, depth: depth + 1) ?? NSNull()
        }

        private mutating func elements(
            _ dictionary: [String: Any], _ key: String, depth: Int
        ) throws(Malformed) -> [Any] {
            guard let references = dictionary[key] as? [Any] else { throw Malformed("\(key) is missing") }
            var result: [Any] = []
            result.reserveCapacity(references.count)
            for reference in references { result.append(try element(reference, depth: depth)) }
            return result
        }

        private mutating func instance(_ dictionary: [String: Any], depth: Int) throws(Malformed) -> Any {
            guard let classReference = dictionary["$class"].flatMap(uid), objects.indices.contains(classReference),
                let info = objects[classReference] as? [String: Any], let name = info["$classname"] as? String
            else { throw Malformed("an object without a class") }
            switch name {
            case "NSString", "NSMutableString":
                guard let string = dictionary["NS.string"] as? String else { throw Malformed("NSString without text") }
                return string
            case "NSData", "NSMutableData":
                guard let data = dictionary["NS.data"] as? Data else { throw Malformed("NSData without bytes") }
                return data
            case "NSDate":
                guard let time = dictionary["NS.time"] as? NSNumber else { throw Malformed("NSDate without time") }
                return Date(timeIntervalSinceReferenceDate: time.doubleValue)
            case "NSArray", "NSMutableArray", "NSOrderedSet", "NSMutableOrderedSet":
                return try elements(dictionary, "NS.objects", depth: depth)
            case "NSSet", "NSMutableSet":
                return NSSet(array: try elements(dictionary, "NS.objects", depth: depth))
            case "NSDictionary", "NSMutableDictionary":
                let keys = try elements(dictionary, "NS.keys", depth: depth)
                let values = try elements(dictionary, "NS.objects", depth: depth)
                guard keys.count == values.count else { throw Malformed("a dictionary with unpaired keys") }
                var result: [AnyHashable: Any] = [:]
                for (key, value) in zip(keys, values) {
                    guard let key = key as? AnyHashable else { throw Malformed("a dictionary key that is not a value") }
                    result[key] = value
                }
                return NSDictionary(dictionary: result)
            case "NSNull":
                return NSNull()
            case "NSUUID":
                guard let bytes = dictionary["NS.uuidbytes"] as? Data, bytes.count == 16 else {
                    throw Malformed("NSUUID without 16 bytes")
                }
                let b = [UInt8](bytes)
                return UUID(
                    uuid: (
                        b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                        b[14], b[15]
                    ))
            case "NSURL":
                guard let relative = dictionary["NS.relative"].flatMap(uid),
                    let text = try value(relative, depth: depth + 1) as? String
                else { throw Malformed("NSURL without text") }
                let base = try dictionary["NS.base"].flatMap(uid).flatMap { (index) throws(Malformed) in
                    try value(index, depth: depth + 1) as? URL
                }
                guard let url = URL(string: text, relativeTo: base) else { throw Malformed("NSURL with a bad URL") }
                return url
            default:
                throw Malformed("an object of class \(name)", unsupportedClass: name)
            }
        }
    }
}
