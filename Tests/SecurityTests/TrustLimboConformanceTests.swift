import Foundation
import OSecLimbo
import OSecTestSupport
import Security
import Testing

/// Every public x509-limbo testcase evaluated through Apple's API (SecTrust, as limbo-harness does), compared with
/// the expected verdict. A divergence fails the test unless it is listed in ``knownDivergences`` with its reason; a
/// listed case that starts to agree fails too (as webpki's exceptions.json does), so the list cannot go stale.
@Suite struct TrustLimboConformanceTests {
    /// Testcase id → why we knowingly give the other verdict.
    static let knownDivergences: [String: String] = [
        "rfc5280::ca-as-leaf":
            "The same certificate is webpki::ca-as-leaf (FAILURE); the SSL server policy applies BR 7.1.2.7.8 (a "
            + "subscriber certificate is not a CA), so a CA certificate in leaf position is refused (NotCA)."
    ]

    static func suite(_ name: String) -> [LimboTestcase] {
        guard let data = try? Data(contentsOf: TestVectors.limboFile(name)) else { return [] }
        return LimboTestcase.suite(data) ?? []
    }

    static func divergences(_ testcases: [LimboTestcase]) -> [String: String] {
        var result: [String: String] = [:]
        for testcase in testcases {
            let (verdict, context) = LimboRunner.run(testcase)
            let agrees = (verdict == .success) == testcase.expectsSuccess && verdict != .skipped
            if !agrees { result[testcase.id] = "\(verdict.rawValue): \(context)" }
        }
        return result
    }

    @Test func publicHalfThroughSecTrust() {
        let testcases = Self.suite("limbo-public.json")
        #expect(testcases.count >= 100, "the public half carries \(testcases.count) testcases")
        let divergent = Self.divergences(testcases)
        for (id, detail) in divergent.sorted(by: { $0.key < $1.key }) where Self.knownDivergences[id] == nil {
            Issue.record("\(id) diverges: \(detail)")
        }
        for id in Self.knownDivergences.keys.sorted() where divergent[id] == nil {
            Issue.record("\(id) is listed as a known divergence but now agrees: remove it from the list")
        }
        // No invalid chain accepted, whatever the exceptions say.
        let accepted = testcases.filter { !$0.expectsSuccess && divergent[$0.id]?.hasPrefix("SUCCESS") == true }
        #expect(accepted.isEmpty, "invalid chains accepted: \(accepted.map(\.id))")
    }

    @Test func betterTLSThroughSecTrust() {
        let testcases = Self.suite("bettertls-public.json")
        #expect(testcases.count >= 4000, "the bettertls namespace carries \(testcases.count) testcases")
        let divergent = Self.divergences(testcases)
        #expect(
            divergent.isEmpty,
            "\(divergent.count) bettertls cases diverge: \(divergent.sorted { $0.key < $1.key }.prefix(10))")
    }
}
