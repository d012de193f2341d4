import CSystemShims

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

/// Memory for secrets that is never swapped out and never written to a core dump: whole pages mapped privately,
/// locked in RAM (`mlock`), excluded from dumps (`madvise(MADV_DONTDUMP)`), and zeroed before they are unmapped.
///
/// Construction fails rather than hand out memory that could be swapped: a process whose locked-memory limit
/// (`RLIMIT_MEMLOCK`) is too small gets an error naming it.
package final class SecureBuffer: @unchecked Sendable {  // callers serialize access (the agent is single-threaded)
    /// Usable bytes (a whole number of pages).
    package let count: Int
    private let base: UnsafeMutableRawPointer

    /// Maps, locks and marks at least `minimumCount` bytes.
    package init(minimumCount: Int) throws(SystemError) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let pages = max(1, (minimumCount + page - 1) / page)
        let length = pages * page
        guard let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            mapped != UnsafeMutableRawPointer(bitPattern: -1)  // MAP_FAILED
        else { throw SystemError.current("cannot map \(length) bytes for secrets") }
        guard mlock(mapped, length) == 0 else {
            let failure = SystemError.current(
                "cannot lock \(length) bytes in memory (raise RLIMIT_MEMLOCK, `ulimit -l`)")
            munmap(mapped, length)
            throw failure
        }
        guard madvise(mapped, length, Int32(MADV_DONTDUMP)) == 0 else {
            let failure = SystemError.current("cannot exclude secret memory from core dumps")
            munlock(mapped, length)
            munmap(mapped, length)
            throw failure
        }
        base = mapped
        count = length
    }

    deinit {
        explicit_bzero(base, count)
        munlock(base, count)
        munmap(base, count)
    }

    private func checked(_ offset: Int, _ length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= count && length <= count - offset
    }

    /// Copies `bytes` in at `offset` (out-of-range writes are ignored and return `false`).
    @discardableResult
    package func write(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard checked(offset, bytes.count) else { return false }
        bytes.withUnsafeBytes { raw in
            if let source = raw.baseAddress { (base + offset).copyMemory(from: source, byteCount: raw.count) }
        }
        return true
    }

    /// A copy of `length` bytes at `offset` (empty when out of range).
    package func read(at offset: Int, count length: Int) -> [UInt8] {
        guard checked(offset, length) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: base + offset, count: length))
    }

    /// Compares `length` bytes at `offset` with `bytes` in constant time.
    package func matches(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard checked(offset, bytes.count) else { return false }
        var difference: UInt8 = 0
        for (index, byte) in bytes.enumerated() { difference |= byte ^ (base + offset + index).load(as: UInt8.self) }
        return difference == 0
    }

    /// Copies `length` bytes inside the buffer from `source` to `destination` (secrets never leave it).
    @discardableResult
    package func copy(from source: Int, to destination: Int, count length: Int) -> Bool {
        guard checked(source, length), checked(destination, length) else { return false }
        (base + destination).copyMemory(from: base + source, byteCount: length)
        return true
    }

    /// Zeroes `length` bytes at `offset`.
    package func zero(at offset: Int, count length: Int) {
        guard checked(offset, length) else { return }
        explicit_bzero(base + offset, length)
    }

    /// Runs `body` on a read-only view of `length` bytes at `offset` (empty when out of range).
    package func withBytes<R, E: Error>(
        offset: Int, count length: Int, _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        let valid = checked(offset, length)
        return try body(UnsafeRawBufferPointer(start: valid ? base + offset : base, count: valid ? length : 0))
    }

    /// Runs `body` on a writable view of `length` bytes at `offset` (empty when out of range).
    package func withMutableBytes<R, E: Error>(
        offset: Int, count length: Int, _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        let valid = checked(offset, length)
        return try body(UnsafeMutableRawBufferPointer(start: valid ? base + offset : base, count: valid ? length : 0))
    }
}

/// Process-wide hardening for a process that holds secrets.
package enum ProcessHardening {
    /// Makes the process non-dumpable (`prctl(PR_SET_DUMPABLE, 0)`: no core file, and other processes of the same
    /// user cannot `ptrace` it or read its `/proc/<pid>/mem`) and sets the core-file size limit to 0.
    package static func forbidCoreDumps() throws(SystemError) {
        var limit = rlimit(rlim_cur: 0, rlim_max: 0)
        guard setrlimit(Int32(RLIMIT_CORE.rawValue), &limit) == 0 else {
            throw SystemError.current("cannot set the core-file size limit to 0")
        }
        guard osec_set_dumpable(0) == 0 else {
            throw SystemError.current("cannot make the process non-dumpable")
        }
    }

    /// Whether the process may be dumped or traced (`prctl(PR_GET_DUMPABLE)`).
    package static var isDumpable: Bool { osec_get_dumpable() != 0 }

    /// Ignores SIGPIPE (writes to a closed socket fail with EPIPE instead of killing the process).
    package static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}
