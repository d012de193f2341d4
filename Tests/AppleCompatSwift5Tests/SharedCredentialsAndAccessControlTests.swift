import Foundation
import Security
import XCTest

/// Deprecated calls made the way old code makes them, through an API marked deprecated itself (so the test build,
/// which turns warnings into errors, accepts them).
protocol DeprecatedSecurityCalls {
    func requestSharedWebCredential(_ handler: @escaping (CFArray?, CFError?) -> Void)
}

struct DeprecatedSecurityAPI: DeprecatedSecurityCalls {
    @available(*, deprecated)
    func requestSharedWebCredential(_ handler: @escaping (CFArray?, CFError?) -> Void) {
        SecRequestSharedWebCredential("example.com" as CFString, nil, handler)
    }
}

final class SharedCredentialsAndAccessControlTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        Swift5Environment.isolate()
    }

    func testSharedWebCredentialsReportTheirAbsenceAsynchronously() {
        let added = expectation(description: "add")
        SecAddSharedWebCredential("example.com" as CFString, "alice" as CFString, nil) { error in
            XCTAssertEqual(error.map { CFErrorGetCode($0) }, CFIndex(errSecParam))
            added.fulfill()
        }
        let requested = expectation(description: "request")
        let api: DeprecatedSecurityCalls = DeprecatedSecurityAPI()
        api.requestSharedWebCredential { credentials, error in
            XCTAssertNil(credentials)
            XCTAssertEqual((error as Error?).map { ($0 as NSError).code }, Int(errSecParam))
            requested.fulfill()
        }
        wait(for: [added, requested], timeout: 30)
    }

    func testAccessControlFlagsHaveApplesRawValues() {
        XCTAssertEqual(SecAccessControlCreateFlags.userPresence.rawValue, 1)
        XCTAssertEqual(SecAccessControlCreateFlags.biometryAny.rawValue, 2)
        XCTAssertEqual(SecAccessControlCreateFlags.biometryCurrentSet.rawValue, 8)
        XCTAssertEqual(SecAccessControlCreateFlags.devicePasscode.rawValue, 16)
        XCTAssertEqual(SecAccessControlCreateFlags.watch.rawValue, 32)
        XCTAssertEqual(SecAccessControlCreateFlags.or.rawValue, 1 << 14)
        XCTAssertEqual(SecAccessControlCreateFlags.and.rawValue, 1 << 15)
        XCTAssertEqual(SecAccessControlCreateFlags.privateKeyUsage.rawValue, 1 << 30)
        XCTAssertEqual(SecAccessControlCreateFlags.applicationPassword.rawValue, 1 << 31)
        var error: Unmanaged<CFError>?
        let control = SecAccessControlCreateWithFlags(
            kCFAllocatorDefault, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [.privateKeyUsage, .biometryCurrentSet],
            &error)
        XCTAssertNotNil(control)
        XCTAssertNil(error)
        XCTAssertEqual(CFGetTypeID(control!), SecAccessControlGetTypeID())
        XCTAssertNil(SecAccessControlCreateWithFlags(nil, "nonsense" as CFString, [], &error))
        XCTAssertEqual(error.map { CFErrorGetCode($0.takeRetainedValue()) }, CFIndex(errSecParam))
    }

    func testAccessControlUpdatesChangeTheProtectionClass() throws {
        let service = Swift5Environment.service("acl-update")
        let base: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: "k",
        ]
        var add = base
        add[kSecValueData as String] = Data("v".utf8)
        XCTAssertEqual(SecItemAdd(add as CFDictionary, nil), errSecSuccess)
        let control = SecAccessControlCreateWithFlags(
            nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, .devicePasscode, nil)!
        XCTAssertEqual(
            SecItemUpdate(base as CFDictionary, [kSecAttrAccessControl as String: control] as CFDictionary), noErr)
        var query = base
        query[kSecReturnAttributes as String] = true
        var result: AnyObject?
        XCTAssertEqual(SecItemCopyMatching(query as CFDictionary, &result), noErr)
        let attributes = result as? [String: Any]
        XCTAssertEqual(attributes?[kSecAttrAccessible as String] as? String, "cku")
        XCTAssertEqual(attributes?[kSecAttrAccessControl as String] as? SecAccessControl, control)
        XCTAssertEqual(SecItemDelete(base as CFDictionary), noErr)
    }
}
