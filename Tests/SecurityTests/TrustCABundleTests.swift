import Foundation
import OSecX509
import Security
import Testing

/// The distribution's CA bundle: every root in it is still a trusted anchor (each evaluated alone, under the Basic
/// X.509 policy, with the system store as anchors, at a time inside its validity). The rules that the older roots of
/// the bundle predate (keyUsage presence and criticality, critical basicConstraints, subjectKeyIdentifier, serial
/// number form, AKI fields) do not apply to system-store roots (docs/trust.md, "Grandfathered roots").
@Suite struct TrustCABundleTests {
    static let bundlePath = "/etc/ssl/certs/ca-certificates.crt"

    static func bundle() -> [Certificate] {
        guard let data = FileManager.default.contents(atPath: bundlePath) else { return [] }
        return (try? Certificate.certificates(fromPEMBytes: [UInt8](data)[...])) ?? []
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: bundlePath)))
    func everyBundleRootIsATrustedAnchorUnderBasicX509() throws {
        let roots = Self.bundle()
        #expect(roots.count > 50, "\(roots.count) certificates in \(Self.bundlePath)")
        var refused: [String] = []
        for root in roots {
            let certificate = try #require(SecCertificateCreateWithData(nil, Data(root.derBytes) as NSData))
            var trust: SecTrust?
            #expect(SecTrustCreateWithCertificates(certificate, SecPolicyCreateBasicX509(), &trust) == errSecSuccess)
            let evaluated = try #require(trust)
            let notBefore = Double(root.notBefore.secondsSinceEpoch)
            let notAfter = Double(root.notAfter.secondsSinceEpoch)
            let now = Date().timeIntervalSince1970
            let time = now > notBefore && now < notAfter ? now : notBefore + (notAfter - notBefore) / 2
            _ = SecTrustSetVerifyDate(evaluated, Date(timeIntervalSince1970: time) as NSDate)
            var error: CFError?
            if !SecTrustEvaluateWithError(evaluated, &error) {
                refused.append("\(root.subject.rfc4514String): \(String(describing: error))")
            }
        }
        #expect(refused.isEmpty, "\(refused.count) of \(roots.count) bundle roots refused: \(refused)")
    }
}
