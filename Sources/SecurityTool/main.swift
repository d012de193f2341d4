// `security`: OpenSecurity's command-line tool, modelled on macOS security(1).
import Foundation
import Security

// One-shot commands leave syncing to `sync-now` / `sync-agent` (their changes wait in the outbox).
OpenSecuritySync.isBackgroundSyncEnabled = false
let arguments = Array(CommandLine.arguments.dropFirst())
exit(SecurityCommand.run(arguments))
