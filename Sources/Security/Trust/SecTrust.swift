import Foundation
import OSecCrypto
import OSecSystem
import OSecTrust
import OSecX509

/// Apple's `SecTrustResultType`.
public enum SecTrustResultType: UInt32, Sendable {
    case invalid = 0
    case proceed = 1
    case confirm = 2
    case deny = 3
    case unspecified = 4
    case recoverableTrustFailure = 5
    case fatalTrustFailure = 6
    case otherError = 7
}

/// Apple's `SecTrustCallback` / `SecTrustWithErrorCallback`.
public typealias SecTrustCallback = (SecTrust, SecTrustResultType) -> Void
public typealias SecTrustWithErrorCallback = (SecTrust, Bool, CFError?) -> Void

/// Apple's `SecTrust`: certificates to evaluate, policies, anchors, a verify date and the cached outcome.
///
/// Thread-safe: the mutable state lives behind a mutex; evaluation runs outside it on a snapshot.
public final class SecTrust: NSObject, @unchecked Sendable {
    // @unchecked: all mutable state is inside `state` (a Mutex).
    struct State {
        var certificates: [SecCertificate]
        var policies: [SecPolicy]
        var customAnchors: [SecCertificate]? = nil
        var anchorsOnly = false
        var verifyDate: Date? = nil
        var networkFetchAllowed = false
        var ocspResponses: [Data] = []
        var crls: [CertificateRevocationList] = []
        /// What the OpenSecurity extras (``OpenSecurityTrust``) asked for beyond the policies.
        var extras = TrustExtras()
        var exceptions: [[String: Any]]? = nil
        var outcome: Outcome? = nil
    }

    /// The result of one evaluation.
    struct Outcome {
        var result: SecTrustResultType
        var evaluation: TrustEvaluation
        /// Failures left after applying exceptions.
        var failures: [TrustFailure]
        var chain: [SecCertificate]
        var date: Date
        /// Chain index of a certificate the user's or administrator's trust settings deny (result Deny).
        var deniedIndex: Int? = nil
    }

    let state: LockedValue<State>

    init(certificates: [SecCertificate], policies: [SecPolicy]) {
        state = LockedValue(State(certificates: certificates, policies: policies))
    }

    func mutate(_ body: (inout State) -> Void) {
        state.withLock {
            body(&$0)
            $0.outcome = nil
        }
    }

    /// Evaluates if there is no cached outcome, and returns the outcome.
    func evaluateIfNeeded() -> Outcome {
        if let cached = state.withLock({ $0.outcome }) { return cached }
        let snapshot = state.withLock { state -> State in
            if state.verifyDate == nil { state.verifyDate = Date() }
            return state
        }
        let outcome = SecTrust.evaluate(snapshot)
        state.withLock { $0.outcome = outcome }
        return outcome
    }

