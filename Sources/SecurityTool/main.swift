// `security`: OpenSecurity's command-line tool, modelled on macOS security(1).
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
exit(SecurityCommand.run(arguments))
