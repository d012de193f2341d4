// LAContext.h: policy evaluation, answered as an Apple device without biometry and without a passcode answers.
//
// Linux has no biometric sensor, no paired watch and no device passcode that this process could ask the user
// for, so every policy is unavailable: `canEvaluatePolicy` says false with the error Apple's gives on such a
// device, and `evaluatePolicy` replies false with the same error, without prompting anybody. Keychain code that
// checks `canEvaluatePolicy` first and falls back to unprotected items runs headless unchanged.
import Foundation
import Security

/// A context for evaluating authentication policies and access controls.
open class LAContext: NSObject, @unchecked Sendable {  // sendable: mutable state is read and written under `lock`
    private let lock = NSLock()
    private var invalidated = false
    private var credentials: [LACredentialType: Data] = [:]
    private var _localizedFallbackTitle: String?
    private var _localizedCancelTitle: String?
    private var _localizedReason = ""
    private var _interactionNotAllowed = false
    private var _reuseDuration: TimeInterval = 0
    private var _maxBiometryFailures: NSNumber?

    /// A new context.
    public override init() {
        super.init()
    }

    // MARK: Policies

    /// Whether `policy` can be evaluated now. Here never: `error` receives `LAError.biometryNotAvailable` for the
    /// biometric policies, `LAError.companionNotAvailable` for the companion-only policy, `LAError.passcodeNotSet`
    /// for ``LAPolicy/deviceOwnerAuthentication``, and `LAError.invalidContext` after ``invalidate()`` — what
    /// Apple's gives on a device without biometry, companion and passcode.
    open func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool {
        error?.pointee = unavailability(of: policy).nsError
        return false
    }

    /// Evaluates `policy`, showing `localizedReason` to the user where a user could be asked. Here `reply` is
    /// called once, on a background queue, with `false` and the error ``canEvaluatePolicy(_:error:)`` gives.
    open func evaluatePolicy(
        _ policy: LAPolicy, localizedReason: String, reply: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        let error = unavailability(of: policy)
        DispatchQueue.global().async { reply(false, error) }
    }

    /// Evaluates `policy`: returns true when the user authenticated, or throws the `LAError` that tells why not.
    /// Here it always throws what ``canEvaluatePolicy(_:error:)`` reports.
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool {
        throw unavailability(of: policy)
    }

    // MARK: Access controls

    /// Evaluates `accessControl` for `operation`. An access control that asks for no user authentication
    /// (no user presence, biometry, companion, passcode or application-password constraint, and a protection
    /// that does not need a passcode) succeeds; one that asks for user presence, biometry, a companion or the
    /// passcode fails with `LAError.passcodeNotSet`, as on a device without passcode; an application password
    /// that ``setCredential(_:type:)`` did not set fails with `LAError.notInteractive` when
    /// ``interactionNotAllowed`` is set and `LAError.authenticationFailed` otherwise (nobody can be asked for it).
    /// After ``invalidate()``: `LAError.invalidContext`.
    open func evaluateAccessControl(
        _ accessControl: SecAccessControl, operation: LAAccessControlOperation, localizedReason: String,
        reply: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        let error = accessControlFailure(accessControl)
        DispatchQueue.global().async { reply(error == nil, error) }
    }

    /// The async form of ``evaluateAccessControl(_:operation:localizedReason:reply:)``: returns true, or throws.
    open func evaluateAccessControl(
        _ accessControl: SecAccessControl, operation: LAAccessControlOperation, localizedReason: String
    ) async throws -> Bool {
        if let error = accessControlFailure(accessControl) { throw error }
        return true
    }

    // MARK: Credentials

    /// Sets (or with nil, clears) the credential of `type` for this context's evaluations. Returns true; false
    /// after ``invalidate()``.
    open func setCredential(_ credential: Data?, type: LACredentialType) -> Bool {
        lock.withLock {
            guard !invalidated else { return false }
            credentials[type] = credential
            return true
        }
    }

    /// Whether a credential of `type` is set.
    open func isCredentialSet(_ type: LACredentialType) -> Bool {
        lock.withLock { credentials[type] != nil }
    }

