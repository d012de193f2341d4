#if canImport(Glibc)
import Glibc
#endif

/// Memory that Apple's C-shaped API hands to the caller and takes back later with a free function
/// (`SecKeychainFindGenericPassword`'s password buffer, freed by `SecKeychainItemFreeContent`; the attribute lists
/// of `SecKeychainItemCopyAttributesAndData`, freed by `SecKeychainItemFreeAttributesAndData`).
///
/// Every block is registered with its size: `release` zeroes a block before freeing it (it may hold a password)
/// and refuses a pointer it did not hand out (a second free, or garbage) instead of passing it to `free`.
package enum ContentBuffers {
    private static let blocks = LockedValue<[UInt: Int]>([:])

    /// A new block holding `bytes` (at least one byte long, so a zero-length secret still has a pointer to free).
    package static func allocate(copying bytes: [UInt8]) -> UnsafeMutableRawPointer {
        let size = max(1, bytes.count)
        let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        block.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        bytes.withUnsafeBytes { raw in
            if let source = raw.baseAddress { block.copyMemory(from: source, byteCount: raw.count) }
        }
        blocks.withLock { $0[UInt(bitPattern: block)] = size }
        return block
    }

    /// A new array of `values` (at least one element of room).
    package static func allocate<T>(_ values: [T], filler: T) -> UnsafeMutablePointer<T> {
        let count = max(1, values.count)
        let array = UnsafeMutablePointer<T>.allocate(capacity: count)
        array.initialize(repeating: filler, count: count)
        for (index, value) in values.enumerated() { array[index] = value }
        blocks.withLock { $0[UInt(bitPattern: array)] = count * MemoryLayout<T>.stride }
        return array
    }

    /// Zeroes and frees a block from `allocate`. Returns false (and touches nothing) for a pointer this process
    /// did not get from `allocate`, or got and already released.
    @discardableResult
    package static func release(_ block: UnsafeMutableRawPointer?) -> Bool {
        guard let block else { return true }
        guard let size = blocks.withLock({ $0.removeValue(forKey: UInt(bitPattern: block)) }) else { return false }
        explicit_bzero(block, size)
        block.deallocate()
        return true
    }

    /// Whether `block` is a live block from `allocate`.
    package static func owns(_ block: UnsafeMutableRawPointer?) -> Bool {
        guard let block else { return false }
        return blocks.withLock { $0[UInt(bitPattern: block)] != nil }
    }

    /// Whether `array` is a live array from `allocate(_:filler:)`.
    package static func owns<T>(_ array: UnsafeMutablePointer<T>?) -> Bool {
        owns(array.map { UnsafeMutableRawPointer($0) })
    }

    /// Releases a typed array from `allocate(_:filler:)`.
    @discardableResult
    package static func release<T>(_ array: UnsafeMutablePointer<T>?) -> Bool {
        release(array.map { UnsafeMutableRawPointer($0) })
    }

    /// How many blocks are live (for tests: every buffer handed out was freed).
    package static var liveCount: Int { blocks.withLock { $0.count } }
}

/// Hands `value` to `body` through a pointer valid for the call (Apple's callbacks take their information
/// structure by pointer).
package func withTemporaryPointer<T, R>(to value: T, _ body: (UnsafeMutablePointer<T>) -> R) -> R {
    var copy = value
    return withUnsafeMutablePointer(to: &copy) { body($0) }
}
