import Foundation
import OSecSystem
import OSecTrust
import OSecX509

/// How the user's and the administrator's trust settings change one evaluation (Apple's semantics):
///
/// - A certificate whose settings give `TrustRoot` / `TrustAsRoot` for the evaluated policy is an extra anchor
///   (with the system anchors, unless `SecTrustSetAnchorCertificates` made the custom anchors the only ones), and a
///   chain that ends at it evaluates to `kSecTrustResultProceed` ("trusted with user intent").
/// - A certificate whose settings give `Deny` for the policy makes the evaluation `kSecTrustResultDeny`
///   (errSecTrustSettingDeny), wherever it is in the chain and even when the system store has it.
///
/// For each certificate the user's settings come first, then the administrator's; within a domain the first usage
/// constraint that matches the policy decides (a constraint without a result means `TrustRoot`; a certificate with
/// an empty constraint list is trusted as a root for every policy). A constraint matches when it names no policy
/// or the evaluated one (SSL server or client by `kSecTrustSettingsPolicyName`), its policy string (if any) equals
/// the evaluated host name, and it names no application (applications cannot be identified here).
struct SecTrustSettingsEvaluation {
    /// Certificates trusted as anchors for the policy, by SHA-1 key.
    private(set) var trusted: [String: Certificate] = [:]
    /// SHA-1 keys of certificates denied for the policy.
    private(set) var denied: Set<String> = []
    private let decisions: [String: SecTrustSettingsResult]

    /// Reads the settings (cached per file) for an evaluation of `policies` over `certificates`.
    init(policies: [SecPolicy], certificates: [SecCertificate]) {
        let user = SecTrustSettingsStore.records(.user)
        let admin = SecTrustSettingsStore.records(.admin)
        guard !user.isEmpty || !admin.isEmpty else {
            decisions = [:]
            return
        }
        let policy =
            policies.first { if case .revocation = $0.kind { false } else { true } } ?? SecPolicyCreateBasicX509()
        var decisions: [String: SecTrustSettingsResult] = [:]
        for key in Set(user.keys).union(admin.keys) {
            let decision = [user[key], admin[key]].lazy.compactMap { $0 }.compactMap {
                Self.decision($0.constraints, for: policy)
            }.first
            if let decision { decisions[key] = decision }
        }
        self.decisions = decisions
        let supplied = Dictionary(certificates.map { (Self.key($0.certificate), $0.certificate) }) { first, _ in first }
        for (key, decision) in decisions {
            switch decision {
            case .trustRoot, .trustAsRoot:
                let stored = (user[key]?.certificate ?? admin[key]?.certificate).flatMap {
                    Self.certificate(key, $0)
                }
                if let certificate = stored ?? supplied[key] { trusted[key] = certificate }
            case .deny:
                denied.insert(key)
            case .invalid, .unspecified:
                break
            }
        }
    }

    /// The extra anchors, or `nil` when there are none.
    var anchors: AnchorStore? { trusted.isEmpty ? nil : AnchorStore(Array(trusted.values)) }

    /// The result once the settings are applied to an evaluated `chain`, with the index of the denied certificate.
    func adjust(_ result: SecTrustResultType, chain: [Certificate]) -> (SecTrustResultType, deniedIndex: Int?) {
        guard !decisions.isEmpty else { return (result, nil) }
        if let index = chain.firstIndex(where: { denied.contains(Self.key($0)) }) { return (.deny, index) }
        if result == .unspecified, let anchor = chain.last, trusted[Self.key(anchor)] != nil { return (.proceed, nil) }
        return (result, nil)
    }

    /// Apple's error for a denied chain: errSecTrustSettingDeny naming the certificate.
    static func denyError(chain: [Certificate], index: Int) -> NSError {
        let summary = chain.indices.contains(index) ? TrustText.summary(chain[index]) : "certificate"
        let underlying = NSError(
            domain: NSOSStatusErrorDomain, code: Int(errSecTrustSettingDeny),
            userInfo: [
                NSLocalizedDescriptionKey:
                    "Certificate \(index) “\(summary)” has errors: Trust setting is Deny (UsageConstraints);"
            ])
        return NSError(
            domain: NSOSStatusErrorDomain, code: Int(errSecTrustSettingDeny),
            userInfo: [
                NSLocalizedDescriptionKey: "“\(summary)” certificate is not trusted",
                NSUnderlyingErrorKey: underlying,
            ])
    }

    /// Parsed stored certificates, by SHA-1 key (bounded: cleared when it grows past ``parsedLimit``).
    private static let parsed = LockedValue<[String: Certificate]>([:])
    private static let parsedLimit = 1024

    private static func certificate(_ key: String, _ der: Data) -> Certificate? {
        if let known = parsed.withLock({ $0[key] }) { return known }
        guard let certificate = try? Certificate(derEncoded: der), Self.key(certificate) == key else { return nil }
        parsed.withLock {
            if $0.count >= parsedLimit { $0.removeAll() }
            $0[key] = certificate
        }
        return certificate
    }

    // MARK: Matching

    static func key(_ certificate: Certificate) -> String {
        certificate.sha1Fingerprint.map { String(format: "%02X", $0) }.joined()
    }

    /// The decision of the first constraint matching `policy`, or `nil` when none matches.
    static func decision(
        _ constraints: [SecTrustSettingsStore.Constraint], for policy: SecPolicy
    ) -> SecTrustSettingsResult? {
        if constraints.isEmpty { return .trustRoot }
        for constraint in constraints where matches(constraint, policy) {
            return constraint.result.flatMap(SecTrustSettingsResult.init(rawValue:)) ?? .trustRoot
        }
        return nil
    }

    private static func matches(_ constraint: SecTrustSettingsStore.Constraint, _ policy: SecPolicy) -> Bool {
        if constraint.application != nil { return false }
        if let oid = constraint.policyOID {
            guard oid == policy.oid else { return false }
            if let name = constraint.policyName, let own = self.name(of: policy), name != own,
                [kSSLServerName, kSSLClientName].contains(name)
            {
                return false
            }
        }
        if let wanted = constraint.policyString {
            guard case .ssl(_, let hostname?) = policy.kind, hostname.caseInsensitiveCompare(wanted) == .orderedSame
            else { return false }
        }
        return true
    }

    static let kSSLServerName = "sslServer"
    static let kSSLClientName = "sslClient"

    /// Apple's `kSecTrustSettingsPolicyName` for a policy.
    static func name(of policy: SecPolicy) -> String? {
        switch policy.kind {
        case .basicX509: return "basicX509"
        case .ssl(let server, _): return server ? kSSLServerName : kSSLClientName
        case .revocation: return "revocation"
        case .eap(let server, _): return server ? "eapServer" : "eapClient"
        }
    }

    /// The SecPolicy a stored OID and name stand for (nil for policies not implemented here).
    static func policy(oid: String, name: String?) -> SecPolicy? {
        if oid == String(kSecPolicyAppleX509Basic) { return SecPolicyCreateBasicX509() }
        if oid == String(kSecPolicyAppleSSL) { return SecPolicyCreateSSL(name != kSSLClientName, nil) }
        if oid == String(kSecPolicyAppleEAP) {
            return SecPolicy(.eap(server: name != "eapClient", trustedServerNames: []))
        }
        if oid == String(kSecPolicyAppleRevocation) {
            return SecPolicyCreateRevocation(kSecRevocationUseAnyAvailableMethod)
        }
        return nil
    }
}
