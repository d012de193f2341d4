import Foundation

/// One command of the tool: its name, usage (after the name), one-line help and implementation.
struct ToolCommand: Sendable {
    let name: String
    let usage: String
    let help: String
    /// Runs the command on its arguments (without the command name); returns the exit status. Returning
    /// ``ToolOutput/usageStatus`` (2) makes the dispatcher print the command's usage on standard error.
    let run: @Sendable ([String]) -> Int32
}

/// Dispatches `security [-hilqv] [-p prompt] <command> [options]`, as macOS's `security` does: a command may be
/// abbreviated to a prefix (the first match in table order wins); a failing command exits with its OSStatus & 0xFF,
/// a usage error with 2 after `Usage: …` on standard error, an unknown command with 1, no command with 2.
enum SecurityCommand {
    /// Every command, in macOS's order (add a command with one line here).
    static let commands: [ToolCommand] = [
        ToolCommand(name: "help", usage: "[command ...]", help: "Show all commands, or show usage for a command.") {
            help($0)
        },
        KeychainCommands.listCommand, KeychainCommands.defaultCommand, KeychainCommands.loginCommand,
        KeychainCommands.createCommand, KeychainCommands.deleteCommand, KeychainCommands.lockCommand,
        KeychainCommands.unlockCommand, KeychainCommands.setSettingsCommand, KeychainCommands.setPasswordCommand,
        KeychainCommands.showInfoCommand, KeychainCommands.dumpCommand,
        KeyCommands.createKeypairCommand,
        PasswordCommands.addCommand(.internet), PasswordCommands.addCommand(.generic),
        CertificateCommands.addCertificatesCommand,
        PasswordCommands.findCommand(.internet), PasswordCommands.findCommand(.generic),
        PasswordCommands.deleteCommand(.internet), PasswordCommands.deleteCommand(.generic),
        KeyCommands.findKeyCommand,
        CertificateCommands.findCertificateCommand, CertificateCommands.findIdentityCommand,
        CertificateCommands.deleteCertificateCommand, CertificateCommands.deleteIdentityCommand,
        ExportCommand.command, ImportCommand.command,
        TrustCommands.verifyCommand, TrustCommands.addTrustedCommand, TrustCommands.removeTrustedCommand,
        TrustCommands.dumpSettingsCommand, TrustCommands.exportSettingsCommand, TrustCommands.importSettingsCommand,
        CMSCommand.command,
        ToolCommand(
            name: "error", usage: "[<error code> ...]",
            help: "Display a descriptive message for the given error code(s).", run: ErrorCommand.run),
        ToolCommand(
            name: "keychain-agent", usage: "[-l | -s] [--json]",
            help:
                "Run, list or stop the keychain agent that keeps unlocked keychains readable and answers password "
                + "reads.",
            run: AgentCommand.run),
        ToolCommand(
            name: "demo", usage: "", help: "Run an end-to-end demonstration of what OpenSecurity implements.",
            run: Demo.run),
        ToolVersion.command,
        SyncCommands.joinCommand, SyncCommands.leaveCommand, SyncCommands.statusCommand, SyncCommands.nowCommand,
        SyncCommands.agentCommand,
        SecretServiceCommand.command,
    ]

    /// The command `name` selects: an exact name, else the first command it is a prefix of.
    static func command(named name: String) -> ToolCommand? {
        guard !name.isEmpty else { return nil }
        return commands.first { $0.name == name } ?? commands.first { $0.name.hasPrefix(name) }
    }

    static let globalUsage = """
        Usage: security [-h] [-i] [-l] [-p prompt] [-q] [-v] [command] [opt ...]
            -i    Run in interactive mode.
            -l    Run /usr/bin/leaks -nocontext before exiting (accepted; does nothing here).
            -p    Set the prompt to "prompt" (implies -i).
            -q    Be less verbose.
            -v    Be more verbose about what's going on.
        security commands are:
        """

    /// The command list: `    <name padded> <help>` per command.
    static var commandList: String {
        commands.map {
            "    " + $0.name.padding(toLength: max(21, $0.name.count), withPad: " ", startingAt: 0) + " " + $0.help
        }
        .joined(separator: "\n")
    }

