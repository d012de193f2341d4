import OSecSystem
import OSecToolCore

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
    static func answer(_ arguments: [String]) -> String? {
        guard let command = arguments.first else { return nil }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "--version" where rest.isEmpty, "version" where rest.isEmpty:
            return Release.versionLine + "\n"
        case PasswordLookup.Kind.generic.findCommand:
            return PasswordLookup.password(.generic, arguments: rest, startAgent: startAgent).map {
                PasswordText.forStandardOutput($0) + "\n"
            }
        case PasswordLookup.Kind.internet.findCommand:
            return PasswordLookup.password(.internet, arguments: rest, startAgent: startAgent).map {
                PasswordText.forStandardOutput($0) + "\n"
            }
        default:
            return nil
        }
    }

    /// Starts the keychain agent (`security-tool keychain-agent`, detached, not waited for), which answers the
    /// user's next password reads (``AgentPasswordReads``) until it has had none for ten minutes. Called after a
    /// read found no agent running; a failure to start it changes nothing but the next read's speed.
    static func startAgent() {
        guard let tool = fullToolCandidates().first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { return }
        _ = try? SystemProcess.spawnDetached(tool, arguments: ["keychain-agent"])
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
