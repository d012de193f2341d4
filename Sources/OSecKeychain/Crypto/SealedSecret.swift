import Foundation

/// An item's secret as stored: AES-256-GCM ciphertext bound to its row. Opening it needs the item's
/// protection-class key, so it fails with `interactionNotAllowed` when that key is locked away.
package struct SealedSecret: Sendable {
    let blob: Data
    let binding: SecretBinding
    let keyRing: KeyRing
    /// The associated data the blob was sealed with, made once: a cached find result is opened many times.
    let associatedData: Data

    init(blob: Data, binding: SecretBinding, keyRing: KeyRing) {
        self.blob = blob
        self.binding = binding
        self.keyRing = keyRing
        self.associatedData = binding.associatedData(prefix: keyRing.itemAADPrefix)
    }

    /// Decrypts and returns the secret.
    /// - Throws: `interactionNotAllowed` (keychain locked), `integrityCheckFailed` (the stored blob does
    ///   not belong to this row or was modified).
    package func open() throws(KeychainStoreError) -> Data {
        try keyRing.openSecret(blob, protectionClass: binding.protectionClass, associatedData: associatedData)
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
        var aad = Data(capacity: prefix.count + itemClass.codeBytes.count + uuid.count + 1)
        aad.append(contentsOf: prefix)
        aad.append(itemClass.codeBytes)
        aad.append(uuid)
        aad.append(protectionClass.byte)
        return aad
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
