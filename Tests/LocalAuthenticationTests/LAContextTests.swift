import Foundation
import LocalAuthentication
import Security
import Testing

// LocalAuthentication used the way keychain wrappers and "biometric login" helpers use it, in the Swift 6 mode:
// check `canEvaluatePolicy` first, read `biometryType`, evaluate with a reply closure or `await`, map `LAError`.

/// The biometry-kind helper most wrappers carry.
private func biometryName(_ context: LAContext) -> String {
    var error: NSError?
    guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else { return "none" }
    switch context.biometryType {
    case .faceID: return "Face ID"
    case .touchID: return "Touch ID"
    case .opticID: return "Optic ID"
    case .none: return "none"
    }
}

@Suite("LAContext answers as a device without biometry or passcode")
struct LAContextTests {
    @Test("canEvaluatePolicy is false, with Apple's error per policy")
    func canEvaluate() throws {
        let context = LAContext()
        let expected: [(LAPolicy, LAError.Code)] = [
            (.deviceOwnerAuthenticationWithBiometrics, .biometryNotAvailable),
            (.deviceOwnerAuthentication, .passcodeNotSet),
            (.deviceOwnerAuthenticationWithCompanion, .companionNotAvailable),
            (.deviceOwnerAuthenticationWithBiometricsOrCompanion, .biometryNotAvailable),
        ]
        for (policy, code) in expected {
            var error: NSError?
            #expect(!context.canEvaluatePolicy(policy, error: &error))
            let reported = try #require(error)
            #expect(reported.domain == LAErrorDomain)
            #expect(reported.domain == "com.apple.LocalAuthentication")
            #expect(reported.code == code.rawValue)
            #expect(LAError.Code(rawValue: reported.code) == code)
        }
        #expect(context.biometryType == .none)
        #expect(biometryName(context) == "none")
        #expect(context.evaluatedPolicyDomainState == nil)
        #expect(context.domainState.biometry.biometryType == .none)
        #expect(context.domainState.biometry.stateHash == nil)
        #expect(context.domainState.companion.availableCompanionTypes.isEmpty)
        #expect(context.domainState.companion.stateHash(for: .watch) == nil)
        #expect(context.domainState.stateHash == nil)
    }

    @Test("evaluatePolicy replies false with the LAError, on another thread")
    func evaluateWithReply() async {
        let context = LAContext()
        context.localizedFallbackTitle = "Use Password"
        context.localizedCancelTitle = "Cancel"
        let (success, error) = await withCheckedContinuation { continuation in
            context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock your vault") { ok, error in
                continuation.resume(returning: (ok, error))
            }
        }
        #expect(!success)
        let laError = error as? LAError
        #expect(laError?.code == .passcodeNotSet)
        #expect(laError?.code == LAError.passcodeNotSet)
        #expect(laError?.errorCode == -5)
        #expect(LAError.errorDomain == LAErrorDomain)
    }

    @Test("The async evaluatePolicy throws the LAError")
    func evaluateAsync() async {
        let context = LAContext()
        do {
            _ = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Sign in")
            Issue.record("evaluation succeeded")
        } catch let error as LAError {
            switch error.code {
            case .biometryNotAvailable, .biometryNotEnrolled, .biometryLockout: break
            default: Issue.record("unexpected \(error.code)")
            }
        } catch {
            Issue.record("not an LAError: \(error)")
        }
    }

    @Test("After invalidate, evaluations fail with invalidContext")
    func invalidated() async throws {
        let context = LAContext()
        #expect(context.setCredential(Data("secret".utf8), type: .applicationPassword))
        #expect(context.isCredentialSet(.applicationPassword))
        context.invalidate()
        #expect(!context.isCredentialSet(.applicationPassword))
        var error: NSError?
        #expect(!context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
        #expect(error?.code == LAError.Code.invalidContext.rawValue)
        await #expect(throws: LAError(.invalidContext)) {
            try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "x")
        }
    }

    @Test("Credentials are set and cleared")
    func credentials() {
        let context = LAContext()
        #expect(!context.isCredentialSet(.applicationPassword))
        #expect(context.setCredential(Data("pw".utf8), type: .applicationPassword))
        #expect(context.isCredentialSet(.applicationPassword))
        #expect(!context.isCredentialSet(.smartCardPIN))
        #expect(context.setCredential(nil, type: .applicationPassword))
        #expect(!context.isCredentialSet(.applicationPassword))
    }

    @Test("Properties keep what is set; the reuse duration is clamped")
    func properties() {
        let context = LAContext()
        context.localizedReason = "Access your keys"
        context.interactionNotAllowed = true
        context.touchIDAuthenticationAllowableReuseDuration = 10_000
        #expect(context.localizedReason == "Access your keys")
        #expect(context.interactionNotAllowed)
        #expect(
            context.touchIDAuthenticationAllowableReuseDuration == LATouchIDAuthenticationMaximumAllowableReuseDuration)
        context.touchIDAuthenticationAllowableReuseDuration = -1
        #expect(context.touchIDAuthenticationAllowableReuseDuration == 0)
        #expect(context.localizedFallbackTitle == nil)
    }

    @Test("Access controls: none asked succeeds, user presence fails with passcodeNotSet")
    func accessControls() async throws {
        let context = LAContext()
        let plain = try #require(
            SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlock, [], nil))
        #expect(try await context.evaluateAccessControl(plain, operation: .useItem, localizedReason: "read"))
        let presence = try #require(
            SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil))
        await #expect(throws: LAError(.passcodeNotSet)) {
            try await context.evaluateAccessControl(presence, operation: .useKeySign, localizedReason: "sign")
        }
        let (ok, error) = await withCheckedContinuation { continuation in
            context.evaluateAccessControl(presence, operation: .useItem, localizedReason: "read") { ok, error in
                continuation.resume(returning: (ok, error))
            }
        }
        #expect(!ok)
        #expect((error as? LAError)?.code == .passcodeNotSet)
    }

    @Test("The enums have Apple's raw values")
    func rawValues() {
        #expect(LAPolicy.deviceOwnerAuthenticationWithBiometrics.rawValue == 1)
        #expect(LAPolicy.deviceOwnerAuthentication.rawValue == 2)
        #expect(LABiometryType.faceID.rawValue == 2)
        #expect(LABiometryType.opticID.rawValue == 4)
        #expect(LACredentialType.smartCardPIN.rawValue == -3)
        #expect(LAAccessControlOperation.useKeyKeyExchange.rawValue == 5)
        #expect(LAError.Code.notInteractive.rawValue == -1004)
        #expect(LAError.Code.userCancel.rawValue == -2)
        #expect(LAError.Code.biometryDisconnected.rawValue == -13)
    }
}
