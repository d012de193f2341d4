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

/// A short secret (a session key, a password, an item's secret) kept in locked memory: its bytes live in a
/// ``SecureBuffer`` (mlock'ed, excluded from core dumps) shared with other small secrets, and are zeroed when the
/// value is released. Secrets longer than ``SecureBytes/largeThreshold`` get whole pages of their own.
///
/// Small secrets are carved from 16 KiB locked chunks in 32-byte slots, so a process with the usual 64 KiB
/// `RLIMIT_MEMLOCK` can still hold a few thousand keys. Construction fails (rather than keeping the secret in
/// memory that could be swapped) when no locked memory can be had.
package final class SecureBytes: @unchecked Sendable {  // immutable after init; the arena is behind a mutex
    /// The secret's length.
    package let count: Int
    private let placement: SecureArena.Placement

    /// Secrets longer than this get a buffer of their own.
    package static let largeThreshold = SecureArena.chunkBytes / 4

    /// Copies `bytes` into locked memory. The caller clears its own copy.
    package init(_ bytes: Data) throws(SystemError) {
        count = bytes.count
        placement = try SecureArena.shared.allocate(bytes.count)
        placement.buffer.write(bytes, at: placement.offset)
    }

    deinit {
        SecureArena.shared.free(placement, count: count)
    }

    /// A temporary copy of the secret for an API that takes `Data`; the caller must clear it
    /// (``withTemporaryCopy(_:)`` does).
    package func copy() -> Data {
        placement.buffer.readData(at: placement.offset, count: count)
    }

    /// Runs `body` on a temporary copy of the secret and clears the copy afterwards.
    package func withTemporaryCopy<R, E: Error>(_ body: (Data) throws(E) -> R) throws(E) -> R {
        var data = copy()
        defer { data.resetBytes(in: 0..<data.count) }
        return try body(data)
    }
}

/// The locked chunks small ``SecureBytes`` are carved from.
final class SecureArena: Sendable {
    static let shared = SecureArena()
    static let chunkBytes = 16 * 1024
    static let slotBytes = 32
    static let slotsPerChunk = chunkBytes / slotBytes

    /// Where one secret lives.
    struct Placement: @unchecked Sendable {  // the buffer is only touched under the arena's mutex or by its owner
        let buffer: SecureBuffer
        let offset: Int
        /// The chunk index for a small secret; `nil` for a buffer of its own.
        let chunk: ObjectIdentifier?
        let slots: Int
    }

    private struct Chunk {
        let buffer: SecureBuffer
        /// Whether each slot is in use.
        var used: [Bool]
        var usedCount: Int
    }

    private struct State: @unchecked Sendable {  // SecureBuffer is used under the mutex only
        var chunks: [Chunk] = []
    }

    /// A pthread mutex (``LockedValue``), not `Synchronization.Mutex`: ThreadSanitizer cannot see the latter's futex
    /// and reported every slot handed between two threads as a race (the whole-suite run, docs/fuzzing.md).
    private let state = LockedValue(State())

    func allocate(_ count: Int) throws(SystemError) -> Placement {
        if count > SecureBytes.largeThreshold {
            let buffer = try SecureBuffer(minimumCount: count)
            return Placement(buffer: buffer, offset: 0, chunk: nil, slots: 0)
        }
        let slots = max(1, (count + Self.slotBytes - 1) / Self.slotBytes)
        let found: Placement? = state.withLock { state in
            for index in state.chunks.indices {
                if let first = Self.freeRun(state.chunks[index].used, slots) {
                    for slot in first..<(first + slots) { state.chunks[index].used[slot] = true }
                    state.chunks[index].usedCount += slots
                    let buffer = state.chunks[index].buffer
                    return Placement(
                        buffer: buffer, offset: first * Self.slotBytes, chunk: ObjectIdentifier(buffer), slots: slots)
                }
            }
            return nil
        }
        if let found { return found }
        let buffer = try SecureBuffer(minimumCount: Self.chunkBytes)
        return state.withLock { state in
            var used = [Bool](repeating: false, count: Self.slotsPerChunk)
            for slot in 0..<slots { used[slot] = true }
            state.chunks.append(Chunk(buffer: buffer, used: used, usedCount: slots))
            return Placement(buffer: buffer, offset: 0, chunk: ObjectIdentifier(buffer), slots: slots)
        }
    }

    /// Zeroes a secret's bytes and gives its slots back (an empty chunk is unmapped unless it is the only one).
    func free(_ placement: Placement, count: Int) {
        guard let chunk = placement.chunk else { return }  // its own buffer zeroes itself when released
        state.withLock { state in
            guard let index = state.chunks.firstIndex(where: { ObjectIdentifier($0.buffer) == chunk }) else { return }
            state.chunks[index].buffer.zero(at: placement.offset, count: placement.slots * Self.slotBytes)
            let first = placement.offset / Self.slotBytes
            for slot in first..<(first + placement.slots) { state.chunks[index].used[slot] = false }
            state.chunks[index].usedCount -= placement.slots
            if state.chunks[index].usedCount == 0 && state.chunks.count > 1 { state.chunks.remove(at: index) }
        }
    }

    /// The first index of `length` consecutive free slots, or `nil`.
    private static func freeRun(_ used: [Bool], _ length: Int) -> Int? {
        var run = 0
        for (index, taken) in used.enumerated() {
            run = taken ? 0 : run + 1
            if run == length { return index - length + 1 }
        }
        return nil
    }

    /// Chunks mapped now (for tests).
    var chunkCount: Int { state.withLock { $0.chunks.count } }
}

extension SecureBuffer {
    /// Copies `data` in at `offset` (out-of-range writes are ignored and return `false`).
    @discardableResult
    package func write(_ data: Data, at offset: Int) -> Bool {
        withMutableBytes(offset: offset, count: data.count) { target in
            guard target.count == data.count else { return false }
            data.withUnsafeBytes { source in target.copyMemory(from: source) }
            return true
        }
    }

    /// A copy of `length` bytes at `offset` as `Data` (empty when out of range).
    package func readData(at offset: Int, count length: Int) -> Data {
        withBytes(offset: offset, count: length) { Data($0) }
    }
}
