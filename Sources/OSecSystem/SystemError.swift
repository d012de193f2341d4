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

/// A failed POSIX call: what was attempted, and `errno`.
package struct SystemError: Error, Sendable, CustomStringConvertible {
    /// The operation and its operand, e.g. `cannot create /path`.
    package let operation: String
    /// `errno` after the call.
    package let code: Int32

    package init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// Builds the error from the current `errno`.
    static func current(_ operation: String) -> SystemError {
        SystemError(operation, code: errno)
    }

    /// The file or directory does not exist (`ENOENT`).
    package var isNotFound: Bool { code == ENOENT }

    /// The last path component is a symbolic link that an `O_NOFOLLOW` open refused (`ELOOP`).
    package var isSymbolicLink: Bool { code == ELOOP }

    /// The file exists (`EEXIST`, from an exclusive create).
    package var isAlreadyExisting: Bool { code == EEXIST }

    /// Writing is not possible: a read-only file system (`EROFS`) or no permission (`EACCES`, `EPERM`).
    package var isNotWritable: Bool { code == EROFS || code == EACCES || code == EPERM }

    /// `<operation>: <strerror> (errno N)`.
    package var description: String {
        "\(operation): \(String(cString: strerror(code))) (errno \(code))"
    }
}
