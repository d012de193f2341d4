import Foundation
import OSecTestSupport
import Testing

@testable import OSecCrypto

private struct ECDHGroup: Decodable {
    let curve: String
    let encoding: String
    let tests: [Vector]
    struct Vector: Decodable {
        let tcId: Int
        let `public`, `private`, shared: String
        let result: WycheproofResult
        let flags: [String]
    }
}

private struct ECDSAGroup: Decodable {
    let publicKeyDer: String
    let sha: String
    let tests: [Vector]
    struct Vector: Decodable {
        let tcId: Int
        let msg, sig: String
        let result: WycheproofResult
    }
}

@Suite struct WycheproofECTests {
    @Test(arguments: Wycheproof.files("ecdh_"))
    func ecdh(_ name: String) throws {
        let file = try Wycheproof.load(name, ECDHGroup.self)
        var tally = WycheproofTally(name)
        for group in file.testGroups {
            let curve = try #require(Wycheproof.curve(group.curve))
            #expect(group.encoding == "asn")
            for t in group.tests {
                var shared: Data?
                do {
                    // Public key given as SubjectPublicKeyInfo DER; private key as the bare scalar.
                    let peer = try AsymmetricKey(subjectPublicKeyInfo: Hex.data(t.public))
                    let mine = try AsymmetricKey(ecPrivateScalar: Hex.data(t.private), curve: curve)
                    shared = try mine.deriveSharedSecret(with: peer)
                } catch {
                    shared = nil
                }
                tally.record(
                    tcId: t.tcId, expected: t.result, accepted: shared == Hex.data(t.shared),
                    succeeded: shared != nil, note: t.flags.joined(separator: ","))
            }
        }
        tally.finish(numberOfTests: file.numberOfTests)
    }

    @Test(arguments: Wycheproof.files("ecdsa_"))
    func ecdsa(_ name: String) throws {
        let file = try Wycheproof.load(name, ECDSAGroup.self)
        let isP1363 = name.contains("p1363")
        var tally = WycheproofTally(name)
        for group in file.testGroups {
            let digest = try #require(Wycheproof.digest(group.sha))
            let key = try AsymmetricKey(subjectPublicKeyInfo: Hex.data(group.publicKeyDer))
            let scheme: SignatureScheme =
                isP1363
                ? .ecdsaRaw(digest: digest, inputIsDigest: false)
                : .ecdsaDER(digest: digest, inputIsDigest: false)
            for t in group.tests {
                let valid = (try? key.verify(Hex.data(t.sig), for: Hex.data(t.msg), scheme: scheme)) ?? false
                tally.record(tcId: t.tcId, expected: t.result, accepted: valid)
            }
        }
        tally.finish(numberOfTests: file.numberOfTests)
    }
}
