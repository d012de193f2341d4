#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Process facts the keychain's sync needs: whether a process that claimed work is still alive, and the host name.
package enum POSIXProcesses {
    /// This process's id.
    package static var currentID: Int64 { Int64(getpid()) }

    /// `true` when a process with `pid` exists (it may belong to another user: `EPERM` still means it exists).
    package static func isAlive(_ pid: Int64) -> Bool {
        guard let id = Int32(exactly: pid), id > 0 else { return false }
        if kill(id, 0) == 0 { return true }
        return errno == EPERM
    }

    /// The host name (`gethostname`), or `"localhost"` when it cannot be read.
    package static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `true` when standard input is a terminal.
    package static var standardInputIsTerminal: Bool { isatty(0) == 1 }

    /// Reads one line from the terminal on standard input without echoing it (the passphrase prompt), after
    /// writing `prompt` to standard error. Echo is restored afterwards, also when reading fails.
    package static func readLineWithoutEcho(prompt: String) -> String? {
        POSIXFiles.writeAll(prompt.utf8, to: 2)
        var saved = termios()
        let haveTerminal = tcgetattr(0, &saved) == 0
        if haveTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(0, TCSAFLUSH, &quiet)
        }
        defer {
            if haveTerminal {
                _ = tcsetattr(0, TCSAFLUSH, &saved)
                POSIXFiles.writeAll("\n".utf8, to: 2)
            }
        }
        return readLine(strippingNewline: true)
    }
}
