import Foundation
import OSecASN1
import OSecToolBase
import Security

/// `add-`, `find-` and `delete-generic-password` / `-internet-password`, with macOS security(1)'s options,
/// output and exit codes (44 = not found, 45 = duplicate, 36 = the keychain is locked).
enum PasswordCommands {
    enum Kind {
        case generic, internet

        var itemClass: CFString { self == .generic ? kSecClassGenericPassword : kSecClassInternetPassword }
        var itemKind: ItemKind { self == .generic ? .generic : .internet }
        var noun: String { self == .generic ? "generic-password" : "internet-password" }

        /// Valued options that map to attributes (shared by add, find and delete).
        /// The same table the front end reads (`PasswordRead.Kind.attributeOptions`).
        var attributeOptions: [(Character, CFString)] {
            let shared: PasswordRead.Kind = self == .generic ? .generic : .internet
            return shared.attributeOptions.map { ($0.letter, $0.attribute as CFString) }
        }

        var valuedLetters: String { String(attributeOptions.map(\.0)) }
        /// The password options of add: `-w` (and, for generic passwords, the legacy `-p`).
        var passwordLetters: String { self == .generic ? "wp" : "w" }
    }

    // MARK: add

    static func addCommand(_ kind: Kind) -> ToolCommand {
        let specific =
            kind == .generic
            ? """
                -G  Specify generic attribute (optional)
                -s  Specify service name (required)
                -p  Specify password to be added (legacy option, equivalent to -w)
            """
            : """
                -d  Specify security domain string (optional)
                -p  Specify path string (optional)
                -P  Specify port number (optional)
                -r  Specify protocol (optional four-character SecProtocolType, e.g. "http", "ftp ")
                -s  Specify server name (required)
                -t  Specify authentication type (as a four-character SecAuthenticationType, default is "dflt")
            """
        return ToolCommand(
            name: "add-\(kind.noun)",
            usage: """
                [-a account] [-s \(kind == .generic ? "service" : "server")] [-w password | -X hexpassword] [options...]
                [-A|-T appPath] [-U] [keychain]
                    -a  Specify account name (required)
                    -c  Specify item creator (optional four-character code)
                    -C  Specify item type (optional four-character code)
                    -D  Specify kind
                    -j  Specify comment string (optional)
                    -l  Specify label (if omitted, the \(kind == .generic ? "service" : "server") name is used)
                \(specific)
                    -w  Specify password to be added (put it last without a value to be prompted)
                    -X  Specify password data to be added as a hexadecimal string
                    -A  Allow any application to access this item (accepted; no effect on Linux)
                    -T  Specify an application which may access this item (accepted; no effect on Linux)
                    -U  Update item if it already exists (if omitted, the item cannot already exist)
                A password on the command line is visible to other users (ps); prefer the prompt or standard input.
                """,
            help: kind == .generic ? "Add a generic password item." : "Add an internet password item."
        ) { add(kind, $0) }
    }

