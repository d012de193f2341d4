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

/// The raw pointers Apple's Core Foundation getters return (`CFArrayGetValueAtIndex`, `CFDictionaryGetValue`,
/// `CFDataGetBytePtr`): unretained, and valid for as long as the container lives.
///
/// Code written for Apple platforms turns them back into objects (`unsafeBitCast(…, to: SecCertificate.self)`,
/// `Unmanaged<…>.fromOpaque(…)`), so a pointer must be the object's own address. On Linux a container may hand
/// out a freshly bridged object on every access (a Swift `String` in an `NSArray`): such an object would die as
/// soon as the getter returned. Every object handed out is therefore also kept here, per container and slot,
/// until the container is deallocated; a later read of the same slot that yields an equal object returns the
/// kept one, so the same slot keeps answering the same pointer.
package enum ObjectPointers {
    private struct Entry {
        weak var owner: AnyObject?
        var values: [AnyHashable: AnyObject]
    }

    private struct Table: @unchecked Sendable {
        // @unchecked: only touched under `table`'s lock.
        var entries: [ObjectIdentifier: Entry] = [:]
        /// Entry count after the last sweep of dead owners (sweeps run when the table doubles).
        var sweptCount = 0
    }

    private static let table = LockedValue(Table())

    /// The unretained pointer to `value`, read from `slot` of `owner`, kept alive as long as `owner` lives.
    package static func pointer(to value: AnyObject, in owner: AnyObject, slot: AnyHashable) -> UnsafeRawPointer {
        let address = table.withLock { table -> UInt in
            let id = ObjectIdentifier(owner)
            // An entry whose owner died (and whose identifier a new object reuses) starts over.
            var current =
                table.entries[id].flatMap { $0.owner === owner ? $0 : nil } ?? Entry(owner: owner, values: [:])
            let result: AnyObject
            if let previous = current.values[slot],
                previous === value || isEqual(previous, value)
            {
                result = previous
            } else {
                current.values[slot] = value
                result = value
            }
            table.entries[id] = current
            if table.entries.count > max(64, 2 * table.sweptCount) {
                table.entries = table.entries.filter { $0.value.owner != nil }
                table.sweptCount = table.entries.count
            }
            return UInt(bitPattern: Unmanaged.passUnretained(result).toOpaque())
        }
        // The kept object lives in the table until its owner is deallocated, so its address stays valid.
        guard let pointer = UnsafeRawPointer(bitPattern: address) else {
            preconditionFailure("an object's address is never zero")
        }
        return pointer
    }

    /// The object whose address `pointer` is (a pointer from ``pointer(to:in:slot:)`` or from `Unmanaged`'s
    /// `toOpaque()`), unretained.
    package static func object(at pointer: UnsafeRawPointer) -> AnyObject {
        Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// `bytes` (an `NSData`'s storage, valid while the data lives) as bytes; nil when `count` is 0.
    package static func bytes(at bytes: UnsafeRawPointer, count: Int) -> UnsafePointer<UInt8>? {
        guard count > 0 else { return nil }
        return bytes.assumingMemoryBound(to: UInt8.self)
    }

    /// Whether two objects are equal as values (`NSObject.isEqual(_:)` through `Hashable`; FoundationEssentials,
    /// which this module builds on, has no `NSObject`).
    private static func isEqual(_ lhs: AnyObject, _ rhs: AnyObject) -> Bool {
        guard let lhs = lhs as? AnyHashable, let rhs = rhs as? AnyHashable else { return false }
        return lhs == rhs
    }
}
