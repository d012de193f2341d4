import Foundation
import OSecASN1
import Security

/// `add-`, `find-` and `delete-generic-password` / `-internet-password`, with macOS security(1)'s options,
/// output and exit codes (44 = not found, 45 = duplicate).
enum PasswordCommands {
    enum Kind {
        case generic, internet

        var itemClass: CFString { self == .generic ? kSecClassGenericPassword : kSecClassInternetPassword }
        var code: String { self == .generic ? "genp" : "inet" }
        var noun: String { self == .generic ? "generic-password" : "internet-password" }

        /// Valued options that map to attributes (shared by add, find and delete).
        var attributeOptions: [(Character, CFString)] {
            switch self {
            case .generic:
                return [
                    ("a", kSecAttrAccount), ("s", kSecAttrService), ("l", kSecAttrLabel), ("j", kSecAttrComment),
                    ("D", kSecAttrDescription), ("G", kSecAttrGeneric), ("c", kSecAttrCreator), ("C", kSecAttrType),
                ]
            case .internet:
                return [
                    ("a", kSecAttrAccount), ("s", kSecAttrServer), ("l", kSecAttrLabel), ("j", kSecAttrComment),
                    ("D", kSecAttrDescription), ("d", kSecAttrSecurityDomain), ("p", kSecAttrPath),
                    ("r", kSecAttrProtocol), ("t", kSecAttrAuthenticationType), ("P", kSecAttrPort),
                    ("c", kSecAttrCreator), ("C", kSecAttrType),
                ]
            }
        }

        var valuedLetters: String { String(attributeOptions.map(\.0)) }
    }

    // MARK: add

    static func add(_ kind: Kind, _ arguments: [String]) -> Int32 {
        guard
            let options = CommandOptions.parse(
                "add-\(kind.noun)", arguments, valued: kind.valuedLetters + "wTX", flags: "UA", promptable: "w")
        else { return 2 }
        guard var query = try? attributeQuery(kind, options) else {
            return ToolOutput.usage("add-\(kind.noun)", "-c, -C, -r and -t take four-character codes, -P a port number")
        }
        var password = options.values["w"]
        if options.valueMissing.contains("w") {
            guard let line = ToolOutput.readSecretLine(prompt: "password data for new item: ") else { return 1 }
            password = line
        }
        if let hex = options.values["X"] {
            guard let bytes = HexDecoding.data(hex) else {
                return ToolOutput.usage("add-\(kind.noun)", "-X expects hexadecimal data")
            }
            query[kSecValueData as String] = bytes
        } else {
            query[kSecValueData as String] = Data((password ?? "").utf8)
        }
        // security(1) names the item after its service (or server) when no label is given.
        if query[kSecAttrLabel as String] == nil, let name = options.values["s"] {
            query[kSecAttrLabel as String] = name
        }
        let keychain = options.operands.first.flatMap(KeychainOperand.open)
        if let keychain { query[kSecUseKeychain as String] = keychain }
        query[kSecClass as String] = kind.itemClass
        let status = SecItemAdd(query as CFDictionary, nil)
        if status == errSecDuplicateItem, options.flags.contains("U") {
            var match = query
            let data = match.removeValue(forKey: kSecValueData as String)
            if options.values["l"] == nil { match.removeValue(forKey: kSecAttrLabel as String) }
            let changes: [String: Any] = [kSecValueData as String: data ?? Data()]
            let updated = SecItemUpdate(match as CFDictionary, changes as CFDictionary)
            return updated == errSecSuccess ? 0 : ToolOutput.fail("SecKeychainItemModifyAttributesAndData", updated)
        }
        guard status == errSecSuccess else {
            let target = keychain.map { KeychainOperand.path(of: $0) } ?? "<default>"
            return ToolOutput.fail("SecKeychainItemCreateFromContent (\(target))", status)
        }
        return 0
    }

    // MARK: find

    static func find(_ kind: Kind, _ arguments: [String]) -> Int32 {
        guard
            let options = CommandOptions.parse("find-\(kind.noun)", arguments, valued: kind.valuedLetters, flags: "gw")
        else { return 2 }
        guard let found = lookUp(kind, options, returnData: options.flags.contains("g") || options.flags.contains("w"))
        else {
            return ToolOutput.fail("SecKeychainSearchCopyNext", errSecItemNotFound)
        }
        switch found {
        case .failure(let failure):
            return ToolOutput.fail("SecKeychainSearchCopyNext", failure.status)
        case .success(let item):
            let secret = item.attributes[kSecValueData as String] as? Data ?? Data()
            if options.flags.contains("w") {
                print(ItemPrinter.passwordForStandardOutput(secret))
                return 0
            }
            print(ItemPrinter.describe(item.attributes, kind: kind, keychainPath: item.keychainPath), terminator: "")
            if options.flags.contains("g") {
                FileHandle.standardError.write(Data("password: \(ItemPrinter.password(secret))\n".utf8))
            }
            return 0
        }
    }