    static func add(_ kind: Kind, _ arguments: [String]) -> Int32 {
        let passwordLetters = kind.passwordLetters
        guard
            let options = CommandOptions.parse(
                arguments, valued: kind.valuedLetters + (kind == .generic ? "p" : "") + "wTX",
                flags: "UA", promptable: passwordLetters)
        else { return 2 }
        guard options.values["a"] != nil, options.values["s"] != nil, !options.hasExtraOperands(beyond: 1),
            options.operands.first != ""
        else { return 2 }
        guard var query = try? attributeQuery(kind, options) else {
            return ToolOutput.usage("add-\(kind.noun): -c, -C, -r and -t take four-character codes, -P a port number")
        }
        var password = options.values["w"] ?? (kind == .generic ? options.values["p"] : nil)
        if !options.valueMissing.isDisjoint(with: passwordLetters) {
            switch Prompt.secret("password data for new item: ", retype: "retype password for new item: ") {
            case .secret(let typed): password = typed
            case .endOfInput, .failed: return 1
            }
        }
        if let hex = options.values["X"] {
            guard let bytes = HexDecoding.data(hex) else {
                return ToolOutput.usage("add-\(kind.noun): -X expects hexadecimal data")
            }
            query[kSecValueData as String] = bytes
        } else {
            query[kSecValueData as String] = Data((password ?? "").utf8)
        }
        // security(1) names the item after its service (or server) when no label is given.
        if query[kSecAttrLabel as String] == nil, let name = options.values["s"] {
            query[kSecAttrLabel as String] = name
        }
        if kind == .internet && query[kSecAttrAuthenticationType as String] == nil {
            query[kSecAttrAuthenticationType as String] = "dflt"
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

    private static let genericFindOptions = """
            -G  Match "value" string (generic attribute)
            -s  Match "service" string
        """

    private static let internetFindOptions = """
            -d  Match "securityDomain" string
            -p  Match "path" string
            -P  Match port number
            -r  Match "protocol" (four-character code)
            -s  Match "server" string
            -t  Match "authenticationType" (four-character code)
        """

    static func findCommand(_ kind: Kind) -> ToolCommand {
        ToolCommand(
            name: "find-\(kind.noun)",
            usage: """
                [-a account] [-s \(kind == .generic ? "service" : "server")] [options...] [-g] [-w] [--json]
                [keychain...]
                    -a  Match "account" string
                    -c  Match "creator" (four-character code)
                    -C  Match "type" (four-character code)
                    -D  Match "kind" string
                    -j  Match "comment" string
                    -l  Match "label" string
                \(kind == .generic ? genericFindOptions : internetFindOptions)
                    -g  Display the password for the item found (on standard error)
                    -w  Display only the password on stdout
                If no keychains are specified to search, the default search list is used.
                """,
            help: kind == .generic ? "Find a generic password item." : "Find an internet password item."
        ) { find(kind, $0) }
    }

    static func find(_ kind: Kind, _ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: kind.valuedLetters, flags: "gw") else { return 2 }
        if options.flags == ["w"], !options.json, let secret = passwordOnly(kind, options) {
            print(ItemPrinter.passwordForStandardOutput(secret))
            return 0
        }
        let wantsPassword = options.flags.contains("g") || options.flags.contains("w")
        let found: FoundItem
        switch lookUp(kind, options) {
        case .failure(let failure): return ToolOutput.fail("SecKeychainSearchCopyNext", failure.status)
        case .success(nil): return ToolOutput.fail("SecKeychainSearchCopyNext", errSecItemNotFound)
        case .success(let item?): found = item
        }
        var secret = Data()
        if wantsPassword {
            switch KeychainItems.secret(of: found.attributes, kind: kind.itemKind, in: found.keychain) {
            case .success(let data): secret = data
            case .failure(let error): return ToolOutput.fail("SecKeychainItemCopyContent", error.status)
            }
        }
        if options.json {
            var document = ItemPrinter.json(found.attributes, kind: kind.itemKind, keychainPath: found.keychainPath)
            if wantsPassword { document["password"] = secret }
            JSONOutput.print(document)
            return 0
        }
        if options.flags.contains("w") {
            print(ItemPrinter.passwordForStandardOutput(secret))
            return 0
        }
        print(
            ItemPrinter.describe(found.attributes, kind: kind.itemKind, keychainPath: found.keychainPath),
            terminator: "")
        if options.flags.contains("g") {
            FileHandle.standardError.write(Data("password: \(ItemPrinter.password(secret))\n".utf8))
        }
        return 0
    }

    // MARK: delete

    static func deleteCommand(_ kind: Kind) -> ToolCommand {
        ToolCommand(
            name: "delete-\(kind.noun)",
            usage: """
                [-a account] [-s \(kind == .generic ? "service" : "server")] [options...] [keychain...]
                Deletes the first item matching the options (the same as find-\(kind.noun)'s).
                If no keychains are specified to search, the default search list is used.
                """,
            help: kind == .generic ? "Delete a generic password item." : "Delete an internet password item."
        ) { delete(kind, $0) }
    }

    static func delete(_ kind: Kind, _ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: kind.valuedLetters, flags: "") else { return 2 }
        let item: FoundItem
        switch lookUp(kind, options) {
        case .failure(let failure): return ToolOutput.fail("SecKeychainSearchCopyNext", failure.status)
        case .success(nil): return ToolOutput.fail("SecKeychainSearchCopyNext", errSecItemNotFound)
        case .success(let found?): item = found
        }
        print(
            ItemPrinter.describe(item.attributes, kind: kind.itemKind, keychainPath: item.keychainPath), terminator: "")
        // Exactly the item shown: by its persistent reference.
        let query: [String: Any] = [
            kSecClass as String: kind.itemClass, kSecValuePersistentRef as String: item.persistentRef,
            kSecUseKeychain as String: item.keychain,
        ]
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess else { return ToolOutput.fail("SecKeychainItemDelete", status) }
        ToolOutput.standardError("password has been deleted.")
        return 0
    }

    // MARK: Shared

    struct FoundItem {
        let attributes: [String: Any]
        let persistentRef: Data
        let keychain: SecKeychain
        let keychainPath: String
    }

    /// The first matching item in the keychains named by the operands (the search list when none); `nil` when
    /// nothing matches. Attributes only: this works while the keychain is locked.
    private static func lookUp(_ kind: Kind, _ options: CommandOptions) -> Result<FoundItem?, OSStatusError> {
        guard var query = try? attributeQuery(kind, options) else { return .failure(.init(errSecParam)) }
        query[kSecClass as String] = kind.itemClass
        query[kSecReturnAttributes as String] = true
        query[kSecReturnPersistentRef as String] = true
        for (keychain, path) in KeychainOperand.keychains(options.operands) {
            let result: CFTypeRef?
            switch KeychainOperand.copyMatching(query, in: keychain) {
            case .success(let found): result = found
            case .failure(let error): return .failure(error)
            }
            guard let result else { continue }
            guard let attributes = result as? [String: Any] else { return .failure(.init(errSecInternal)) }
            return .success(
                FoundItem(
                    attributes: attributes,
                    persistentRef: attributes[kSecValuePersistentRef as String] as? Data ?? Data(),
                    keychain: keychain, keychainPath: path))
        }
        return .success(nil)
    }

    /// `find-…-password -w` (the scripts' way to read a secret): the password of the item the general path would
    /// find first, read with one data-only `SecItemCopyMatching` per keychain (no attribute dictionaries built and
    /// bridged, no second lookup by persistent reference). `nil` when no keychain has a match or any lookup fails
    /// otherwise (a locked keychain, a damaged one): the caller then takes the general path, which reports it in the
    /// same words and with the same status as before.
    private static func passwordOnly(_ kind: Kind, _ options: CommandOptions) -> Data? {
        guard var query = try? attributeQuery(kind, options) else { return nil }
        query[kSecClass as String] = kind.itemClass
        query[kSecReturnData as String] = true
        for (keychain, _) in KeychainOperand.keychains(options.operands) {
            switch KeychainOperand.copyMatching(query, in: keychain) {
            case .success(nil): continue
            case .success(let found?): return found as? Data
            case .failure: return nil
            }
        }
        return nil
    }

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
