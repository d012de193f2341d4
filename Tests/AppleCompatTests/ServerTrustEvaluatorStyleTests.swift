import Foundation
import Security
import Testing

// In the style of Alamofire's server-trust evaluators: a namespacing wrapper added by protocol conformance to
// SecTrust, SecPolicy, SecCertificate, OSStatus and SecTrustResultType; pinned certificates as anchors with
// SecTrustSetAnchorCertificatesOnly; the chain read with SecTrustCopyCertificateChain (or count/at-index on older
// systems); public keys through a per-certificate basic-X.509 trust and SecTrustCopyKey, compared with `contains`;
// revocation as a second policy in an array passed as CFTypeRef; the deprecated SecTrustEvaluate result check.

struct PinExtension<Base> {
    let base: Base
}

protocol PinExtended {
    associatedtype Base
    var pin: PinExtension<Base> { get }
}

extension PinExtended {
    var pin: PinExtension<Self> { PinExtension(base: self) }
}

enum PinError: Error {
    case policyApplicationFailed(OSStatus)
    case evaluationFailed(CFError?)
    case anchorsFailed(OSStatus)
    case noMatch
}

extension SecTrust: PinExtended {}
extension SecPolicy: PinExtended {}
extension SecCertificate: PinExtended {}
extension OSStatus: PinExtended {}
extension SecTrustResultType: PinExtended {}

extension PinExtension where Base == OSStatus {
    var isSuccess: Bool { base == errSecSuccess }
}

extension PinExtension where Base == SecTrustResultType {
    var isSuccess: Bool { base == .unspecified || base == .proceed }
}

extension PinExtension where Base == SecPolicy {
    static func hostname(_ hostname: String) -> SecPolicy { SecPolicyCreateSSL(true, hostname as CFString) }
    static var anyHost: SecPolicy { SecPolicyCreateSSL(true, nil) }
}

extension PinExtension where Base == SecCertificate {
    var data: Data { SecCertificateCopyData(base) as Data }

    var publicKey: SecKey? {
        let policy = SecPolicyCreateBasicX509()
        var trust: SecTrust?
        let status = SecTrustCreateWithCertificates(base, policy, &trust)
        guard let created = trust, status == errSecSuccess else { return nil }
        return SecTrustCopyKey(created)
    }
}

extension PinExtension where Base == SecTrust {
    @discardableResult
    func apply(policy: SecPolicy) throws -> SecTrust {
        let status = SecTrustSetPolicies(base, policy)
        guard status.pin.isSuccess else { throw PinError.policyApplicationFailed(status) }
        return base
    }

    func evaluate() throws {
        var error: CFError?
        if !SecTrustEvaluateWithError(base, &error) { throw PinError.evaluationFailed(error) }
    }

    func setAnchorCertificates(_ certificates: [SecCertificate]) throws {
        let status = SecTrustSetAnchorCertificates(base, certificates as CFArray)
        guard status.pin.isSuccess else { throw PinError.anchorsFailed(status) }
        let onlyStatus = SecTrustSetAnchorCertificatesOnly(base, true)
        guard onlyStatus.pin.isSuccess else { throw PinError.anchorsFailed(onlyStatus) }
    }

    var certificates: [SecCertificate] {
        (SecTrustCopyCertificateChain(base) as? [SecCertificate]) ?? []
    }

    var certificatesByIndex: [SecCertificate] {
        (0..<SecTrustGetCertificateCount(base)).compactMap { index in SecTrustGetCertificateAtIndex(base, index) }
    }

    var publicKeys: [SecKey] { certificates.compactMap(\.pin.publicKey) }
}

/// Pinned certificates: the server's chain must contain one of them, after evaluating with them as anchors.
func evaluatePinnedCertificates(_ pinned: [SecCertificate], trust: SecTrust, host: String) throws {
    try trust.pin.setAnchorCertificates(pinned)
    try trust.pin.apply(policy: PinExtension<SecPolicy>.hostname(host)).pin.evaluate()
    let serverData = Set(trust.pin.certificates.map(\.pin.data))
    guard pinned.contains(where: { serverData.contains($0.pin.data) }) else { throw PinError.noMatch }
}