    /// Translates the policies (every one of which must be satisfied, as on Apple platforms) and the extras into
    /// validation options.
    static func options(for snapshot: State, date: Date) -> ValidationOptions {
        var options = ValidationOptions(time: Int64(date.timeIntervalSince1970.rounded(.down)))
        var rfc5280Profile = false
        var sslServer = false
        for policy in snapshot.policies {
            if policy.familyOID == kSecPolicyAppleIPsec as String, case .ssl(_, let hostname) = policy.kind {
                // Apple's IPsec policy: the basic X.509 checks plus the host name; no EKU or SSL profile rules.
                rfc5280Profile = true
                if let hostname, !hostname.isEmpty { options.peerNames.append(PeerName.host(hostname)) }
                continue
            }
            switch policy.kind {
            case .basicX509:
                rfc5280Profile = true
            case .ssl(let server, let hostname):
                options.purpose = server ? .serverAuth : .clientAuth
                if server {
                    // Apple's KeySize, hash, lifetime and ServerAuthEKU rules, and the CA/B Forum profile.
                    sslServer = true
                    options.sslRules = true
                    options.requireServerAuthEKU = true
                    options.cabfProfile = true
                } else {
                    rfc5280Profile = true
                }
                if let hostname, !hostname.isEmpty { options.peerNames.append(PeerName.host(hostname)) }
            case .eap(let server, let names):
                // Apple's EAP policy: the basic X.509 checks (no SSL profile rules), the EKU and the trusted names.
                rfc5280Profile = true
                options.purpose = server ? .serverAuth : .clientAuth
                options.eapTrustedServerNames += names
            case .revocation(let flags):
                options.revocation.enabled = true
                options.revocation.requirePositiveResponse = flags & kSecRevocationRequirePositiveResponse != 0
            }
        }
        // BR 7.1.2.10.8's non-critical nameConstraints exception belongs to the SSL server profile; a policy that
        // applies RFC 5280's profile in the same evaluation keeps its rule.
        options.nameConstraintsMayBeNonCritical = sslServer && !rfc5280Profile
        options.crls = snapshot.crls
        options.ocspResponses = snapshot.ocspResponses.map { [UInt8]($0) }
        snapshot.extras.apply(to: &options)
        return options
    }

    /// The anchor stores an evaluation searches: the custom anchors, then, unless anchors-only, the system store and
    /// the roots that the user's and admin's trust settings anchor.
    static func anchorStores(for snapshot: State, trustSettings: SecTrustSettingsEvaluation) -> [AnchorStore] {
        var stores: [AnchorStore] = []
        if let custom = snapshot.customAnchors { stores.append(AnchorStore(infos: custom.map(\.trustInfo))) }
        if snapshot.customAnchors == nil || !snapshot.anchorsOnly {
            stores.append(AnchorStore.system)
            if let anchors = trustSettings.anchors { stores.append(anchors) }
        }
        return stores
    }

    static func evaluate(_ snapshot: State) -> Outcome {
        let date = snapshot.verifyDate ?? Date()
        let options = options(for: snapshot, date: date)
        let leaf = snapshot.certificates[0].certificate
        let trustSettings = SecTrustSettingsEvaluation(policies: snapshot.policies, certificates: snapshot.certificates)
        let builder = ChainBuilder(
            anchors: anchorStores(for: snapshot, trustSettings: trustSettings),
            intermediateInfos: snapshot.certificates.dropFirst().map(\.trustInfo),
            options: options)
        let evaluation = builder.evaluate(info: snapshot.certificates[0].trustInfo)

        // Reuse the caller's SecCertificate objects for chain members they supplied.
        let supplied = snapshot.certificates + (snapshot.customAnchors ?? [])
        let chain = evaluation.chain.map { member in
            supplied.first { $0.certificate == member } ?? SecCertificate(member)
        }

        var failures = evaluation.failures
        var excepted = false
        if let exceptions = snapshot.exceptions, !failures.isEmpty, !failures.hasFatal,
            let first = exceptions.first, let digest = first["SHA1Digest"] as? Data, digest == leaf.sha1Fingerprint
        {
            failures.removeAll { failure in
                guard failure.index < exceptions.count else { return false }
                return exceptions[failure.index][failure.check.rawValue] != nil
            }
            excepted = failures.isEmpty
        }
        var result: SecTrustResultType
        if failures.isEmpty {
            result = excepted ? .proceed : .unspecified
        } else if failures.hasFatal {
            result = .fatalTrustFailure
        } else {
            result = .recoverableTrustFailure
        }
        let denied: Int?
        (result, denied) = trustSettings.adjust(result, chain: evaluation.chain)
        return Outcome(
            result: result, evaluation: evaluation, failures: failures, chain: chain, date: date, deniedIndex: denied)
    }

