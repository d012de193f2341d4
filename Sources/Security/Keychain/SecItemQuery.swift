import Foundation
import OSecKeychain

/// A parsed `SecItem…` dictionary, validated with Apple's rules (reference §2.1).
struct SecItemQuery {
    enum MatchLimit: Equatable {
        case one, all
        case count(Int)
    }
    enum Operation { case add, copyMatching, update, delete }

    var itemClass: SecItemKind
    /// Class attribute constraints / values keyed by Apple's 4-character keys, normalized (no engine fields).
    var attributes: [String: AttributeValue] = [:]
    /// The engine fields given (agrp, pdmn, sync, cdat, mdat), normalized; kept apart from ``attributes``
    /// because the storage engine keeps them as dedicated fields of an item.
    var engineFields: [SecItemEngineField: AttributeValue] = [:]
    var matchLimit: MatchLimit = .one
    var returnData = false
    var returnAttributes = false
    var returnRef = false
    var returnPersistentRef = false
    var valueData: Data?
    var valueRef: AnyObject?
    var valuePersistentRef: Data?
    /// `kSecAttrSynchronizable` = `kSecAttrSynchronizableAny`: match synchronizable and local items.
    var synchronizableAny = false
    /// `kSecMatchItemList` (macOS): restrict to these refs / persistent refs.
    var matchItemList: [AnyObject]?
    /// `kSecUseKeychain` / `kSecMatchSearchList`: the keychains to use.
    var keychains: [AnyObject]?
    /// Other match options that are accepted (for source compatibility) and recorded.
    var caseInsensitive = false
    /// kSecMatchIssuers / Policy / ValidOnDate / TrustedOnly / EmailAddressIfPresent (certificates and identities).
    var certificateFilter: SecItemCertificateFilter?
    /// `kSecAttrAccessControl`: its protection class becomes the item's `pdmn`, and it is stored with the item.
    var accessControl: SecAccessControl?
    /// Set when `kSecAttrAccess` (macOS's legacy SecAccess) was given; it excludes kSecAttrAccessControl.
    private var sawLegacyAccess = false
    /// The raw dictionary, for options handled by callers (e.g. kSecPrivateKeyAttrs on key generation).
    var raw: AttributeDictionary
    /// Keys seen that some operations refuse (checked in `validate`).
    private var sawUseItemList = false

    var returnCount: Int {
        (returnData ? 1 : 0) + (returnAttributes ? 1 : 0) + (returnRef ? 1 : 0) + (returnPersistentRef ? 1 : 0)
    }

    /// Parses `dictionary` for `operation`. Throws Apple's errSecParam / errSecNoSuchClass / errSecNoSuchAttr.
    ///
    /// Hot path of every SecItem call: the caller's dictionary is read in one pass over its storage (no
    /// per-key lookups, which hash bridged strings), each key's kind is looked up once in the key table
    /// (``SecItemKeyTable``), and the entries are then applied in place.
    init(_ dictionary: NSDictionary?, for operation: Operation) throws {
        let entries = AttributeDictionary.stringKeyedEntries(dictionary)
        guard !entries.hasNonStringKeys else { throw SecError.param("query keys must be strings") }
        raw = AttributeDictionary(dictionary)

        // The class decides how attributes are read, so it is found first (it may come from a reference).
        var kinds: [SecItemQueryKey?] = []
        kinds.reserveCapacity(entries.keys.count)
        var classValue: Any?
        var persistentRefValue: Any?
        var valueRefValue: Any?
        for index in entries.keys.indices {
            let kind = SecItemKeyTable.kind(of: entries.keys[index])
            kinds.append(kind)
            switch kind {
            case .itemClass: classValue = entries.values[index]
            case .value(.persistentRef): persistentRefValue = entries.values[index]
            case .value(.ref): valueRefValue = entries.values[index]
            default: break
            }
        }
        var persistentRef: Data?
        if let value = persistentRefValue {
            guard let data = AttributeDictionary.dataValue(value) else {
                throw SecError.param("kSecValuePersistentRef must be data")
            }
            persistentRef = data
        }
        if let value = classValue {
            guard let name = AttributeDictionary.stringValue(value) else {
                throw SecError.param("kSecClass must be a string")
            }
            guard let c = SecItemKind(rawValue: name) else {
                throw SecError(errSecNoSuchClass, "kSecClass \(name) is not a keychain item class")
            }
            itemClass = c
        } else if let ref = persistentRef, let c = SecPersistentRef.itemClass(of: ref) {
            itemClass = c
        } else if let ref = valueRefValue as AnyObject?, let c = SecItemQuery.itemClass(ofRef: ref) {
            // Apple expands kSecValueRef into the ref's attributes, class included, before any operation.
            itemClass = c
        } else {
            throw SecError.param("the query has no kSecClass")
        }
        valuePersistentRef = persistentRef

        attributes.reserveCapacity(entries.keys.count)
        for index in entries.keys.indices {
            let key = entries.keys[index]
            guard let kind = kinds[index] else {
                if let error = SecItemKeyTable.unknownKeyError(key, in: itemClass) { throw error }
                continue
            }
            try apply(kind, key: key, value: entries.values[index], operation: operation)
        }
        try validate(operation)
    }

