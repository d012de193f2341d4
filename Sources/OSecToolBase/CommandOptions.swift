#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// getopt-style parsing of one command's arguments: `-x value` options, `-x` flags and operands, as macOS's
/// `security` reads them (BSD getopt), with two additions: options may also follow operands
/// (`import file -k kc`), and `--json` selects JSON output on the listing commands. One parser for the `security`
/// tool and its front end, so both read a command line the same way.
package struct CommandOptions: Sendable {
    /// The last value of each valued option.
    package var values: [Character: String] = [:]
    /// Every value of each valued option, in order (`-c a -c b`).
    package var allValues: [Character: [String]] = [:]
    package var flags: Set<Character> = []
    /// How often each flag was given (`-v -v`).
    package var flagCounts: [Character: Int] = [:]
    package var operands: [String] = []
    /// Valued options given last without their value (`-w` at the end means "prompt for it").
    package var valueMissing: Set<Character> = []
    /// `--json` (or its short form, for commands where macOS gives the letter no meaning).
    package var json = false

    /// Why the arguments are not acceptable; the command then prints its usage and exits with 2.
    package struct UsageError: Error {
        /// What to print before the usage (`nil`: just the usage, as for `-h`).
        package let message: String?

        package init(message: String?) { self.message = message }
    }

    /// Parses a command's arguments (after the command name) into options and operands (`--` ends the options).
    ///
    /// - Parameters:
    ///   - arguments: the command's arguments.
    ///   - valued: option letters that take a value.
    ///   - allowedFlags: option letters that take no value.
    ///   - promptable: valued options that may end the command line without a value.
    ///   - jsonLetter: the short form of `--json` for this command, if it has one.
    package init(
        _ arguments: [String], valued: String, flags allowedFlags: String, promptable: String = "",
        jsonLetter: Character? = nil
    ) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                operands += arguments[(index + 1)...]
                break
            }
            if argument == "--json" {
                json = true
                index += 1
                continue
            }
            guard argument.hasPrefix("-"), argument.count >= 2, !argument.hasPrefix("--") else {
                operands.append(argument)
                index += 1
                continue
            }
            var letters = Array(argument.dropFirst())
            while !letters.isEmpty {
                let letter = letters.removeFirst()
                if valued.contains(letter) {
                    let value: String
                    if !letters.isEmpty {
                        value = String(letters)
                        letters = []
                    } else if index + 1 < arguments.count {
                        index += 1
                        value = arguments[index]
                    } else if promptable.contains(letter) {
                        valueMissing.insert(letter)
                        continue
                    } else {
                        throw UsageError(message: "option requires an argument -- \(letter)")
                    }
                    values[letter] = value
                    allValues[letter, default: []].append(value)
                } else if allowedFlags.contains(letter) {
                    flags.insert(letter)
                    flagCounts[letter, default: 0] += 1
                } else if letter == jsonLetter {
                    json = true
                } else if letter == "h" {
                    throw UsageError(message: nil)
                } else {
                    throw UsageError(message: "illegal option -- \(letter)")
                }
            }
            index += 1
        }
    }
}
