import Foundation
import Testing

@testable import OSecX509

/// Drip-feed and single-byte corruption of sample certificates and CSRs: every input gives a value or an error,
/// never a crash; every strict prefix is rejected.
@Suite struct RobustnessTests {
    static func samples() throws -> [[UInt8]] {
        let bundle = try X509TestData.caBundleCertificates()
        var result = [bundle[0].der, bundle[bundle.count / 2].der]
        if let ec = bundle.first(where: { (try? Certificate(derEncoded: $0.der))?.publicKeyInfo.kind == .ec(.p384) }) {
            result.append(ec.der)
        }
        let root = try X509TestPKI.root(key: X509TestPKI.p256Key)
        result.append(
            try X509TestPKI.leaf(key: X509TestPKI.p256Key, issuer: root, issuerKey: X509TestPKI.p256Key).derBytes)
        return result
    }

    static func csrSample() throws -> [UInt8] {
        try CertificateSigningRequest.create(
            subject: X509TestPKI.name("csr.example.com"), subjectAlternativeNames: [.dnsName("csr.example.com")],
            privateKey: X509TestPKI.p256Key
        ).derBytes
    }

    /// Touches every lazily decoded part of a certificate.
    static func exercise(_ cert: Certificate) {
        _ = try? cert.reencoded()
        _ = cert.subject.rfc4514String
        _ = cert.issuer.normalizedDERBytes
        _ = try? cert.signatureAlgorithm.kind
        _ = cert.publicKeyInfo.kind
        let e = cert.extensions
        _ = try? e.basicConstraints
        _ = try? e.keyUsage
        _ = try? e.extendedKeyUsage
        _ = try? e.subjectAlternativeNames
        _ = try? e.issuerAlternativeNames
        _ = try? e.subjectKeyIdentifier
        _ = try? e.authorityKeyIdentifier
        _ = try? e.nameConstraints
        _ = try? e.certificatePolicies
        _ = try? e.policyMappings
        _ = try? e.policyConstraints
        _ = try? e.inhibitAnyPolicy
        _ = try? e.crlDistributionPoints
        _ = try? e.authorityInformationAccess
    }

    @Test func everyPrefixOfACertificateIsRejected() throws {
        var rejected = 0
        for der in try RobustnessTests.samples() {
            for length in 0..<der.count {
                #expect(throws: (any Error).self, "prefix \(length)") {
                    try Certificate(derEncoded: Array(der[..<length]))
                }
                #expect(throws: (any Error).self) { try Certificate(derEncodedPrefixOf: Array(der[..<length])) }
                rejected += 1
            }
        }
        #expect(rejected > 2000)
    }

    @Test func singleByteCorruptionNeverCrashes() throws {
        var parsed = 0
        var rejected = 0
        for der in try RobustnessTests.samples() {
            for index in der.indices {
                for mask: UInt8 in [0x01, 0x80, 0xFF] {
                    var corrupted = der
                    corrupted[index] ^= mask
                    if let cert = try? Certificate(derEncoded: corrupted) {
                        parsed += 1
                        RobustnessTests.exercise(cert)
                        #expect(try cert.reencoded() == corrupted)
                    } else {
                        rejected += 1
                    }
                    _ = try? Certificate(derEncodedPrefixOf: corrupted)
                }
            }
        }
        #expect(parsed > 0)
        #expect(rejected > 0)
    }

    @Test func csrPrefixesAndCorruption() throws {
        for der in [try RobustnessTests.csrSample()] {
            for length in 0..<der.count {
                #expect(throws: (any Error).self) { try CertificateSigningRequest(derEncoded: Array(der[..<length])) }
            }
            var stillValid = 0
            for index in der.indices {
                for mask: UInt8 in [0x01, 0x80, 0xFF] {
                    var corrupted = der
                    corrupted[index] ^= mask
                    if let csr = try? CertificateSigningRequest(derEncoded: corrupted) {
                        _ = try? csr.requestedExtensions.subjectAlternativeNames
                        if csr.isSignatureValid { stillValid += 1 }
                    }
                }
            }
            // Only flips inside the (unsigned) signature's DER-integer leading bits could leave it valid; none should.
            #expect(stillValid == 0)
        }
    }

    @Test func pemGarbageNeverCrashes() throws {
        let pem = try X509TestPKI.root(key: X509TestPKI.p256Key).pemString
        let bytes = Array(pem.utf8)
        for index in stride(from: 0, to: bytes.count, by: 3) {
            var corrupted = bytes
            corrupted[index] ^= 0x20
            _ = try? Certificate.certificates(fromPEMBytes: corrupted[...])
            _ = try? Certificate.certificates(fromPEMBytes: bytes[..<index])
        }
    }
}
