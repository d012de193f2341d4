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

/// The POSIX file operations the layers above need and Foundation does not offer with the right guarantees:
/// creation with an exact mode, durability (fsync of a file and of its directory entry) and atomic replacement.
///
/// This is the only Swift code above the C layer, besides the OpenSSL and SQLite wrappers, that calls the C
/// library; everything here takes and returns Swift values.
package enum POSIXFiles {
    /// Creates `path` as a directory with exactly `mode` (`fchmod`, checked, since the umask may have narrowed it)
    /// and returns its status and whether this call created it. An existing directory is left as it is (never
    /// chmodded) and reported with `created == false`; a symbolic link under the name fails (`ELOOP`).
    @discardableResult
    package static func makeDirectory(
        _ path: String, mode: UInt16
    ) throws(SystemError) -> (
        status: FileStatus, created: Bool
    ) {
        let created = mkdir(path, mode_t(mode)) == 0
        if !created && errno != EEXIST { throw SystemError.current("cannot create directory \(path)") }
        let directory = try openNoFollow(path, access: .readOnly, directory: true)
        if created { try directory.setPermissions(mode) }
        return (try directory.status(), created)
    }

    /// Creates `path` with `mode`; `false` when `exclusive` and the file already exists. The mode is set with
    /// `fchmod` on the new descriptor (the umask may have removed bits).
    package static func createFile(_ path: String, mode: UInt16, exclusive: Bool) throws(SystemError) -> Bool {
        var flags = O_CREAT | O_RDWR | O_CLOEXEC
        if exclusive { flags |= O_EXCL }
        let fd = open(path, flags, mode_t(mode))
        if fd < 0 {
            if exclusive && errno == EEXIST { return false }
            throw SystemError.current("cannot create \(path)")
        }
        defer { close(fd) }
        guard fchmod(fd, mode_t(mode)) == 0 else { throw SystemError.current("cannot set the mode of \(path)") }
        return true
    }

    /// Sets `mode` on `path` if it exists.
    package static func setMode(_ path: String, mode: UInt16) {
        _ = chmod(path, mode_t(mode))
    }

    /// Removes `path`; a missing file is not an error.
    package static func remove(_ path: String) throws(SystemError) {
        if unlink(path) != 0 && errno != ENOENT {
            throw SystemError.current("cannot remove \(path)")
        }
    }

    /// Writes `contents` to `path` atomically and durably with exactly `mode`: a temporary file created exclusively
    /// (never through a symbolic link), its mode set with a checked `fchmod`, written, fsync'd, renamed over `path`,
    /// then the directory fsync'd.
    package static func writeDurably(_ contents: Data, to path: String, mode: UInt16) throws(SystemError) {
        let temporary = path + ".tmp-\(UUID().uuidString)"
        do {
            let file = try openNoFollow(temporary, access: .writeOnly, create: mode, exclusive: true)
            try file.setPermissions(mode)
            try file.writeAll(contents)
            try file.synchronize()
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let failure = SystemError.current("cannot rename \(temporary)")
            unlink(temporary)
            throw failure
        }
        syncDirectory(of: path)
    }

    /// fsyncs the directory containing `path`, so a newly created, renamed or removed entry survives power loss.
    package static func syncDirectory(of path: String) {
        let directory = parentDirectory(of: path)
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}

extension POSIXFiles {
    /// The directory part of `path`, as `NSString.deletingLastPathComponent` gives it: trailing slashes are ignored,
    /// `/a` → `/`, `a` → the empty string, `/` → `/`.
    package static func parentDirectory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.last == "/" { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        var parent = trimmed[..<slash]
        while parent.count > 1, parent.last == "/" { parent.removeLast() }
        return parent.isEmpty ? "/" : String(parent)
    }

    /// Writes all of `bytes` to the descriptor `fd` (retrying short writes and interruptions); false on an error.
    @discardableResult
    package static func writeAll(_ bytes: some Collection<UInt8>, to fd: Int32) -> Bool {
        var buffer = Array(bytes)[...]
        while !buffer.isEmpty {
            let written = buffer.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            buffer = buffer.dropFirst(written)
        }
        return true
    }
}
