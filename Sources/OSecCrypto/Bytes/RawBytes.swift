import Foundation

/// Copies between `Data` and untyped C buffers, for facades whose Apple signatures hand them `void *`
/// (CommonCrypto's `dataOut`, `macOut`). They may not rebind memory themselves; this does the typed copy here.
package enum RawBytes {
    /// Copies all of `data` to `destination`, which must have room for `data.count` bytes.
    package static func store(_ data: Data, at destination: UnsafeMutableRawPointer) {
        guard !data.isEmpty else { return }
        data.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }
            destination.copyMemory(from: base, byteCount: source.count)
        }
    }
}
