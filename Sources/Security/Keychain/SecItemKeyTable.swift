import Foundation
import OSecKeychain

/// What a `SecItem…` dictionary key is: every key Apple's Keychain Services defines, by kind.
///
/// ``SecItemKeyTable/kind(of:)`` answers with one dictionary lookup; parsing (``SecItemQuery``) and
/// `SecItemUpdate`'s attributes switch on the answer.
enum SecItemQueryKey: Sendable {
    /// `kSecClass`.
    case itemClass
    /// An attribute (`kSecAttr…`): how each class stores it, and the engine field it is, if it is one.
    case attribute(SecItemAttributeKey)
    /// `kSecAttrAccessControl`: a SecAccessControl whose protection class becomes `pdmn`.
    case accessControl
    /// `kSecAttrAccess` (macOS's legacy SecAccess): accepted and unused.
    case legacyAccess
    /// `kSecAttrPersistentReference`: a result attribute, never a query attribute.
    case persistentReference
    /// A match option (`kSecMatch…`).
    case match(Match)
    /// A return key (`kSecReturn…`).
    case returns(Return)
    /// A value key (`kSecValue…`).
    case value(Value)
    /// A use key (`kSecUse…`).
    case use(Use)
    /// A flag key (`f…`, Apple's securityd flags): accepted and unused.
    case flag

    /// The match options.
    enum Match: Sendable {
        case limit
        /// kSecMatchCaseInsensitive / DiacriticInsensitive / WidthInsensitive (`isCase`: the first).
        case insensitivity(isCase: Bool)
        case itemList
        case searchList
        /// kSecMatchIssuers, Policy, ValidOnDate, TrustedOnly, EmailAddressIfPresent (certificates, identities).
        case certificateFilter
        /// kSecMatchSubject… and kSecMatchHostOrSubdomainOfHost, which the data-protection keychain ignores.
        case ignored
    }

    /// The return keys.
    enum Return: Sendable { case data, attributes, ref, persistentRef }

    /// The value keys.
    enum Value: Sendable { case data, ref, persistentRef }

    /// The use keys.
    enum Use: Sendable {
        case keychain
        case itemList
        /// kSecUseKeychainList, macOS's older name of kSecMatchSearchList.
        case keychainList
        /// kSecUseDataProtectionKeychain: accepted; there is one keychain kind.
        case dataProtectionKeychain
        /// Interactive-authentication options (prompt, UI, context): no UI on a headless Linux keychain.
        case authentication
    }
}

/// An attribute key's entry in the key table.
struct SecItemAttributeKey: Sendable {
    /// The storage kind per class, in `SecItemKind.allCases` order (nil: the class has no such attribute).
    let kinds: [AttributeDescriptor.Kind?]
    /// The engine field the attribute is (agrp, pdmn, sync, cdat, mdat), or nil for a class attribute.
    let engineField: SecItemEngineField?

    /// How `itemClass` stores the attribute, or nil when the class has none (errSecNoSuchAttr).
    func kind(in itemClass: SecItemKind) -> AttributeDescriptor.Kind? { kinds[itemClass.ordinal] }
}

/// The one table of `SecItem…` dictionary keys.
enum SecItemKeyTable {
    /// The kind of `key`, or nil when Apple's framework defines no such key (see ``unknownKeyError(_:in:)``).
    static func kind(of key: String) -> SecItemQueryKey? { table[key] }

    /// Apple's answer for a key it does not define (securityd's `query_applier` in SecDbQuery.c, which sorts
    /// keys by shape before looking them up): nil for an `f…` flag (accepted), errSecNoSuchAttr for a
    /// 4-character attribute name, errSecParam for anything else.
    static func unknownKeyError(_ key: String, in itemClass: SecItemKind) -> SecError? {
        if key.utf8.count == 4 {
            return SecError(errSecNoSuchAttr, "attribute \(key) does not exist for class \(itemClass.rawValue)")
        }
        if key.utf8.first == UInt8(ascii: "f") { return nil }
        return SecError.param("unknown query key \(key)")
    }

    private static let table: [String: SecItemQueryKey] = {
        var table: [String: SecItemQueryKey] = [:]
        // Attributes: every class attribute of the engine's schemas, and the engine fields.
        var attributeKeys = Set(SecItemEngineField.allCases.map(\.rawValue))
        for storeClass in ItemClass.all { attributeKeys.formUnion(storeClass.attributes.map(\.key)) }
        for key in attributeKeys {
            let field = SecItemEngineField(rawValue: key)
            let kinds = SecItemKind.allCases.map { field?.kind ?? SecItemSchema.classKind(of: key, in: $0) }
            table[key] = .attribute(SecItemAttributeKey(kinds: kinds, engineField: field))
        }
        func add(_ keys: [CFString], _ kind: SecItemQueryKey) {
            for key in keys { table[key as String] = kind }
        }
        add([kSecClass], .itemClass)
        add([kSecAttrAccessControl], .accessControl)
        add([kSecAttrAccess], .legacyAccess)
        add([kSecAttrPersistentReference, kSecAttrPersistantReference], .persistentReference)
        add([kSecMatchLimit], .match(.limit))
        add([kSecMatchCaseInsensitive], .match(.insensitivity(isCase: true)))
        add([kSecMatchDiacriticInsensitive, kSecMatchWidthInsensitive], .match(.insensitivity(isCase: false)))
        add([kSecMatchItemList], .match(.itemList))
        add([kSecMatchSearchList], .match(.searchList))
        add(
            [
                kSecMatchIssuers, kSecMatchPolicy, kSecMatchValidOnDate, kSecMatchTrustedOnly,
                kSecMatchEmailAddressIfPresent,
            ],
            .match(.certificateFilter))
        add(
            [
                kSecMatchSubjectContains, kSecMatchSubjectStartsWith, kSecMatchSubjectEndsWith,
                kSecMatchSubjectWholeString, kSecMatchHostOrSubdomainOfHost,
            ],
            .match(.ignored))
        add([kSecReturnData], .returns(.data))
        add([kSecReturnAttributes], .returns(.attributes))
        add([kSecReturnRef], .returns(.ref))
        add([kSecReturnPersistentRef], .returns(.persistentRef))
        add([kSecValueData], .value(.data))
        add([kSecValueRef], .value(.ref))
        add([kSecValuePersistentRef], .value(.persistentRef))
        add([kSecUseKeychain], .use(.keychain))
        add([kSecUseItemList], .use(.itemList))
        add([kSecUseKeychainList], .use(.keychainList))
        add([kSecUseDataProtectionKeychain], .use(.dataProtectionKeychain))
        add(
            [kSecUseOperationPrompt, kSecUseNoAuthenticationUI, kSecUseAuthenticationUI, kSecUseAuthenticationContext],
            .use(.authentication))
        return table
    }()
}
