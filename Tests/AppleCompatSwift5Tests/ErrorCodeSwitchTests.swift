import Foundation
import Security
import XCTest

final class ErrorCodeSwitchTests: XCTestCase {
    func testEveryHeaderCodeHasApplesNumber() {
        XCTAssertGreaterThanOrEqual(SecurityStatusName.all.count, 380)
        XCTAssertEqual(errSecInvalidEncoding, -67853)
        XCTAssertEqual(errSecACLAddFailed, -67698)
        XCTAssertEqual(errSecCodeSigningDevelopment, -67651)
        XCTAssertEqual(errSecInvalidKeyHierarchy, -67713)
        XCTAssertEqual(errSecInvalidKeyUsageMask, -67736)
        XCTAssertEqual(errSecMissingQualifiedCertStatement, -67904)
        XCTAssertEqual(errSecInvalidCRLAuthority, errSecInvaldCRLAuthority)
        XCTAssertEqual(errSecInvalidTupleCredentials, errSecInvalidTupleCredendtials)
        XCTAssertTrue(errSecSuccess == noErr)
    }

    func testTheSwitchNamesEachCode() {
        for (name, status) in SecurityStatusName.all {
            let found = SecurityStatusName.name(of: status)
            XCTAssertNotNil(found, name)
            // Aliases share a number: the first spelling in the header wins, as in a real switch.
            if let found, found != name {
                XCTAssertTrue(["errSecInvaldCRLAuthority", "errSecInvalidTupleCredendtials"].contains(found), name)
            }
        }
    }

    func testMessagesAreTheHeaderComments() {
        let undocumented: Set<OSStatus> = Set((-67666 ... -67657).map { OSStatus($0) } + [-67904])
        for (name, status) in SecurityStatusName.all where !undocumented.contains(status) {
            let message = SecCopyErrorMessageString(status, nil) as String?
            XCTAssertNotNil(message, name)
            XCTAssertFalse(message?.isEmpty ?? true, name)
        }
        XCTAssertEqual(SecCopyErrorMessageString(errSecInvalidEncoding, nil) as String?, "The encoding was not valid.")
        XCTAssertEqual(
            SecCopyErrorMessageString(errSecACLAddFailed, nil) as String?, "An ACL add operation has failed.")
        XCTAssertEqual(
            SecCopyErrorMessageString(errSecCodeSigningNoBasicConstraints, nil) as String?,
            "Code signing found no basic constraints.")
        XCTAssertNil(SecCopyErrorMessageString(12345, nil))
    }
}
