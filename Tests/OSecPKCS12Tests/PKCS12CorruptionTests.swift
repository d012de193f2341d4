import Foundation
import Testing

@testable import OSecPKCS12

/// Every truncation and many random corruptions of real files must produce an error, never a crash
/// or a hang.
@Suite struct PKCS12CorruptionTests {
    static let samples: [(String, Data, String)] = {
        let f = PKCS12Fixtures.shared
        do {
            return [
                ("default", try f.opensslExport(.rsa, args: ["-passout", "pass:pw"]), "pw"),
                ("legacy", try f.opensslExport(.ec, args: ["-legacy", "-passout", "pass:pw"]), "pw"),
                ("nomac", try f.opensslExport(.ec, args: ["-nomac", "-passout", "pass:pw"]), "pw"),
                (
                    "plain",
                    try f.opensslExport(
                        .ec, args: ["-nomac", "-keypbe", "NONE", "-certpbe", "NONE", "-passout", "pass:"]), ""
                ),
            ]
        } catch {
            preconditionFailure("samples: \(error)")
        }
    }()

    @Test(arguments: 0..<4)
    func everyTruncationFails(_ sample: Int) {
        let (_, file, password) = Self.samples[sample]
        var failures = 0
        for length in 0..<file.count {
            do {
                _ = try PKCS12File.identities(in: file.prefix(length), password: password)
            } catch {
                failures += 1
            }
        }
        #expect(failures == file.count)
        #expect(throws: Never.self) { _ = try PKCS12File.identities(in: file, password: password) }
    }

    @Test(arguments: 0..<4)
    func randomCorruptionNeverCrashes(_ sample: Int) {
        let (_, file, password) = Self.samples[sample]
        var generator = SystemRandomNumberGenerator()
        var errors = 0
        let rounds = 300
        for _ in 0..<rounds {
            var bytes = [UInt8](file)
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[index] ^= UInt8.random(in: 1...255, using: &generator)
            }
            do {
                _ = try PKCS12File.identities(in: Data(bytes), password: password)
            } catch {
                errors += 1
                #expect(
                    [PKCS12Error.Code.malformed, .authenticationFailed, .unsupportedAlgorithm, .resourceLimit].contains(
                        error.code))
            }
        }
        // Files protected by a MAC must reject every corruption (the MAC or the structure breaks).
        if Self.samples[sample].0 == "default" || Self.samples[sample].0 == "legacy" {
            #expect(errors == rounds)
        }
    }
}
