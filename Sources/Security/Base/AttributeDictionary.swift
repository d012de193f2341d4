import Foundation

/// A read-only view of an Apple-style attribute dictionary that accepts every spelling Swift code uses.
///
/// Dictionaries arrive bridged to `NSDictionary` from `[String: Any]`, `[NSString: Any]`, `[CFString: Any]` or
/// `[AnyHashable: Any]`; values may be Swift `Bool`/`Int`/`String`/`Data` or `NSNumber`/`NSString`/`NSData`.
/// This type normalizes keys to `String` once and offers typed accessors that accept all of those forms.
struct AttributeDictionary {
    /// The caller's dictionary, looked up lazily: most calls read two or three keys, and enumerating a
    /// bridged NSDictionary costs more than the whole cryptographic operation for fast ones.
    private let source: NSDictionary?
    /// Set when built from Swift values or after a mutation; then it is the whole content.
    private var local: [String: Any]?

    init(_ dictionary: NSDictionary?) {
        source = dictionary
        local = nil
    }

    init(values: [String: Any]) {
        source = nil
        local = values
    }

    /// Every entry with a string key (enumerates the source once per call).
    var values: [String: Any] { entries().values }

    /// One pass over the source: the string-keyed entries, and whether any key was not a string.
    func entries() -> (values: [String: Any], hasNonStringKeys: Bool) {
        if let local { return (local, false) }
        let found = AttributeDictionary.stringKeyedEntries(source)
        var values: [String: Any] = [:]
        values.reserveCapacity(found.keys.count)
        for (key, value) in zip(found.keys, found.values) { values[key] = value }
        return (values, found.hasNonStringKeys)
    }

    /// The string-keyed entries of a dictionary as parallel arrays (`keys[i]` goes with `values[i]`).
    struct StringKeyedEntries {
        var keys: [String] = []
        var values: [Any] = []
        /// Set when some key was not a string (those entries are left out).
        var hasNonStringKeys = false
    }

    /// The string-keyed entries of `dictionary`, in one pass over its storage. Cheaper than ``entries()``
    /// when the caller only iterates: no per-key lookups (which hash bridged strings on Linux), no Swift
    /// dictionary to build, and for plain dictionaries the values array is Foundation's own `allValues`.
    static func stringKeyedEntries(_ dictionary: NSDictionary?) -> StringKeyedEntries {
        var result = StringKeyedEntries()
        guard let dictionary else { return result }
        if type(of: dictionary) == NSDictionary.self || type(of: dictionary) == NSMutableDictionary.self {
            // Plain dictionaries: keys and values straight from storage (the same order for both). Values of
            // the classes that SecItem queries mostly hold are used as they are; any other value is read
            // through `object(forKey:)`, which unboxes and bridges it exactly as Foundation does. (Getting
            // every entry that way costs several dynamic casts and protocol-conformance checks per value.)
            let keyObjects = dictionary.allKeys
            var values = dictionary.allValues
            if keyObjects.count == values.count {
                result.keys.reserveCapacity(keyObjects.count)
                var dropped: [Int] = []
                for index in keyObjects.indices {
                    let keyObject = keyObjects[index]
                    // A cast from `Any` to a class goes through the runtime's general cast (bridging conformances
                    // included); through `AnyObject` it is a class check (callgrind: 355 against 233 per key).
                    if type(of: keyObject) == NSString.self, let ns = (keyObject as AnyObject) as? NSString {
                        result.keys.append(ns as String)
                    } else if let other = stringValue(keyObject) {
                        result.keys.append(other)
                    } else {
                        dropped.append(index)
                        continue
                    }
                    let valueType = ObjectIdentifier(type(of: values[index]))
                    if valueType == PlainValueClasses.string || valueType == PlainValueClasses.number
                        || valueType == PlainValueClasses.boolean || valueType == PlainValueClasses.keychain
                        || valueType == PlainValueClasses.data || valueType == PlainValueClasses.bridgedData
                    {
                        // NSData is kept as NSData: `dataValue` copies it in bulk, where Foundation's own
                        // unboxing to `Data` copies byte by byte on Linux.
                        continue
                    }
                    if let fetched = dictionary.object(forKey: keyObject) { values[index] = fetched }
                }
                for index in dropped.reversed() { values.remove(at: index) }
                result.values = values
                result.hasNonStringKeys = !dropped.isEmpty
                return result
            }
        }
        let count = dictionary.count
        var keys: [Any] = []
        var objects: [Any] = []
        keys.reserveCapacity(count)
        objects.reserveCapacity(count)
        dictionary.getObjects(&objects, andKeys: &keys, count: count)
        result.keys.reserveCapacity(keys.count)
        result.values.reserveCapacity(keys.count)
        for (key, value) in zip(keys, objects) {
            if let k = stringValue(key) {
                result.keys.append(k)
                result.values.append(value)
            } else {
                result.hasNonStringKeys = true
            }
        }
        return result
    }

    var keys: Dictionary<String, Any>.Keys { values.keys }
    var isEmpty: Bool {
        if let local { return local.isEmpty }
        return (source?.count ?? 0) == 0
    }

    subscript(key: CFString) -> Any? {
        if let local { return local[key as String] }
        return source?.object(forKey: key)
    }

    subscript(key: String) -> Any? {
        if let local { return local[key] }
        return source?.object(forKey: NSString(string: key))
    }

    func contains(_ key: CFString) -> Bool { self[key] != nil }

