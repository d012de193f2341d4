import Foundation
import Security

/// `security error <code…>`: prints `Error: 0x%08X <decimal> <message>` for each code, exit 1 (as macOS).
enum ErrorCommand {
    static func run(_ arguments: [String]) -> Int32 {
        guard !arguments.isEmpty else { return 2 }
        for argument in arguments {
            let value: Int64?
            if argument.lowercased().hasPrefix("0x") {
                value = Int64(argument.dropFirst(2), radix: 16).map { Int64(Int32(truncatingIfNeeded: $0)) }
            } else {
                value = Int64(argument)
            }
            guard let value, let status = Int32(exactly: value) else {
                FileHandle.standardError.write(Data("security: invalid error code \(argument)\n".utf8))
                return 2
            }
            let message = (SecCopyErrorMessageString(status, nil) as String?) ?? "unknown error"
            print(String(format: "Error: 0x%08X %d %@", UInt32(bitPattern: status), status, message))
        }
        return 1
    }
}