    /// Ends the context: pending and later evaluations fail with `LAError.invalidContext` (`appCancel` for a
    /// pending one, which never exists here), and credentials are forgotten.
    open func invalidate() {
        lock.withLock {
            invalidated = true
            credentials = [:]
        }
    }

    // MARK: Properties

    /// The title of the fallback button (nil: the system's; "": hidden).
    open var localizedFallbackTitle: String? {
        get { lock.withLock { _localizedFallbackTitle } }
        set { lock.withLock { _localizedFallbackTitle = newValue } }
    }

    /// The title of the cancel button (nil: the system's).
    open var localizedCancelTitle: String? {
        get { lock.withLock { _localizedCancelTitle } }
        set { lock.withLock { _localizedCancelTitle = newValue } }
    }

    /// The reason shown when keychain items or keys protected by an access control ask for authentication.
    open var localizedReason: String {
        get { lock.withLock { _localizedReason } }
        set { lock.withLock { _localizedReason = newValue } }
    }

    /// When true, an evaluation that would need user interaction fails with `LAError.notInteractive` instead.
    open var interactionNotAllowed: Bool {
        get { lock.withLock { _interactionNotAllowed } }
        set { lock.withLock { _interactionNotAllowed = newValue } }
    }

    /// How long a device unlock with Touch ID may count as authentication (clamped to 0 ...
    /// `LATouchIDAuthenticationMaximumAllowableReuseDuration`, as Apple's setter does).
    open var touchIDAuthenticationAllowableReuseDuration: TimeInterval {
        get { lock.withLock { _reuseDuration } }
        set {
            let clamped = min(
                max(newValue.isNaN ? 0 : newValue, 0), LATouchIDAuthenticationMaximumAllowableReuseDuration)
            lock.withLock { _reuseDuration = clamped }
        }
    }

    /// Apple's former limit on failed biometric attempts (ignored since iOS 9, as here).
    @available(*, deprecated, message: "No longer supported")
    open var maxBiometryFailures: NSNumber? {
        get { lock.withLock { _maxBiometryFailures } }
        set { lock.withLock { _maxBiometryFailures = newValue } }
    }

    /// The biometry of the device: always ``LABiometryType/none`` here.
    open var biometryType: LABiometryType { .none }

    /// The state of the enrolled biometric identities: nil, as on a device without biometry.
    open var evaluatedPolicyDomainState: Data? { nil }

    /// The state of the device's biometry and paired companions: no biometry, no companion, no state hash.
    open var domainState: LADomainState { LADomainState() }

    // MARK: Internals

    /// The error every evaluation of `policy` gives: Apple's answer on a device without biometry, companion or
    /// passcode.
    private func unavailability(of policy: LAPolicy) -> LAError {
        // `interactionNotAllowed` changes nothing: the policy is unavailable before any interaction.
        if lock.withLock({ invalidated }) { return LAError(.invalidContext) }
        switch policy {
        case .deviceOwnerAuthenticationWithBiometrics, .deviceOwnerAuthenticationWithBiometricsOrCompanion:
            return LAError(.biometryNotAvailable)
        case .deviceOwnerAuthenticationWithCompanion:
            return LAError(.companionNotAvailable)
        case .deviceOwnerAuthentication:
            return LAError(.passcodeNotSet)
        }
    }

    /// Why `accessControl` cannot be satisfied here, or nil when it asks for no user authentication.
    private func accessControlFailure(_ accessControl: SecAccessControl) -> LAError? {
        let (invalid, hasPassword, noInteraction) = lock.withLock {
            (invalidated, credentials[.applicationPassword] != nil, _interactionNotAllowed)
        }
        if invalid { return LAError(.invalidContext) }
        let flags = accessControl.flags
        let userChecks: SecAccessControlCreateFlags = [
            .userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .companion,
        ]
        if !flags.isDisjoint(with: userChecks) || accessControl.protection == "akpu" {
            return LAError(.passcodeNotSet)
        }
        if flags.contains(.applicationPassword), !hasPassword {
            return LAError(noInteraction ? .notInteractive : .authenticationFailed)
        }
        return nil
    }
}