    /// The class a `kSecValueRef` object implies (used by SecItemAdd without kSecClass).
    static func itemClass(ofRef ref: AnyObject) -> SecItemKind? {
        if ref is SecKey { return .key }
        return SecItemRefClassifier.itemClass(ofRef: ref)
    }

    private mutating func apply(_ kind: SecItemQueryKey, key: String, value: Any, operation: Operation) throws {
        switch kind {
        case .itemClass, .value(.persistentRef), .flag:
            return
        case .attribute(let attribute):
            try applyAttribute(attribute, key: key, value: value)
        case .accessControl:
            guard let control = value as? SecAccessControl else {
                throw SecError.param("kSecAttrAccessControl must be a SecAccessControl")
            }
            accessControl = control
        case .legacyAccess:
            // macOS's legacy SecAccess (ACLs of the file keychain): accepted and not used; there is one keychain kind.
            sawLegacyAccess = true
        case .persistentReference:
            throw SecError(
                errSecNoSuchAttr, "kSecAttrPersistentReference is not a query attribute; use kSecValuePersistentRef")
        case .match(let match):
            try applyMatch(match, key, value)
        case .returns(let which):
            // macOS strips the return keys from SecItemUpdate and SecItemDelete queries (iOS refuses them);
            // accepting what either accepts, they are validated and then have no effect there.
            try applyReturn(which, key, value)
            if operation == .update || operation == .delete { clearReturnKeys() }
        case .use(let use):
            try applyUse(use, value)
        case .value(.data):
            guard let d = AttributeDictionary.dataValue(value) else {
                throw SecError.param("kSecValueData must be data")
            }
            valueData = d
        case .value(.ref):
            valueRef = value as AnyObject
        }
    }

    private mutating func applyAttribute(_ attribute: SecItemAttributeKey, key: String, value: Any) throws {
        if attribute.engineField == .synchronizable {
            if let s = AttributeDictionary.stringValue(value), s == QueryKeys.synchronizableAny {
                synchronizableAny = true
                return
            }
            guard let b = AttributeDictionary.boolValue(value) else {
                throw SecError.param("kSecAttrSynchronizable must be a boolean or kSecAttrSynchronizableAny")
            }
            engineFields[.synchronizable] = .integer(b ? 1 : 0)
            return
        }
        guard let kind = attribute.kind(in: itemClass) else {
            throw SecError(errSecNoSuchAttr, "attribute \(key) does not exist for class \(itemClass.rawValue)")
        }
        guard let normalized = AttributeValue(caller: value, kind: kind) else {
            throw SecError.param("attribute \(key) has a value of the wrong type")
        }
        if let field = attribute.engineField {
            engineFields[field] = normalized
        } else {
            attributes[key] = normalized
        }
    }

    private mutating func applyMatch(_ match: SecItemQueryKey.Match, _ key: String, _ value: Any) throws {
        switch match {
        case .limit:
            if let s = AttributeDictionary.stringValue(value) {
                if s == kSecMatchLimitOne as String {
                    matchLimit = .one
                } else if s == kSecMatchLimitAll as String {
                    matchLimit = .all
                } else {
                    throw SecError.param("kSecMatchLimit must be a number, kSecMatchLimitOne or kSecMatchLimitAll")
                }
            } else if let n = value as? NSNumber ?? (value as? Int).map({ NSNumber(value: $0) }),
                let i = Int(exactly: n.doubleValue), i > 0
            {
                matchLimit = i == 1 ? .one : .count(i)
            } else {
                throw SecError.param("kSecMatchLimit must be a number, kSecMatchLimitOne or kSecMatchLimitAll")
            }
        case .insensitivity(let isCase):
            // Apple's data-protection keychain accepts these and matches byte-exactly anyway.
            guard let b = AttributeDictionary.boolValue(value) else { throw SecError.param("\(key) must be a boolean") }
            if isCase { caseInsensitive = b }
        case .itemList:
            guard let list = SecItemQuery.array(value) else {
                throw SecError.param("kSecMatchItemList must be an array")
            }
            matchItemList = list
        case .searchList:
            guard let list = SecItemQuery.array(value) else {
                throw SecError.param("kSecMatchSearchList must be an array")
            }
            keychains = list
        case .certificateFilter:
            guard itemClass == .certificate || itemClass == .identity else {
                throw SecError(errSecUnimplemented, "\(key) applies to certificates and identities only")
            }
            var filter = certificateFilter ?? SecItemCertificateFilter()
            try filter.apply(key, value)
            certificateFilter = filter
        case .ignored:
            return  // ignored by Apple's data-protection keychain
        }
    }

