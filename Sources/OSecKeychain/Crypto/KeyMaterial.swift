#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A secret key held in memory, overwritten with zeros when wiped or released.
///
/// Best effort: the bytes live in one `Data` owned by this object; copies handed to the crypto layer
/// for a single operation are that layer's to clear.
final class KeyMaterial: @unchecked Sendable {  // sendable: `bytes` is only replaced by `wipe()`, under KeyRing's lock
    private(set) var bytes: Data

    init(_ bytes: Data) {
        self.bytes = Data(bytes)  // own storage, so wiping cannot touch the caller's buffer
    }

    /// Overwrites the key with zeros.
    func wipe() {
        bytes.resetBytes(in: 0..<bytes.count)
    }

    deinit { wipe() }
}
