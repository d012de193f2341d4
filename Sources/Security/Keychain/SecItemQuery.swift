import Foundation
import OSecKeychain

/// A parsed `SecItem…` dictionary, validated with Apple's rules (reference §2.1).
struct SecItemQuery {
    enum MatchLimit: Equatable {
        case one, all
        case count(Int)
    }
    enum Operation { case add, copyMatching, update, delete }

    var itemClass: SecItemClass
    /// Attribute constraints / values keyed by Apple's 4-character keys, normalized.
    var attributes: [String: AttributeValue] = [:]
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
    /// Set when `attributes` holds one of the engine fields (agrp, pdmn, sync, cdat, mdat); lets the engine
    /// query skip looking them up. Code that replaces `attributes` must keep it true when any may be present
    /// (derived queries take subsets of the parsed attributes, so the parsed flag stays correct).
    var hasEngineFieldAttributes = false
    /// Keys seen that some operations refuse (checked in `validate`).
    private var sawUseItemList = false

    var returnCount: Int {
        (returnData ? 1 : 0) + (returnAttributes ? 1 : 0) + (returnRef ? 1 : 0) + (returnPersistentRef ? 1 : 0)
    }

    /// Parses `dictionary` for `operation`. Throws Apple's errSecParam / errSecNoSuchClass / errSecNoSuchAttr.
    ///
    /// Hot path of every SecItem call: the caller's dictionary is read in one pass over its storage (no
    /// per-key lookups, which hash bridged strings), into a small array that is then applied in place.
    init(_ dictionary: NSDictionary?, for operation: Operation) throws {
        let entries = AttributeDictionary.stringKeyedEntries(dictionary)
        guard !entries.hasNonStringKeys else { throw SecError.param("query keys must be strings") }
        raw = AttributeDictionary(dictionary)

        var classValue: Any?
        var persistentRefValue: Any?
        var valueRefValue: Any?
        for index in entries.keys.indices {
            switch entries.keys[index] {
            case QueryKeys.class_: classValue = entries.values[index]
            case QueryKeys.valuePersistentRef: persistentRefValue = entries.values[index]
            case QueryKeys.valueRef: valueRefValue = entries.values[index]
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
            guard let c = SecItemClass(rawValue: name) else {
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
            try apply(key: entries.keys[index], value: entries.values[index], operation: operation)
        }
        try validate(operation)
    }

    /// The class a `kSecValueRef` object implies (used by SecItemAdd without kSecClass).
    static func itemClass(ofRef ref: AnyObject) -> SecItemClass? {
        if ref is SecKey { return .key }
        return SecItemRefClassifier.itemClass(ofRef: ref)
    }

    private mutating func apply(key: String, value: Any, operation: Operation) throws {
        switch key {
        case QueryKeys.class_, QueryKeys.valuePersistentRef:
            return
        case QueryKeys.sync:
            if let s = AttributeDictionary.stringValue(value), s == QueryKeys.synchronizableAny {
                synchronizableAny = true
                return
            }
            guard let b = AttributeDictionary.boolValue(value) else {
                throw SecError.param("kSecAttrSynchronizable must be a boolean or kSecAttrSynchronizableAny")
            }
            attributes["sync"] = .integer(b ? 1 : 0)
            hasEngineFieldAttributes = true
            return
        case QueryKeys.accessControl:
            guard let control = value as? SecAccessControl else {
                throw SecError.param("kSecAttrAccessControl must be a SecAccessControl")
            }
            accessControl = control
            return
        case QueryKeys.access:
            // macOS's legacy SecAccess (ACLs of the file keychain): accepted and not used; there is one keychain kind.
            sawLegacyAccess = true
            return
        case QueryKeys.useDataProtectionKeychain:
            // Accepted for source compatibility: there is one keychain kind.
            return
        case QueryKeys.useKeychainList:
            // macOS's older name of kSecMatchSearchList: a keychain or an array of keychains.
            guard let list = SecItemQuery.array(value) else {
                keychains = [value as AnyObject]
                return
            }
            keychains = list
            return
        case QueryKeys.persistentReference:
            throw SecError(
                errSecNoSuchAttr, "kSecAttrPersistentReference is not a query attribute; use kSecValuePersistentRef")
        default:
            break
        }
        if key.utf8.count == 4 {
            guard let (kind, isEngineField) = SecItemSchema.lookup(key, in: itemClass) else {
                throw SecError(errSecNoSuchAttr, "attribute \(key) does not exist for class \(itemClass.rawValue)")
            }
            guard let normalized = AttributeValue(caller: value, kind: kind) else {
                throw SecError.param("attribute \(key) has a value of the wrong type")
            }
            attributes[key] = normalized
            if isEngineField { hasEngineFieldAttributes = true }
            return
        }
        switch key.utf8.first {
        case UInt8(ascii: "m"):
            try applyMatch(key, value)
        case UInt8(ascii: "r"):
            // macOS strips the return keys from SecItemUpdate and SecItemDelete queries (iOS refuses them);
            // accepting what either accepts, they are validated and then have no effect there.
            try applyReturn(key, value)
            if operation == .update || operation == .delete { clearReturnKeys() }
        case UInt8(ascii: "u"):
            if key == QueryKeys.useItemList { sawUseItemList = true }
            try applyUse(key, value)
        case UInt8(ascii: "v"): try applyValue(key, value)
        case UInt8(ascii: "f"): return
        default: throw SecError.param("unknown query key \(key)")
        }
    }

    private mutating func applyMatch(_ key: String, _ value: Any) throws {
        switch key {
        case kSecMatchLimit:
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
        case kSecMatchCaseInsensitive, kSecMatchDiacriticInsensitive, kSecMatchWidthInsensitive:
            // Apple's data-protection keychain accepts these and matches byte-exactly anyway.
            guard let b = AttributeDictionary.boolValue(value) else { throw SecError.param("\(key) must be a boolean") }
            if key == kSecMatchCaseInsensitive as String { caseInsensitive = b }
        case kSecMatchItemList:
            guard let list = SecItemQuery.array(value) else {
                throw SecError.param("kSecMatchItemList must be an array")
            }
            matchItemList = list
        case kSecMatchSearchList:
            guard let list = SecItemQuery.array(value) else {
                throw SecError.param("kSecMatchSearchList must be an array")
            }
            keychains = list
        case kSecMatchIssuers, kSecMatchPolicy, kSecMatchValidOnDate,
            kSecMatchTrustedOnly, kSecMatchEmailAddressIfPresent:
            guard itemClass == .certificate || itemClass == .identity else {
                throw SecError(errSecUnimplemented, "\(key) applies to certificates and identities only")
            }
            var filter = certificateFilter ?? SecItemCertificateFilter()
            try filter.apply(key, value)
            certificateFilter = filter
        case kSecMatchSubjectContains, kSecMatchSubjectStartsWith, kSecMatchSubjectEndsWith,
            kSecMatchSubjectWholeString, kSecMatchHostOrSubdomainOfHost:
            return  // ignored by Apple's data-protection keychain
        default:
            throw SecError.param("unknown match key \(key)")
        }
    }

    private mutating func clearReturnKeys() {
        returnData = false
        returnAttributes = false
        returnRef = false
        returnPersistentRef = false
    }

    private mutating func applyReturn(_ key: String, _ value: Any) throws {
        let b: Bool
        if let n = value as? NSNumber {  // what bridged dictionaries hold; checked first (cheapest cast)
            b = n.boolValue
        } else if let v = value as? Bool {
            b = v
        } else {
            throw SecError.param("\(key) must be a boolean")
        }
        switch key {
        case QueryKeys.returnData: returnData = b
        case QueryKeys.returnAttributes: returnAttributes = b
        case QueryKeys.returnRef: returnRef = b
        case QueryKeys.returnPersistentRef: returnPersistentRef = b
        default: throw SecError.param("unknown return key \(key)")
        }
    }

    private mutating func applyUse(_ key: String, _ value: Any) throws {
        switch key {
        case QueryKeys.useKeychain:
            if let keychain = value as? SecKeychain { keychains = [keychain] } else { keychains = [value as AnyObject] }
        case kSecUseItemList:
            guard let list = SecItemQuery.array(value) else { throw SecError.param("kSecUseItemList must be an array") }
            matchItemList = list
        case kSecUseOperationPrompt, kSecUseNoAuthenticationUI, kSecUseAuthenticationUI,
            kSecUseAuthenticationContext:
            return  // no interactive authentication on a headless Linux keychain
        default:
            throw SecError.param("unknown use key \(key)")
        }
    }

    private mutating func applyValue(_ key: String, _ value: Any) throws {
        switch key {
        case QueryKeys.valueData:
            guard let d = AttributeDictionary.dataValue(value) else {
                throw SecError.param("kSecValueData must be data")
            }
            valueData = d
        case QueryKeys.valueRef:
            valueRef = value as AnyObject
        default:
            throw SecError.param("unknown value key \(key)")
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
        if let given = attributes["pdmn"], given.stringValue != control.protection || !control.flags.isEmpty {
            throw SecError.param(
                "conflicting kSecAttrAccessible and kSecAttrAccessControl attributes (the access control's "
                    + "protection \(control.protection) is the item's accessibility)")
        }
        attributes["pdmn"] = .string(control.protection)
        hasEngineFieldAttributes = true
        if operation == .add { attributes["accc"] = .data(control.storedForm) }
    }

    private static func array(_ value: Any) -> [AnyObject]? {
        if let a = value as? NSArray { return a.map { $0 as AnyObject } }
        if let a = value as? [Any] { return a.map { $0 as AnyObject } }
        return nil
    }
}

/// The query keys as Swift strings, bridged once (comparing with `kSec…` constants bridges them on every use).
enum QueryKeys {
    static let class_ = kSecClass as String
    static let valuePersistentRef = kSecValuePersistentRef as String
    static let valueRef = kSecValueRef as String
    static let valueData = kSecValueData as String
    static let sync = kSecAttrSynchronizable as String
    static let synchronizableAny = kSecAttrSynchronizableAny as String
    static let useDataProtectionKeychain = kSecUseDataProtectionKeychain as String
    static let accessControl = kSecAttrAccessControl as String
    static let useKeychainList = kSecUseKeychainList as String
    static let access = kSecAttrAccess as String
    static let persistentReference = kSecAttrPersistentReference as String
    static let matchSearchList = kSecMatchSearchList as String
    static let matchItemList = kSecMatchItemList as String
    static let useItemList = kSecUseItemList as String
    static let useKeychain = kSecUseKeychain as String
    static let returnData = kSecReturnData as String
    static let returnAttributes = kSecReturnAttributes as String
    static let returnRef = kSecReturnRef as String
    static let returnPersistentRef = kSecReturnPersistentRef as String
}
