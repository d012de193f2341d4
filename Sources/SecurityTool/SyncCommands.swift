import Foundation
import OSecToolBase
import Security

/// `sync-join`, `sync-leave`, `sync-status`, `sync-now` and `sync-agent`: the keychain's sync circle (see
/// `OpenSecuritySync`). The passphrase is never taken from the command line: it is prompted for without echo
/// on a terminal, read as one line from standard input otherwise, or taken from
/// `OPENSECURITY_SYNC_PASSPHRASE_FILE`.
enum SyncCommands {
    static let joinCommand = ToolCommand(
        name: "sync-join", usage: "-u URL -c circle [keychain]", help: "Join (or create) a sync circle.", run: join)

    static let leaveCommand = keychainCommand("sync-leave", help: "Leave the keychain's sync circle.") {
        try OpenSecuritySync.leave(keychain: $0)
    }

    static let statusCommand = ToolCommand(
        name: "sync-status", usage: "[-j | --json] [keychain]",
        help: "Show the circle, members, pending changes and conflicts.", run: status)

    static let nowCommand = keychainCommand("sync-now", help: "Push and pull every change now.") {
        try OpenSecuritySync.syncNow(keychain: $0)
    }

    static let agentCommand = keychainCommand(
        "sync-agent", help: "Keep a keychain in sync with its circle (runs until stopped)."
    ) {
        try OpenSecuritySync.runAgent(keychain: $0)
    }

    /// A command `name [keychain]` that runs `action` on the keychain operand (nil: the default keychain).
    private static func keychainCommand(
        _ name: String, help: String, _ action: @escaping @Sendable (SecKeychain?) throws -> Void
    ) -> ToolCommand {
        ToolCommand(name: name, usage: "[keychain]", help: help) { arguments in
            guard let options = parse(arguments) else { return 2 }
            do { try action(keychain(options)) } catch { return fail(name, error) }
            return 0
        }
    }

    /// The options of a sync command, whose only operand is an optional keychain.
    private static func parse(
        _ arguments: [String], valued: String = "", jsonLetter: Character? = nil
    )
        -> CommandOptions?
    {
        guard let options = CommandOptions.parse(arguments, valued: valued, flags: "", jsonLetter: jsonLetter),
            options.operands.count <= 1
        else { return nil }
        return options
    }

    static func join(_ arguments: [String]) -> Int32 {
        guard let options = parse(arguments, valued: "uc") else { return 2 }
        guard let url = options.values["u"], let circle = options.values["c"] else {
            return ToolOutput.usage("sync-join: -u URL and -c circle are required")
        }
        guard let passphrase = readPassphrase() else {
            ToolOutput.error("sync-join: no passphrase given")
            return ToolOutput.exitCode(errSecParam)
        }
        do {
            try OpenSecuritySync.join(
                url: url, circle: circle, passphrase: passphrase, keychain: keychain(options, create: true))
        } catch {
            return fail("sync-join", error)
        }
        return 0
    }

    static func status(_ arguments: [String]) -> Int32 {
        guard let options = parse(arguments, jsonLetter: "j") else { return 2 }
        let status: OpenSecuritySync.Status
        do { status = try OpenSecuritySync.status(keychain: keychain(options)) } catch {
            return fail("sync-status", error)
        }
        if options.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            guard let data = try? encoder.encode(status) else { return ToolOutput.exitCode(errSecInternal) }
            print(String(decoding: data, as: UTF8.self))
            return 0
        }
        let format = ISO8601DateFormatter()
        print("circle: \"\(status.circle)\" (\(status.circleID)) on \(status.url)")
        print("member: \(status.member)\(status.serverReachable ? "" : " (server unreachable)")")
        print("members: \(status.members.count)")
        for member in status.members {
            let me = member.id == status.member ? " (this keychain)" : ""
            print("    \(member.id) \"\(member.hostName)\" last seen \(format.string(from: member.lastSeen))\(me)")
        }
        print("last push: \(status.lastPush.map(format.string(from:)) ?? "never")")
        print("last pull: \(status.lastPull.map(format.string(from:)) ?? "never")")
        print("pending changes: \(status.pendingChanges)")
        print("items: \(status.items), tombstones: \(status.tombstones)")
        print("conflicts resolved: \(status.conflicts.count)")
        for conflict in status.conflicts {
            print(
                "    \(conflict.itemID) at \(format.string(from: conflict.resolved)): winner \(conflict.winner), "
                    + "loser \(conflict.loser) (modified \(format.string(from: conflict.loserModified)))")
        }
        return 0
    }

    // MARK: Helpers

    /// The circle passphrase: the whole passphrase file when `OPENSECURITY_SYNC_PASSPHRASE_FILE` is set, else a
    /// prompt without echo on a terminal, else one line of standard input (newline stripped).
    static func readPassphrase() -> Data? {
        if let file = ProcessInfo.processInfo.environment["OPENSECURITY_SYNC_PASSPHRASE_FILE"], !file.isEmpty {
            return (try? Data(contentsOf: URL(fileURLWithPath: file))).flatMap { $0.isEmpty ? nil : $0 }
        }
        guard case .secret(let line) = Prompt.secret("passphrase for the sync circle: "), !line.isEmpty else {
            return nil
        }
        return Data(line.utf8)
    }

    private static func keychain(_ options: CommandOptions, create: Bool = false) -> SecKeychain? {
        guard let operand = options.operands.first else { return nil }
        return KeychainOperand.open(operand)
    }

    private static func fail(_ command: String, _ error: Error) -> Int32 {
        let nsError = error as NSError
        let status = OSStatus(truncatingIfNeeded: nsError.code)
        var message = nsError.localizedDescription
        if status == errSecAuthFailed { message = "The passphrase is not correct: " + message }
        ToolOutput.error("\(command): \(message)")
        return ToolOutput.exitCode(status == 0 ? errSecInternal : status)
    }
}