@Suite struct ServerTrustEvaluatorStyleTests {
    @Test func pinnedCertificateAsOnlyAnchorPassesForItsHost() throws {
        let chain = try #require(PinningChain.shared)
        let trust = try #require(chain.serverTrust())
        try evaluatePinnedCertificates([chain.root], trust: trust, host: chain.host)
        // After evaluation the chain runs leaf first, anchor last, both ways of reading it agree.
        #expect(trust.pin.certificates.map(\.pin.data) == [chain.leafDER, chain.rootDER])
        #expect(trust.pin.certificatesByIndex.map(\.pin.data) == [chain.leafDER, chain.rootDER])
        #expect(SecTrustGetCertificateAtIndex(trust, 2) == nil)
    }

    @Test func wrongHostFailsWithAHostNameError() throws {
        let chain = try #require(PinningChain.shared)
        let trust = try #require(chain.serverTrust())
        #expect(throws: PinError.self) {
            try evaluatePinnedCertificates([chain.root], trust: trust, host: "other.example")
        }
        var error: CFError?
        #expect(!SecTrustEvaluateWithError(trust, &error))
        let failure = try #require(error)
        #expect(CFErrorGetCode(failure) == Int(errSecHostNameMismatch))
        #expect(CFErrorGetDomain(failure) as String == NSOSStatusErrorDomain)
    }

    @Test func anchorsOnlyRejectsAChainThatEndsInAnotherRoot() throws {
        let chain = try #require(PinningChain.shared)
        let trust = try #require(chain.serverTrust(presenting: [chain.stranger]))
        #expect(throws: PinError.self) {
            try evaluatePinnedCertificates([chain.root], trust: trust, host: chain.host)
        }
        // The deprecated shape: status success, result a recoverable failure (not .unspecified/.proceed).
        var result = SecTrustResultType.invalid
        #expect(SecTrustEvaluate(trust, &result).pin.isSuccess)
        #expect(result == .recoverableTrustFailure)
        #expect(!result.pin.isSuccess)
    }

    @Test func deprecatedEvaluateGivesUnspecifiedForAnAppAnchor() throws {
        let chain = try #require(PinningChain.shared)
        let trust = try #require(chain.serverTrust())
        try trust.pin.setAnchorCertificates([chain.root])
        var result = SecTrustResultType.invalid
        #expect(SecTrustEvaluate(trust, &result) == errSecSuccess)
        #expect(result == .unspecified && result.pin.isSuccess)
        var again = SecTrustResultType.invalid
        #expect(SecTrustGetTrustResult(trust, &again) == errSecSuccess && again == .unspecified)
    }

    @Test func publicKeysMatchAcrossSeparateInstances() throws {
        let chain = try #require(PinningChain.shared)
        let trust = try #require(chain.serverTrust())
        try trust.pin.setAnchorCertificates([chain.root])
        try trust.pin.evaluate()
        // Keys taken from freshly decoded "bundle" certificates are other objects, equal by value.
        let bundleCertificate = try #require(SecCertificateCreateWithData(nil, chain.leafDER as CFData))
        let pinnedKeys = [bundleCertificate].compactMap(\.pin.publicKey)
        #expect(pinnedKeys.count == 1)
        #expect(trust.pin.publicKeys.contains { pinnedKeys.contains($0) })
        let leafKey = try #require(SecCertificateCopyKey(chain.leaf))
        #expect(pinnedKeys.contains(leafKey))
        #expect(SecTrustCopyKey(trust) == leafKey)
        let strangerKey = try #require(SecCertificateCopyKey(chain.stranger))
        #expect(!trust.pin.publicKeys.contains(strangerKey))
        #expect(Set(trust.pin.publicKeys + [leafKey]).count == 2)
    }

    @Test func revocationPolicyJoinsTheSSLPolicyInOneArray() throws {
        let chain = try #require(PinningChain.shared)
        let trust = try #require(chain.serverTrust())
        let options: CFOptionFlags = kSecRevocationUseAnyAvailableMethod | kSecRevocationRequirePositiveResponse
        let revocation = try #require(SecPolicyCreateRevocation(options))
        let ssl = PinExtension<SecPolicy>.hostname(chain.host)
        #expect(SecTrustSetPolicies(trust, [ssl, revocation] as CFTypeRef) == errSecSuccess)
        var policies: CFArray?
        #expect(SecTrustCopyPolicies(trust, &policies) == errSecSuccess)
        #expect((policies as? [SecPolicy])?.count == 2)
        // A single policy is accepted as CFTypeRef too.
        #expect(SecTrustSetPolicies(trust, PinExtension<SecPolicy>.anyHost) == errSecSuccess)
        #expect(SecTrustCopyPolicies(trust, &policies) == errSecSuccess && CFArrayGetCount(policies) == 1)
    }
}
