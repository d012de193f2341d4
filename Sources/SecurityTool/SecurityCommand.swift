import Foundation

/// Dispatches `security <command> [options]`. Exit codes follow macOS: a failing command exits with its
/// OSStatus & 0xFF, a bad option with 2, an unknown command with 1.
enum SecurityCommand {
    static let usage = """
        Usage: security [-h] command [command-options] [command-args]
            demo     Run an end-to-end demonstration of what OpenSecurity implements.
            error    Display a descriptive message for the given error code(s).
            help     Show all commands, or show usage for a command.
        """

    static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            print(usage)
            return 0
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "demo": return Demo.run(rest)
        case "error": return ErrorCommand.run(rest)
        case "help", "-h": print(usage); return 0
        default:
            FileHandle.standardError.write(Data("security: unknown command \"\(command)\"\n".utf8))
            return 1
        }
    }
}
