import Foundation

/// Asks for a keychain password the way ssh does without a terminal: runs the program named by
/// `OPENSECURITY_ASKPASS`, else `SSH_ASKPASS`, with the question as its only argument, and reads the password from
/// its standard output (one line). Needs no display: any program that prints the password will do.
enum SecretAskpass {
    /// The variables naming the program, in order of preference.
    static let variables = ["OPENSECURITY_ASKPASS", "SSH_ASKPASS"]
    /// The most bytes read from the program.
    static let maximumOutput = 64 * 1024
    /// How long the program may take (someone may be typing a password into it).
    static let timeout: DispatchTimeInterval = .seconds(120)

    /// The password, or `nil` when no program is configured, it cannot run, or it exits unsuccessfully.
    static func ask(_ question: String, environment: [String: String]) -> Data? {
        guard let program = variables.lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) else {
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = [question]
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        // Read in the background so that a program that never answers is stopped after `timeout`.
        nonisolated(unsafe) var data = Data()
        let finished = DispatchSemaphore(value: 0)
        let reader = output.fileHandleForReading
        DispatchQueue.global().async {
            data = reader.readDataToEndOfFile()
            finished.signal()
        }
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            finished.wait()
            process.waitUntilExit()
            data.resetBytes(in: 0..<data.count)
            return nil
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0, data.count <= maximumOutput else {
            data.resetBytes(in: 0..<data.count)
            return nil
        }
        // One line: the trailing newline (and a carriage return) are not part of the password.
        while let last = data.last, last == 0x0A || last == 0x0D { data.removeLast() }
        return data
    }
}
