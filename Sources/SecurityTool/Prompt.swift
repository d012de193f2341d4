import Foundation
import OSecSystem

/// Secrets asked of the user: on the terminal without echo (as macOS's `security` does with `getpass`), or one line
/// of standard input when standard input is not a terminal (scripts pipe secrets in: nothing shows up in `ps`).
///
/// Secrets given as option values (`-p`, `-w`, `-P`) are on the command line, where every user of the machine can
/// read them (`ps`, `/proc/<pid>/cmdline`); see docs/security-tool.md.
enum Prompt {
    /// Whether standard input is a terminal.
    static var standardInputIsTerminal: Bool { Terminal.standardInputIsTerminal }

    /// The outcome of asking.
    enum Answer {
        case secret(String)
        /// End of input before anything was typed.
        case endOfInput
        /// The terminal could not be used, or the entries did not match.
        case failed(String)
    }

    /// Asks once (`retype`: on a terminal, ask again and require the same answer, up to three times).
    static func secret(_ prompt: String, retype: String? = nil) -> Answer {
        let tries = retype != nil && Terminal.standardInputIsTerminal ? 3 : 1
        for _ in 0..<tries {
            let first: [UInt8]
            switch read(prompt) {
            case .line(let line): first = line
            case .stop(let answer): return answer
            }
            guard let retype, Terminal.standardInputIsTerminal else {
                return .secret(String(decoding: first, as: UTF8.self))
            }
            let second: [UInt8]
            switch read(retype) {
            case .line(let line): second = line
            case .stop(let answer): return answer
            }
            if first == second { return .secret(String(decoding: first, as: UTF8.self)) }
            FileHandle.standardError.write(Data("passwords don't match\n".utf8))
        }
        return .failed("passwords don't match")
    }

    /// What one read gives: the line typed, or the answer that ends the asking.
    private enum Reading {
        case line([UInt8])
        case stop(Answer)
    }

    /// One line read after `prompt` (end of input and an unusable terminal end the asking).
    private static func read(_ prompt: String) -> Reading {
        do {
            guard let line = try Terminal.readSecret(prompt: prompt) else { return .stop(.endOfInput) }
            return .line(line)
        } catch {
            return .stop(.failed("\(error)"))
        }
    }
}
