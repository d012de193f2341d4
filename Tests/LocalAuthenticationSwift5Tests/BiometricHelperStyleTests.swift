// LocalAuthentication the way Swift 5-era "BiometricAuth" helpers use it (an NSError out-parameter, a
// completion handler on the main queue, the deprecated Touch ID names), compiled in the Swift 5 language mode.
import Foundation
import LocalAuthentication
import XCTest

/// A 2018-style helper: checks, then evaluates, mapping LAError to a message.
private final class BiometricIDAuth {
    let context = LAContext()
    var loginReason = "Logging in with Touch ID"

    func canEvaluatePolicy() -> Bool {
        return context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: nil)
    }

    func authenticateUser(completion: @escaping (String?) -> Void) {
        guard canEvaluatePolicy() else {
            completion("Touch ID not available")
            return
        }
        context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: loginReason) {
            success, error in
            DispatchQueue.main.async {
                if success {
                    completion(nil)
                    return
                }
                let message: String
                switch error {
                case LAError.authenticationFailed?: message = "There was a problem verifying your identity."
                case LAError.userCancel?: message = "You pressed cancel."
                case LAError.userFallback?: message = "You pressed password."
                case LAError.biometryNotAvailable?: message = "Face ID/Touch ID is not available."
                default: message = "Face ID/Touch ID may not be configured"
                }
                completion(message)
            }
        }
    }
}

final class BiometricHelperStyleTests: XCTestCase {
    func testHelperReportsUnavailable() {
        let auth = BiometricIDAuth()
        XCTAssertFalse(auth.canEvaluatePolicy())
        let done = expectation(description: "completion")
        auth.authenticateUser { message in
            XCTAssertEqual(message, "Touch ID not available")
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
    }

    func testErrorOutParameter() {
        let context = LAContext()
        var error: NSError?
        XCTAssertFalse(context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
        XCTAssertEqual(error?.domain, LAErrorDomain)
        XCTAssertEqual(error?.code, LAError.Code.passcodeNotSet.rawValue)
        XCTAssertEqual(context.biometryType, LABiometryType.none)
    }

    @available(*, deprecated)
    func testDeprecatedNames() {
        XCTAssertEqual(LAError.touchIDNotAvailable, LAError.Code.biometryNotAvailable)
        XCTAssertEqual(LAError.Code.touchIDLockout.rawValue, -8)
        XCTAssertEqual(LAPolicy.deviceOwnerAuthenticationWithWatch.rawValue, 3)
    }

    func testReplyOffTheCallingThread() {
        let context = LAContext()
        let done = expectation(description: "reply")
        context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock") { success, error in
            XCTAssertFalse(success)
            XCTAssertEqual((error as? LAError)?.code, .passcodeNotSet)
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
    }
}
