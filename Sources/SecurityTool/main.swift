// `security`: OpenSecurity's command-line tool, modelled on macOS security(1).
import Foundation
import OSecSystem
import OSecToolCore
import Security

// One-shot commands leave syncing to `sync-now` / `sync-agent` (their changes wait in the outbox).
OpenSecuritySync.isBackgroundSyncEnabled = false
let arguments = Array(CommandLine.arguments.dropFirst())
// The plain `find-*-password -w` success, read on the keychain store without the facade; this process then starts
// the keychain agent, which answers the front end's next reads (docs/security-tool.md, "Start-up cost").
if let answer = PasswordLookup.answer(arguments) {
    POSIXFiles.writeAll(answer.utf8, to: 1)
    exit(0)
}
exit(SecurityCommand.run(arguments))
