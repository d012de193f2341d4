internal import Glibc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Fast equality of byte slices for the layers above (which may not touch pointers).
///
/// Swift's `ArraySlice<UInt8> ==` compares element by element (≈ 3 µs for a 2 KB certificate); this is one
/// `memcmp`, with an O(1) answer when both slices are the same memory. Not constant-time: for secrets use
/// ``ConstantTime/equals(_:_:)``.
package enum ByteEquality {
    package static func equal(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                guard let x = pa.baseAddress, let y = pb.baseAddress else { return true }  // both empty
                return x == y || memcmp(x, y, pa.count) == 0
            }
        }
    }
}
