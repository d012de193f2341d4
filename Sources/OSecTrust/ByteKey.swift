import OSecCrypto

/// A dictionary key over encoded bytes that hashes cheaply.
///
/// `[UInt8]`'s own hashing feeds every byte to the hasher, which dominated warm evaluations (certificates are
/// 0.5–2 KB). DER encodings we key on end in high-entropy bytes (signatures, keys, names), so the length and the
/// last 16 bytes make a good hash; equality still compares every byte.
package struct ByteKey: Hashable, Sendable {
    /// The encoded bytes.
    package let bytes: ArraySlice<UInt8>

    /// A key over a whole array.
    package init(_ bytes: [UInt8]) { self.bytes = bytes[...] }
    /// A key over a slice (no copy).
    package init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    /// Hashes the length and the last 16 bytes (see the type's discussion).
    package func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        var high: UInt64 = 0
        var low: UInt64 = 0
        var index = bytes.endIndex
        var taken = 0
        while index > bytes.startIndex && taken < 16 {
            index -= 1
            if taken < 8 { low = low << 8 | UInt64(bytes[index]) } else { high = high << 8 | UInt64(bytes[index]) }
            taken += 1
        }
        hasher.combine(low)
        hasher.combine(high)
    }

    // One memcmp (identical memory compares in O(1), the common case for cache hits); Swift's element-wise
    // `==` cost ≈ 3 µs per 2 KB certificate whenever the same DER came from two different parses.
    /// Byte-for-byte equality.
    package static func == (lhs: ByteKey, rhs: ByteKey) -> Bool { ByteEquality.equal(lhs.bytes, rhs.bytes) }
}
