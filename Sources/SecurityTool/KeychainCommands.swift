import Foundation
import OSecKeychainAgent
import OSecSystem
import OSecToolBase
import Security

/// Keychain management: create, delete, list, default, login, lock, unlock, settings, password, info, dump.
///
/// Keychain operands are paths, or names in the default keychain's directory (`name` → `name.keychain-db`).
/// Unlocking hands the keychain's keys to the per-user keychain agent, so later commands and other processes of
/// the user can read it until it is locked, times out, or the user logs out.
enum KeychainCommands {
    // MARK: create-keychain

    static let createCommand = ToolCommand(
        name: "create-keychain",
        usage: """
            [-P] [-p password] [keychains...]
                -p    Use "password" as the password for the keychains being created.
                -P    Prompt for a password (also the default when -p is not given).
            """,
        help: "Create keychains and add them to the search list.", run: create)

    static func create(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "p", flags: "P") else { return 2 }
        guard !options.operands.isEmpty else { return 2 }
        var password = options.values["p"]
        if password == nil {
            switch Prompt.secret("password for new keychain: ", retype: "retype password for new keychain: ") {
            case .secret(let typed): password = typed
            case .endOfInput: password = nil  // no input at all: a keychain protected by its device key
            case .failed(let why):
                ToolOutput.error("create-keychain: \(why)")
                return 1
            }
        }
        for operand in options.operands {
            let path = KeychainOperand.path(for: operand)
            var keychain: SecKeychain?
            let status: OSStatus
            if let password {
                status = SecKeychainCreate(path, UInt32(password.utf8.count), password, false, nil, &keychain)
            } else {
                status = SecKeychainCreate(path, 0, nil, false, nil, &keychain)
            }
            guard status == errSecSuccess, let keychain else {
                return ToolOutput.fail("SecKeychainCreate \(operand)", status)
            }
            addToSearchList(keychain)
            // As on macOS, a new keychain starts unlocked for the user's other commands.
            if password != nil { AgentControl.share(keychain) }
        }
        return 0
    }

    private static func addToSearchList(_ keychain: SecKeychain) {
        var list: CFArray?
        guard SecKeychainCopyDomainSearchList(.user, &list) == errSecSuccess else { return }
        var keychains = (list as? [AnyObject]) ?? []
        guard !keychains.contains(where: { ($0 as? SecKeychain) == keychain }) else { return }
        keychains.append(keychain)
        _ = SecKeychainSetDomainSearchList(.user, keychains as NSArray)
    }

    private static func removeFromSearchList(_ path: String) {
        var list: CFArray?
        guard SecKeychainCopyDomainSearchList(.user, &list) == errSecSuccess else { return }
        let keychains = ((list as? [AnyObject]) ?? []).compactMap { $0 as? SecKeychain }
        let kept = keychains.filter { KeychainOperand.path(of: $0) != path }
        if kept.count != keychains.count { _ = SecKeychainSetDomainSearchList(.user, kept as NSArray) }
    }

    // MARK: delete-keychain

    static let deleteCommand = ToolCommand(
        name: "delete-keychain", usage: "[keychains...]",
        help: "Delete keychains and remove them from the search list.", run: delete)

    static func delete(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "", flags: "") else { return 2 }
        guard !options.operands.isEmpty else { return 2 }
        var result: Int32 = 0
        for operand in options.operands {
            let path = KeychainOperand.path(for: operand)
            guard FileManager.default.fileExists(atPath: path), let keychain = KeychainOperand.open(operand) else {
                result = ToolOutput.fail("SecKeychainDelete \(operand)", errSecNoSuchKeychain)
                continue
            }
            let status = SecKeychainDelete(keychain)
            guard status == errSecSuccess else {
                result = ToolOutput.fail("SecKeychainDelete \(operand)", status)
                continue
            }
            removeFromSearchList(path)
        }
        return result
    }

    // MARK: list-keychains, default-keychain, login-keychain

    static let listCommand = ToolCommand(
        name: "list-keychains",
        usage: """
            [-d user|system|common|dynamic] [-s [keychain...]] [--json]
                -d    Use the specified domain.
                -s    Set the search list to the specified keychains.
            With no parameters display the search list.
            """,
        help: "Display or manipulate the keychain search list.", run: list)

    static let defaultCommand = keychainSettingCommand(login: false)
    static let loginCommand = keychainSettingCommand(login: true)

    /// `default-keychain` or `login-keychain`: display or set that keychain of a domain.
    private static func keychainSettingCommand(login: Bool) -> ToolCommand {
        let which = login ? "login" : "default"
        return ToolCommand(
            name: "\(which)-keychain",
            usage: """
                [-d user|system|common|dynamic] [-s [keychain]] [--json]
                    -d    Use the specified domain.
                    -s    Set the \(which) keychain to the specified keychain (none: unset it).
                With no parameters display the \(which) keychain.
                """,
            help: "Display or set the \(which) keychain."
        ) { defaultOrLogin($0, login: login) }
    }

    /// macOS's domain names, matched by prefix (`u` = user).
    static func domain(_ name: String) -> SecPreferencesDomain? {
        guard !name.isEmpty else { return nil }
        let names: [(String, SecPreferencesDomain)] = [
            ("user", .user), ("system", .system), ("common", .common), ("dynamic", .dynamic),
        ]
        return names.first { $0.0.hasPrefix(name) }?.1
    }

    private static func parseDomain(_ options: CommandOptions) -> (SecPreferencesDomain?, ok: Bool) {
        guard let name = options.values["d"] else { return (nil, true) }
        guard let domain = domain(name) else {
            ToolOutput.error("Invalid domain: \(name)")
            return (nil, false)
        }
        return (domain, true)
    }

    private static func printPaths(_ paths: [String], json: Bool, key: String) {
        if json {
            JSONOutput.print(key == "keychains" ? ["keychains": paths] : ["keychain": paths.first as Any])
        } else {
            for path in paths { print("    \"\(path)\"") }
        }
    }

    static func list(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "d", flags: "s") else { return 2 }
        let (domain, ok) = parseDomain(options)
        guard ok else { return 2 }
        if options.flags.contains("s") {
            let keychains = options.operands.compactMap(KeychainOperand.open)
            let status =
                domain.map { SecKeychainSetDomainSearchList($0, keychains as NSArray) }
                ?? SecKeychainSetSearchList(keychains as NSArray)
            guard status == errSecSuccess else {
                let call = domain.map { "SecKeychainSetDomainSearchList \($0)" } ?? "SecKeychainSetSearchList"
                _ = ToolOutput.fail(call, status)
                return 1
            }
            return 0
        }
        guard options.operands.isEmpty else { return 2 }
        var list: CFArray?
        let status = domain.map { SecKeychainCopyDomainSearchList($0, &list) } ?? SecKeychainCopySearchList(&list)
        guard status == errSecSuccess else {
            _ = ToolOutput.fail(
                domain.map { "SecKeychainCopyDomainSearchList \($0)" } ?? "SecKeychainCopySearchList", status)
            return 1
        }
        let paths = ((list as? [AnyObject]) ?? []).compactMap { $0 as? SecKeychain }.map(KeychainOperand.path(of:))
        printPaths(paths, json: options.json, key: "keychains")
        return 0
    }

    static func defaultOrLogin(_ arguments: [String], login: Bool) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "d", flags: "s") else { return 2 }
        let (domain, ok) = parseDomain(options)
        guard ok else { return 2 }
        if options.flags.contains("s") {
            guard options.operands.count <= 1 else { return 2 }
            let keychain = options.operands.first.flatMap(KeychainOperand.open)
            let status: OSStatus
            let call: String
            if login {
                (status, call) = (SecKeychainSetLogin(keychain), "SecKeychainSetLogin")
            } else {
                let target = domain ?? .user
                (status, call) = (
                    SecKeychainSetDomainDefault(target, keychain), "SecKeychainSetDomainDefault \(target)"
                )
            }
            guard status == errSecSuccess else {
                _ = ToolOutput.fail(call, status)
                return 1
            }
            return 0
        }
        guard options.operands.isEmpty else { return 2 }
        var keychain: SecKeychain?
        let status: OSStatus
        if login {
            status = SecKeychainCopyLogin(&keychain)
        } else if let domain {
            status = SecKeychainCopyDomainDefault(domain, &keychain)
        } else {
            status = SecKeychainCopyDefault(&keychain)
        }
        guard status == errSecSuccess, let keychain else {
            _ = ToolOutput.fail(login ? "SecKeychainCopyLogin" : "SecKeychainCopyDefault", status)
            return 1
        }
        printPaths([KeychainOperand.path(of: keychain)], json: options.json, key: "keychain")
        return 0
    }

    // MARK: lock-keychain, unlock-keychain

    static let lockCommand = ToolCommand(
        name: "lock-keychain",
        usage: """
            [-a | keychain]
                 -a Lock all keychains.
            """,
        help: "Lock the specified keychain.", run: lock)

    static func lock(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "", flags: "a") else { return 2 }
        guard !options.hasExtraOperands(beyond: 1), !(options.flags.contains("a") && !options.operands.isEmpty) else {
            return 2
        }
        if options.flags.contains("a") {
            let status = SecKeychainLockAll()
            return status == errSecSuccess ? 0 : ToolOutput.fail("SecKeychainLockAll", status)
        }
        let name = options.operands.first
        guard let keychain = KeychainOperand.existing(optional: name, call: "SecKeychainLock") else {
            return KeychainOperand.missingStatus
        }
        let status = SecKeychainLock(keychain)
        return status == errSecSuccess ? 0 : ToolOutput.fail("SecKeychainLock \(name ?? "<NULL>")", status)
    }

    static let unlockCommand = ToolCommand(
        name: "unlock-keychain",
        usage: """
            [-u] [-p password] [keychain]
                 -p Use "password" as the password to unlock the keychain.
                 -u Do not use the password.
            Without -p the password is read without echo from the terminal, or from standard input when it is not a
            terminal. The keychain stays unlocked for the user's commands until lock-keychain, its timeout
            (set-keychain-settings -t) or logout.
            """,
        help: "Unlock the specified keychain.", run: unlock)

    static func unlock(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "p", flags: "u") else { return 2 }
        guard !options.hasExtraOperands(beyond: 1) else { return 2 }
        let name = options.operands.first
        if name == "" { return 2 }
        guard let keychain = KeychainOperand.existing(optional: name, call: "SecKeychainUnlock") else {
            return KeychainOperand.missingStatus
        }
        let label = name ?? "<NULL>"
        if options.flags.contains("u") {
            // No password: succeeds only when the keychain is already unlocked (no dialog exists here).
            var status: SecKeychainStatus = 0
            let result = SecKeychainGetStatus(keychain, &status)
            guard result == errSecSuccess else { return ToolOutput.fail("SecKeychainUnlock \(label)", result) }
            if status & kSecUnlockStateStatus != 0 { return 0 }
            return ToolOutput.fail("SecKeychainUnlock \(label)", errSecInteractionNotAllowed)
        }
        var password = options.values["p"]
        if password == nil {
            switch Prompt.secret("password to unlock \(name ?? "default"): ") {
            case .secret(let typed): password = typed
            case .endOfInput: return ToolOutput.fail("SecKeychainUnlock \(label)", errSecUserCanceled)
            case .failed(let why):
                ToolOutput.error("unlock-keychain: \(why)")
                return 1
            }
        }
        let secret = password ?? ""
        let status = SecKeychainUnlock(keychain, UInt32(secret.utf8.count), secret, true)
        guard status == errSecSuccess else { return ToolOutput.fail("SecKeychainUnlock \(label)", status) }
        return AgentControl.share(keychain, reportingTo: label) ? 0 : ToolOutput.exitCode(errSecNotAvailable)
    }

    // MARK: set-keychain-settings, show-keychain-info

    static let setSettingsCommand = ToolCommand(
        name: "set-keychain-settings",
        usage: """
            [-lu] [-t timeout] [keychain]
                 -l  Lock keychain when the system sleeps.
                 -u  Lock keychain after timeout interval.
                 -t  Timeout in seconds (omitting this option specifies "no timeout").
            """,
        help: "Set settings for a keychain.", run: setSettings)

    static func setSettings(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "t", flags: "lu") else { return 2 }
        guard !options.hasExtraOperands(beyond: 1) else { return 2 }
        var interval = UInt32(Int32.max)
        if let value = options.values["t"] {
            guard let seconds = UInt32(value), seconds <= UInt32(Int32.max) else {
                return ToolOutput.usage("set-keychain-settings: -t needs a number of seconds")
            }
            interval = seconds
        }
        let name = options.operands.first
        guard let keychain = KeychainOperand.existing(optional: name, call: "SecKeychainSetSettings") else {
            return KeychainOperand.missingStatus
        }
        var settings = SecKeychainSettings(
            version: UInt32(SEC_KEYCHAIN_SETTINGS_VERS1), lockOnSleep: DarwinBoolean(options.flags.contains("l")),
            useLockInterval: DarwinBoolean(options.flags.contains("u")), lockInterval: interval)
        let status = SecKeychainSetSettings(keychain, &settings)
        return status == errSecSuccess ? 0 : ToolOutput.fail("SecKeychainSetSettings \(name ?? "<NULL>")", status)
    }

    static let showInfoCommand = ToolCommand(
        name: "show-keychain-info", usage: "[keychain] [--json]", help: "Show the settings for keychain.",
        run: showInfo)

    /// `Keychain "<name as given>"[ lock-on-sleep][ use-lock-interval] timeout=<n>s` (or ` no-timeout`) on
    /// standard error, as macOS prints it.
    static func showInfo(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "", flags: "", jsonLetter: "j") else { return 2 }
        guard !options.hasExtraOperands(beyond: 1) else { return 2 }
        let name = options.operands.first
        if name == "" { return 2 }
        guard let keychain = KeychainOperand.existing(optional: name, call: "SecKeychainCopySettings") else {
            return KeychainOperand.missingStatus
        }
        var settings = SecKeychainSettings()
        settings.version = UInt32(SEC_KEYCHAIN_SETTINGS_VERS1)
        let status = SecKeychainCopySettings(keychain, &settings)
        guard status == errSecSuccess else {
            return ToolOutput.fail("SecKeychainCopySettings \(name ?? "<NULL>")", status)
        }
        let noTimeout = settings.lockInterval == UInt32(Int32.max)
        if options.json {
            var lockState: SecKeychainStatus = 0
            _ = SecKeychainGetStatus(keychain, &lockState)
            JSONOutput.print([
                "keychain": name as Any,
                "path": keychain.map(KeychainOperand.path(of:)) ?? KeychainOperand.defaultKeychainPath(),
                "lockOnSleep": settings.lockOnSleep.boolValue, "useLockInterval": settings.useLockInterval.boolValue,
                "timeout": noTimeout ? nil : Int(settings.lockInterval) as Any?,
                "unlocked": lockState & kSecUnlockStateStatus != 0,
            ])
            return 0
        }
        var line = "Keychain \"\(name ?? "<NULL>")\""
        if settings.lockOnSleep.boolValue { line += " lock-on-sleep" }
        if settings.useLockInterval.boolValue { line += " use-lock-interval" }
        line += noTimeout ? " no-timeout" : " timeout=\(settings.lockInterval)s"
        ToolOutput.standardError(line)
        return 0
    }

    // MARK: set-keychain-password

    static let setPasswordCommand = ToolCommand(
        name: "set-keychain-password",
        usage: """
            [-o oldPassword] [-p newPassword] [keychain]
                 -o  Old keychain password (if not provided, will prompt).
                 -p  New keychain password (if not provided, will prompt).
            """,
        help: "Set password for a keychain.", run: setPassword)

    static func setPassword(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "op", flags: "") else { return 2 }
        guard !options.hasExtraOperands(beyond: 1) else { return 2 }
        let name = options.operands.first
        guard let keychain = KeychainOperand.existing(optional: name, call: "SecKeychainChangePassword") else {
            return KeychainOperand.missingStatus
        }
        func ask(_ prompt: String, retype: String? = nil) -> String? {
            switch Prompt.secret(prompt, retype: retype) {
            case .secret(let typed): return typed
            case .endOfInput: return nil
            case .failed(let why):
                ToolOutput.error("set-keychain-password: \(why)")
                return nil
            }
        }
        guard let old = options.values["o"] ?? ask("Old Password: "),
            let new = options.values["p"] ?? ask("New Password: ", retype: "Retype New Password: ")
        else { return ToolOutput.exitCode(errSecUserCanceled) }
        let status = SecKeychainChangePassword(keychain, old, new)
        return status == errSecSuccess ? 0 : ToolOutput.fail("SecKeychainChangePassword \(name ?? "<NULL>")", status)
    }

    // MARK: dump-keychain

    static let dumpCommand = ToolCommand(
        name: "dump-keychain",
        usage: """
            [-adir] [keychain...] [--json]
                 -a  Dump access control lists of items (there are none on Linux).
                 -d  Dump data of items.
                 -i  Interactive access control list editing mode (not available).
                 -r  Dump the raw data of items (hexadecimal).
            """,
        help: "Dump the contents of one or more keychains.", run: dump)

    static func dump(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "", flags: "adir", jsonLetter: "j") else {
            return 2
        }
        let withData = options.flags.contains("d") || options.flags.contains("r")
        var result: Int32 = 0
        var documents: [[String: Any]] = []
        for (keychain, path) in KeychainOperand.keychains(options.operands) {
            for kind in ItemKind.allCases {
                for item in KeychainItems.all(kind, in: keychain) {
                    var data: Data?
                    if withData && kind != .certificate {
                        switch KeychainItems.secret(of: item, kind: kind, in: keychain) {
                        case .success(let bytes): data = bytes
                        case .failure(let error): result = ToolOutput.fail("SecKeychainItemCopyContent", error.status)
                        }
                    }
                    if options.json {
                        var document = ItemPrinter.json(item, kind: kind, keychainPath: path)
                        if let data { document["data"] = data }
                        documents.append(document)
                        continue
                    }
                    print(ItemPrinter.describe(item, kind: kind, keychainPath: path), terminator: "")
                    if let data {
                        print(
                            options.flags.contains("r")
                                ? "raw data:\n0x\(ItemPrinter.hex(data))" : "data:\n\(ItemPrinter.blob(data))")
                    }
                }
            }
        }
        if options.json { JSONOutput.print(["items": documents]) }
        return result
    }
}

