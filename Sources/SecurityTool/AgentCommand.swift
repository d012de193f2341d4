import Foundation
import OSecKeychainAgent
import OSecSystem
import OSecToolBase
import OSecToolCore

/// `security keychain-agent [-l | -s] [--json]`: the per-user keychain agent (OpenSecurity's addition; on macOS
/// securityd plays this part). Without options it runs the agent in the foreground until nothing has been unlocked
/// for a while (`unlock-keychain` starts it this way, detached, when none runs). `-l` lists the keychains it holds
/// unlocked; `-s` locks them all and stops it.
enum AgentCommand {
    static func run(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "", flags: "ls", jsonLetter: "j") else { return 2 }
        guard options.operands.isEmpty, !(options.flags.contains("l") && options.flags.contains("s")) else { return 2 }
        if options.flags.contains("l") { return list(json: options.json) }
        if options.flags.contains("s") { return stop() }
        do {
            _ = try KeychainAgentServer.run(reader: AgentPasswordReads.reader())
            return 0
        } catch {
            ToolOutput.error("keychain-agent: \(error)")
            return 1
        }
    }

    private static func list(json: Bool) -> Int32 {
        guard let client = KeychainAgentClient.current(), let info = client.ping() else {
            if json {
                JSONOutput.print(["running": false, "keychains": [Any]()])
                return 0
            }
            ToolOutput.error("keychain-agent: the keychain agent is not running")
            return 1
        }
        let entries: [AgentEntry]
        do {
            entries = try client.list()
        } catch {
            ToolOutput.error("keychain-agent: \(error)")
            return 1
        }
        if json {
            JSONOutput.print([
                "running": true, "pid": Int(info.processID), "socket": client.socketPath, "dumpable": info.isDumpable,
                "answersReads": info.answersReads, "readsAnswered": Int(info.readsAnswered),
                "keychains": entries.map { entry -> [String: Any] in
                    [
                        "path": entry.path, "secondsLeft": entry.secondsLeft.map { Int($0) } as Any,
                        "lockOnSleep": entry.lockOnSleep,
                    ]
                },
            ])
            return 0
        }
        print("keychain agent \(info.processID) on \(client.socketPath)")
        if info.answersReads { print("    answers password reads (\(info.readsAnswered) so far)") }
        for entry in entries {
            let left = entry.secondsLeft.map { "locks after \($0)s without use" } ?? "no timeout"
            print("    \"\(entry.path)\" \(left)\(entry.lockOnSleep ? ", lock-on-sleep" : "")")
        }
        return 0
    }

    private static func stop() -> Int32 {
        guard let client = KeychainAgentClient.current(), let info = client.ping() else { return 0 }
        _ = try? client.forgetAll()
        SystemProcess.send(15, to: info.processID)  // SIGTERM
        return 0
    }
}
