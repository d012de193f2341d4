import OSecSystem
import OSecToolBase

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the front end answers itself, and how it hands the rest to the full tool.
enum FrontEnd {
    /// The full tool's file name: next to the front end in a build tree, in `libexec/opensecurity/` when installed.
    static let fullToolName = "security-tool"

    /// The standard output of the command line `arguments` (without the program name) when it is one the front
    /// end answers and the plain success case; nil when the full tool must run.
    ///
    /// A `find-*-password -w` is answered only by the keychain agent (``PasswordRead/ask(_:)``): the front end opens
    /// no keychain itself. With no agent running the full tool reads the keychain, and starts the agent for the
    /// next process.
    static func answer(_ arguments: [String]) -> String? {
        guard let command = arguments.first else { return nil }
        let rest = Array(arguments.dropFirst())
        if command == "--version" || command == "version" {
            return rest.isEmpty ? Release.versionLine + "\n" : nil
        }
        guard let kind = PasswordRead.Kind(findCommand: command),
            let request = PasswordRead.request(kind, arguments: rest),
            case .answered(let secret) = PasswordRead.ask(request)
        else { return nil }
        return PasswordText.forStandardOutput(secret) + "\n"
    }

    /// Writes `text` to standard output, whole.
    static func write(_ text: String) {
        POSIXFiles.writeAll(text.utf8, to: 1)
    }

    /// Replaces this process with the full tool, passing `arguments` (the program name included) unchanged.
    /// Returns never: when the full tool cannot be found or started, a message and exit status 1.
    static func runFullTool(_ arguments: [String]) -> Never {
        let candidates = fullToolCandidates()
        for path in candidates where FileManager.default.isExecutableFile(atPath: path) {
            let error = SystemProcess.replaceProcess(with: path, arguments: arguments)
            POSIXFiles.writeAll("security: cannot run the full tool: \(error)\n".utf8, to: 2)
            SystemProcess.exit(1)
        }
        let looked = candidates.isEmpty ? "(the front end's own path is unknown)" : candidates.joined(separator: ", ")
        POSIXFiles.writeAll("security: the full tool \(fullToolName) is missing (looked for \(looked))\n".utf8, to: 2)
        SystemProcess.exit(1)
    }

    /// Where the full tool may be: next to this executable, then in `../libexec/opensecurity/`.
    static func fullToolCandidates() -> [String] {
        guard let executable = SystemProcess.executablePath() else { return [] }
        let directory = POSIXFiles.parentDirectory(of: executable)
        let prefix = POSIXFiles.parentDirectory(of: directory)
        return [
            directory + "/" + fullToolName,
            (prefix == "/" ? "" : prefix) + "/libexec/opensecurity/" + fullToolName,
        ]
    }
}
