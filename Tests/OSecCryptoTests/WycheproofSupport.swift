import Foundation
import OSecTestSupport
import Testing

@testable import OSecCrypto

/// A Wycheproof JSON file with groups of type `Group`.
struct WycheproofFile<Group: Decodable>: Decodable {
    let algorithm: String
    let numberOfTests: Int
    let testGroups: [Group]
}

/// The verdict a vector expects.
enum WycheproofResult: String, Decodable {
    case valid, invalid, acceptable
}

/// Counts outcomes for one file and reports them.
struct WycheproofTally {
    let file: String
    var total = 0
    var passed = 0
    var failures: [String] = []
    /// Vectors deliberately not run through the normal path, with the reason (reported, and counted in `total`).
    var skipped: [String] = []

    init(_ file: String) { self.file = file }

    /// Records a vector that hits a documented limit of ours. `limitEnforced` must be true (the operation
    /// threw the expected limit error); otherwise it counts as a failure.
    mutating func skip(tcId: Int, reason: String, limitEnforced: Bool) {
        total += 1
        if limitEnforced {
            skipped.append("tcId \(tcId): \(reason)")
        } else {
            failures.append("tcId \(tcId): limit not enforced")
        }
    }

    /// Records one vector. `accepted` = the operation succeeded with exactly the expected output.
    /// `succeeded` = the operation succeeded at all (for invalid vectors any success is a failure).
    mutating func record(
        tcId: Int, expected: WycheproofResult, accepted: Bool, succeeded: Bool? = nil, note: String = ""
    ) {
        total += 1
        let ok: Bool
        switch expected {
        case .valid: ok = accepted
        case .invalid: ok = !(succeeded ?? accepted)
        case .acceptable: ok = true
        }
        if ok { passed += 1 } else { failures.append("tcId \(tcId) expected \(expected.rawValue) \(note)") }
    }

    /// Prints `passed/total` and asserts zero failures and that every vector of the file ran.
    func finish(numberOfTests: Int) {
        let skipNote =
            skipped.isEmpty ? "" : ", \(skipped.count) skipped by documented limit: \(skipped.joined(separator: "; "))"
        print("wycheproof \(file): \(passed)/\(total) passed (numberOfTests \(numberOfTests))\(skipNote)")
        #expect(failures.isEmpty, "\(file): \(failures.prefix(20).joined(separator: "; "))")
        #expect(total == numberOfTests, "\(file): ran \(total) of \(numberOfTests) vectors")
    }
}

enum Wycheproof {
    /// Loads a file by name.
    static func load<Group: Decodable>(_ name: String, _: Group.Type) throws -> WycheproofFile<Group> {
        let url = TestVectors.wycheproofDirectory.appendingPathComponent(name)
        return try JSONDecoder().decode(WycheproofFile<Group>.self, from: Data(contentsOf: url))
    }

    /// Files whose name starts with `prefix`.
    static func files(_ prefix: String) -> [String] {
        ((try? TestVectors.wycheproofFiles()) ?? []).filter { $0.hasPrefix(prefix) }
    }

    /// Maps Wycheproof's hash names.
    static func digest(_ name: String) -> DigestAlgorithm? {
        switch name {
        case "SHA-1": .sha1
        case "SHA-224": .sha224
        case "SHA-256": .sha256
        case "SHA-384": .sha384
        case "SHA-512": .sha512
        default: nil
        }
    }

    /// Maps Wycheproof's curve names.
    static func curve(_ name: String) -> ECCurve? {
        switch name {
        case "secp256r1": .p256
        case "secp384r1": .p384
        case "secp521r1": .p521
        default: nil
        }
    }
}

/// Every file in the directory must be claimed by exactly one runner.
@Test func everyWycheproofFileHasARunner() throws {
    let prefixes = [
        "aes_gcm_", "aes_cbc_pkcs5_", "hmac_", "pbkdf2_", "ecdh_", "ecdsa_", "rsa_oaep_",
        "rsa_pkcs1_2048_sig_gen", "rsa_pss_", "rsa_signature_",
    ]
    let files = try TestVectors.wycheproofFiles()
    #expect(!files.isEmpty, "no Wycheproof files found in \(TestVectors.wycheproofDirectory.path)")
    for file in files {
        var claimed = prefixes.filter { file.hasPrefix($0) }.count
        if file.hasPrefix("rsa_pkcs1_") && !file.hasPrefix("rsa_pkcs1_2048_sig_gen") { claimed += 1 }  // decrypt runner
        #expect(claimed == 1, "\(file) is claimed by \(claimed) runners")
    }
}