    /// The `CFError` Apple returns from `SecTrustEvaluateWithError` for a failed outcome.
    func error(for outcome: Outcome) -> NSError? {
        guard outcome.result != .unspecified && outcome.result != .proceed else { return nil }
        if let denied = outcome.deniedIndex {
            return SecTrustSettingsEvaluation.denyError(chain: outcome.evaluation.chain, index: denied)
        }
        guard let decisive = outcome.failures.mostImportant else {
            return NSError(domain: NSOSStatusErrorDomain, code: Int(errSecInternal), userInfo: nil)
        }
        let certificate = outcome.evaluation.chain[min(decisive.index, outcome.evaluation.chain.count - 1)]
        let summary = TrustText.summary(certificate)
        let description: String
        switch decisive.check.category {
        case .expired:
            description =
                outcome.date.timeIntervalSince1970 < Double(certificate.notBefore.secondsSinceEpoch)
                ? "“\(summary)” certificate is not yet valid" : "“\(summary)” certificate is expired"
        case .name: description = "“\(summary)” certificate name does not match input"
        case .usage: description = "“\(summary)” certificate is not permitted for this usage"
        case .revoked: description = "“\(summary)” certificate is revoked"
        case .keySize: description = "“\(summary)” certificate is using a broken key size"
        case .weakHash: description = "“\(summary)” certificate is using a broken signature algorithm"
        case .compliance where decisive.check == .validityPeriodMaximums:
            description = "“\(summary)” certificate has a validity period that is too long"
        default: description = "“\(summary)” certificate is not trusted"
        }
        var perCertificate: [String] = []
        for (index, certificate) in outcome.evaluation.chain.enumerated() {
            let mine = outcome.failures.filter { $0.index == index }
            guard !mine.isEmpty else { continue }
            let texts = mine.map { "\($0.check.detailText) (\($0.reason));" }.joined(separator: " ")
            perCertificate.append("Certificate \(index) “\(TrustText.summary(certificate))” has errors: \(texts)")
        }
        let code = Int(SecError.status(for: decisive.check))
        let underlying = NSError(
            domain: NSOSStatusErrorDomain, code: code,
            userInfo: [NSLocalizedDescriptionKey: perCertificate.joined(separator: "\n")])
        return NSError(
            domain: NSOSStatusErrorDomain, code: code,
            userInfo: [NSLocalizedDescriptionKey: description, NSUnderlyingErrorKey: underlying])
    }
}

/// Texts for messages.
enum TrustText {
    /// Apple's subject summary (`SecCertificateCopySubjectSummary`), else the RFC 4514 subject.
    static func summary(_ certificate: Certificate) -> String {
        SecCertificateSummary.summary(of: certificate) ?? certificate.subject.rfc4514String
    }
}

// MARK: - Creation and configuration

/// Apple's `SecTrustGetTypeID`.
public func SecTrustGetTypeID() -> CFTypeID { 0x5EC0_0003 }

func trustCertificates(_ value: CFTypeRef) -> [SecCertificate]? {
    if let single = value as? SecCertificate { return [single] }
    guard let array = value as? NSArray, array.count > 0 else { return nil }
    return certificateArray(array)
}

/// The elements of `array` if every one is a SecCertificate (nil otherwise).
func certificateArray(_ array: NSArray) -> [SecCertificate]? {
    var result: [SecCertificate] = []
    result.reserveCapacity(array.count)
    for element in array {  // fast enumeration: cheaper than object(at:) on Linux
        guard let certificate = element as? SecCertificate else { return nil }
        result.append(certificate)
    }
    return result
}

func trustPolicies(_ value: CFTypeRef?) -> [SecPolicy]? {
    guard let value else { return [SecPolicyCreateBasicX509()] }
    if let single = value as? SecPolicy { return [single] }
    guard let array = value as? NSArray, array.count > 0 else { return nil }
    var result: [SecPolicy] = []
    for item in array {
        guard let policy = item as? SecPolicy else { return nil }
        result.append(policy)
    }
    return result
}

