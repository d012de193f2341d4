import Foundation
import OSecKeychain

/// Apple's persistent references: 4 ASCII class bytes followed by the item's 16-byte UUID (20 bytes).
/// Stored classes use the engine's `PersistentRef`; an identity's reference is `idnt` + its certificate's UUID.
enum SecPersistentRef {
    static let identityCode = Data(SecItemKind.identityCode.utf8)

    /// The class a reference names, or nil when it is malformed.
    static func itemClass(of ref: Data) -> SecItemKind? {
        guard ref.count == 4 + PersistentRef.uuidLength else { return nil }
        return SecItemKind(rawValue: String(decoding: ref.prefix(4), as: UTF8.self))
    }

    /// The stored item a reference points to (for identities: the certificate row).
    static func storeRef(_ ref: Data) throws -> PersistentRef {
        var bytes = Data(ref)
        if bytes.prefix(4) == identityCode { bytes.replaceSubrange(0..<4, with: Data(ItemClass.certificate.code.utf8)) }
        do {
            return try PersistentRef(data: bytes)
        } catch {
            throw SecError.param("malformed persistent reference")
        }
    }

    static func identityRef(certificate: PersistentRef) -> Data {
        identityCode + certificate.uuid
    }
}

/// Which item class a `kSecValueRef` object belongs to.
enum SecItemRefClassifier {
    static func itemClass(ofRef ref: AnyObject) -> SecItemKind? {
        if ref is SecKey { return .key }
        if ref is SecCertificate { return .certificate }
        if ref is SecIdentity { return .identity }
        if let item = ref as? SecKeychainItem { return item.itemClass }
        return nil
    }
}