    nonisolated(unsafe) static var quiet = false
    nonisolated(unsafe) static var verbose = false

    static func run(_ arguments: [String]) -> Int32 {
        // Beyond macOS's tool: `--version`, and the hidden generator of the man page and completions.
        if arguments.first == "--version" { return ToolVersion.command.run([]) }
        if arguments.first == GeneratedDocs.name { return GeneratedDocs.run(Array(arguments.dropFirst())) }
        var index = 0
        var helpRequested = false
        var interactive = false
        var prompt = "security> "
        // Global options, getopt-style, up to the first operand.
        while index < arguments.count, arguments[index].hasPrefix("-"), arguments[index] != "-" {
            let argument = arguments[index]
            index += 1
            if argument == "--" { break }
            var letters = Array(argument.dropFirst())
            while !letters.isEmpty {
                let letter = letters.removeFirst()
                switch letter {
                case "h": helpRequested = true
                case "i": interactive = true
                case "l": break
                case "q": quiet = true
                case "v": verbose = true
                case "p":
                    interactive = true
                    if !letters.isEmpty {
                        prompt = String(letters)
                        letters = []
                    } else if index < arguments.count {
                        prompt = arguments[index]
                        index += 1
                    } else {
                        ToolOutput.error("option requires an argument -- p")
                        return usage()
                    }
                default:
                    ToolOutput.error("illegal option -- \(letter)")
                    return usage()
                }
            }
        }
        let rest = Array(arguments[index...])
        if helpRequested { return help(rest) }
        if !rest.isEmpty { return execute(rest) }
        if interactive { return runInteractive(prompt: prompt) }
        return usage()
    }

    /// macOS's usage: the global options and the command list, exit status 2 (on standard error here).
    static func usage() -> Int32 {
        ToolOutput.standardError(globalUsage + "\n" + commandList)
        return ToolOutput.usageStatus
    }

    /// `security help [command …]`: the command list, or each command's usage, on standard output.
    static func help(_ names: [String]) -> Int32 {
        guard !names.isEmpty else {
            print(commandList)
            return 0
        }
        for name in names {
            guard let command = command(named: name) else {
                ToolOutput.error("help: no such command: \(name)")
                return 1
            }
            print("Usage: \(command.name) \(command.usage)")
        }
        return 0
    }

    /// Runs one command line.
    static func execute(_ arguments: [String]) -> Int32 {
        guard let name = arguments.first else { return 0 }
        guard let command = command(named: name) else {
            ToolOutput.error("unknown command \"\(name)\"")
            ToolOutput.standardError(globalUsage + "\n" + commandList)
            return 1
        }
        if verbose {
            ToolOutput.standardError(
                ([command.name] + arguments.dropFirst().map { "\"\($0)\"" }).joined(separator: " "))
        }
        let status = command.run(Array(arguments.dropFirst()))
        if status == ToolOutput.usageStatus {
            ToolOutput.standardError("Usage: \(command.name) \(command.usage)\n        \(command.help)")
        }
        return status
    }

    /// `security -i`: reads command lines from standard input (quoting with `'` or `"`, `\` escapes) until end of
    /// input or `quit`; each line's failure is reported as `<command>: returned <status>`.
    static func runInteractive(prompt: String) -> Int32 {
        let showPrompt = Prompt.standardInputIsTerminal
        var result: Int32 = 0
        while true {
            if showPrompt { FileHandle.standardError.write(Data(prompt.utf8)) }
            guard let line = readLine(strippingNewline: true) else { break }
            let words = splitLine(line)
            guard let first = words.first else { continue }
            if first == "quit" || first == "exit" { return 0 }
            result = execute(words)
            if result != 0 && !quiet { ToolOutput.standardError("\(first): returned \(result)") }
        }
        return result
    }

    /// Splits an interactive line into words as macOS's `security -i` does.
    static func splitLine(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            if character == "\\" {
                escaped = true
                inWord = true
                continue
            }
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
                continue
            }
            if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character.isWhitespace {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
