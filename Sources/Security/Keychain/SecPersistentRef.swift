import Foundation

/// Apple's persistent reference layout: 4 ASCII class bytes followed by the item's 16-byte UUID (20 bytes).
/// Opaque to callers, stable for the item's life, valid in any process.
enum SecPersistentRef {
    static let uuidLength = 16

    static func make(_ itemClass: SecItemClass, uuid: Data) -> Data {
        Data(itemClass.rawValue.utf8) + uuid
    }

    static func itemClass(of ref: Data) -> SecItemClass? {
        guard ref.count == 4 + uuidLength else { return nil }
        return SecItemClass(rawValue: String(decoding: ref.prefix(4), as: UTF8.self))
    }

    /// Splits a reference into class and UUID; malformed → errSecParam (Apple's code).
    static func parse(_ ref: Data) throws -> (SecItemClass, Data) {
        guard let c = itemClass(of: ref) else { throw SecError.param("malformed persistent reference") }
        return (c, Data(ref.suffix(uuidLength)))
    }
}

/// Which item class a `kSecValueRef` object belongs to.
enum SecItemRefClassifier {
    static func itemClass(ofRef ref: AnyObject) -> SecItemClass? {
        if ref is SecKey { return .key }
        return nil
    }
}
