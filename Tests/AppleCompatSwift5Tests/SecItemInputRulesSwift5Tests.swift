import Foundation
import Security
import XCTest

// Apple's accepted SecItem inputs and the Secure Transport signatures, in the Swift 5 language mode older
// keychain and networking libraries are compiled in: counting without a return key, full-query updates, two
// access groups, dates read twice, authentication-context keys; Unmanaged ALPN results and C callbacks.

final class SecItemInputRulesSwift5Tests: XCTestCase {
    override class func setUp() {
        super.setUp()
        Swift5Environment.isolate()
    }

    private var service = ""

    override func setUp() {
        super.setUp()
        service = Swift5Environment.service("rules")
    }

    override func tearDown() {
        _ = SecItemDelete([kSecClass: kSecClassGenericPassword, kSecAttrService: service] as NSDictionary)
        super.tearDown()
    }

    private func query(_ account: String? = nil) -> NSMutableDictionary {
        let query: NSMutableDictionary = [kSecClass: kSecClassGenericPassword, kSecAttrService: service]
        if let account = account { query[kSecAttrAccount] = account }
        return query
    }

    private func add(_ account: String, _ value: String, group: String? = nil) -> OSStatus {
        let attributes = query(account)
        attributes[kSecValueData] = value.data(using: .utf8)
        if let group = group { attributes[kSecAttrAccessGroup] = group }
        return SecItemAdd(attributes, nil)
    }

    private func read(_ account: String, _ extra: [CFString: Any] = [:]) -> String? {
        let lookup = query(account)
        lookup[kSecReturnData] = kCFBooleanTrue
        for (key, value) in extra { lookup[key] = value }
        var result: AnyObject?
        guard SecItemCopyMatching(lookup, &result) == errSecSuccess, let data = result as? Data else { return nil }
        return String(data: data, encoding: .utf8)
    }

    func testCountingQueryWithoutReturnKey() {
        XCTAssertEqual(add("a", "1"), errSecSuccess)
        XCTAssertEqual(add("b", "2"), errSecSuccess)
        let counting = query()
        counting[kSecMatchLimit] = kSecMatchLimitAll
        var result: AnyObject?
        XCTAssertEqual(SecItemCopyMatching(counting, &result), errSecSuccess)
        XCTAssertNil(result)
    }

    func testFullQueryUpdate() {
        XCTAssertEqual(add("alice", "old"), errSecSuccess)
        let attributes = query("alice")
        attributes[kSecValueData] = "new".data(using: .utf8)
        attributes[kSecMatchLimit] = kSecMatchLimitOne
        XCTAssertEqual(SecItemUpdate(query("alice"), attributes), errSecSuccess)
        XCTAssertEqual(read("alice"), "new")
    }

    func testFirstAddedWinsAcrossAccessGroups() {
        XCTAssertEqual(add("shared", "first", group: "com.example.zz"), errSecSuccess)
        XCTAssertEqual(add("shared", "second", group: "com.example.aa"), errSecSuccess)
        XCTAssertEqual(read("shared"), "first")
        XCTAssertEqual(read("shared", [kSecAttrAccessGroup: "com.example.aa"]), "second")
    }

    func testDatesAreStableAndUseKeysAccepted() {
        XCTAssertEqual(add("dated", "v"), errSecSuccess)
        func dates() -> [Date] {
            let lookup = query("dated")
            lookup[kSecReturnAttributes] = true
            lookup[kSecUseAuthenticationContext] = NSObject()
            lookup[kSecUseAuthenticationUI] = kSecUseAuthenticationUIFail
            var result: AnyObject?
            guard SecItemCopyMatching(lookup, &result) == errSecSuccess, let attributes = result as? NSDictionary
            else { return [] }
            return [kSecAttrCreationDate, kSecAttrModificationDate].compactMap { attributes[$0] as? Date }
        }
        let first = dates()
        XCTAssertEqual(first.count, 2)
        XCTAssertEqual(first, dates())
    }

    func testSecureTransportSignatures() {
        let read: SSLReadFunc = { _, _, length in
            length.pointee = 0
            return errSSLWouldBlock
        }
        let write: SSLWriteFunc = { _, _, _ in noErr }
        guard let context = SSLCreateContext(nil, .clientSide, .streamType) else { return XCTFail("no context") }
        XCTAssertEqual(SSLSetIOFuncs(context, read, write), noErr)
        XCTAssertEqual(SSLSetSessionConfig(context, kSSLSessionConfig_ATSv1), noErr)
        XCTAssertEqual(SSLHandshake(context), errSSLWouldBlock)
        var protocols: Unmanaged<CFArray>?
        XCTAssertEqual(SSLCopyALPNProtocols(context, &protocols), errSecParam)
        XCTAssertNil(protocols)
        XCTAssertNil(SSLCreateContext(nil, .clientSide, .datagramType))
        var size = 0
        XCTAssertEqual(SSLGetDatagramWriteSize(context, &size), errSecParam)
        XCTAssertEqual(SSLCiphersuiteGroup.ATS.rawValue, 3)
        XCTAssertEqual(TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, 0xC02F)
    }
}
