import Foundation

/// Runs the system `openssl` command-line tool (for interoperability tests).
public enum OpenSSLCLI {
    /// The result of one run.
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: Data
        public let stderr: String
        /// stdout as UTF-8 text.
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Path of the `openssl` binary (`OSEC_OPENSSL` overrides).
    public static var executable: String {
        ProcessInfo.processInfo.environment["OSEC_OPENSSL"] ?? "/usr/bin/openssl"
    }

    /// True when the binary exists.
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// Runs `openssl args…`, feeding `stdin`, and collects status, stdout and stderr.
    public static func run(args: [String], stdin: Data? = nil) throws -> Result {
        try run(program: executable, args: args, stdin: stdin)
    }

    /// Runs any program (a peer other than openssl: python3, keytool) the same way.
    public static func run(program: String, args: [String], stdin: Data? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = args
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes concurrently so neither fills up and blocks the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = error.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try? input.fileHandleForWriting.close()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: outData,
            stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// Runs and throws unless the exit status is 0.
    @discardableResult
    public static func check(_ args: [String], stdin: Data? = nil) throws -> Result {
        let result = try run(args: args, stdin: stdin)
        guard result.status == 0 else {
            throw CLIError(
                message: "openssl \(args.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
        }
        return result
    }

    /// A failed CLI run.
    public struct CLIError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }
}
