import Foundation
import OSecKeychain
import OSecSystem

/// macOS's keychain item API (SecKeychainItem.h, SecKeychain.h) on top of the SecItem engine: every call becomes a
/// SecItem query on the same store, so an item added by `SecKeychainAddGenericPassword` is found by
/// `SecItemCopyMatching` and by `security find-generic-password`, and the other way round.
///
/// The CSSM attribute of a tag is the SecItem attribute whose key is the tag's four characters (`'acct'` is
/// `kSecAttrAccount`). Attribute values travel as CSSM formats them: strings as their UTF-8 bytes (no NUL),
/// numbers and four-character codes as a host-order `UInt32`, dates as the 16 bytes `"YYYYMMDDhhmmssZ\0"`.
enum KeychainItemBridge {
    /// CSSM_DB_ATTRIBUTE_FORMAT values (SecKeychainAttributeInfo.format).
    enum Format: UInt32 {
        case string = 0
        case sint32 = 1
        case uint32 = 2
        case timeDate = 5
        case blob = 6
    }

    /// Tags stored as a four-character code in a SecItem string (`kSecAttrProtocol`'s "htps").
    static let codeTags: Set<String> = ["ptcl", "atyp"]
    /// Tags whose bytes are arbitrary (a SecItem `Data`), not text.
    static let blobTags: Set<String> = ["gena", "alis", "ssig", "addr", "vlme"]
    /// Engine-maintained dates.
    static let dateTags: Set<String> = ["cdat", "mdat"]
    /// Tags that are signed in CSSM's schema.
    static let signedTags: Set<String> = ["scrp", "invi", "nega", "cusi"]

    // MARK: Items and classes

    static func kind(of itemClass: SecItemClass) -> SecItemKind? {
        switch itemClass {
        case .genericPasswordItemClass: return .genericPassword
        case .internetPasswordItemClass: return .internetPassword
        case .certificateItemClass: return .certificate
        case .publicKeyItemClass, .privateKeyItemClass, .symmetricKeyItemClass: return .key
        }
    }

    /// The item's class; for keys, the one its `kSecAttrKeyClass` (from `attributes`) names.
    static func itemClass(of item: SecKeychainItem, attributes: [String: Any] = [:]) -> SecItemClass {
        switch item.itemClass {
        case .genericPassword: return .genericPasswordItemClass
        case .internetPassword: return .internetPasswordItemClass
        case .certificate: return .certificateItemClass
        case .key, .identity:
            let keyClass = "\(attributes[kSecAttrKeyClass as String] ?? "")"
            if keyClass == kSecAttrKeyClassPublic as String { return .publicKeyItemClass }
            if keyClass == kSecAttrKeyClassSymmetric as String { return .symmetricKeyItemClass }
            return .privateKeyItemClass
        }
    }

    /// The `kSecAttrKeyClass` value of a key item class, nil for the other classes.
    static func keyClass(of itemClass: SecItemClass) -> String? {
        switch itemClass {
        case .publicKeyItemClass: return kSecAttrKeyClassPublic as String
        case .privateKeyItemClass: return kSecAttrKeyClassPrivate as String
        case .symmetricKeyItemClass: return kSecAttrKeyClassSymmetric as String
        default: return nil
        }
    }

    /// The SecItem query that selects exactly `item`.
    static func query(for item: SecKeychainItem) -> [String: Any] {
        [
            kSecClass as String: item.itemClass.rawValue,
            kSecValuePersistentRef as String: item.reference.persistentRef,
            kSecMatchSearchList as String: [SecKeychain(path: item.reference.keychainPath)],
        ]
    }

    /// The tags a class has: its stored attributes and the two dates.
    static func tags(of kind: SecItemKind) -> [String] {
        guard let storeClass = kind.storeClass else { return [] }
        let own = storeClass.attributes.map(\.key).filter { fourCharCode($0) != nil && !engineOnly.contains($0) }
        return ["cdat", "mdat"] + own
    }

    /// Stored attributes that are the engine's (access control, view hints, tokens), not CSSM tags.
    static let engineOnly: Set<String> = ["vwht", "tkid", "musr", "ggrp", "tomb", "accc", "sha1", "prot"]

    static func isAttribute(_ key: String, of kind: SecItemKind) -> Bool {
        if dateTags.contains(key) { return true }
        guard let storeClass = kind.storeClass, !engineOnly.contains(key) else { return false }
        return storeClass.descriptor(for: key) != nil
    }

    static func format(of key: String, in kind: SecItemKind) -> Format {
        if dateTags.contains(key) { return .timeDate }
        if codeTags.contains(key) { return .uint32 }
        if blobTags.contains(key) { return .blob }
        if signedTags.contains(key) { return .sint32 }
        if kind.storeClass?.descriptor(for: key)?.kind == .number { return .uint32 }
        return kind == .genericPassword || kind == .internetPassword ? .string : .blob
    }

    // MARK: Values

