import Foundation

/// What a command's table entry says about it, read from its `usage` text (the same text `security help <command>`
/// prints): the synopsis lines, and the options with their descriptions. The man page and the shell completions are
/// generated from this, so they cannot drift from the command table.
///
/// A usage text is synopsis lines (`[-a account] [-s service] … [keychain]`), then optionally option lines, each
/// an indented option and its description separated by two spaces (`    -a  Specify account name`), and indented
/// continuation or closing lines.
struct CommandDocumentation {
    /// One option of a command.
    struct Option: Equatable {
        /// `-a` or `--json`.
        let flag: String
        /// What the option's own line says (empty when only the synopsis names it).
        var description: String
        /// The value the synopsis gives it (`account` for `-a account`), nil for a flag.
        var value: String?
    }

    let name: String
    let help: String
    /// The synopsis: the usage text's lines before the first option line (joined by one space).
    let synopsis: String
    /// Every option the usage text names, in order of first mention (synopsis first).
    let options: [Option]
    /// The lines after the option list that describe no option (notes such as a warning).
    let notes: [String]

    init(_ command: ToolCommand) {
        name = command.name
        help = command.help
        var synopsisLines: [String] = []
        var described: [OptionLine] = []
        var notes: [String] = []
        var inOptions = false
        for line in command.usage.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) {
            if let entry = CommandDocumentation.optionLine(line) {
                inOptions = true
                described.append(entry)
            } else if inOptions, line.hasPrefix("    "), var last = described.popLast() {
                last.text += " " + line.trimmingCharacters(in: .whitespaces)
                described.append(last)
            } else if inOptions {
                notes.append(line.trimmingCharacters(in: .whitespaces))
            } else {
                synopsisLines.append(line.trimmingCharacters(in: .whitespaces))
            }
        }
        synopsis = synopsisLines.joined(separator: " ")
        var options: [Option] = []
        for (flag, value) in CommandDocumentation.synopsisOptions(synopsis)
        where !options.contains(where: {
            $0.flag == flag
        }) {
            options.append(Option(flag: flag, description: "", value: value))
        }
        for line in described {
            for flag in line.flags {
                if let index = options.firstIndex(where: { $0.flag == flag }) {
                    options[index].description = line.text
                    if options[index].value == nil { options[index].value = line.value }
                } else {
                    options.append(Option(flag: flag, description: line.text, value: line.value))
                }
            }
        }
        self.options = options
        self.notes = notes
    }

    /// An option line of a usage text: its options (`-n, -N` names two), the value it shows and the description.
    struct OptionLine {
        var flags: [String]
        var value: String?
        var text: String
    }

    /// Reads an option line: indentation, one or more options separated by `, ` (`-n, -N`), maybe one space and a
    /// value word followed by two or more spaces (`-c certFile     Certificate…`), then the description after
    /// whitespace (`-a  Specify…`, `-p Use "password"…`).
    static func optionLine(_ line: String) -> OptionLine? {
        guard line.hasPrefix(" ") else { return nil }
        var rest = Substring(line.drop { $0 == " " })
        var flags: [String] = []
        while true {
            let word = rest.prefix { $0 != " " && $0 != "," }
            guard isFlag(String(word)) else { break }
            flags.append(String(word))
            rest = rest.dropFirst(word.count)
            guard rest.hasPrefix(", ") else { break }
            rest = rest.dropFirst(2)
        }
        guard !flags.isEmpty, rest.hasPrefix(" ") else { return nil }
        var value: String?
        let afterSpace = rest.dropFirst()
        if !afterSpace.hasPrefix(" ") {
            let word = afterSpace.prefix { $0 != " " }
            if afterSpace.dropFirst(word.count).hasPrefix("  ") {
                value = String(word)
                rest = afterSpace.dropFirst(word.count)
            }
        }
        let text = rest.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        return OptionLine(flags: flags, value: value, text: text)
    }

    /// `-x` (one letter or digit) or `--word`.
    static func isFlag(_ word: String) -> Bool {
        let characters = Array(word)
        if characters.count == 2, characters[0] == "-" {
            return characters[1].isLetter || characters[1].isNumber
        }
        guard word.hasPrefix("--"), characters.count > 2, characters[2].isLetter else { return false }
        return characters.dropFirst(2).allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
    }

    /// The options a synopsis names, with the value word that directly follows an option (`[-a account]`,
    /// `-u URL`, `[-A|-T appPath]`: `-T` takes `appPath`, `-A` none; `[-l | -s]`: neither).
    private static func synopsisOptions(_ synopsis: String) -> [(String, String?)] {
        var tokens: [String] = []
        var word = ""
        for character in synopsis {
            if character == " " || character == "[" || character == "]" || character == "|" {
                if !word.isEmpty { tokens.append(word) }
                word = ""
                if character != " " { tokens.append(String(character)) }
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { tokens.append(word) }
        var result: [(String, String?)] = []
        for (index, token) in tokens.enumerated() where isFlag(token) {
            let next = index + 1 < tokens.count ? tokens[index + 1] : ""
            let takesValue = !next.isEmpty && !["[", "]", "|"].contains(next) && !next.hasPrefix("-")
            result.append((token, takesValue ? next : nil))
        }
        return result
    }
}
