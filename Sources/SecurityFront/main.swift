import OSecSystem
import OSecToolBase

// `security`: the front end of OpenSecurity's command-line tool.
//
// It answers the commands scripts run most — `find-generic-password -w`, `find-internet-password -w` (through the
// keychain agent, which keeps the keychains open), `--version` — itself, linked with FoundationEssentials and the
// agent's client alone (no libcrypto, no SQLite), so that such a process starts about as fast as `openssl version`
// (docs/security-tool.md, "Start-up cost"). Everything else, and every case that is not the plain success case
// (an option it does not take, no agent, no match, a locked keychain, any error), it hands to the full tool
// (`security-tool`) by replacing itself with it: same arguments, environment and standard streams, so every
// message, prompt and exit status is the full tool's.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

let arguments = CommandLine.arguments
if let answer = FrontEnd.answer(Array(arguments.dropFirst())) {
    FrontEnd.write(answer)
    SystemProcess.exit(0)
}
FrontEnd.runFullTool(arguments)