/// Apple's `SecTrustCreateWithCertificates`: a certificate or an array (leaf first, then intermediates in any
/// order); a policy, an array of policies, or nil (BasicX509). Wrong types → errSecParam.
public func SecTrustCreateWithCertificates(
    _ certificates: CFTypeRef, _ policies: CFTypeRef?,
    _ trust: UnsafeMutablePointer<SecTrust?>
) -> OSStatus {
    guard let certs = trustCertificates(certificates), let policyList = trustPolicies(policies) else {
        return errSecParam
    }
    trust.pointee = SecTrust(certificates: certs, policies: policyList)
    return errSecSuccess
}

/// Apple's `SecTrustSetAnchorCertificates`: the given anchors replace the system store (anchors-only becomes true);
/// nil restores the system anchors (anchors-only false).
public func SecTrustSetAnchorCertificates(_ trust: SecTrust, _ anchorCertificates: CFArray?) -> OSStatus {
    guard let anchorCertificates else {
        trust.mutate {
            $0.customAnchors = nil
            $0.anchorsOnly = false
        }
        return errSecSuccess
    }
    guard let anchors = certificateArray(anchorCertificates) else { return errSecParam }
    trust.mutate {
        $0.customAnchors = anchors
        $0.anchorsOnly = true
    }
    return errSecSuccess
}

/// Apple's `SecTrustSetAnchorCertificatesOnly`: false trusts the custom anchors and the system store.
public func SecTrustSetAnchorCertificatesOnly(_ trust: SecTrust, _ anchorCertificatesOnly: Bool) -> OSStatus {
    trust.mutate { $0.anchorsOnly = anchorCertificatesOnly }
    return errSecSuccess
}

/// Apple's `SecTrustCopyCustomAnchorCertificates`: nil when none were set.
public func SecTrustCopyCustomAnchorCertificates(
    _ trust: SecTrust, _ anchors: UnsafeMutablePointer<CFArray?>
) -> OSStatus {
    anchors.pointee = trust.state.withLock { $0.customAnchors.map { $0 as NSArray } }
    return errSecSuccess
}

/// Apple's `SecTrustSetVerifyDate`.
public func SecTrustSetVerifyDate(_ trust: SecTrust, _ verifyDate: CFDate) -> OSStatus {
    let date = verifyDate as Date
    trust.mutate { $0.verifyDate = date }
    return errSecSuccess
}

/// Apple's `SecTrustGetVerifyTime`: the verify date, pinning "now" on first use.
public func SecTrustGetVerifyTime(_ trust: SecTrust) -> CFAbsoluteTime {
    trust.state.withLock { state in
        let date = state.verifyDate ?? Date()
        state.verifyDate = date
        return date.timeIntervalSinceReferenceDate
    }
}

/// Apple's `SecTrustSetPolicies`.
public func SecTrustSetPolicies(_ trust: SecTrust, _ policies: CFTypeRef) -> OSStatus {
    guard let list = trustPolicies(policies) else { return errSecParam }
    trust.mutate { $0.policies = list }
    return errSecSuccess
}

/// Apple's `SecTrustCopyPolicies`.
public func SecTrustCopyPolicies(_ trust: SecTrust, _ policies: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    policies.pointee = trust.state.withLock { $0.policies as NSArray }
    return errSecSuccess
}

/// Apple's `SecTrustSetNetworkFetchAllowed`. Recorded only: OpenSecurity never fetches anything (no AIA issuer
/// fetching, no OCSP/CRL downloads); supply CRLs and OCSP responses yourself.
public func SecTrustSetNetworkFetchAllowed(_ trust: SecTrust, _ allowFetch: Bool) -> OSStatus {
    trust.mutate { $0.networkFetchAllowed = allowFetch }
    return errSecSuccess
}