/// Reading items of a keychain for listings.
enum KeychainItems {
    /// Every item of a class in `keychain` (attributes with the persistent reference; works while locked).
    static func all(_ kind: ItemKind, in keychain: SecKeychain) -> [[String: Any]] {
        let query: [String: Any] = [
            kSecClass as String: kind.itemClass, kSecReturnAttributes as String: true,
            kSecReturnPersistentRef as String: true, kSecMatchLimit as String: kSecMatchLimitAll,
            kSecUseKeychain as String: keychain,
        ]
        var result: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return [] }
        return (result as? [[String: Any]]) ?? []
    }

    /// The secret (password or key bytes) of an item found by ``all(_:in:)``.
    static func secret(of item: [String: Any], kind: ItemKind, in keychain: SecKeychain) -> Result<Data, OSStatusError>
    {
        guard let reference = item[kSecValuePersistentRef as String] as? Data else {
            return .failure(OSStatusError(errSecItemNotFound))
        }
        let query: [String: Any] = [
            kSecClass as String: kind.itemClass, kSecValuePersistentRef as String: reference,
            kSecReturnData as String: true, kSecUseKeychain as String: keychain,
        ]
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        guard status == errSecSuccess, let data = result as? Data else {
            return .failure(OSStatusError(status == errSecSuccess ? errSecInternal : status))
        }
        return .success(data)
    }
}

