import Foundation
import OSecTestSupport
import Testing

@testable import OSecCrypto

private struct DecryptGroup: Decodable {
    let privateKeyPkcs8: String
    let sha: String?
    let mgfSha: String?
    let tests: [Vector]
    struct Vector: Decodable {
        let tcId: Int
        let msg, ct: String
        let label: String?
        let result: WycheproofResult
    }
}

private struct SignGroup: Decodable {
    let privateKeyPkcs8: String
    let sha: String
    let tests: [Vector]
    struct Vector: Decodable {
        let tcId: Int
        let msg, sig: String
        let result: WycheproofResult
    }
}

private struct VerifyGroup: Decodable {
    let publicKeyDer: String
    let sha: String
    let mgfSha: String?
    let sLen: Int?
    let tests: [Vector]
    struct Vector: Decodable {
        let tcId: Int
        let msg, sig: String
        let result: WycheproofResult
    }
}

@Suite struct WycheproofRSATests {
    @Test(arguments: Wycheproof.files("rsa_oaep_"))
    func oaepDecrypt(_ name: String) throws {
        let file = try Wycheproof.load(name, DecryptGroup.self)
        var tally = WycheproofTally(name)
        for group in file.testGroups {
            let key = try AsymmetricKey(pkcs8: Hex.data(group.privateKeyPkcs8))
            let digest = try #require(Wycheproof.digest(group.sha ?? ""))
            #expect(group.mgfSha == group.sha, "OAEP with a different MGF1 hash is not supported")
            for t in group.tests {
                let plain = try? key.decrypt(Hex.data(t.ct), padding: .oaep(digest), label: Hex.data(t.label ?? ""))
                tally.record(
                    tcId: t.tcId, expected: t.result, accepted: plain == Hex.data(t.msg), succeeded: plain != nil)
            }
        }
        tally.finish(numberOfTests: file.numberOfTests)
    }

    @Test(arguments: Wycheproof.files("rsa_pkcs1_").filter { !$0.contains("sig_gen") })
    func pkcs1Decrypt(_ name: String) throws {
        let file = try Wycheproof.load(name, DecryptGroup.self)
        var tally = WycheproofTally(name)
        for group in file.testGroups {
            let key = try AsymmetricKey(pkcs8: Hex.data(group.privateKeyPkcs8))
            for t in group.tests {
                let plain = try? key.decrypt(Hex.data(t.ct), padding: .pkcs1)
                tally.record(
                    tcId: t.tcId, expected: t.result, accepted: plain == Hex.data(t.msg), succeeded: plain != nil)
            }
        }
        tally.finish(numberOfTests: file.numberOfTests)
    }

    @Test func pkcs1SignatureGeneration() throws {
        let name = "rsa_pkcs1_2048_sig_gen_test.json"
        let file = try Wycheproof.load(name, SignGroup.self)
        var tally = WycheproofTally(name)
        for group in file.testGroups {
            let key = try AsymmetricKey(pkcs8: Hex.data(group.privateKeyPkcs8))
            let digest = try #require(Wycheproof.digest(group.sha))
            let scheme = SignatureScheme.rsaPKCS1v15(digest: digest, inputIsDigest: false)
            for t in group.tests {
                let msg = Hex.data(t.msg)
                let signature = try? key.sign(msg, scheme: scheme)
                let verified = (try? key.publicKey.verify(Hex.data(t.sig), for: msg, scheme: scheme)) ?? false
                tally.record(
                    tcId: t.tcId, expected: t.result, accepted: signature == Hex.data(t.sig) && verified,
                    succeeded: signature != nil)
            }
        }
        tally.finish(numberOfTests: file.numberOfTests)
    }

    @Test(arguments: Wycheproof.files("rsa_pss_"))
    func pssVerify(_ name: String) throws {
        let file = try Wycheproof.load(name, VerifyGroup.self)
        var tally = WycheproofTally(name)
        for group in file.testGroups {
            let key = try AsymmetricKey(subjectPublicKeyInfo: Hex.data(group.publicKeyDer))
            let digest = try #require(Wycheproof.digest(group.sha))
            #expect(group.mgfSha == group.sha, "PSS with a different MGF1 hash is not supported")
            let scheme = SignatureScheme.rsaPSS(digest: digest, saltLength: group.sLen ?? -1, inputIsDigest: false)
            for t in group.tests {
                let valid = (try? key.verify(Hex.data(t.sig), for: Hex.data(t.msg), scheme: scheme)) ?? false
                tally.record(tcId: t.tcId, expected: t.result, accepted: valid)
            }
        }
        tally.finish(numberOfTests: file.numberOfTests)
    }

    @Test(arguments: Wycheproof.files("rsa_signature_"))
    func pkcs1Verify(_ name: String) throws {
        let file = try Wycheproof.load(name, VerifyGroup.self)
        var tally = WycheproofTally(name)
        for group in file.testGroups {
            let key = try AsymmetricKey(subjectPublicKeyInfo: Hex.data(group.publicKeyDer))
            let digest = try #require(Wycheproof.digest(group.sha))
            let scheme = SignatureScheme.rsaPKCS1v15(digest: digest, inputIsDigest: false)
            for t in group.tests {
                let valid = (try? key.verify(Hex.data(t.sig), for: Hex.data(t.msg), scheme: scheme)) ?? false
                tally.record(tcId: t.tcId, expected: t.result, accepted: valid)
            }
        }
        tally.finish(numberOfTests: file.numberOfTests)
    }
}