    /// A host-order UInt32's bytes.
    static func bytes(of value: UInt32) -> [UInt8] {
        let little = value.littleEndian
        return (0..<4).map { UInt8(truncatingIfNeeded: little >> (8 * $0)) }
    }

    static func uint32(_ bytes: Data) -> UInt32? {
        guard bytes.count == 4 else { return nil }
        var little: UInt32 = 0
        for (index, byte) in bytes.enumerated() { little |= UInt32(byte) << (8 * UInt32(index)) }
        return UInt32(littleEndian: little)
    }

    static let zulu: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss'Z'"
        return formatter
    }()

    /// The CSSM bytes of a SecItem attribute value.
    static func encode(_ value: Any, key: String, kind: SecItemKind) -> [UInt8]? {
        switch format(of: key, in: kind) {
        case .timeDate:
            guard let date = value as? Date else { return nil }
            return Array(zulu.string(from: date).utf8) + [0]
        case .uint32, .sint32:
            if let text = value as? String, let code = fourCharCode(text) { return bytes(of: code) }
            if let number = value as? NSNumber { return bytes(of: UInt32(truncatingIfNeeded: number.int64Value)) }
            if let data = value as? Data { return [UInt8](data) }
            return nil
        case .string, .blob:
            if let text = value as? String { return Array(text.utf8) }
            if let data = value as? Data { return [UInt8](data) }
            if let number = value as? NSNumber { return bytes(of: UInt32(truncatingIfNeeded: number.int64Value)) }
            return nil
        }
    }

    /// The SecItem value of CSSM bytes for `key`.
    static func decode(_ bytes: Data, key: String, kind: SecItemKind) throws -> Any {
        switch format(of: key, in: kind) {
        case .timeDate:
            throw SecError(errSecReadOnlyAttr, "\(key) is maintained by the keychain")
        case .uint32, .sint32:
            guard let value = uint32(bytes) else {
                throw SecError.param("attribute \(key) takes a 4-byte UInt32, not \(bytes.count) bytes")
            }
            if codeTags.contains(key) { return fourCharString(value) }
            if signedTags.contains(key) { return NSNumber(value: Int32(bitPattern: value)) }
            return NSNumber(value: value)
        case .string:
            return String(data: bytes, encoding: .utf8) ?? bytes
        case .blob:
            return bytes
        }
    }

    /// The SecItem attributes of a caller's attribute list (errSecNoSuchAttr for a tag the class lacks).
    static func attributes(
        _ list: SecKeychainAttributeList?, kind: SecItemKind
    ) throws -> [String: Any] {
        guard let list else { return [:] }
        let count = Int(list.count)
        guard count > 0 else { return [:] }
        guard let entries = list.attr else { throw SecError.param("the attribute list has no attributes") }
        var result: [String: Any] = [:]
        for index in 0..<count {
            let entry = entries[index]
            let key = key(for: entry.tag, kind: kind)
            guard isAttribute(key, of: kind) else {
                throw SecError(errSecNoSuchAttr, "'\(key)' is not an attribute of \(kind.rawValue) items")
            }
            var bytes = Data()
            if entry.length > 0 {
                guard let data = entry.data else { throw SecError.param("attribute '\(key)' has a length, no data") }
                bytes = Data(bytes: data, count: Int(entry.length))
            }
            result[key] = try decode(bytes, key: key, kind: kind)
        }
        return result
    }

    // MARK: Reading

    /// The attributes (and, when asked, the data) of `item`.
    static func read(_ item: SecKeychainItem, data: Bool) throws -> (attributes: [String: Any], data: Data?) {
        var query = query(for: item)
        query[kSecReturnAttributes as String] = true
        if data { query[kSecReturnData as String] = true }
        let found = try SecItemOperations.copyMatching(try SecItemQuery(query as NSDictionary, for: .copyMatching))
        guard let attributes = found as? [String: Any] else {
            throw SecError(errSecInvalidItemRef, "the item is no longer in its keychain")
        }
        return (attributes, attributes[kSecValueData as String] as? Data)
    }

    /// Hands `secret` to the caller in a buffer it frees with `SecKeychainItemFreeContent`.
    static func copyOut(
        _ secret: Data?, length: UnsafeMutablePointer<UInt32>?, data: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    ) {
        guard let data else { return }
        let bytes = [UInt8](secret ?? Data())
        length?.pointee = UInt32(bytes.count)
        data.pointee = ContentBuffers.allocate(copying: bytes)
    }

    /// Fills the caller's attribute list (its tags are set) with `item`'s values, in buffers the caller frees.
    static func fill(
        _ list: UnsafeMutablePointer<SecKeychainAttributeList>, from attributes: [String: Any], kind: SecItemKind
    ) throws {
        let count = Int(list.pointee.count)
        guard count > 0 else { return }
        guard let entries = list.pointee.attr else { throw SecError.param("the attribute list has no attributes") }
        for index in 0..<count {
            let key = key(for: entries[index].tag, kind: kind)
            guard isAttribute(key, of: kind) else {
                throw SecError(errSecNoSuchAttr, "'\(key)' is not an attribute of \(kind.rawValue) items")
            }
        }
        for index in 0..<count {
            let key = key(for: entries[index].tag, kind: kind)
            if let value = attributes[key], let bytes = encode(value, key: key, kind: kind) {
                entries[index].length = UInt32(bytes.count)
                entries[index].data = ContentBuffers.allocate(copying: bytes)
            } else {
                entries[index].length = 0
                entries[index].data = nil
            }
        }
    }

    /// Frees what `fill` and `copyOut` handed out. errSecParam for a pointer OpenSecurity did not allocate.
    static func free(_ list: UnsafeMutablePointer<SecKeychainAttributeList>?, _ data: UnsafeMutableRawPointer?) throws {
        if let list, let entries = list.pointee.attr {
            for index in 0..<Int(list.pointee.count) {
                guard ContentBuffers.release(entries[index].data) else {
                    throw SecError.param("attribute data that SecKeychainItemCopyContent did not allocate")
                }
                entries[index].data = nil
                entries[index].length = 0
            }
        }
        guard ContentBuffers.release(data) else {
            throw SecError.param("a buffer that the keychain did not allocate, or one already freed")
        }
    }

    // MARK: Writing

    /// Changes `item`'s attributes and, when `data` is given, its secret.
    static func modify(_ item: SecKeychainItem, attributes: [String: Any], data: Data?) throws {
        var changes = attributes
        if let data { changes[kSecValueData as String] = data }
        guard !changes.isEmpty else { return }
        let parsed = try SecItemQuery(query(for: item) as NSDictionary, for: .update)
        try SecItemOperations.update(parsed, AttributeDictionary(changes as NSDictionary))
    }

    /// Adds an item and returns its SecKeychainItem.
    static func add(_ attributes: [String: Any], kind: SecItemKind, keychain: SecKeychain?) throws -> SecKeychainItem {
        var query = attributes
        query[kSecClass as String] = kind.rawValue
        if let keychain { query[kSecUseKeychain as String] = keychain }
        query[kSecReturnPersistentRef as String] = true
        let parsed = try SecItemQuery(query as NSDictionary, for: .add)
        guard let reference = try SecItemOperations.add(parsed) as? Data else {
            throw SecError(errSecInternal, "the added item has no persistent reference")
        }
        let target = try keychain ?? KeychainRegistry.defaultKeychain()
        return SecKeychainItem(
            reference: SecItemReference(keychainPath: target.path, persistentRef: reference), itemClass: kind)
    }

    /// The first item of `kind` matching `attributes` in `keychainOrArray` (a keychain, an array of them, or nil
    /// for the search list), with its secret when `data` is true.
    static func find(
        _ attributes: [String: Any], kind: SecItemKind, in keychainOrArray: CFTypeRef?, data: Bool
    ) throws -> (item: SecKeychainItem, secret: Data?) {
        var query = attributes
        query[kSecClass as String] = kind.rawValue
        query[kSecReturnRef as String] = true
        if data { query[kSecReturnData as String] = true }
        if let keychains = try searchList(keychainOrArray) { query[kSecMatchSearchList as String] = keychains }
        let found = try SecItemOperations.copyMatching(try SecItemQuery(query as NSDictionary, for: .copyMatching))
        let result = found as? [String: Any]
        guard let item = (result?[kSecValueRef as String] ?? found).map({ $0 as AnyObject }) as? SecKeychainItem
        else { throw SecError(errSecItemNotFound, "no \(kind.rawValue) item matches") }
        return (item, result?[kSecValueData as String] as? Data)
    }

    /// A keychain, an array of keychains, or nil: the search list (`SecKeychainCopySearchList`, its keychains that
    /// exist), as macOS searches; nil when that is the default keychain alone.
    static func searchList(_ keychainOrArray: CFTypeRef?) throws -> [SecKeychain]? {
        guard let keychainOrArray else {
            var list: CFArray?
            guard SecKeychainCopySearchList(&list) == errSecSuccess,
                let keychains = (list as? [AnyObject])?.compactMap({ $0 as? SecKeychain })
            else { return nil }
            let usable = keychains.filter { (try? $0.store()) != nil }
            return usable.count > 1 ? usable : nil
        }
        if let keychain = keychainOrArray as? SecKeychain { return [keychain] }
        if let array = keychainOrArray as? NSArray {
            let keychains = array.compactMap { $0 as? SecKeychain }
            guard keychains.count == array.count else {
                throw SecError.param("keychainOrArray must hold SecKeychain objects")
            }
            return keychains
        }
        throw SecError.param("keychainOrArray must be a SecKeychain or an array of them")
    }

    /// The text of a (length, bytes) pair of Apple's C API; nil for a NULL pointer.
    static func string(_ length: UInt32, _ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        let bytes = Data(bytes: pointer, count: Int(length))
        return String(data: bytes, encoding: .utf8) ?? String(decoding: bytes, as: UTF8.self)
    }
}