    // MARK: delete

    static func delete(_ kind: Kind, _ arguments: [String]) -> Int32 {
        guard
            let options = CommandOptions.parse("delete-\(kind.noun)", arguments, valued: kind.valuedLetters, flags: "")
        else { return 2 }
        guard let found = lookUp(kind, options, returnData: false) else {
            return ToolOutput.fail("SecKeychainSearchCopyNext", errSecItemNotFound)
        }
        switch found {
        case .failure(let failure):
            return ToolOutput.fail("SecKeychainSearchCopyNext", failure.status)
        case .success(let item):
            print(ItemPrinter.describe(item.attributes, kind: kind, keychainPath: item.keychainPath), terminator: "")
            // Exactly the item shown: by its persistent reference.
            var query: [String: Any] = [
                kSecClass as String: kind.itemClass, kSecValuePersistentRef as String: item.persistentRef,
            ]
            if let keychain = item.keychain { query[kSecUseKeychain as String] = keychain }
            let status = SecItemDelete(query as CFDictionary)
            guard status == errSecSuccess else { return ToolOutput.fail("SecKeychainItemDelete", status) }
            print("password has been deleted.")
            return 0
        }
    }

    // MARK: Shared

    struct FoundItem {
        let attributes: [String: Any]
        let persistentRef: Data
        let keychain: SecKeychain?
        let keychainPath: String
    }

    /// The first matching item in the keychains named by the operands (the default keychain when none).
    private static func lookUp(
        _ kind: Kind, _ options: CommandOptions, returnData: Bool
    ) -> Result<FoundItem, OSStatusFailure>? {
        guard var query = try? attributeQuery(kind, options) else {
            return .failure(OSStatusFailure(status: errSecParam))
        }
        query[kSecClass as String] = kind.itemClass
        query[kSecReturnAttributes as String] = true
        query[kSecReturnPersistentRef as String] = true
        if returnData { query[kSecReturnData as String] = true }
        let keychains: [SecKeychain?] = options.operands.isEmpty ? [nil] : options.operands.map(KeychainOperand.open)
        for keychain in keychains {
            var q = query
            if let keychain { q[kSecUseKeychain as String] = keychain }
            var result: CFTypeRef?
            let status = SecItemCopyMatching(q as CFDictionary, &result)
            if status == errSecItemNotFound { continue }
            guard status == errSecSuccess, let attributes = result as? [String: Any] else {
                return .failure(OSStatusFailure(status: status == errSecSuccess ? errSecInternal : status))
            }
            let path = keychain.map { KeychainOperand.path(of: $0) } ?? KeychainOperand.defaultKeychainPath()
            return .success(
                FoundItem(
                    attributes: attributes,
                    persistentRef: attributes[kSecValuePersistentRef as String] as? Data ?? Data(),
                    keychain: keychain, keychainPath: path))
        }
        return nil
    }

    struct OSStatusFailure: Error { let status: OSStatus }

    /// The attribute constraints the options give. Four-character codes (-c, -C, -r, -t) are strings; -P a number.
    private static func attributeQuery(_ kind: Kind, _ options: CommandOptions) throws -> [String: Any] {
        var query: [String: Any] = [:]
        for (letter, attribute) in kind.attributeOptions {
            guard let value = options.values[letter] else { continue }
            switch letter {
            case "P":
                guard let port = Int(value), (0...65535).contains(port) else {
                    throw CommandOptions.UsageError(message: "bad port")
                }
                query[attribute as String] = port
            case "c", "C", "r", "t":
                guard value.utf8.count == 4 else {
                    throw CommandOptions.UsageError(message: "four-character code expected")
                }
                query[attribute as String] = letter == "c" || letter == "C" ? fourCharCode(value) as Any : value
            case "G":
                query[attribute as String] = Data(value.utf8)
            default:
                query[attribute as String] = value
            }
        }
        return query
    }

    /// kSecAttrCreator / kSecAttrType are numbers (the four characters big-endian), as on macOS.
    private static func fourCharCode(_ code: String) -> Int {
        code.utf8.reduce(0) { $0 << 8 | Int($1) }
    }
}