/// Apple's `SecTrustSetOCSPResponse`: a CFData or an array of them (stored; see docs/trust.md for what is checked).
public func SecTrustSetOCSPResponse(_ trust: SecTrust, _ responseData: CFTypeRef?) -> OSStatus {
    var responses: [Data] = []
    if let responseData {
        if let data = responseData as? NSData {
            responses = [data.swiftData]
        } else if let array = responseData as? NSArray {
            for item in array {
                guard let data = item as? NSData else { return errSecParam }
                responses.append(data.swiftData)
            }
        } else {
            return errSecParam
        }
    }
    trust.mutate { $0.ocspResponses = responses }
    return errSecSuccess
}

/// OpenSecurity extra (no Apple equivalent): DER or PEM CRLs to check revocation against when a revocation policy
/// is present (Apple downloads CRLs itself; we never use the network). Each element is a CFData.
public func SecTrustSetCRLs(_ trust: SecTrust, _ crls: CFArray) -> OSStatus {
    var parsed: [CertificateRevocationList] = []
    for item in crls {
        guard let data = item as? NSData else { return errSecParam }
        let bytes = [UInt8](data.swiftData)
        if bytes.first == 0x30, let crl = try? CertificateRevocationList(derEncoded: bytes) {
            parsed.append(crl)
        } else if let list = try? CertificateRevocationList.crls(fromPEM: String(decoding: bytes, as: UTF8.self)),
            !list.isEmpty
        {
            parsed.append(contentsOf: list)
        } else {
            return errSecDecode
        }
    }
    trust.mutate { $0.crls = parsed }
    return errSecSuccess
}

// MARK: - Evaluation

/// Apple's `SecTrustEvaluateWithError`: true iff the result is Proceed or Unspecified. On failure `error` gets an
/// NSOSStatusErrorDomain error whose code is the OSStatus of the most important failure.
public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool {
    let outcome = trust.evaluateIfNeeded()
    if let failure = trust.error(for: outcome) {
        error?.pointee = failure
        return false
    }
    error?.pointee = nil
    return true
}

/// Apple's deprecated `SecTrustEvaluate`: the OSStatus reports machinery failures only; the verdict is `result`.
public func SecTrustEvaluate(_ trust: SecTrust, _ result: UnsafeMutablePointer<SecTrustResultType>) -> OSStatus {
    result.pointee = trust.evaluateIfNeeded().result
    return errSecSuccess
}

/// Wraps a non-Sendable callback for a hop to another queue (it is invoked exactly once, on that queue).
private struct UncheckedCallback<T>: @unchecked Sendable { let value: T }

/// Apple's `SecTrustEvaluateAsyncWithError`: evaluates on `queue` and calls `result` there.
public func SecTrustEvaluateAsyncWithError(
    _ trust: SecTrust, _ queue: DispatchQueue,
    _ result: @escaping SecTrustWithErrorCallback
) -> OSStatus {
    let callback = UncheckedCallback(value: result)
    queue.async {
        var error: CFError? = nil
        let ok = SecTrustEvaluateWithError(trust, &error)
        callback.value(trust, ok, error)
    }
    return errSecSuccess
}

/// Apple's deprecated `SecTrustEvaluateAsync`.
public func SecTrustEvaluateAsync(
    _ trust: SecTrust, _ queue: DispatchQueue?, _ result: @escaping SecTrustCallback
) -> OSStatus {
    let callback = UncheckedCallback(value: result)
    (queue ?? DispatchQueue.global()).async {
        callback.value(trust, trust.evaluateIfNeeded().result)
    }
    return errSecSuccess
}

/// Apple's `SecTrustGetTrustResult`: the result of the most recent evaluation; `.invalid` if the trust has not been
/// evaluated since it was created or last changed (Apple's documented behaviour; it does not evaluate).
public func SecTrustGetTrustResult(_ trust: SecTrust, _ result: UnsafeMutablePointer<SecTrustResultType>) -> OSStatus {
    result.pointee = trust.state.withLock { $0.outcome?.result } ?? .invalid
    return errSecSuccess
}

