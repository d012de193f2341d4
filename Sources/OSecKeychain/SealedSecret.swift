import Foundation

/// An item's secret as stored: AES-256-GCM ciphertext bound to its row. Opening it needs the item's
/// protection-class key, so it fails with `interactionNotAllowed` when that key is locked away.
package struct SealedSecret: Sendable {
    let blob: Data
    let binding: SecretBinding
    let keyRing: KeyRing

    /// Decrypts and returns the secret.
    /// - Throws: `interactionNotAllowed` (keychain locked), `integrityCheckFailed` (the stored blob does
    ///   not belong to this row or was modified).
    package func open() throws(KeychainStoreError) -> Data {
        try keyRing.openSecret(blob, binding: binding)
    }

    /// The protection class whose key is needed to open the secret.
    package var protectionClass: ProtectionClass { binding.protectionClass }
}

/// What a sealed secret is bound to (its AES-GCM associated data): keychain id, class code,
/// persistent-ref UUID and protection class. A blob copied into another row fails to open.
struct SecretBinding: Sendable {
    let itemClass: ItemClass
    let uuid: Data
    let protectionClass: ProtectionClass

    /// `prefix` is ``KeyRing/itemAADPrefix`` ("OSecKeychain.item.v1" ‖ keychain id).
    func associatedData(prefix: [UInt8]) -> Data {
        // Assembled in a stack buffer and copied into the `Data` once: this runs on every open.
        let code = itemClass.codeBytes
        let count = prefix.count + code.count + uuid.count + 1
        return withUnsafeTemporaryAllocation(byteCount: count, alignment: 1) { buffer in
            var offset = 0
            prefix.withUnsafeBytes { bytes in
                buffer.baseAddress!.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            }
            offset += prefix.count
            func put(_ part: Data) {
                part.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                    if let source = bytes.baseAddress {
                        (buffer.baseAddress! + offset).copyMemory(from: source, byteCount: bytes.count)
                    }
                }
                offset += part.count
            }
            put(code)
            put(uuid)
            buffer[offset] = protectionClass.byte
            return Data(bytes: buffer.baseAddress!, count: count)
        }
    }
}

extension ProtectionClass {
    /// The class letter as one ASCII byte.
    var byte: UInt8 {
        switch self {
        case .whenUnlocked: UInt8(ascii: "A")
        case .afterFirstUnlock: UInt8(ascii: "C")
        case .always: UInt8(ascii: "D")
        }
    }
}