    private mutating func clearReturnKeys() {
        returnData = false
        returnAttributes = false
        returnRef = false
        returnPersistentRef = false
    }

    private mutating func applyReturn(_ which: SecItemQueryKey.Return, _ key: String, _ value: Any) throws {
        let b: Bool
        if let n = AttributeDictionary.numberValue(value) {  // what bridged dictionaries hold; checked first
            b = n.boolValue
        } else if let v = value as? Bool {
            b = v
        } else {
            throw SecError.param("\(key) must be a boolean")
        }
        switch which {
        case .data: returnData = b
        case .attributes: returnAttributes = b
        case .ref: returnRef = b
        case .persistentRef: returnPersistentRef = b
        }
    }

    private mutating func applyUse(_ use: SecItemQueryKey.Use, _ value: Any) throws {
        switch use {
        case .keychain:
            if let keychain = AttributeDictionary.object(value, as: SecKeychain.self) {
                keychains = [keychain]
            } else {
                keychains = [value as AnyObject]
            }
        case .itemList:
            sawUseItemList = true
            guard let list = SecItemQuery.array(value) else { throw SecError.param("kSecUseItemList must be an array") }
            matchItemList = list
        case .keychainList:
            // macOS's older name of kSecMatchSearchList: a keychain or an array of keychains.
            keychains = SecItemQuery.array(value) ?? [value as AnyObject]
        case .dataProtectionKeychain, .authentication:
            return  // one keychain kind; no interactive authentication on a headless Linux keychain
        }
    }

    private mutating func validate(_ operation: Operation) throws {
        try applyAccessControl(operation)
        switch operation {
        case .update:
            if sawUseItemList { throw SecError.param("SecItemUpdate: kSecUseItemList is not allowed") }
            // macOS strips kSecMatchLimit from update and delete queries (iOS refuses it): every match changes.
            matchLimit = .all
        case .delete:
            matchLimit = .all
        case .add:
            if itemClass == .identity,
                !(valueRef.map { SecItemRefClassifier.itemClass(ofRef: $0) == .identity } ?? false)
            {
                throw SecError.param("SecItemAdd: an identity is added through kSecValueRef")
            }
        case .copyMatching:
            break
        }
    }

    /// Apple's rule for `kSecAttrAccessControl` (SecDbQuery.c): its protection class is the item's
    /// `kSecAttrAccessible`; giving both is refused unless they agree and the access control adds no
    /// constraint; kSecAttrAccess (macOS) excludes it. An added item stores it (`accc`).
    private mutating func applyAccessControl(_ operation: Operation) throws {
        guard let control = accessControl else { return }
        if sawLegacyAccess {
            throw SecError.param("conflicting kSecAttrAccess and kSecAttrAccessControl attributes")
        }
        if let given = engineFields[.accessibility],
            given.stringValue != control.protection || !control.flags.isEmpty
        {
            throw SecError.param(
                "conflicting kSecAttrAccessible and kSecAttrAccessControl attributes (the access control's "
                    + "protection \(control.protection) is the item's accessibility)")
        }
        engineFields[.accessibility] = .string(control.protection)
        if operation == .add { attributes[QueryKeys.accessControl] = .data(control.storedForm) }
    }

    private static func array(_ value: Any) -> [AnyObject]? {
        if let a = value as? NSArray { return a.map { $0 as AnyObject } }
        if let a = value as? [Any] { return a.map { $0 as AnyObject } }
        return nil
    }
}

/// Query keys and values compared as Swift strings, bridged once (comparing with `kSec…` constants bridges them
/// on every use). Which key is what is ``SecItemKeyTable``'s business.
enum QueryKeys {
    static let synchronizableAny = kSecAttrSynchronizableAny as String
    static let accessControl = kSecAttrAccessControl as String
    static let valueData = kSecValueData as String
    static let valueRef = kSecValueRef as String
    static let valuePersistentRef = kSecValuePersistentRef as String
    static let itemClass = kSecClass as String
}