nonisolated(unsafe) public let kSecTrustEvaluationDate: CFString = "TrustEvaluationDate"
nonisolated(unsafe) public let kSecTrustExtendedValidation: CFString = "TrustExtendedValidation"
nonisolated(unsafe) public let kSecTrustOrganizationName: CFString = "Organization"
nonisolated(unsafe) public let kSecTrustResultValue: CFString = "TrustResultValue"
nonisolated(unsafe) public let kSecTrustRevocationChecked: CFString = "TrustRevocationChecked"
nonisolated(unsafe) public let kSecTrustRevocationValidUntilDate: CFString = "TrustExpirationDate"
nonisolated(unsafe) public let kSecTrustCertificateTransparency: CFString = "TrustCertificateTransparency"
/// The per-certificate details key (Apple's private `kSecTrustResultDetails`).
nonisolated(unsafe) public let kSecTrustResultDetails: CFString = "TrustResultDetails"
nonisolated(unsafe) public let kSecPropertyKeyType: CFString = "type"
nonisolated(unsafe) public let kSecPropertyKeyValue: CFString = "value"
nonisolated(unsafe) public let kSecPropertyTypeError: CFString = "error"

/// Apple's `SecTrustCopyResult` (nil before evaluation): `TrustResultValue`, `TrustEvaluationDate`,
/// `TrustResultDetails` (one dictionary
/// per chain certificate: failed check name → false; macOS-style `StatusCodes` array added) and
/// `TrustRevocationChecked` when revocation was checked.
public func SecTrustCopyResult(_ trust: SecTrust) -> CFDictionary? {
    // Apple: NULL when the trust has not been evaluated.
    guard let outcome = trust.state.withLock({ $0.outcome }) else { return nil }
    var details: [[String: Any]] = []
    for index in outcome.chain.indices {
        var entry: [String: Any] = [:]
        var codes: [Int] = []
        for failure in outcome.failures where failure.index == index {
            entry[failure.check.rawValue] = false
            codes.append(Int(SecError.status(for: failure.check)))
        }
        if !codes.isEmpty { entry["StatusCodes"] = codes }
        details.append(entry)
    }
    var result: [String: Any] = [
        kSecTrustResultValue as String: NSNumber(value: outcome.result.rawValue),
        kSecTrustEvaluationDate as String: outcome.date,
        kSecTrustResultDetails as String: details,
    ]
    if outcome.evaluation.revocationChecked { result[kSecTrustRevocationChecked as String] = true }
    return result as NSDictionary
}

/// Apple's (iOS) `SecTrustCopyProperties`: nil when trusted, else `[{type: error, value: text}]`.
public func SecTrustCopyProperties(_ trust: SecTrust) -> CFArray? {
    let outcome = trust.evaluateIfNeeded()
    guard !outcome.failures.isEmpty else { return nil }
    var texts: [String] = []
    for failure in outcome.failures {
        let text: String
        switch failure.check {
        case .anchorTrusted: text = "Root certificate is not trusted."
        case .missingIntermediate: text = "Unable to build chain to root certificate."
        case .sslHostname: text = "Hostname mismatch."
        case .temporalValidity: text = "One or more certificates have expired or are not valid yet."
        case .revocation: text = "Certificate has been revoked."
        default: text = failure.check.detailText + "."
        }
        if !texts.contains(text) { texts.append(text) }
    }
    return texts.map {
        [kSecPropertyKeyType as String: kSecPropertyTypeError as String, kSecPropertyKeyValue as String: $0]
    } as NSArray
}

// MARK: - Chain access

/// Apple's `SecTrustCopyCertificateChain`: the built chain, leaf to anchor (evaluates if needed).
public func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray? {
    trust.evaluateIfNeeded().chain as NSArray
}

/// Apple's `SecTrustGetCertificateCount` (evaluates if needed; at least 1).
public func SecTrustGetCertificateCount(_ trust: SecTrust) -> CFIndex {
    max(1, trust.evaluateIfNeeded().chain.count)
}