    mutating func set(_ key: CFString, _ value: Any?) {
        var all = values
        all[key as String] = value
        local = all
    }

    // MARK: Typed accessors. `nil` = absent; a value of the wrong type throws errSecParam.

    func string(_ key: CFString) throws -> String? {
        guard let raw = self[key] else { return nil }
        guard let s = AttributeDictionary.stringValue(raw) else {
            throw SecError.param("\(key): expected a string value")
        }
        return s
    }

    func data(_ key: CFString) throws -> Data? {
        guard let raw = self[key] else { return nil }
        guard let d = AttributeDictionary.dataValue(raw) else {
            throw SecError.param("\(key): expected a data value")
        }
        return d
    }

    func bool(_ key: CFString) throws -> Bool? {
        guard let raw = self[key] else { return nil }
        guard let b = AttributeDictionary.boolValue(raw) else {
            throw SecError.param("\(key): expected a boolean value")
        }
        return b
    }

    /// An integer given as a number, a boolean or a decimal string (Apple accepts all three for sizes).
    func int(_ key: CFString) throws -> Int? {
        guard let raw = self[key] else { return nil }
        guard let i = AttributeDictionary.intValue(raw) else {
            throw SecError.param("\(key): expected a number")
        }
        return i
    }

    func dictionary(_ key: CFString) throws -> AttributeDictionary? {
        guard let raw = self[key] else { return nil }
        if let d = raw as? NSDictionary { return AttributeDictionary(d) }
        if let d = raw as? [String: Any] { return AttributeDictionary(values: d) }
        if let d = raw as? [AnyHashable: Any] { return AttributeDictionary(d as NSDictionary) }
        throw SecError.param("\(key): expected a dictionary")
    }

    // MARK: Value coercion shared by every facade entry point

    static func stringValue(_ raw: Any) -> String? {
        if type(of: raw) == String.self, let s = raw as? String { return s }
        // What bridged dictionaries hold: a class check through `AnyObject` (see `stringKeyedEntries`).
        if type(of: raw) == NSString.self, let s = (raw as AnyObject) as? NSString { return s as String }
        if let s = raw as? NSString { return s as String }
        if let s = raw as? String { return s }
        if let s = raw as? Substring { return String(s) }
        return nil
    }

    static func dataValue(_ raw: Any) -> Data? {
        // Check the exact Swift type first: a cast from NSData to Data bridges byte by byte on Linux
        // (≈ 100 µs for a 1 KiB key), so NSData goes through `swiftData` instead.
        if type(of: raw) == Data.self, let d = raw as? Data { return d }
        if let d = raw as? NSData { return d.swiftData }
        if let b = raw as? [UInt8] { return Data(b) }
        if let d = raw as? Data { return d }
        return nil
    }

    /// `raw` as an NSNumber: the exact classes bridged numbers and booleans have are checked through
    /// `AnyObject` (a class check); anything else goes through Swift's full cast.
    static func numberValue(_ raw: Any) -> NSNumber? {
        let rawType = ObjectIdentifier(type(of: raw))
        if rawType == PlainValueClasses.boolean || rawType == PlainValueClasses.number {
            return (raw as AnyObject) as? NSNumber
        }
        return raw as? NSNumber
    }

    /// `raw` as an object of exactly `type` (a final class), checked through `AnyObject`; else Swift's full cast.
    static func object<T: AnyObject>(_ raw: Any, as type: T.Type) -> T? {
        if Swift.type(of: raw) == type { return (raw as AnyObject) as? T }
        return raw as? T
    }

    static func boolValue(_ raw: Any) -> Bool? {
        if let b = raw as? Bool { return b }
        if let n = raw as? NSNumber { return n.boolValue }
        if let i = raw as? Int { return i != 0 }
        return nil
    }

    static func intValue(_ raw: Any) -> Int? {
        if let b = raw as? Bool { return b ? 1 : 0 }
        if let i = raw as? Int { return i }
        if let n = raw as? NSNumber {
            let d = n.doubleValue
            guard d.rounded() == d, let i = Int(exactly: d) else { return nil }
            return i
        }
        if let s = stringValue(raw) { return Int(s.trimmingCharacters(in: .whitespaces)) }
        return nil
    }
}

/// Classes whose instances a query dictionary's `object(forKey:)` would hand out as the same object or an
/// equivalent Swift value (String, Bool), so the one-pass reader uses them directly (exact classes only).
private enum PlainValueClasses {
    static let string = ObjectIdentifier(NSString.self)
    static let number = ObjectIdentifier(NSNumber.self)
    static let boolean = ObjectIdentifier(type(of: NSNumber(value: true)))
    static let keychain = ObjectIdentifier(SecKeychain.self)
    static let data = ObjectIdentifier(NSData.self)
    static let bridgedData = ObjectIdentifier(type(of: Data([0]) as NSData))
}

/// Lets `switch key { case kSecClass: … }` compare a String key with a CFString constant.
func ~= (pattern: CFString, value: String) -> Bool {
    pattern as String == value
}

extension NSData {
    /// A copy as a byte array (one bulk copy; see `swiftData`).
    var byteArray: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: length)
        getBytes(&bytes, length: bytes.count)
        return bytes
    }

    /// A copy as Swift `Data`. Foundation's bridging (`as Data`, `Data(referencing:)`) iterates byte by byte
    /// on Linux; one bulk copy is three orders of magnitude faster.
    var swiftData: Data { Data(byteArray) }
}