/// An OSStatus as an error value.
struct OSStatusError: Error {
    let status: OSStatus
    init(_ status: OSStatus) { self.status = status }
}

/// Starting the keychain agent for the commands that unlock, and handing it the keys.
enum AgentControl {
    /// Times the keys are offered to the agent: an agent that has been idle may exit just after it answered the
    /// start-up check, and then the second attempt starts a new one.
    static let shareAttempts = 2

    /// Hands an unlocked keychain to the agent for the user's later processes, starting the agent (this executable
    /// as `security keychain-agent`) when none answers. On failure reports why (naming `keychain` when given) and
    /// returns `false`; the keychain then stays unlocked for this command only.
    @discardableResult
    static func share(_ keychain: SecKeychain?, reportingTo label: String? = nil) -> Bool {
        var why = "the keychain agent did not take the keys"
        for _ in 0..<shareAttempts {
            guard let executable = SystemProcess.executablePath() else {
                why = "cannot find the security executable to start the keychain agent"
                break
            }
            do {
                _ = try KeychainAgentClient.start(executable: executable, arguments: ["keychain-agent"])
            } catch {
                why = "\(error)"
                break
            }
            let status = SecKeychainAgentBridge.publish(keychain)
            if status == errSecSuccess { return true }
            // A locked keychain (it cannot happen after an unlock) is not worth a retry.
            if status == errSecInteractionNotAllowed { break }
        }
        let subject = label.map { "SecKeychainUnlock \($0): " } ?? ""
        ToolOutput.error("\(subject)the keychain is unlocked for this command only: \(why)")
        return false
    }
}
