import Foundation
import Testing

@testable import OSecX509

/// Parses every certificate of the corpora (without the openssl comparison) and reports what fails, by category.
@Suite struct CorpusSmokeTests {
    @Test func caBundleParsesAndReencodes() throws {
        let certs = try X509TestData.caBundleCertificates()
        #expect(certs.count > 100)
        var failures: [String] = []
        for (pem, der) in certs {
            do {
                let cert = try Certificate(derEncoded: der)
                #expect(try cert.reencoded() == der)
                _ = try cert.extensions.basicConstraints
                _ = try cert.extensions.keyUsage
                _ = try cert.extensions.subjectAlternativeNames
            } catch {
                failures.append("\(error)\n\(pem.prefix(100))")
            }
        }
        #expect(failures == [])
    }

    /// Every typed extension accessor on every corpus certificate; failures are grouped by extension and reason.
    static func extensionFailures(_ cert: Certificate) -> [String] {
        let e = cert.extensions
        var result: [String] = []
        func run(_ name: String, _ body: () throws -> Void) {
            do { try body() } catch {
                result.append("\(name): \(CorpusSmokeTests.reason(error))")
            }
        }
        run("basicConstraints") { _ = try e.basicConstraints }
        run("keyUsage") { _ = try e.keyUsage }
        run("extKeyUsage") { _ = try e.extendedKeyUsage }
        run("subjectAltName") { _ = try e.subjectAlternativeNames }
        run("issuerAltName") { _ = try e.issuerAlternativeNames }
        run("subjectKeyIdentifier") { _ = try e.subjectKeyIdentifier }
        run("authorityKeyIdentifier") { _ = try e.authorityKeyIdentifier }
        run("nameConstraints") { _ = try e.nameConstraints }
        run("certificatePolicies") { _ = try e.certificatePolicies }
        run("policyMappings") { _ = try e.policyMappings }
        run("policyConstraints") { _ = try e.policyConstraints }
        run("inhibitAnyPolicy") { _ = try e.inhibitAnyPolicy }
        run("crlDistributionPoints") { _ = try e.crlDistributionPoints }
        run("authorityInformationAccess") { _ = try e.authorityInformationAccess }
        run("signatureAlgorithm") { _ = try cert.signatureAlgorithm.kind }
        return result
    }

    /// The innermost reason of an X509Error chain (ASN.1 errors by code).
    static func reason(_ error: any Error) -> String {
        guard let x509 = error as? X509Error else {
            return "\(error)".components(separatedBy: " (").first ?? "\(error)"
        }
        if let underlying = x509.underlying { return reason(underlying) }
        return "\(x509.code): \(x509.reason)"
    }

    @Test func limboCorporaParseOrFailCleanly() throws {
        for (file, expectedRejects) in [
            ("limbo-public.json", ["rfc5280::duplicate-extensions"]), ("bettertls-public.json", []),
        ] {
            let certs = try X509TestData.limboCertificates(file)
            var rejected: [String: [String]] = [:]
            var extensionFailures: [String: Int] = [:]
            var ok = 0
            for (pem, id) in certs {
                let der = X509TestData.pemToDER(pem)
                do {
                    let cert = try Certificate(derEncoded: der)
                    #expect(try cert.reencoded() == der, "\(id)")
                    for failure in CorpusSmokeTests.extensionFailures(cert) {
                        extensionFailures[failure, default: 0] += 1
                    }
                    ok += 1
                } catch {
                    rejected[CorpusSmokeTests.reason(error), default: []].append(id)
                }
            }
            print("CORPUS \(file): \(certs.count) distinct certificates, \(ok) parsed, \(certs.count - ok) rejected")
            for (reason, ids) in rejected.sorted(by: { $0.key < $1.key }) { print("  REJECTED \(reason): \(ids)") }
            for (reason, count) in extensionFailures.sorted(by: { $0.key < $1.key }) {
                print("  EXTENSION-UNDECODABLE \(count)× \(reason)")
            }
            #expect(rejected.values.flatMap { $0 }.sorted() == expectedRejects, "\(file)")
        }
    }
}
