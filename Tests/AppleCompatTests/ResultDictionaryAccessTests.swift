import Foundation
import Security
import Testing

// Every way Apple-platform code reads a SecItem result dictionary, and query dictionaries compared with themselves
// after crossing the CFDictionary boundary.

@Suite struct ResultDictionaryAccessTests {
    let service = CompatEnvironment.service("access")

    init() throws {
        CompatEnvironment.isolated
        let add: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: "alice", kSecAttrLabel as String: "Alice",
            kSecValueData as String: Data("pw".utf8),
        ]
        try #require(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
    }

    func attributes() throws -> AnyObject {
        let query: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword, kSecAttrService: service, kSecReturnAttributes: kCFBooleanTrue!,
            kSecReturnData: kCFBooleanTrue!, kSecMatchLimit: kSecMatchLimitOne,
        ]
        var result: CFTypeRef?
        try #require(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
        return try #require(result)
    }

    @Test func castToStringKeyedDictionary() throws {
        let item = try #require(try attributes() as? [String: Any])
        #expect(item[kSecAttrAccount as String] as? String == "alice")
        #expect(item[String(kSecAttrLabel)] as? String == "Alice")
        #expect(item[kSecValueData as String] as? Data == Data("pw".utf8))
    }

    @Test func castToAnyHashableKeyedDictionary() throws {
        let item = try #require(try attributes() as? [AnyHashable: Any])
        #expect(item[kSecAttrAccount] as? String == "alice", "indexed with the CFString constant")
        #expect(item[kSecAttrAccount as String] as? String == "alice", "indexed with its String")
        #expect(item[kSecAttrService] as? String == service)
        #expect(item[kSecValueData] as? Data == Data("pw".utf8))
    }

    @Test func keptAsNSDictionaryOrCFDictionary() throws {
        let item = try #require(try attributes() as? NSDictionary)
        #expect(item[kSecAttrAccount] as? String == "alice")
        #expect(item[kSecAttrAccount as String] as? String == "alice")
        #expect(item.object(forKey: kSecAttrLabel) as? String == "Alice")
        let cf = try attributes() as! CFDictionary
        #expect(CFDictionaryGetCount(cf) == item.count)
        #expect((cf as NSDictionary)[kSecValueData] as? Data == Data("pw".utf8))
    }

    @Test func castToCFStringKeyedDictionary() throws {
        let item = try #require(try attributes() as? [CFString: Any])
        #expect(item[kSecAttrAccount] as? String == "alice")
        #expect(item["acct" as CFString] as? String == "alice")
    }

    @Test func listingsAsArraysOfEachKind() throws {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecReturnAttributes as String: true, kSecMatchLimit as String: kSecMatchLimitAll,
        ]
        var result: AnyObject?
        #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
        #expect((result as? [[String: Any]])?.first?[kSecAttrAccount as String] as? String == "alice")
        #expect((result as? [[AnyHashable: Any]])?.first?[kSecAttrAccount] as? String == "alice")
        #expect(((result as? NSArray)?.firstObject as? NSDictionary)?[kSecAttrAccount] as? String == "alice")
        query[kSecReturnAttributes as String] = nil
        query[kSecReturnData as String] = true
        #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
        #expect(result as? [Data] == [Data("pw".utf8)])
    }

    @Test func queryDictionariesEqualThemselvesAfterCrossingTheBoundary() throws {
        let accessControl = try #require(
            SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleAfterFirstUnlock, [], nil))
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: "alice", kSecReturnData as String: true,
            kSecReturnRef as String: kCFBooleanTrue!,
            kSecMatchLimit as String: kSecMatchLimitOne, kSecAttrAccessControl as String: accessControl,
            kSecAttrGeneric as String: Data([1, 2, 3]), kSecAttrPort as String: 443,
        ]
        let cf = query as CFDictionary
        #expect((cf as NSDictionary).isEqual(to: query))
        #expect(NSDictionary(dictionary: query).isEqual(to: query))
        let back = try #require(cf as? [String: Any])
        #expect((back as NSDictionary).isEqual(query as NSDictionary))
        #expect(NSDictionary(dictionary: back) == NSDictionary(dictionary: query))
        #expect(Set((back as [AnyHashable: Any]).keys) == Set((query as [AnyHashable: Any]).keys))
        #expect(AnyHashable(kSecAttrAccount) == AnyHashable("acct"))
    }
}
