import Dispatch
import Foundation
import OSecCrypto
import OSecX509
@_spi(OpenSecurityInternal) import Security
import Synchronization
import Testing

/// SecCertificate objects reused across many SecTrusts (and threads): each holds what trust evaluation decoded from
/// it, so these check that the held form gives the same verdicts as fresh certificates would.
@Suite struct TrustSharedCertificateTests {
    /// A decoy with the intermediate's subject under another key, issued by the root.
    static let decoy = TrustFixture.make(
        "Fixture Intermediate", key: TrustFixture.keys[3], ca: true, from: "2021-01-01T00:00:00Z",
        to: "2035-01-01T00:00:00Z", issuer: TrustFixture.root)

    struct Shared: @unchecked Sendable {
        let leaf = TrustFixture.sec(TrustFixture.leaf)
        let intermediate = TrustFixture.sec(TrustFixture.intermediate)
        let decoy = TrustFixture.sec(TrustSharedCertificateTests.decoy)
        let root = TrustFixture.sec(TrustFixture.root)
        /// The root twice (two objects of the same DER): the anchor set keeps one.
        let rootAgain = TrustFixture.sec(TrustFixture.root)
    }

    static func evaluate(
        _ shared: Shared, host: String = "www.example.com", date: Date = TrustFixture.inside
    ) -> (Bool, [SecCertificate]) {
        var trust: SecTrust?
        let certificates = [shared.leaf, shared.decoy, shared.intermediate] as NSArray
        guard
            SecTrustCreateWithCertificates(certificates, SecPolicyCreateSSL(true, host as CFString), &trust)
                == errSecSuccess, let trust
        else { return (false, []) }
        _ = SecTrustSetAnchorCertificates(trust, [shared.rootAgain, shared.root] as NSArray)
        _ = SecTrustSetVerifyDate(trust, date as NSDate)
        let trusted = SecTrustEvaluateWithError(trust, nil)
        return (trusted, SecTrustCopyCertificateChain(trust) as? [SecCertificate] ?? [])
    }

    @Test func sameCertificatesInManyTrusts() {
        let shared = Shared()
        for _ in 0..<3 {
            let (trusted, chain) = Self.evaluate(shared)
            #expect(trusted)
            #expect(chain.count == 3)
            #expect(chain.first === shared.leaf && chain.dropFirst().first === shared.intermediate)
            #expect(chain.last == shared.root)
        }
        // Verdicts stay per evaluation: another host, another time, after the shared caches were emptied.
        #expect(!Self.evaluate(shared, host: "other.example.com").0)
        #expect(!Self.evaluate(shared, date: TrustFixture.after).0)
        SecTrustPurgeSharedCaches()
        #expect(Self.evaluate(shared).0)
        #expect(!Self.evaluate(shared, date: TrustFixture.after).0)
    }

    @Test func concurrentEvaluationsOverSharedCertificates() {
        let shared = Shared()
        let trusted = Atomic<Int>(0)
        let rejected = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            for round in 0..<10 {
                let wrongHost = (index + round) % 3 == 0
                let (ok, _) = Self.evaluate(shared, host: wrongHost ? "other.example.com" : "www.example.com")
                if ok && !wrongHost {
                    trusted.add(1, ordering: .relaxed)
                } else if !ok && wrongHost {
                    rejected.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(trusted.load(ordering: .relaxed) + rejected.load(ordering: .relaxed) == 80)
        #expect(rejected.load(ordering: .relaxed) > 0)
    }
}
