import Foundation
import OSecTestSupport
import OSecX509
import Security
import Testing

/// Real-world server chains (x509-limbo's `online::` cases, captured with their validation time) evaluated with
/// Apple's SSL policy against the distribution's trust store instead of the testcase's own anchors.
@Suite struct TrustSystemAnchorTests {
    struct Case: Sendable {
        let id: String
        let host: String
        let certificates: [Data]
        let date: Date
    }

    static let cases: [Case] = {
        let url = TestVectors.limboFile("limbo-public.json")
        guard let data = try? Data(contentsOf: url),
            let suite = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let testcases = suite["testcases"] as? [[String: Any]]
        else { return [] }
        return testcases.compactMap { testcase -> Case? in
            guard let id = testcase["id"] as? String, id.hasPrefix("online::"),
                let leaf = testcase["peer_certificate"] as? String,
                let host = (testcase["expected_peer_name"] as? [String: Any])?["value"] as? String,
                let time = testcase["validation_time"] as? String,
                let date = ISO8601DateFormatter().date(from: time)
            else { return nil }
            let pems = [leaf] + ((testcase["untrusted_intermediates"] as? [String]) ?? [])
            let ders = pems.compactMap { try? Certificate(pemEncoded: $0) }.map { Data($0.derBytes) }
            return Case(id: id, host: host, certificates: ders, date: date)
        }
    }()

    @Test(.enabled(if: !cases.isEmpty && FileManager.default.fileExists(atPath: "/etc/ssl/certs/ca-certificates.crt")))
    func realChainsAgainstTheSystemStore() throws {
        var trusted = 0
        for testCase in Self.cases {
            let certificates = testCase.certificates.compactMap { SecCertificateCreateWithData(nil, $0 as NSData) }
            var trust: SecTrust?
            #expect(
                SecTrustCreateWithCertificates(
                    certificates as NSArray, SecPolicyCreateSSL(true, testCase.host as CFString), &trust)
                    == errSecSuccess)
            let evaluated = try #require(trust)
            #expect(SecTrustSetVerifyDate(evaluated, testCase.date as NSDate) == errSecSuccess)
            var error: CFError?
            if SecTrustEvaluateWithError(evaluated, &error) {
                trusted += 1
                #expect(SecTrustGetCertificateCount(evaluated) >= 2, "\(testCase.id)")
            } else {
                // Only an anchor missing from this distribution's store is acceptable here.
                #expect(
                    error?.code == Int(errSecNotTrusted) || error?.code == Int(errSecCreateChainFailed),
                    "\(testCase.id): \(String(describing: error))")
            }
        }
        #expect(trusted >= 1, "trusted \(trusted) of \(Self.cases.count)")  // 9 of 9 on Debian 13
    }
}
