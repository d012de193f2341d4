#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Copies between `Data` and untyped C buffers, for facades whose Apple signatures hand them `void *`
/// (CommonCrypto's `dataOut`, `macOut`). They may not rebind memory themselves; this does the typed copy here.
package enum RawBytes {
    /// Copies all of `data` to `destination + offset`, which must have room for `data.count` bytes (the offset
    /// lets a facade continue a buffer it was handed without doing pointer arithmetic itself).
    package static func store(_ data: Data, at destination: UnsafeMutableRawPointer, offset: Int = 0) {
        guard !data.isEmpty else { return }
        data.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }
            (destination + offset).copyMemory(from: base, byteCount: source.count)
        }
    }
}
