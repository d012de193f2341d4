import Foundation
import Security
import Testing

/// A persistent ref finds its item whether the item syncs or not (Apple adds the `sync == 0` filter only to queries
/// without kSecAttrSynchronizable and without a persistent ref). Found by the secitem fuzz target: a synchronizable
/// item listed with kSecAttrSynchronizableAny was not found again by its own persistent ref (errSecItemNotFound).
@Suite struct SecItemPersistentRefSyncTests {
    @Test func aSynchronizableItemIsFoundUpdatedAndDeletedByItsPersistentRef() throws {
        let kc = try TestKeychain()
        let item: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "synced",
            kSecAttrService as String: "fuzz", kSecAttrSynchronizable as String: true,
        ]
        var added: CFTypeRef?
        let addQuery = item.merging([
            kSecValueData as String: Data("one".utf8), kSecReturnPersistentRef as String: true,
        ]) { $1 }
        #expect(SecItemAdd(kc.q(addQuery), &added) == errSecSuccess)
        let ref = try #require(added as? Data)
        // The plain query still does not see it (no kSecAttrSynchronizable).
        var plain = item
        plain.removeValue(forKey: kSecAttrSynchronizable as String)
        #expect(SecItemCopyMatching(kc.q(plain), nil) == errSecItemNotFound)
        // By persistent ref it is found, with or without kSecAttrSynchronizable = Any.
        var result: CFTypeRef?
        let byRef: [String: Any] = [kSecValuePersistentRef as String: ref, kSecReturnData as String: true]
        #expect(SecItemCopyMatching(kc.q(byRef), &result) == errSecSuccess)
        #expect(result as? Data == Data("one".utf8))
        // kSecAttrSynchronizable = false together with the ref still filters it out.
        let refNotSynced = byRef.merging([kSecAttrSynchronizable as String: false]) { $1 }
        #expect(SecItemCopyMatching(kc.q(refNotSynced), nil) == errSecItemNotFound)
        // Update and delete by the ref reach it too.
        let change = [kSecValueData as String: Data("two".utf8)] as CFDictionary
        #expect(SecItemUpdate(kc.q([kSecValuePersistentRef as String: ref]), change) == errSecSuccess)
        #expect(SecItemCopyMatching(kc.q(byRef), &result) == errSecSuccess)
        #expect(result as? Data == Data("two".utf8))
        #expect(SecItemDelete(kc.q([kSecValuePersistentRef as String: ref])) == errSecSuccess)
        #expect(SecItemCopyMatching(kc.q(byRef), nil) == errSecItemNotFound)
    }
}