/// Apple's `SecTrustGetCertificateAtIndex`: index 0 is the input leaf (no evaluation); others come from the chain.
public func SecTrustGetCertificateAtIndex(_ trust: SecTrust, _ ix: CFIndex) -> SecCertificate? {
    if ix == 0 { return trust.state.withLock { $0.certificates.first } }
    let chain = trust.evaluateIfNeeded().chain
    return chain.indices.contains(ix) ? chain[ix] : nil
}

/// Apple's `SecTrustCopyKey`: the leaf's public key (RSA or EC), nil for other key types.
public func SecTrustCopyKey(_ trust: SecTrust) -> SecKey? {
    guard let leaf = trust.state.withLock({ $0.certificates.first }) else { return nil }
    guard let key = try? leaf.certificate.publicKeyInfo.makeKey() else { return nil }
    return SecKey.wrapping(key)
}

/// Apple's deprecated `SecTrustCopyPublicKey`.
public func SecTrustCopyPublicKey(_ trust: SecTrust) -> SecKey? { SecTrustCopyKey(trust) }

// MARK: - Exceptions

/// Apple's `SecTrustCopyExceptions`: a binary property list: one dictionary per chain certificate (trailing empty
/// ones trimmed, entry 0 always present) mapping each failed recoverable check to false, plus `SHA1Digest`.
/// nil when there is no chain to describe (Apple's returns `CFData?`).
public func SecTrustCopyExceptions(_ trust: SecTrust) -> CFData? {
    let snapshot = trust.state.withLock { state -> SecTrust.State in
        if state.verifyDate == nil { state.verifyDate = Date() }
        var copy = state
        copy.exceptions = nil
        return copy
    }
    let outcome = SecTrust.evaluate(snapshot)
    var entries: [[String: Any]] = []
    for (index, certificate) in outcome.evaluation.chain.enumerated() {
        var entry: [String: Any] = [:]
        for failure in outcome.evaluation.failures where failure.index == index && !failure.check.isFatal {
            entry[failure.check.rawValue] = false
        }
        if !entry.isEmpty || index == 0 { entry["SHA1Digest"] = certificate.sha1Fingerprint }
        entries.append(entry)
    }
    while entries.count > 1, let last = entries.last, last.keys.allSatisfy({ $0 == "SHA1Digest" }) {
        entries.removeLast()
    }
    guard !entries.isEmpty else { return nil }
    return (try? PropertyListSerialization.data(fromPropertyList: entries, format: .binary, options: 0)).map {
        $0 as NSData
    }
}

/// Apple's `SecTrustSetExceptions`: true only if the exceptions were made for this leaf (entry 0's SHA-1 digest);
/// nil clears them. Only recoverable failures can be excepted; a fully excepted chain evaluates to Proceed.
public func SecTrustSetExceptions(_ trust: SecTrust, _ exceptions: CFData?) -> Bool {
    guard let exceptions else {
        trust.mutate { $0.exceptions = nil }
        return true
    }
    guard
        let list = try? PropertyListSerialization.propertyList(from: exceptions.swiftData, options: [], format: nil)
            as? [[String: Any]],
        let digest = list.first?["SHA1Digest"] as? Data,
        let leaf = trust.state.withLock({ $0.certificates.first }),
        digest == leaf.certificate.sha1Fingerprint
    else {
        trust.mutate { $0.exceptions = nil }
        return false
    }
    trust.mutate { $0.exceptions = list }
    return true
}

/// OpenSecurity internal: forgets every decoded certificate, built key and remembered signature verdict shared
/// between evaluations (benchmarks use it to measure cold evaluations). Never needed for correctness. A
/// `SecCertificate` that was evaluated before keeps what it decoded: a cold measurement makes new ones from DER.
@_spi(OpenSecurityInternal)
public func SecTrustPurgeSharedCaches(keeping anchors: [SecCertificate] = []) {
    CertificateInfo.purgeCache(keeping: anchors.map(\.certificate))
}
