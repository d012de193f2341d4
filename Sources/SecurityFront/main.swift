import OSecCrypto
import OSecSystem
import OSecToolCore

// `security`: the front end of OpenSecurity's command-line tool.
//
// It answers the commands scripts run most — `find-generic-password -w`, `find-internet-password -w`,
// `--version` — itself, on FoundationEssentials and the keychain store alone, so that such a process starts about
// as fast as `openssl version` (docs/security-tool.md, "Start-up cost"). Everything else, and every case that is
// not the plain success case (an option it does not take, no match, a locked keychain, any error), it hands to
// the full tool (`security-tool`) by replacing itself with it: same arguments, environment and standard streams,
// so every message, prompt and exit status is the full tool's.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Before anything uses OpenSSL: the keychain's AES-GCM is fetched by its provider name, so the front end does not
// pay for copying libcrypto's legacy name tables into the name map (a sixth of its instructions).
OpenSSLStartup.withoutLegacyNameTables()
let arguments = CommandLine.arguments
if let answer = FrontEnd.answer(Array(arguments.dropFirst())) {
    FrontEnd.write(answer)
    SystemProcess.exit(0)
}
FrontEnd.runFullTool(arguments)
