import Foundation
import OSecASN1
import OSecToolBase
import Security

/// `find-key` and `create-keypair`, after macOS security(1).
enum KeyCommands {
    // MARK: find-key

    static let findKeyCommand = ToolCommand(
        name: "find-key",
        usage: """
            [-a appLabel] [-c creator] [-d] [-D desc] [-e] [-j comment] [-l label] [-r] [-s] [-t type] [-u] [-v] [-w]
            [--json] [keychain...]
                -a  Match "application label" (hexadecimal, or text)
                -c  Match "creator" (four-character code)
                -d  Match keys that can decrypt
                -D  Match "description" string
                -e  Match keys that can encrypt
                -j  Match "comment" string
                -l  Match "label" string
                -r  Match keys that can derive
                -s  Match keys that can sign
                -t  Type of key to find: one of "symmetric", "public", or "private"
                -u  Match keys that can unwrap
                -v  Match keys that can verify
                -w  Match keys that can wrap
            If no keychains are specified to search, the default search list is used.
            """,
        help: "Find keys in the keychain.", run: findKey)

    static func findKey(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "acDjlt", flags: "derslu" + "vw") else { return 2 }
        var query: [String: Any] = [
            kSecClass as String: kSecClassKey, kSecReturnAttributes as String: true,
            kSecMatchLimit as String: kSecMatchLimitAll,
        ]
        if let label = options.values["a"] {
            query[kSecAttrApplicationLabel as String] = HexDecoding.data(label) ?? Data(label.utf8)
        }
        if let creator = options.values["c"] {
            guard creator.utf8.count == 4 else { return ToolOutput.usage("find-key: -c takes a four-character code") }
            query[kSecAttrCreator as String] = creator.utf8.reduce(0) { $0 << 8 | Int($1) }
        }
        if let description = options.values["D"] { query[kSecAttrDescription as String] = description }
        if let comment = options.values["j"] { query[kSecAttrComment as String] = comment }
        if let label = options.values["l"] { query[kSecAttrLabel as String] = label }
        if let type = options.values["t"] {
            switch type {
            case "public": query[kSecAttrKeyClass as String] = kSecAttrKeyClassPublic
            case "private": query[kSecAttrKeyClass as String] = kSecAttrKeyClassPrivate
            case "symmetric": query[kSecAttrKeyClass as String] = kSecAttrKeyClassSymmetric
            default: return ToolOutput.usage("find-key: -t takes symmetric, public or private")
            }
        }
        let usage: [(Character, CFString)] = [
            ("d", kSecAttrCanDecrypt), ("e", kSecAttrCanEncrypt), ("r", kSecAttrCanDerive), ("s", kSecAttrCanSign),
            ("u", kSecAttrCanUnwrap), ("v", kSecAttrCanVerify), ("w", kSecAttrCanWrap),
        ]
        for (letter, attribute) in usage where options.flags.contains(letter) { query[attribute as String] = true }
        var documents: [[String: Any]] = []
        var found = 0
        for (keychain, path) in KeychainOperand.keychains(options.operands) {
            let result: CFTypeRef?
            switch KeychainOperand.copyMatching(query, in: keychain) {
            case .success(let found): result = found
            case .failure(let error): return ToolOutput.fail("SecKeychainSearchCopyNext", error.status)
            }
            for item in (result as? [[String: Any]]) ?? [] {
                found += 1
                if options.json {
                    documents.append(ItemPrinter.json(item, kind: .key, keychainPath: path))
                } else {
                    print(ItemPrinter.describe(item, kind: .key, keychainPath: path), terminator: "")
                }
            }
        }
        if options.json { JSONOutput.print(["keys": documents]) }
        return found > 0 || options.json ? 0 : ToolOutput.fail("SecKeychainSearchCopyNext", errSecItemNotFound)
    }

    // MARK: create-keypair

    static let createKeypairCommand = ToolCommand(
        name: "create-keypair",
        usage: """
            [-a alg] [-s size] [-f date] [-t date] [-d days] [-k keychain] [-A|-T appPath] description
                -a  Use alg as the algorithm: rsa (default) or ec
                -s  Specify the key size in bits (default 2048 for rsa, 256 for ec)
                -f  Make a key valid from the specified date (accepted)
                -t  Make a key valid to the specified date (accepted)
                -d  Make a key valid for the number of days specified from today (accepted)
                -k  Use the specified keychain rather than the default
                -A  Allow any application to access without warning (accepted; no effect on Linux)
                -T  Allow the application specified to access without warning (accepted; no effect on Linux)
            """,
        help: "Create an asymmetric key pair.", run: createKeypair)

    static func createKeypair(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "asftdkT", flags: "A") else { return 2 }
        guard options.operands.count == 1, let label = options.operands.first, !label.isEmpty else { return 2 }
        let algorithm = options.values["a"] ?? "rsa"
        let type: CFString
        let defaultSize: Int
        switch algorithm {
        case "rsa": (type, defaultSize) = (kSecAttrKeyTypeRSA, 2048)
        case "ec", "ecdsa": (type, defaultSize) = (kSecAttrKeyTypeECSECPrimeRandom, 256)
        default: return ToolOutput.usage("create-keypair: algorithm \(algorithm) is not supported (rsa, ec)")
        }
        var size = defaultSize
        if let text = options.values["s"] {
            guard let bits = Int(text) else { return ToolOutput.usage("create-keypair: -s takes a number of bits") }
            size = bits
        }
        var parameters: [String: Any] = [
            kSecAttrKeyType as String: type, kSecAttrKeySizeInBits as String: size,
            kSecAttrIsPermanent as String: true, kSecAttrLabel as String: label,
        ]
        if let name = options.values["k"] {
            guard let keychain = KeychainOperand.existing(name, call: "SecKeychainOpen") else {
                return KeychainOperand.missingStatus
            }
            parameters[kSecUseKeychain as String] = keychain
        }
        var error: Unmanaged<CFError>?
        guard SecKeyCreateRandomKey(parameters as CFDictionary, &error) != nil else {
            let failure = error?.takeRetainedValue()
            return ToolOutput.fail("SecKeyCreatePair", OSStatus(truncatingIfNeeded: failure?.code ?? Int(errSecParam)))
        }
        return 0
    }
}
