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

/// An open file descriptor, closed in `deinit`. Everything asked of it (its status, its mode, its bytes) concerns
/// the file that was opened, whatever the path names by now: checks on it cannot be raced by renames.
package final class FileDescriptor: @unchecked Sendable {  // sendable: immutable; the kernel serializes the calls
    /// The path it was opened with (for messages).
    package let path: String
    private let raw: Int32

    init(raw: Int32, path: String) {
        self.raw = raw
        self.path = path
    }

    deinit { close(raw) }

    /// `fstat` of the open file.
    package func status() throws(SystemError) -> FileStatus {
        var raw = stat()
        guard fstat(self.raw, &raw) == 0 else { throw SystemError.current("cannot fstat \(path)") }
        return FileStatus(raw)
    }

    /// `fchmod`, checked: sets exactly `mode` on the open file.
    package func setPermissions(_ mode: UInt16) throws(SystemError) {
        guard fchmod(raw, mode_t(mode)) == 0 else { throw SystemError.current("cannot set the mode of \(path)") }
    }

    /// Reads the whole file from its current offset; more than `limit` bytes is an error (`EFBIG`).
    package func readAll(limit: Int) throws(SystemError) -> Data {
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(raw, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemError.current("cannot read \(path)")
            }
            if count == 0 { return result }
            result.append(contentsOf: buffer[0..<count])
            guard result.count <= limit else { throw SystemError("\(path) is longer than \(limit) bytes", code: EFBIG) }
        }
    }

    /// Writes all of `bytes`.
    package func writeAll(_ bytes: Data) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                write(raw, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemError.current("cannot write \(path)")
            }
            offset += count
        }
    }

    /// `fsync`.
    package func synchronize() throws(SystemError) {
        guard fsync(raw) == 0 else { throw SystemError.current("cannot fsync \(path)") }
    }
}
