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

/// Reading secrets from the user: a prompt on the controlling terminal with echo turned off (as `getpass` and
/// macOS's `security` do), or one line of standard input when standard input is not a terminal.
///
/// The terminal's settings are restored when the line is read, on end of file, and when SIGINT, SIGTERM,
/// SIGHUP, SIGQUIT or SIGTSTP arrive during the prompt (the signal then takes its default action).
package enum Terminal {
    /// Longest secret line accepted (bytes); longer input is an error rather than silently truncated.
    package static let maximumLineLength = 64 * 1024

    /// Whether `descriptor` is a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Whether standard input is a terminal.
    package static var standardInputIsTerminal: Bool { isTerminal(STDIN_FILENO) }

    /// Reads a secret line.
    ///
    /// - When standard input is a terminal: writes `prompt` to the controlling terminal (`/dev/tty`), turns echo
    ///   off, reads up to the newline, restores the terminal and writes the newline the user typed.
    /// - Otherwise: writes `prompt` to standard error and reads one line of standard input.
    ///
    /// - Returns: the bytes without the line end; `nil` at end of input (nothing typed before EOF / Ctrl-D).
    /// - Throws: `SystemError` when the terminal cannot be used or the line is longer than
    ///   ``maximumLineLength``.
    package static func readSecret(prompt: String) throws(SystemError) -> [UInt8]? {
        guard standardInputIsTerminal else {
            writeAll(STDERR_FILENO, Array(prompt.utf8))
            return try readLine(from: STDIN_FILENO)
        }
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        let descriptor = tty >= 0 ? tty : STDIN_FILENO
        defer { if tty >= 0 { close(tty) } }
        writeAll(tty >= 0 ? tty : STDERR_FILENO, Array(prompt.utf8))
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else {
            throw SystemError.current("cannot read the terminal settings")
        }
        var silent = settings
        silent.c_lflag &= ~tcflag_t(ECHO | ECHOE | ECHOK | ECHONL)
        silent.c_lflag |= tcflag_t(ICANON)
        TerminalRestore.arm(descriptor: descriptor, settings: settings)
        defer { TerminalRestore.disarm() }
        guard tcsetattr(descriptor, TCSAFLUSH, &silent) == 0 else {
            throw SystemError.current("cannot turn off terminal echo")
        }
        let line: [UInt8]?
        do {
            line = try readLine(from: descriptor)
        } catch {
            _ = tcsetattr(descriptor, TCSAFLUSH, &settings)
            throw error
        }
        _ = tcsetattr(descriptor, TCSAFLUSH, &settings)
        writeAll(tty >= 0 ? tty : STDERR_FILENO, [UInt8(ascii: "\n")])
        return line
    }

    /// One line from `descriptor`, read byte by byte (no buffering beyond the newline, so later reads of the
    /// same descriptor see the rest). `\r\n` and `\n` end a line; `nil` at end of file with nothing read.
    package static func readLine(from descriptor: Int32) throws(SystemError) -> [UInt8]? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count < 0 {
                if errno == EINTR { continue }
                wipe(&line)
                throw SystemError.current("cannot read the secret")
            }
            if count == 0 { return line.isEmpty ? nil : line }
            if byte == UInt8(ascii: "\n") { break }
            line.append(byte)
            guard line.count <= maximumLineLength else {
                wipe(&line)
                throw SystemError("the secret is longer than \(maximumLineLength) bytes", code: EOVERFLOW)
            }
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return line
    }

    /// Overwrites a buffer with zeros (for secrets the caller is done with).
    package static func wipe(_ bytes: inout [UInt8]) {
        for index in bytes.indices { bytes[index] = 0 }
        bytes.removeAll()
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}

/// Restores the terminal when a signal interrupts a no-echo prompt (state for the C signal handler).
private enum TerminalRestore {
    nonisolated(unsafe) static var descriptor: Int32 = -1
    /// The settings to restore, in storage of the C struct's own size. Not a static stored property of type
    /// `termios`: Swift 6.3 emits that global 3 bytes short of the struct (57 of 60 bytes, `nm -S`: the padding
    /// inside the C layout is not counted) while a store writes all 60, so it wrote past the global
    /// (AddressSanitizer: global-buffer-overflow, found by `scripts/sanitize.sh address` in the prompt tests).
    nonisolated(unsafe) static let settings: UnsafeMutablePointer<termios> = {
        let storage = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        storage.initialize(to: termios())
        return storage
    }()
    nonisolated(unsafe) static var previous: [Int32: sigaction] = [:]
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP]

    static func arm(descriptor: Int32, settings: termios) {
        self.settings.pointee = settings
        self.descriptor = descriptor
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                if TerminalRestore.descriptor >= 0 {
                    _ = tcsetattr(TerminalRestore.descriptor, TCSAFLUSH, TerminalRestore.settings)
                }
                Glibc.signal(number, SIG_DFL)
                raise(number)
            }
            sigemptyset(&action.sa_mask)
            var old = sigaction()
            if sigaction(signal, &action, &old) == 0 { previous[signal] = old }
        }
    }

    static func disarm() {
        for (signal, old) in previous {
            var action = old
            _ = sigaction(signal, &action, nil)
        }
        previous = [:]
        descriptor = -1
    }
}
